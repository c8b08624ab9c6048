import { Type, type Static } from 'typebox';

/** Below this no answer's heading and notice fit; above the maximum a budget trims nothing a limit would not. */
export const MAX_TOKENS_MIN = 100;
export const MAX_TOKENS_MAX = 1_000_000;

/** `max_tokens`: every operation with a markdown rendering takes it (src/operations/operation.ts adds it). */
export const MaxTokensParam = Type.Optional(Type.Integer({
  minimum: MAX_TOKENS_MIN,
  maximum: MAX_TOKENS_MAX,
  description: 'Token budget for the markdown answer: fewer rows and shorter code to fit, most relevant first, saying what was left out (JSON gets the same rows)',
}));

export const BudgetList = Type.Object({
  list: Type.String({ description: 'The list cut: `results`, `files`, or a nested list such as `children` or `calls` (counted over every node that has it)' }),
  shown: Type.Integer(),
  total: Type.Integer({ description: 'Entries the answer had before the cut (this page of it: `totalMatches` counts every match)' }),
});
export type BudgetList = Static<typeof BudgetList>;

/** Carried by an answer that max_tokens cut; absent from one that fit whole. */
export const TokenBudget = Type.Object({
  maxTokens: Type.Integer({ description: 'The max_tokens asked for' }),
  tokens: Type.Integer({ description: 'Tokens of the markdown answer as sent (o200k_base, counted line by line)' }),
  lists: Type.Array(BudgetList, { description: 'The lists cut to fit, each with how many entries stayed' }),
  codeLines: Type.Optional(Type.Integer({ description: 'Code and other multi-line text cut to at most this many lines each' })),
  nextOffset: Type.Optional(Type.Integer({ description: 'The `offset` that continues after the last result shown' })),
  hint: Type.String({ description: 'How to get what was left out: the next offset, narrower parameters, a larger max_tokens' }),
}, { $id: 'TokenBudget', description: 'Present when max_tokens cut the answer: what was left out and how to get it' });
export type TokenBudget = Static<typeof TokenBudget>;
