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
    description: 'A file\'s symbol tree with kinds and lines; symbols named in display_code_for come with their code, cheaper than reading the file. Example: {"file": "src/config.py", "display_code_for": "Config.from_pyfile"}',
  },
  input: OutlineQuery,
  response: OutlineResponse,
  shared: [OutlineNodeSchema],
  run: (services, query, signal) => getOutline(services, outlineOptionsFromQuery(query, signal)),
  markdown: outlineMarkdown,
});
