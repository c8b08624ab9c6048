/**
 * Schemas of the index-answered navigation operations: /symbols/declaration, /symbols/members and
 * /symbols/counterpart.
 */
import { Type, type Static } from 'typebox';
import { FileParam, FormatParam } from './common.js';
import { Envelope, IncludeForward, IndexSymbol, KindParam, LanguageSchema, Limit, Offset } from './symbols.js';

export const CONTEXT_LINES_DEFAULT = 4;
export const CONTEXT_LINES_MAX = 50;
/** include_body cuts a declaration longer than this many lines (and says how many it left out). */
export const BODY_LINES_MAX = 400;

/** The parameters naming one symbol, shared by declaration and members. */
const selectorFields = {
  symbol: Type.Optional(Type.String({ maxLength: 500, description: 'A short or qualified name: `SetUp`, `testing::Test::SetUp`, `Subject.next`, `flask.app.Flask`. Either this or `id` is required' })),
  id: Type.Optional(Type.String({ maxLength: 64, description: 'A symbol id from an earlier answer (replaces `symbol`)' })),
  containingType: Type.Optional(Type.String({ description: 'Only symbols whose enclosing type has this simple name' })),
  package: Type.Optional(Type.String({ description: 'Package name (exact, else a unique case-insensitive match); see /packages' })),
  language: Type.Optional(LanguageSchema),
};

export const Snippet = Type.Object({
  startLine: Type.Integer({ description: 'First line of `text`, 1-based' }),
  endLine: Type.Integer({ description: 'Last line of `text`, 1-based' }),
  text: Type.String({ description: 'The lines, joined with \\n' }),
  truncated: Type.Optional(Type.Boolean({ description: `true when the declaration was cut (include_body stops after ${BODY_LINES_MAX} lines; very long lines are clipped)` })),
  omittedLines: Type.Optional(Type.Integer({ description: 'Lines of the declaration left out after endLine' })),
}, { description: 'Source lines read from the file on disk' });
export type Snippet = Static<typeof Snippet>;

export const DeclarationQuery = Type.Object({
  ...selectorFields,
  kind: KindParam,
  context_lines: Type.Optional(Type.Integer({ minimum: 0, maximum: CONTEXT_LINES_MAX, default: CONTEXT_LINES_DEFAULT, description: `Lines shown before and after the name's line (default ${CONTEXT_LINES_DEFAULT}, at most ${CONTEXT_LINES_MAX}); ignored with include_body=true` })),
  include_body: Type.Optional(Type.Boolean({ default: false, description: `true: the snippet is the whole declaration (its range, body included), cut after ${BODY_LINES_MAX} lines` })),
  include_forward_declarations: IncludeForward,
  limit: Limit,
  offset: Offset,
  format: FormatParam,
});
export type DeclarationQuery = Static<typeof DeclarationQuery>;

export const DeclarationPlace = Type.Object({
  ...IndexSymbol.properties,
  context: Type.Union([Type.Literal('definition'), Type.Literal('declaration')], { description: '`definition` (has the body) or `declaration` (a prototype, an in-class declaration, a forward declaration)' }),
  snippet: Type.Union([Snippet, Type.Null()], { description: 'null when the file could not be read (changed or removed since it was indexed); `snippetError` says why' }),
  snippetError: Type.Optional(Type.String()),
});
export type DeclarationPlace = Static<typeof DeclarationPlace>;

export const DeclarationResponse = Type.Object({
  symbol: Type.String({ description: 'What was asked for: the name, or `id <id>`' }),
  symbols: Type.Integer({ description: 'Distinct symbols matched (a declaration and its definition count once; overloads apart)' }),
  results: Type.Array(DeclarationPlace, { description: 'Every place of every matching symbol, one symbol\'s places together, definitions first; forward declarations last when listed' }),
  ...Envelope,
});
export type DeclarationResponse = Static<typeof DeclarationResponse>;

export const MembersQuery = Type.Object({
  ...selectorFields,
  kind: Type.Optional(Type.String({ description: 'Only members of this kind or comma-separated kinds (`method,field`): filters the members, not the type' })),
  inherited: Type.Optional(Type.Boolean({ default: false, description: 'true adds the members of the bases (transitively), each with inheritedFrom; an overridden base member is left out (the override says what it overrides)' })),
  limit: Limit,
  offset: Offset,
  format: FormatParam,
});
export type MembersQuery = Static<typeof MembersQuery>;

const PlaceRef = Type.Object({ id: Type.String(), file: Type.String(), line: Type.Integer() });

export const Member = Type.Object({
  ...IndexSymbol.properties,
  static: Type.Optional(Type.Boolean({ description: 'Whether the member is static (class-level), where the language writes it' })),
  visibility: Type.Optional(Type.String({ description: '`public`, `protected`, `private`, `internal`, `package` (Java/Go unexported), `crate` (Rust pub(crate)): as the syntax says; absent where the language has none (Python)' })),
  inheritedFrom: Type.Optional(Type.String({ description: 'Qualified name of the base the member comes from (inherited=true)' })),
  overrides: Type.Optional(Type.Object({ id: Type.String(), qualifiedName: Type.String(), inheritedFrom: Type.String() }, { description: 'The base member this one overrides (same name, callable)' })),
  definitionAt: Type.Optional(PlaceRef),
});
export type Member = Static<typeof Member>;

export const BaseRef = Type.Object({
  name: Type.String({ description: 'The base as written (without template arguments and access keywords)' }),
  resolved: Type.Boolean({ description: 'false: not found in the index (outside the workspace): named only' }),
  id: Type.Optional(Type.String()),
  qualifiedName: Type.Optional(Type.String()),
  file: Type.Optional(Type.String()),
  line: Type.Optional(Type.Integer()),
  depth: Type.Integer({ description: '1 for a direct base' }),
  via: Type.Optional(Type.String({ description: 'The base it was reached through, past depth 1' })),
});
export type BaseRef = Static<typeof BaseRef>;

export const MembersResponse = Type.Object({
  symbol: IndexSymbol,
  bases: Type.Array(BaseRef, { description: 'The type\'s bases, transitively, resolved through the index where they are in it' }),
  results: Type.Array(Member, { description: 'Members in declaration order (the type\'s own, then each base\'s)' }),
  ...Envelope,
});
export type MembersResponse = Static<typeof MembersResponse>;

export const CounterpartQuery = Type.Object({
  file: FileParam,
  limit: Limit,
  offset: Offset,
  format: FormatParam,
});
export type CounterpartQuery = Static<typeof CounterpartQuery>;

export const Counterpart = Type.Object({
  file: Type.String({ description: 'Root-relative path (absolute for a file of an extra root)' }),
  role: Type.Union([Type.Literal('header'), Type.Literal('source')]),
  reason: Type.String({ description: '`shared symbols: N` (declared in one, defined in the other) or `same base name`' }),
  sharedSymbols: Type.Integer({ description: 'Symbols declared in one file and defined in the other' }),
  sameBaseName: Type.Boolean(),
  examples: Type.Array(Type.String(), { description: 'A few of the shared symbols\' qualified names' }),
});
export type Counterpart = Static<typeof Counterpart>;

export const CounterpartResponse = Type.Object({
  file: Type.String(),
  role: Type.Union([Type.Literal('header'), Type.Literal('source')]),
  results: Type.Array(Counterpart, { description: 'Best first: by shared symbols, then same base name, then nearer paths' }),
  ...Envelope,
});
export type CounterpartResponse = Static<typeof CounterpartResponse>;
