/** Schemas of /symbols/path (trace_calls): the shortest call path from one function to another. */
import { Type, type Static } from 'typebox';
import { FormatParam } from './common.js';
import { CallNode, CallSite } from './calls.js';
import { Envelope, IndexSymbol, LanguageSchema } from './symbols.js';

export const PATH_DEPTH_DEFAULT = 4;
export const PATH_DEPTH_MAX = 6;

export const PathQuery = Type.Object({
  from: Type.Optional(Type.String({ maxLength: 500, description: 'The function the path starts at (the caller): a short or qualified name; or pass `from_id`' })),
  from_id: Type.Optional(Type.String({ maxLength: 64, description: 'The starting function\'s id from an earlier answer' })),
  to: Type.Optional(Type.String({ maxLength: 500, description: 'The function the path ends at (the one called): a short or qualified name; or pass `to_id`' })),
  to_id: Type.Optional(Type.String({ maxLength: 64, description: 'The ending function\'s id from an earlier answer' })),
  language: Type.Optional(LanguageSchema),
  max_depth: Type.Optional(Type.Integer({ minimum: 1, maximum: PATH_DEPTH_MAX, default: PATH_DEPTH_DEFAULT, description: `Calls a path may have at most (default ${PATH_DEPTH_DEFAULT}, at most ${PATH_DEPTH_MAX})` })),
  format: FormatParam,
});
export type PathQuery = Static<typeof PathQuery>;

export const PathStep = Type.Object({
  symbol: CallNode,
  step: Type.Integer({ description: '0 for `from`, then one more per call' }),
  calls: Type.Array(CallSite, { description: 'Where this function calls the next one on the path (none for the last)' }),
});
export type PathStep = Static<typeof PathStep>;

export const PathResponse = Type.Object({
  from: IndexSymbol,
  to: IndexSymbol,
  results: Type.Array(PathStep, { description: 'The path in call order, `from` first and `to` last' }),
  ...Envelope,
  length: Type.Integer({ description: 'Calls on the path' }),
  found: Type.Union([Type.Literal('callers'), Type.Literal('callees')], { description: '`callers`: walking the callers of `to` back to `from`; `callees`: walking the callees of `from` (when the callers did not reach it)' }),
  source: Type.Union([Type.Literal('lsp'), Type.Literal('index')]),
  precision: Type.Union([Type.Literal('semantic'), Type.Literal('syntactic')], { description: 'The precision of the walk that found it (find_callers or find_callees)' }),
  searchedDepth: Type.Integer({ description: 'How many calls deep the walks went' }),
});
export type PathResponse = Static<typeof PathResponse>;
