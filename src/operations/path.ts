import { PathQuery, PathResponse } from '../../schemas/path.js';
import { pathMarkdown } from '../format/path.js';
import { traceCalls } from '../symbols/call-path.js';
import { defineOperation } from './operation.js';

export const pathOperation = defineOperation({
  http: {
    path: '/symbols/path',
    summary: 'The shortest call path from one function to another',
    description: [
      'How `from` reaches `to`: the shortest chain of calls `from → … → to`, each step a function with the call sites where it calls the next. Found by walking the callers of `to` back (find_callers\' walk: the language server\'s call hierarchy, else call expressions by name), three levels per walk up to `max_depth`; where that does not reach `from`, by walking the callees of `from` forward.',
      '`precision` is the walk\'s. Both ends resolve like every symbol operation (functions and methods; a 409 names the parameter). None within `max_depth` is a 404 saying how deep each walk went and whether a budget cut it short.',
    ].join(' '),
    tags: ['navigation'],
    errors: [400, 404, 409],
    example: '/symbols/path?from=testing::internal::StreamWideCharsToMessage&to=testing::internal::CodePointToUtf8',
  },
  tool: {
    name: 'trace_calls',
    title: 'How one function reaches another',
    description: [
      'Finds the shortest call path from one function to another (`A → B → C`), each step with the line where it calls the next, up to `max_depth` calls (default 4).',
      'Use it to explain how a test, an entry point or a handler ends up in a function; find_callers lists every caller instead.',
      'Example: {"from": "TestList", "to": "List.insert"}',
    ].join(' '),
  },
  input: PathQuery,
  response: PathResponse,
  run: (services, query, signal) => traceCalls(services, query, signal),
  markdown: pathMarkdown,
});
