import { InheritorsQuery, InheritorsResponse } from '../../schemas/hierarchy.js';
import { inheritorsMarkdown } from '../format/hierarchy.js';
import { findInheritors } from '../symbols/inheritors.js';
import { defineOperation } from './operation.js';

export const inheritorsOperation = defineOperation({
  http: {
    path: '/symbols/inheritors',
    aliases: ['/inheritors'],
    summary: 'Types deriving from a type',
    description: [
      'The types that derive from one type (Rider\'s Find Inheritors): the union of the index\'s base lists as written (`public Base`, `Base<T>`, `ns::Base`, `module.Base`, an imported alias, `extends`, `implements`, interface `extends`, Go embedding) and the language server\'s answer: typeHierarchy/subtypes where served (clangd), textDocument/implementation where not (the TypeScript server; gopls, which finds the structs satisfying a Go interface).',
      'Each result says `source` (index, lsp, both), `depth` and `via` (the type it derives through, past depth 1); a candidate whose written base name another type shares, and which neither the server nor its file\'s namespaces, imports or includes confirm, stays with `confidence: "name"`.',
      '`depth` 1 (default) to 10 or `all` walks transitively, each type once at its shallowest depth. The symbol resolves like every symbol operation: 409 with candidate ids when a name is ambiguous. Without a working server the answer comes from the index, partial, with the reason.',
    ].join(' '),
    tags: ['navigation'],
    errors: [400, 404, 409],
    example: '/symbols/inheritors?symbol=Subscriber&depth=all',
  },
  tool: {
    name: 'find_inheritors',
    title: 'Find the types deriving from a type',
    description: 'The types deriving from a class or implementing an interface, to any depth: check them before changing a base type. Example: {"symbol": "testing::Test", "depth": 2}',
  },
  input: InheritorsQuery,
  response: InheritorsResponse,
  run: (services, query, signal) => findInheritors(services, query, signal),
  markdown: inheritorsMarkdown,
});
