import { UsagesQuery, UsagesResponse } from '../../schemas/usages.js';
import { usagesMarkdown } from '../format/usages.js';
import { findUsages } from '../symbols/usages.js';
import { defineOperation } from './operation.js';

export const usagesOperation = defineOperation({
  http: {
    path: '/symbols/usages',
    aliases: ['/usages'],
    summary: 'Every usage of one symbol',
    description: [
      'References to the one symbol named by `symbol` (or `id`), narrowed by containingType, kind, package, language: the language server\'s textDocument/references from its definition (clangd, the TypeScript server, pyright, gopls), imports included, its own declarations and definitions left out (`precision: "semantic"`).',
      'Where no server serves the language (Java, C#, Rust) or the server is missing or fails: every identifier token with the symbol\'s name in the indexed files of its language, outside comments and strings (`precision: "syntactic"`, with the reason); only the files the word index does not show without the name are read (`filesScanned`, `filesPassedOver`).',
      'Files the workspace ignores (dependencies, build output, .gitignore) are dropped; `scope=user` drops extra roots too. Each usage: file, line, column, the line\'s text, optional context lines, the enclosing symbol (with its id) and the usage kind from the syntax tree (call, read, write, import, type, inheritance, other).',
      'Ordered by file then line; paged (limit default 50, at most 1000). While the server still indexes, the answer says partial with the reason. Several symbols with the name → 409 listing them with ids.',
    ].join(' '),
    tags: ['navigation'],
    errors: [400, 404, 409, 503, 504],
    example: '/symbols/usages?symbol=Subject&kind=class&limit=20',
  },
  tool: {
    name: 'find_usages',
    title: 'Find every usage of a symbol',
    description: 'Every reference to one symbol (calls, reads, writes, imports, types), each with its line and enclosing function: use it instead of grep to see who uses something. Example: {"symbol": "Config.from_object"}',
  },
  input: UsagesQuery,
  response: UsagesResponse,
  run: (services, query, signal) => findUsages(services, query, signal),
  markdown: usagesMarkdown,
});
