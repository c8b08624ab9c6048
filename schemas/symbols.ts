import { Type, type Static } from 'typebox';
import { FormatParam, Range, SymbolKindSchema } from './common.js';
import { LANGUAGE_IDS } from '../src/languages/ids.js';
import { COUNT_CAP } from '../src/index/count-cap.js';

export const LanguageSchema = Type.Enum(LANGUAGE_IDS, { description: 'Language the index parsed the file as' });

export const SEARCH_LIMIT_DEFAULT = 50;
export const SEARCH_LIMIT_MAX = 200;
/** Search counts matches up to about this many; past it totalMatches is a lower bound (countsCapped). */
export { COUNT_CAP };

export const MatchTierSchema = Type.Union(
  [Type.Literal('exact'), Type.Literal('exact_case_insensitive'), Type.Literal('prefix'), Type.Literal('fuzzy'), Type.Literal('substring'), Type.Literal('signature')],
  { description: 'Why it matched, best first: exact name, case-insensitive exact, prefix, CamelCase initials, substring, signature text' },
);

/** A symbol from the index, the shape every symbol in an answer has (docs/API.md). */
export const IndexSymbol = Type.Object({
  id: Type.String({ description: 'Stable id (same across restarts while the symbol is unchanged); endpoints taking `symbol` also take `id`' }),
  name: Type.String(),
  kind: SymbolKindSchema,
  file: Type.String({ description: 'Path relative to the workspace root with `/`; absolute for files of an extra root (external)' }),
  line: Type.Integer({ description: 'Line of the name (selectionRange.start), 1-based' }),
  column: Type.Integer({ description: 'Column of the name, 1-based, UTF-16 code units' }),
  range: Range,
  selectionRange: Range,
  containingType: Type.Union([Type.String(), Type.Null()], { description: 'Innermost enclosing type' }),
  qualifiedName: Type.String({ description: 'Containers and name with the language\'s separator, as the file declares them (`ns::AMyActor::BeginPlay`, `Config.from_object`)' }),
  signature: Type.String({ description: 'The declaration head on one line, without the body' }),
  parameters: Type.Array(Type.Object({ name: Type.String(), type: Type.String() })),
  returnType: Type.Union([Type.String(), Type.Null()]),
  package: Type.String({ description: 'Package named by the nearest manifest, else the top-level directory' }),
  // A string, not LanguageSchema's enum: a language added at run time (addLanguageModules) answers too, and an answer's
  // union of shapes (callers' CallNode) is told apart by validating it.
  language: Type.String({ description: `Language the index parsed the file as: ${LANGUAGE_IDS.join(', ')}, or a language added at run time` }),
  definition: Type.Boolean({ description: 'true for the definition (has a body); false for a declaration or prototype' }),
  forwardDeclaration: Type.Boolean({ description: 'A C/C++ type declared without its body (`class X;`)' }),
  external: Type.Boolean({ description: 'From an extra root (engine, library), not the workspace' }),
  doc: Type.Union([Type.String(), Type.Null()], { description: 'Doc comment, when there is one' }),
  bases: Type.Array(Type.String(), { description: 'Base types as written' }),
  match: Type.Optional(MatchTierSchema),
});
export type IndexSymbol = Static<typeof IndexSymbol>;

export const Limit = Type.Optional(Type.Integer({ minimum: 1, maximum: SEARCH_LIMIT_MAX, default: SEARCH_LIMIT_DEFAULT, description: `Results per page (default ${SEARCH_LIMIT_DEFAULT}, at most ${SEARCH_LIMIT_MAX})` }));
/** One bound for every offset: past it a request is a 400 naming it (no list pages that far). */
export const OFFSET_MAX = 1_000_000;
export const Offset = Type.Optional(Type.Integer({ minimum: 0, maximum: OFFSET_MAX, default: 0, description: `Results to skip, for paging (at most ${OFFSET_MAX})` }));
export const IncludeForward = Type.Optional(Type.Boolean({ default: false, description: 'true appends forward declarations (`class X;`) after every other result; otherwise they are only counted in forwardDeclarations' }));
export const KindParam = Type.Optional(Type.String({ description: 'Kind or comma-separated kinds: namespace module package class struct interface enum enum_member type_alias function method constructor field property variable constant macro' }));

export const SymbolSearchQuery = Type.Object({
  query: Type.Optional(Type.String({ maxLength: 500, description: 'Name to find: exact, prefix, CamelCase (`FPC` finds FMyPlayerController, `UMyASC` UMyAbilitySystemComponent), substring, or words of a signature/return type. A qualified name (`leveldb::Iterator`, `Outer.Inner.method`) matches on separator boundaries, its last segment exactly or (from three characters) as a prefix; in Python, Go and Java the module or package may stand in front (`flask.app.Flask`, `flask.Flask`, `http.HandlerFunc`, `java.util.HashMap`).' })),
  id: Type.Optional(Type.String({ maxLength: 64, description: 'A symbol id from an earlier answer: returns that symbol (404 when the index no longer has it)' })),
  match: Type.Optional(Type.Union([Type.Literal('all'), Type.Literal('exact')], { default: 'all', description: '`all` (default) ranks every tier; `exact` is get_symbol: only names equal to the query: the case-sensitive matches when there are any, else the case-insensitive ones; every package\'s match unless `package` narrows it; none → 404' })),
  kind: KindParam,
  package: Type.Optional(Type.String({ description: 'Package name (exact, else a unique case-insensitive match); see /packages' })),
  language: Type.Optional(LanguageSchema),
  scope: Type.Optional(Type.Union([Type.Literal('user'), Type.Literal('all')], { default: 'all', description: '`user`: workspace files only; `all` (default): extra roots too, ranked after the workspace' })),
  containingType: Type.Optional(Type.String({ description: 'Only members of this type (its simple name)' })),
  limit: Limit,
  offset: Offset,
  include_forward_declarations: IncludeForward,
  format: FormatParam,
});
export type SymbolSearchQuery = Static<typeof SymbolSearchQuery>;

/** The list envelope every list answer carries (docs/API.md). */
export const Envelope = {
  limit: Type.Integer(),
  offset: Type.Integer(),
  totalMatches: Type.Integer({ description: 'Every match that is not a forward declaration' }),
  truncated: Type.Boolean({ description: 'true when more matches exist past this page' }),
  forwardDeclarations: Type.Integer({ description: 'Forward declarations that matched: grouped out, or appended when include_forward_declarations=true' }),
  partial: Type.Optional(Type.Boolean({ description: 'true while the index is still building: answers come from what is indexed so far' })),
  reason: Type.Optional(Type.String({ description: 'Why the answer is partial, with the progress' })),
  source: Type.Literal('index'),
  elapsedMs: Type.Number(),
};

export const SymbolSearchResponse = Type.Object({
  query: Type.String(),
  results: Type.Array(IndexSymbol),
  ...Envelope,
  countsCapped: Type.Optional(Type.Boolean({ description: `true when counting stopped at ${COUNT_CAP.toLocaleString('en-US')} matches (a generic query such as \`get\`, a common name of a large tree): totalMatches and forwardDeclarations are then lower bounds, and truncated is true. Absent when the counts are exact, which they always are with include_forward_declarations=true` })),
});
export type SymbolSearchResponse = Static<typeof SymbolSearchResponse>;
