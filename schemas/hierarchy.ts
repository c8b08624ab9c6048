/**
 * Schemas of the type and call hierarchy operations: /symbols/inheritors, /symbols/hierarchy,
 * /symbols/implementations (and their MCP tools).
 */
import { Type, type Static } from 'typebox';
import { FormatParam, ServerOutcome } from './common.js';
import { Envelope, IndexSymbol, KindParam, LanguageSchema, Offset } from './symbols.js';

export const INHERITORS_LIMIT_DEFAULT = 100;
export const INHERITORS_LIMIT_MAX = 200;
export const HIERARCHY_DEPTH_DEFAULT = 3;
export const HIERARCHY_DEPTH_MAX = 10;

/** How an operation about one symbol names it (the resolution step's parameters). */
export const SymbolSelectorParams = {
  symbol: Type.Optional(Type.String({ maxLength: 500, description: 'Short or qualified name (`Subject`, `testing::Test`, `flask.app.Flask`); or pass `id`' })),
  id: Type.Optional(Type.String({ maxLength: 64, description: 'A symbol id from an earlier answer (replaces `symbol`)' })),
  containingType: Type.Optional(Type.String({ description: 'Narrows the name to members of this type (its simple name)' })),
  kind: KindParam,
  package: Type.Optional(Type.String({ description: 'Narrows the name to one package (see /packages)' })),
  language: Type.Optional(LanguageSchema),
};

const SourceSchema = Type.Union([Type.Literal('index'), Type.Literal('lsp'), Type.Literal('both')], {
  description: '`index`: found through the base names as written; `lsp`: only the language server found it; `both`: both did',
});

const Depth = (fallback: string, max: number, what: string) => Type.Optional(Type.String({
  description: `${what}: an integer from 1 to ${max}, or \`all\` (default ${fallback})`,
}));

export const InheritorsQuery = Type.Object({
  ...SymbolSelectorParams,
  depth: Depth('1', HIERARCHY_DEPTH_MAX, 'Levels of derivation: 1 = direct inheritors'),
  scope: Type.Optional(Type.Union([Type.Literal('user'), Type.Literal('all')], { default: 'all', description: '`user`: inheritors in workspace files only; `all` (default): extra roots too' })),
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: INHERITORS_LIMIT_MAX, default: INHERITORS_LIMIT_DEFAULT, description: `Results per page (default ${INHERITORS_LIMIT_DEFAULT}, at most ${INHERITORS_LIMIT_MAX})` })),
  offset: Offset,
  format: FormatParam,
});
export type InheritorsQuery = Static<typeof InheritorsQuery>;

export const Inheritor = Type.Object({
  ...IndexSymbol.properties,
  source: SourceSchema,
  depth: Type.Integer({ description: '1 = derives directly from the symbol' }),
  via: Type.Optional(Type.Object({ id: Type.String(), name: Type.String(), qualifiedName: Type.String() }, { description: 'The type it derives through (past depth 1)' })),
  base: Type.Optional(Type.String({ description: 'The base as written in its declaration (index results)' })),
  confidence: Type.Optional(Type.Literal('name', { description: 'Its written base name could not be confirmed to be this type (another type has that name)' })),
});
export type Inheritor = Static<typeof Inheritor>;

export const InheritorsResponse = Type.Object({
  symbol: IndexSymbol,
  depth: Type.Union([Type.Integer(), Type.Literal('all')]),
  results: Type.Array(Inheritor),
  ...Envelope,
  source: SourceSchema,
  server: Type.Optional(ServerOutcome),
});
export type InheritorsResponse = Static<typeof InheritorsResponse>;

export const HierarchyQuery = Type.Object({
  ...SymbolSelectorParams,
  direction: Type.Optional(Type.Union([Type.Literal('up'), Type.Literal('down'), Type.Literal('both')], { default: 'both', description: '`up`: bases; `down`: derived types; `both` (default)' })),
  depth: Depth(String(HIERARCHY_DEPTH_DEFAULT), HIERARCHY_DEPTH_MAX, 'Levels each way'),
  format: FormatParam,
});
export type HierarchyQuery = Static<typeof HierarchyQuery>;

/** A node of the hierarchy: an index symbol, or a base outside the index by name. */
export interface HierarchyNode {
  [key: string]: unknown;
  name: string;
  supertypes?: HierarchyNode[];
  subtypes?: HierarchyNode[];
}

const NodeFields = {
  ...Type.Partial(IndexSymbol).properties,
  name: Type.String(),
  written: Type.Optional(Type.String({ description: 'The base as written in the derived type\'s declaration' })),
  external: Type.Optional(Type.Boolean({ description: 'Not in the index (a std:: type, a library without sources): known by name, with the server\'s location when it has one' })),
  source: Type.Optional(SourceSchema),
  confidence: Type.Optional(Type.Literal('name')),
  cycle: Type.Optional(Type.Literal(true, { description: 'Already on this path: not expanded again' })),
  omitted: Type.Optional(Type.Integer({ description: 'Nodes past the cap left out here' })),
};

/** A recursive node, referenced by $id (as OutlineNode is): shared by the operation. */
export const HierarchyNodeSchema = Type.Object({
  ...NodeFields,
  supertypes: Type.Optional(Type.Array(Type.Ref('HierarchyNode'))),
  subtypes: Type.Optional(Type.Array(Type.Ref('HierarchyNode'))),
}, { $id: 'HierarchyNode' });
const HierarchyTreeNode = Type.Ref('HierarchyNode');

export const HierarchyResponse = Type.Object({
  symbol: IndexSymbol,
  direction: Type.Union([Type.Literal('up'), Type.Literal('down'), Type.Literal('both')]),
  depth: Type.Integer(),
  supertypes: Type.Array(HierarchyTreeNode),
  subtypes: Type.Array(HierarchyTreeNode),
  nodes: Type.Integer({ description: 'Nodes in the answer' }),
  omitted: Type.Integer({ description: 'Nodes left out past the node cap' }),
  truncated: Type.Boolean(),
  partial: Type.Optional(Type.Boolean()),
  reason: Type.Optional(Type.String()),
  server: Type.Optional(ServerOutcome),
  elapsedMs: Type.Number(),
});
export type HierarchyResponse = Omit<Static<typeof HierarchyResponse>, 'supertypes' | 'subtypes'> & { supertypes: HierarchyNode[]; subtypes: HierarchyNode[] };

export const ImplementationsQuery = Type.Object({
  ...SymbolSelectorParams,
  scope: InheritorsQuery.properties.scope,
  limit: InheritorsQuery.properties.limit,
  offset: Offset,
  format: FormatParam,
});
export type ImplementationsQuery = Static<typeof ImplementationsQuery>;

export const Implementation = Type.Object({
  ...IndexSymbol.properties,
  source: SourceSchema,
  depth: Type.Integer({ description: 'Derivation levels between the method\'s type and this one\'s (1 = a direct inheritor)' }),
  confidence: Type.Optional(Type.Literal('name')),
});
export type Implementation = Static<typeof Implementation>;

export const ImplementationsResponse = Type.Object({
  symbol: IndexSymbol,
  results: Type.Array(Implementation),
  ...Envelope,
  source: SourceSchema,
  server: Type.Optional(ServerOutcome),
});
export type ImplementationsResponse = Static<typeof ImplementationsResponse>;
