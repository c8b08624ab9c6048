import { SymbolSearchQuery, SymbolSearchResponse } from '../../schemas/symbols.js';
import { symbolSearchMarkdown } from '../format/symbols.js';
import { searchSymbols } from '../symbols/search.js';
import { defineOperation } from './operation.js';

export const searchSymbolsOperation = defineOperation({
  http: {
    path: '/symbols',
    summary: 'Find symbols by name across the workspace',
    description: [
      'Solution-wide search over the index: no file path needed. Ranked by tier: case-sensitive exact name, case-insensitive exact, prefix, CamelCase (`FPC` finds FMyPlayerController; words and initials mixed, `UMyASC` finds UMyAbilitySystemComponent), substring, then words of the signature and return type (`Receipt` finds `processPayment(...): Receipt`).',
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
    description: 'Find symbols by name anywhere in the workspace, no file path needed: exact, prefix, CamelCase initials, substring or signature words. Start here to get the ids other tools take. Example: {"query": "FPC", "kind": "class"}',
  },
  input: SymbolSearchQuery,
  response: SymbolSearchResponse,
  run: (services, query) => searchSymbols(services, query),
  markdown: symbolSearchMarkdown,
});
