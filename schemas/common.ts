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

/**
 * What the language-server side of an answer did, in every answer that asks a server (callers, callees,
 * inheritors, hierarchy, implementations, usages, resolve): the server, the request the answer rests on,
 * and how it went. Where it could not answer, the answer is the syntactic one (or the index's alone) and
 * `reason` says why.
 */
export const ServerOutcome = Type.Object({
  language: Type.String({ description: 'The language server\'s language as plumb names it (`C/C++`, `Python`), or the symbol\'s language where no server serves it' }),
  request: Type.Union([Type.String(), Type.Null()], {
    description: 'The LSP request the answer rests on (`callHierarchy/incomingCalls`, `typeHierarchy/subtypes`, `textDocument/implementation`, `textDocument/references`, `textDocument/definition`), or the one that failed; null when none was asked',
  }),
  state: Type.Union([Type.Literal('answered'), Type.Literal('indexing'), Type.Literal('unsupported'), Type.Literal('unavailable'), Type.Literal('failed')], {
    description: '`answered` (with nothing the answer could use, `reason` says so and the answer is syntactic); `indexing` (answered while still indexing: may be incomplete); `unsupported` (no server for the language, or it does not serve the request); `unavailable` (not installed, not started, unhealthy); `failed` (it answered with an error, or timed out)',
  }),
  reason: Type.Optional(Type.String({ description: 'Why the state: what the server lacks or what failed, or its indexing progress' })),
}, { description: 'What the language server did for this answer' });
export type ServerOutcome = Static<typeof ServerOutcome>;
