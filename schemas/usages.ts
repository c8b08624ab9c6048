import { Type, type Static } from 'typebox';
import { FileParam, FormatParam, ServerOutcome, SymbolKindSchema } from './common.js';
import { Envelope, IndexSymbol, KindParam, LanguageSchema, Offset } from './symbols.js';

export const USAGES_LIMIT_DEFAULT = 50;
export const USAGES_LIMIT_MAX = 1000;
export const CONTEXT_LINES_MAX = 10;
export const RESOLVE_CONTEXT_DEFAULT = 4;
export const RESOLVE_CONTEXT_MAX = 50;

const selector = {
  symbol: Type.Optional(Type.String({ maxLength: 500, description: 'Short or qualified name (`BeginPlay`, `AMyActor::BeginPlay`, `flask.app.Flask.route`); or pass `id`' })),
  id: Type.Optional(Type.String({ maxLength: 64, description: 'A symbol id from an earlier answer (takes the place of symbol)' })),
  containingType: Type.Optional(Type.String({ description: 'Only a member of this type (its simple name)' })),
  kind: KindParam,
  package: Type.Optional(Type.String({ description: 'Package name (see /packages)' })),
  language: Type.Optional(LanguageSchema),
};

export const UsagesQuery = Type.Object({
  ...selector,
  scope: Type.Optional(Type.Union([Type.Literal('user'), Type.Literal('all')], { default: 'all', description: '`user`: usages in workspace files only; `all` (default): extra roots too' })),
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: USAGES_LIMIT_MAX, default: USAGES_LIMIT_DEFAULT, description: `Usages per page (default ${USAGES_LIMIT_DEFAULT}, at most ${USAGES_LIMIT_MAX})` })),
  offset: Offset,
  context_lines: Type.Optional(Type.Integer({ minimum: 0, maximum: CONTEXT_LINES_MAX, default: 0, description: `Lines of code around each usage (default 0, at most ${CONTEXT_LINES_MAX})` })),
  format: FormatParam,
});
export type UsagesQuery = Static<typeof UsagesQuery>;

export const UsageKindSchema = Type.Union(
  [Type.Literal('call'), Type.Literal('read'), Type.Literal('write'), Type.Literal('import'), Type.Literal('type'), Type.Literal('inheritance'), Type.Literal('other')],
  { description: 'What the reference does, from the syntax tree at its position: call, read, write, import, type (a type position), inheritance (a base-type clause), other' },
);

export const Snippet = Type.Object({
  startLine: Type.Integer(),
  endLine: Type.Integer(),
  text: Type.String(),
}, { description: 'Lines of code, 1-based and inclusive' });
export type Snippet = Static<typeof Snippet>;

export const EnclosingSymbol = Type.Object({
  name: Type.String(),
  kind: SymbolKindSchema,
  qualifiedName: Type.String(),
  id: Type.String(),
}, { description: 'The innermost indexed symbol whose range holds the usage (a function, method, class, field...)' });

export const Usage = Type.Object({
  file: Type.String({ description: 'Relative to the workspace root; absolute for a file of an extra root' }),
  line: Type.Integer(),
  column: Type.Integer(),
  text: Type.String({ description: 'The line, trimmed (cut at 300 characters)' }),
  context: Type.Optional(Snippet),
  enclosingSymbol: Type.Union([EnclosingSymbol, Type.Null()]),
  usageKind: UsageKindSchema,
  external: Type.Boolean({ description: 'In a file of an extra root, not the workspace' }),
});
export type Usage = Static<typeof Usage>;

export const UsagesResponse = Type.Object({
  symbol: IndexSymbol,
  results: Type.Array(Usage, { description: 'Ordered by file, then line and column' }),
  ...Envelope,
  source: Type.Union([Type.Literal('lsp'), Type.Literal('index'), Type.Literal('both')], { description: '`lsp`: the language server\'s references; `index`: identifier matches in the indexed files; `both`: the server\'s references merged with identifier matches, where the server could not parse the symbol\'s file' }),
  precision: Type.Union([Type.Literal('semantic'), Type.Literal('syntactic')], {
    description: '`semantic`: the language server\'s references; `syntactic`: every identifier token with the symbol\'s name (not in comments or strings), where no server serves the language, it failed, it could not parse the symbol\'s file (merged with its references), or it found none while the source uses the name. `reason` says why',
  }),
  server: ServerOutcome,
  filesScanned: Type.Optional(Type.Integer({ description: 'Syntactic usages: files read for the name' })),
  filesPassedOver: Type.Optional(Type.Integer({ description: 'Syntactic usages: files of the language family not read, since the word index read them and found no word of the name (`/status` index.words)' })),
  droppedIgnored: Type.Integer({ description: 'References the server gave in files the workspace ignores (dependencies, build output, .gitignore) or outside every root: left out' }),
});
export type UsagesResponse = Static<typeof UsagesResponse>;

export const ResolveQuery = Type.Object({
  file: FileParam,
  line: Type.Integer({ minimum: 1, description: '1-based line of the name' }),
  column: Type.Integer({ minimum: 1, description: '1-based column inside the name (UTF-16 code units)' }),
  context_lines: Type.Optional(Type.Integer({ minimum: 0, maximum: RESOLVE_CONTEXT_MAX, default: RESOLVE_CONTEXT_DEFAULT, description: `Lines of code around each place's name (default ${RESOLVE_CONTEXT_DEFAULT}, at most ${RESOLVE_CONTEXT_MAX})` })),
  format: FormatParam,
});
export type ResolveQuery = Static<typeof ResolveQuery>;

export const Place = Type.Object({
  ...IndexSymbol.properties,
  context: Type.Union([Type.Literal('definition'), Type.Literal('declaration')]),
  snippet: Snippet,
});
export type Place = Static<typeof Place>;

export const ResolveResponse = Type.Object({
  identifier: Type.Object({
    name: Type.String(),
    line: Type.Integer(),
    column: Type.Integer({ description: 'Where the name starts' }),
  }, { description: 'The name found at the position' }),
  symbol: Type.Union([IndexSymbol, Type.Null()], { description: 'The index symbol it refers to; null for what the index does not hold (a local, a parameter, a file outside the workspace)' }),
  results: Type.Array(Place, { description: 'Every place of the symbol: definitions first, then declarations, each with its code' }),
  target: Type.Union([Type.Object({
    file: Type.String({ description: 'Root-relative; absolute when outside the workspace' }),
    line: Type.Integer(),
    column: Type.Integer(),
    text: Type.String({ description: 'The target line, trimmed' }),
    external: Type.Boolean({ description: 'Outside the workspace (a system header, a dependency\'s .d.ts, the standard library)' }),
  }), Type.Null()], { description: 'Where the language server\'s definition points; null for an index answer' }),
  source: Type.Union([Type.Literal('lsp'), Type.Literal('index')], { description: '`lsp`: the language server\'s definition (or declaration); `index`: symbols named like the identifier, same file first, then same package, then same language' }),
  server: ServerOutcome,
  candidates: Type.Optional(Type.Integer({ description: 'Index answers: how many symbols carry the name (the best one is answered)' })),
  reason: Type.Optional(Type.String({ description: 'Why the answer comes from the index, or why it is partial' })),
  partial: Type.Optional(Type.Boolean()),
  elapsedMs: Type.Number(),
});
export type ResolveResponse = Static<typeof ResolveResponse>;
