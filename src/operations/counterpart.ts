import { CounterpartQuery, CounterpartResponse } from '../../schemas/navigation.js';
import { counterpartMarkdown } from '../format/navigation.js';
import { findCounterpart } from '../symbols/counterpart.js';
import { defineOperation } from './operation.js';

export const counterpartOperation = defineOperation({
  http: {
    path: '/symbols/counterpart',
    summary: 'The header or source counterpart of a C/C++ file',
    description: [
      'For a C or C++ file, its header/source counterparts (Rider\'s Alt+F10), from the index: first the files sharing its functions and methods (declared in one, defined in the other), most shared first (`reason: "shared symbols: N"`);',
      'then files of the same base name (`foo.h` ↔ `foo.cc`, `.cpp`, `.cxx`, `.c`, `.mm`), in the same directory or the nearest sibling include/src tree (`reason: "same base name"`).',
      'Other languages: 400 unsupported_language.',
    ].join(' '),
    tags: ['navigation'],
    errors: [400, 404],
    example: '/symbols/counterpart?file=googletest/include/gtest/gtest.h',
  },
  tool: {
    name: 'find_counterpart',
    title: 'Switch between a C/C++ header and its source',
    description: 'A C/C++ header\'s source file, or a source file\'s header. Example: {"file": "src/gtest.cc"}',
  },
  input: CounterpartQuery,
  response: CounterpartResponse,
  run: (services, query) => findCounterpart(services, query),
  markdown: counterpartMarkdown,
});
