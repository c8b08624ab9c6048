/**
 * Pieces of the token rules languages declare (`LanguageSpec.skippedTokens`): regular-expression
 * alternatives for the comments and literals an identifier scan steps over. Every alternative starts with a
 * character no identifier starts with, or with a prefix letter it checks first.
 */
export const LINE_COMMENT = String.raw`\/\/[^\n]*`;
export const BLOCK_COMMENT = String.raw`\/\*[\s\S]*?(?:\*\/|$)`;
export const DOUBLE_QUOTED = String.raw`"(?:[^"\\\n]|\\[\s\S])*"`;
export const SINGLE_QUOTED = String.raw`'(?:[^'\\\n]|\\[\s\S])*'`;
