/**
 * Schemas of the call and declaration-text operations: /symbols/callers, /symbols/callees,
 * /symbols/signature, /symbols/doc (and their MCP tools).
 */
import { Type, type Static } from 'typebox';
import { FormatParam, ServerOutcome } from './common.js';
import { SymbolSelectorParams } from './hierarchy.js';
import { Envelope, IndexSymbol, Offset } from './symbols.js';

export const CALLS_LIMIT_DEFAULT = 50;
export const CALLS_LIMIT_MAX = 200;
export const CALLS_DEPTH_MAX = 3;

const Limit = Type.Optional(Type.Integer({ minimum: 1, maximum: CALLS_LIMIT_MAX, default: CALLS_LIMIT_DEFAULT, description: `Results per page (default ${CALLS_LIMIT_DEFAULT}, at most ${CALLS_LIMIT_MAX})` }));

export const CallsQuery = Type.Object({
  ...SymbolSelectorParams,
  depth: Type.Optional(Type.Integer({ minimum: 1, maximum: CALLS_DEPTH_MAX, default: 1, description: `Levels of calls: 1 (default) = direct callers or callees, up to ${CALLS_DEPTH_MAX}` })),
  limit: Limit,
  offset: Offset,
  format: FormatParam,
});
export type CallsQuery = Static<typeof CallsQuery>;

export const CallSite = Type.Object({
  file: Type.String({ description: 'Where the call is written: root-relative, or absolute outside the workspace' }),
  line: Type.Integer(),
  column: Type.Integer(),
  text: Type.Union([Type.String(), Type.Null()], { description: 'The line of the call, trimmed; null when the file could not be read' }),
});
export type CallSite = Static<typeof CallSite>;

/** A caller or callee the index does not hold: code outside the workspace, top-level code, a name nothing resolves. */
export const UnindexedNode = Type.Object({
  indexed: Type.Literal(false),
  name: Type.String(),
  kind: Type.String({ description: 'The server\'s kind (function, method, module...) or `function` for an unresolved name' }),
  file: Type.Union([Type.String(), Type.Null()], { description: 'Absolute outside the workspace; null for a name nothing resolved' }),
  line: Type.Union([Type.Integer(), Type.Null()]),
  column: Type.Union([Type.Integer(), Type.Null()]),
  external: Type.Boolean({ description: 'true when it lies outside the workspace (a library, the standard library)' }),
  detail: Type.Optional(Type.String({ description: 'What the server says of it (its container, signature)' })),
});
export type UnindexedNode = Static<typeof UnindexedNode>;

export const CallNode = Type.Union([IndexSymbol, UnindexedNode], { description: 'An index symbol (with id), or `indexed: false` for one the index does not hold' });
export type CallNode = Static<typeof CallNode>;

export const CallResult = Type.Object({
  symbol: CallNode,
  calls: Type.Array(CallSite, { description: 'The call sites: in the caller (callers), in the calling function (callees)' }),
  depth: Type.Integer({ description: '1 = calls the symbol directly (callers) or is called by it directly (callees)' }),
  via: Type.Optional(Type.Object({ id: Type.Optional(Type.String()), name: Type.String() }, { description: 'The function one level nearer the symbol it reaches it through (past depth 1)' })),
});
export type CallResult = Static<typeof CallResult>;

export const CallsResponse = Type.Object({
  symbol: IndexSymbol,
  direction: Type.Union([Type.Literal('incoming'), Type.Literal('outgoing')]),
  depth: Type.Integer(),
  results: Type.Array(CallResult),
  ...Envelope,
  source: Type.Union([Type.Literal('lsp'), Type.Literal('index'), Type.Literal('both')], { description: '`lsp`: the server\'s call hierarchy; `index`: the syntactic fallback over the indexed files; `both`: the server\'s answer merged with the syntactic one, where the server could not parse the function\'s file' }),
  precision: Type.Union([Type.Literal('semantic'), Type.Literal('syntactic')], { description: '`semantic`: the server\'s answer; `syntactic`: name matches of call expressions (same-named functions are not told apart)' }),
  server: ServerOutcome,
  omitted: Type.Integer({ description: 'Callers or callees found but left out by the node cap or the request budget (depth > 1)' }),
});
export type CallsResponse = Static<typeof CallsResponse>;

// ---- signature and doc ----------------------------------------------------------------------------

export const HEAD_LINES_MAX = 40;

export const SignatureQuery = Type.Object({
  ...SymbolSelectorParams,
  include_hover: Type.Optional(Type.Boolean({ default: true, description: 'Ask the language server for its hover text (default true)' })),
  limit: Limit,
  offset: Offset,
  format: FormatParam,
});
export type SignatureQuery = Static<typeof SignatureQuery>;

export const HeadText = Type.Object({
  file: Type.String(),
  startLine: Type.Integer(),
  endLine: Type.Integer(),
  text: Type.String({ description: 'The declaration\'s lines from its start (template head, decorators, attributes) to where its body begins, indentation kept' }),
  definition: Type.Boolean(),
  truncated: Type.Optional(Type.Boolean({ description: `Cut after ${HEAD_LINES_MAX} lines` })),
});
export type HeadText = Static<typeof HeadText>;

export const Hover = Type.Object({
  format: Type.Union([Type.Literal('markdown'), Type.Literal('plaintext')]),
  text: Type.String(),
});

export const SignatureResult = Type.Object({
  ...IndexSymbol.properties,
  heads: Type.Array(HeadText, { description: 'The head of each place declaring it (a C++ declaration and its definition), definition first' }),
  hover: Type.Union([Hover, Type.Null()], { description: 'The language server\'s hover at the name; null when none (see hoverNote)' }),
  hoverNote: Type.Optional(Type.String({ description: 'Why there is no hover' })),
});
export type SignatureResult = Static<typeof SignatureResult>;

export const SignatureResponse = Type.Object({
  symbol: Type.String({ description: 'What was asked for' }),
  results: Type.Array(SignatureResult, { description: 'One per symbol the name matches (every overload)' }),
  ...Envelope,
  source: Type.Union([Type.Literal('index'), Type.Literal('both')], { description: '`both` when a hover came from a server' }),
});
export type SignatureResponse = Static<typeof SignatureResponse>;

export const DocQuery = Type.Object({
  ...SymbolSelectorParams,
  limit: Limit,
  offset: Offset,
  format: FormatParam,
});
export type DocQuery = Static<typeof DocQuery>;

export const DocResult = Type.Object({
  ...IndexSymbol.properties,
  doc: Type.Union([Type.String(), Type.Null()], { description: 'The doc comment as plain text (markers, quotes and common indentation removed); null when it has none' }),
  docFile: Type.Optional(Type.String({ description: 'Where the doc comment was found when another place of the symbol carries it (a C++ declaration in its header)' })),
  docLine: Type.Optional(Type.Integer()),
});
export type DocResult = Static<typeof DocResult>;

export const DocResponse = Type.Object({
  symbol: Type.String({ description: 'What was asked for' }),
  results: Type.Array(DocResult),
  ...Envelope,
});
export type DocResponse = Static<typeof DocResponse>;
