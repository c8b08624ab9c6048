import { OutlineNodeSchema, OutlineQuery, OutlineResponse } from '../../schemas/outline.js';
import { outlineMarkdown } from '../format/outline.js';
import { getOutline, outlineOptionsFromQuery } from '../symbols/outline.js';
import { defineOperation } from './operation.js';

export const outlineOperation = defineOperation({
  http: {
    path: '/outline',
    summary: 'Symbol tree of a file',
    description: 'The file\'s symbols from the language server (textDocument/documentSymbol), nested through `children`, with normalized kinds and 1-based ranges. Symbols named in display_code_for carry their source in symbolContent.',
    tags: ['navigation'],
    errors: [400, 404, 503, 504],
    example: '/outline?file=src/flask/config.py&display_code_for=Config.from_pyfile&format=markdown',
  },
  tool: {
    name: 'symbol_outline',
    title: 'Outline a file',
    description: [
      'The symbol tree of one source file (classes, functions, methods, fields, nested), with kinds and line numbers, from the language server.',
      'Use it to see what a file contains before reading it, or to read just one symbol: name it in display_code_for and its source comes back with the outline, which is much cheaper than reading the whole file.',
      'Prefer get_symbol_children when you already have a position inside a class and want only its members.',
      'Example: {"file": "src/config.py", "display_code_for": "Config.from_pyfile", "depth": 2}',
    ].join(' '),
  },
  input: OutlineQuery,
  response: OutlineResponse,
  shared: [OutlineNodeSchema],
  run: (services, query, signal) => getOutline(services, outlineOptionsFromQuery(query, signal)),
  markdown: outlineMarkdown,
});
