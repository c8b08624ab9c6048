import { HierarchyNodeSchema, HierarchyQuery, HierarchyResponse } from '../../schemas/hierarchy.js';
import { hierarchyMarkdown } from '../format/hierarchy.js';
import { typeHierarchy } from '../symbols/hierarchy.js';
import { defineOperation } from './operation.js';

export const hierarchyOperation = defineOperation({
  http: {
    path: '/symbols/hierarchy',
    aliases: ['/hierarchy'],
    summary: 'Bases and derived types of a type, as trees',
    description: [
      '`{symbol, supertypes, subtypes}`: each node a symbol with its own supertypes or subtypes further out, up to `depth` (default 3, at most 10). `direction` up, down or both (default).',
      'Up: the bases as written, resolved through the index (the deriving file\'s namespaces, imports and includes choose between types of one name), with clangd\'s typeHierarchy/supertypes where served; a base outside the index is `{name, external: true}` with the server\'s file and line when it knows them.',
      'Down: the inheritors logic (index and server). Multiple bases all show; a diamond\'s shared base shows on each path; a type already on its path is marked `cycle: true` and not expanded; at most 500 nodes, with `omitted` counting the rest.',
    ].join(' '),
    tags: ['navigation'],
    errors: [400, 404, 409],
    example: '/symbols/hierarchy?symbol=BehaviorSubject&direction=both&depth=2',
  },
  tool: {
    name: 'type_hierarchy',
    title: 'Type hierarchy of a type',
    description: 'A type\'s bases up and derived types down, as trees: where a type sits. Example: {"symbol": "Subject", "direction": "both"}',
  },
  input: HierarchyQuery,
  response: HierarchyResponse,
  shared: [HierarchyNodeSchema],
  run: (services, query, signal) => typeHierarchy(services, query, signal),
  markdown: hierarchyMarkdown,
});
