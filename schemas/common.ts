import { Type, type Static } from 'typebox';
import { SYMBOL_KINDS } from '../src/kinds.js';

/** 1-based line and column (UTF-16 code units), as editors show them. */
export const Position = Type.Object(
  { line: Type.Integer({ minimum: 1 }), column: Type.Integer({ minimum: 1 }) },
  { description: '1-based line and column (column in UTF-16 code units, as LSP)' },
);
export type Position = Static<typeof Position>;

export const Range = Type.Object(
  { start: Position, end: Position },
  { description: 'A range; `end` is exclusive, 1-based like `start`' },
);
export type Range = Static<typeof Range>;

export const SymbolKindSchema = Type.Enum(SYMBOL_KINDS, {
  description: 'Normalized symbol kind',
});

export const ErrorResponse = Type.Object(
  {
    error: Type.Object({
      code: Type.String({ description: 'Stable machine-readable code, e.g. invalid_parameter, path_outside_root, server_unavailable' }),
      message: Type.String({ description: 'What went wrong, naming the parameter and what is allowed' }),
    }, { additionalProperties: true }),
  },
  { description: 'Every error answer' },
);
export type ErrorResponse = Static<typeof ErrorResponse>;

export const FormatParam = Type.Optional(
  Type.Enum(['json', 'markdown'], {
    description: 'json (default) or markdown, a compact rendering for a model\'s context window. `Accept: text/markdown` does the same.',
  }),
);

export const FileParam = Type.String({
  minLength: 1,
  description: 'File path relative to the workspace root (with /), or an absolute path inside the root',
});

/** Error responses every route can give; routes spread the ones they use. */
export const errorResponses = (statuses: number[]): Record<number, typeof ErrorResponse> =>
  Object.fromEntries(statuses.map((status) => [status, ErrorResponse]));
