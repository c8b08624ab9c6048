/** Schemas of /symbols/context (symbol_context): one symbol whole, each part capped and counted. */
import { Type, type Static } from 'typebox';
import { FormatParam } from './common.js';
import { CallResult } from './calls.js';
import { SymbolSelectorParams } from './hierarchy.js';
import { ImpactResult, ImpactTest } from './impact.js';
import { BaseRef, DeclarationPlace, Member } from './navigation.js';
import { IndexSymbol } from './symbols.js';
import { Usage } from './usages.js';

export const ContextQuery = Type.Object({
  ...SymbolSelectorParams,
  format: FormatParam,
});
export type ContextQuery = Static<typeof ContextQuery>;

export const ContextPart = Type.Object({
  part: Type.String({ description: 'The part: places, members, inheritors, overrides, callers, callees, usages, tests' }),
  operation: Type.String({ description: 'The operation it comes from (find_declaration, list_members, find_callers...)' }),
  precision: Type.Union([Type.Literal('semantic'), Type.Literal('syntactic')]),
  shown: Type.Integer(),
  total: Type.Integer({ description: 'How many there are (the part lists the first `shown`)' }),
  reason: Type.Optional(Type.String({ description: 'Why it is syntactic, partial or missing' })),
});
export type ContextPart = Static<typeof ContextPart>;

const Capped = (what: string) => Type.Integer({ description: `How many ${what} there are in all (the list holds the first ones)` });

export const ContextResponse = Type.Object({
  symbol: IndexSymbol,
  doc: Type.Union([Type.String(), Type.Null()], { description: 'The doc comment as plain text (a C++ definition without one takes its declaration\'s)' }),
  places: Type.Array(DeclarationPlace, { description: 'Its definitions and declarations with their code (cut after 60 lines each; `snippet.omittedLines` says how many more)' }),
  placesTotal: Capped('places'),
  bases: Type.Array(BaseRef, { description: 'A type\'s bases, transitively, resolved through the index' }),
  members: Type.Array(Member, { description: 'A type\'s own members in declaration order (at most 30)' }),
  membersTotal: Capped('members'),
  inheritors: Type.Array(ImpactResult, { description: 'A type\'s inheritors, nearest first, two levels deep (at most 20)' }),
  inheritorsTotal: Capped('inheritors'),
  overrides: Type.Array(ImpactResult, { description: 'A method\'s overrides and implementations; a type\'s inheritors\' overrides of its methods (at most 20)' }),
  overridesTotal: Capped('overrides'),
  callers: Type.Array(ImpactResult, { description: 'A function\'s direct callers with their call sites (at most 20)' }),
  callersTotal: Capped('direct callers'),
  callees: Type.Array(CallResult, { description: 'A function\'s direct callees with the call sites (at most 20)' }),
  calleesTotal: Capped('direct callees'),
  usages: Type.Array(Usage, { description: 'The first usages (at most 10)' }),
  usagesTotal: Capped('usages'),
  tests: Type.Array(ImpactTest, { description: 'The tests that reach it, two calls deep, by each language\'s conventions (at most 20)' }),
  testsTotal: Capped('tests'),
  parts: Type.Array(ContextPart, { description: 'Each part: where it comes from, its precision, how many are shown of how many' }),
  partial: Type.Optional(Type.Boolean()),
  reason: Type.Optional(Type.String()),
  elapsedMs: Type.Number(),
});
export type ContextResponse = Static<typeof ContextResponse>;
