import { Type, type TSchema } from 'typebox';
import { ChildrenQuery, ChildrenResponse } from '../../schemas/children.js';
import { OutlineNodeSchema, OutlineQuery, OutlineResponse } from '../../schemas/outline.js';
import { StatusResponse } from '../../schemas/status.js';
import { childrenMarkdown, outlineMarkdown } from '../format/outline.js';
import { statusMarkdown } from '../format/status.js';
import { childrenOptionsFromQuery, getChildren } from '../symbols/children.js';
import { getOutline, outlineOptionsFromQuery } from '../symbols/outline.js';
import { readStatus } from '../symbols/status.js';
import { defineTool, type PlumbTool } from './tool.js';

/** Schemas the routes register by $id (app.addSchema); tool schemas carry them as $defs. */
export const SHARED_SCHEMAS: TSchema[] = [OutlineNodeSchema];

/** Every MCP tool, in the order tools/list gives them: one entry per endpoint. */
export const TOOLS: PlumbTool[] = [
  defineTool({
    name: 'symbol_outline',
    title: 'Outline a file',
    description: [
      'The symbol tree of one source file (classes, functions, methods, fields, nested), with kinds and line numbers, from the language server.',
      'Use it to see what a file contains before reading it, or to read just one symbol: name it in display_code_for and its source comes back with the outline, which is much cheaper than reading the whole file.',
      'Prefer get_symbol_children when you already have a position inside a class and want only its members.',
      'Example: {"file": "src/config.py", "display_code_for": "Config.from_pyfile", "depth": 2}',
    ].join(' '),
    query: OutlineQuery,
    response: OutlineResponse,
    run: (services, query, signal) => getOutline(services, outlineOptionsFromQuery(query, signal)),
    markdown: outlineMarkdown,
  }),
  defineTool({
    name: 'get_symbol_children',
    title: 'Children of the symbol at a position',
    description: [
      'The symbol at file:line:column (a class, struct, namespace, function) and its members and nested symbols down to depth (1 = direct children, 2, 3 or all), flat in document order, each with its range and parent.',
      'Use it when you have a position (from an outline, a search hit or a stack trace) and want what is inside that symbol; include_hover=true adds each child\'s type and documentation from the language server (slower).',
      'Prefer symbol_outline for a whole file.',
      'Example: {"file": "src/internal/Subject.ts", "line": 17, "column": 14, "depth": "1"}',
    ].join(' '),
    query: ChildrenQuery,
    response: ChildrenResponse,
    run: (services, query, signal) => getChildren(services, childrenOptionsFromQuery(query, signal)),
    markdown: childrenMarkdown,
  }),
  defineTool({
    name: 'index_status',
    title: 'Index and language-server status',
    description: [
      'Whether plumb\'s symbol index is built (files and symbols so far) and the state of each language server (stopped until first needed, starting, indexing with progress, ready, crashed).',
      'Use it when answers say partial: true, when a tool reports a server unavailable, or before a large task to see what languages the workspace has running.',
      'Example: {}',
    ].join(' '),
    query: Type.Object({}),
    response: StatusResponse,
    run: (services) => readStatus(services),
    markdown: statusMarkdown,
  }),
];
