import { ImplementationsQuery, ImplementationsResponse } from '../../schemas/hierarchy.js';
import { implementationsMarkdown } from '../format/hierarchy.js';
import { findImplementations } from '../symbols/implementations.js';
import { defineOperation } from './operation.js';

export const implementationsOperation = defineOperation({
  http: {
    path: '/symbols/implementations',
    summary: 'Overrides and implementations of a method',
    description: [
      'The overrides of a virtual or abstract method across the types deriving from its type, and the implementations of an interface method (Rider\'s Ctrl+Alt+B): the inheritors of the method\'s type (every depth) and their members of the same name, united with textDocument/implementation where the language\'s server serves it (clangd, the TypeScript server, gopls).',
      'Each result says `source` (index, lsp, both) and `depth` (derivation levels below the method\'s type). A C++ override declared in its class and defined out of line is one result, its definition.',
    ].join(' '),
    tags: ['navigation'],
    errors: [400, 404, 409],
    example: '/symbols/implementations?symbol=Subscriber._next',
  },
  tool: {
    name: 'find_implementations',
    title: 'Overrides and implementations of a method',
    description: 'The overrides of a virtual or abstract method and the implementations of an interface method. Example: {"symbol": "Test.SetUp"}',
  },
  input: ImplementationsQuery,
  response: ImplementationsResponse,
  run: (services, query, signal) => findImplementations(services, query, signal),
  markdown: implementationsMarkdown,
});
