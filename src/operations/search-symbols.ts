import { SymbolSearchQuery, SymbolSearchResponse } from '../../schemas/symbols.js';
import { symbolSearchMarkdown } from '../format/symbols.js';
import { searchSymbols } from '../symbols/search.js';
import { defineOperation } from './operation.js';

export const searchSymbolsOperation = defineOperation({
  http: {
    path: '/symbols',
    summary: 'Find symbols by name across the workspace',
    description: [
      'Solution-wide search over the index: no file path needed. Ranked by tier: case-sensitive exact name, case-insensitive exact, prefix, CamelCase initials (`FPC` finds FMyPlayerController), substring, then words of the signature and return type (`Receipt` finds `processPayment(...): Receipt`).',
      'Within a tier: workspace before extra roots, definitions before declarations, then name, file and line.',
      'Forward declarations (`class X;`) are grouped out and counted in forwardDeclarations; include_forward_declarations=true appends them.',
      '`match=exact` is get_symbol: only names equal to the query, from every package unless `package` narrows it; none → 404 `Symbol \'<name>\' not found`.',
      '`id` returns the symbol with that id. While the index builds, answers carry partial: true and the progress.',
    ].join(' '),
    tags: ['symbols'],
    errors: [400, 404],
    example: '/symbols?query=Config&kind=class&limit=20',
  },
  tool: {
    name: 'search_symbols',
    title: 'Find symbols by name across the workspace',
    description: [
      'Solution-wide symbol search over plumb\'s index: finds classes, functions, methods, fields, types by name without knowing their file, in every language of the workspace.',
      'Matches exact names first, then prefixes, CamelCase initials (`FPC` finds FMyPlayerController), substrings, and words of signatures and return types (`Receipt` finds a function returning Receipt); narrow with kind, package, language, containingType.',
      'Use it first whenever you know (part of) a name: it is much faster and more complete than grepping. Prefer get_symbol when you know the exact name and want only its definitions.',
      'Answers are paged (limit, offset) and say when they are truncated; forward declarations are counted, not listed, unless include_forward_declarations=true.',
      'Example: {"query": "Config", "kind": "class", "limit": 20}',
    ].join(' '),
  },
  input: SymbolSearchQuery,
  response: SymbolSearchResponse,
  run: (services, query) => searchSymbols(services, query),
  markdown: symbolSearchMarkdown,
});
