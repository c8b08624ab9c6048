import { Type } from 'typebox';
import { SymbolSearchQuery, SymbolSearchResponse } from '../../schemas/symbols.js';
import { symbolSearchMarkdown } from '../format/symbols.js';
import { searchSymbols } from '../symbols/search.js';
import { defineOperation } from './operation.js';

// get_symbol is GET /symbols?match=exact: the same parameters, `query` required, `match` fixed, `id` left to search_symbols.
const { match: _match, query: _query, id: _id, ...exactLookupFields } = SymbolSearchQuery.properties;
const GetSymbolInput = Type.Object({
  query: Type.String({ maxLength: 500, description: 'The exact symbol name (`Config`, `from_pyfile`) or one qualified by its containers (`Config.from_pyfile`, `ns::Widget::draw`)' }),
  ...exactLookupFields,
});

/** A tool only: over HTTP it is `GET /symbols?match=exact`. */
export const getSymbolOperation = defineOperation({
  tool: {
    name: 'get_symbol',
    mirrors: 'GET /symbols',
    title: 'Look up a symbol by its exact name',
    description: [
      'Every symbol whose name is exactly `query` (case-sensitive; only when none is, the case-insensitive matches: `DataSource` gives the class, not every `dataSource` variable), from every package unless `package` narrows it, with file, line, signature, parameters, return type, container and doc comment.',
      'Use it when you know the exact name (from code, a log or a stack trace) and want where it is declared and defined.',
      'Prefer search_symbols for partial names, to explore, or to fetch a symbol by the `id` an earlier answer gave; find_declaration when you also want its code. A name with no match is an error: "Symbol \'<name>\' not found".',
      'Example: {"query": "from_pyfile"}',
    ].join(' '),
  },
  input: GetSymbolInput,
  response: SymbolSearchResponse,
  run: (services, query) => searchSymbols(services, { ...query, match: 'exact' }),
  markdown: symbolSearchMarkdown,
});
