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
    description: 'The symbols with exactly this name (case-sensitive first), optionally qualified by their containers, with place, signature and id. Example: {"query": "Config.from_pyfile"}',
  },
  input: GetSymbolInput,
  response: SymbolSearchResponse,
  run: (services, query) => searchSymbols(services, { ...query, match: 'exact' }),
  markdown: symbolSearchMarkdown,
});
