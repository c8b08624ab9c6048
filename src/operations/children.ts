import { ChildrenQuery, ChildrenResponse } from '../../schemas/children.js';
import { childrenMarkdown } from '../format/outline.js';
import { childrenOptionsFromQuery, getChildren } from '../symbols/children.js';
import { defineOperation } from './operation.js';

export const childrenOperation = defineOperation({
  http: {
    path: '/children',
    summary: 'Children of the symbol at a position',
    description: 'The symbol at file:line:column (its name first, else the innermost symbol whose range holds the position) and its descendants down to depth, flat in document order, each with parent and depth; hover text per child with include_hover=true (skipped past hover.maxSymbols children, and the answer says so).',
    tags: ['navigation'],
    errors: [400, 404, 503, 504],
    example: '/children?file=src/internal/Subject.ts&line=17&column=14&depth=1',
  },
  tool: {
    name: 'get_symbol_children',
    title: 'Children of the symbol at a position',
    description: 'The symbol at a position and its members or nested symbols, flat with depth. Example: {"file": "src/Subject.ts", "line": 17, "column": 14}',
  },
  input: ChildrenQuery,
  response: ChildrenResponse,
  run: (services, query, signal) => getChildren(services, childrenOptionsFromQuery(query, signal)),
  markdown: childrenMarkdown,
});
