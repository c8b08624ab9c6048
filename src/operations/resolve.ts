import { ResolveQuery, ResolveResponse } from '../../schemas/usages.js';
import { resolveMarkdown } from '../format/usages.js';
import { resolvePosition } from '../symbols/resolve-position.js';
import { defineOperation } from './operation.js';

export const resolveOperation = defineOperation({
  http: {
    path: '/symbols/resolve',
    summary: 'What the name at a position refers to',
    description: [
      'Ctrl+Click: the identifier at file:line:column, then the language server\'s textDocument/definition (textDocument/declaration when that gives nothing), mapped to the index symbol it names and answered with every place of it in `results` (definitions first, then declarations), each with `context_lines` of code around its name (default 4, at most 50); `target` is where the server pointed, with its line, marked external outside the workspace (a system header, a dependency).',
      'Where no server serves the language or it fails: the index by the name, the match in the same file first, then the same package, then the same language (`source: "index"`, with the reason).',
      '404 `no_symbol_at_position` when no identifier is at the position; 400 for a line or column outside the file.',
    ].join(' '),
    tags: ['navigation'],
    errors: [400, 404, 503, 504],
    example: '/symbols/resolve?file=src/internal/Observable.ts&line=212&column=24',
  },
  tool: {
    name: 'resolve_position',
    title: 'Go to the definition of the name at a position',
    description: 'What the name at file:line:column refers to (go to definition), with its code. Example: {"file": "src/app.py", "line": 120, "column": 17}',
  },
  input: ResolveQuery,
  response: ResolveResponse,
  run: (services, query, signal) => resolvePosition(services, query, signal),
  markdown: resolveMarkdown,
});
