import { Type, type Static } from 'typebox';
import { FormatParam } from './common.js';
import { Envelope, IncludeForward, IndexSymbol, KindParam, LanguageSchema, Limit, Offset } from './symbols.js';

export const PackageSchema = Type.Object({
  name: Type.String({ description: 'As the manifest spells it, or the top-level directory\'s name' }),
  path: Type.String({ description: 'Directory of the manifest, root-relative (`.` for the root); absolute under an extra root' }),
  manifest: Type.Union([Type.String(), Type.Null()], { description: 'Manifest file name, or null for a directory-named package' }),
  language: Type.Union([LanguageSchema, Type.Null()], { description: 'Most common language among its files' }),
  symbols: Type.Integer(),
  files: Type.Integer(),
  external: Type.Boolean(),
});
export type PackageSchema = Static<typeof PackageSchema>;

export const PackagesQuery = Type.Object({
  query: Type.Optional(Type.String({ maxLength: 200, description: 'Only packages whose name contains this (case-insensitive)' })),
  scope: Type.Optional(Type.Union([Type.Literal('user'), Type.Literal('all')], { default: 'all', description: '`user`: workspace packages only' })),
  limit: Limit,
  offset: Offset,
  format: FormatParam,
});
export type PackagesQuery = Static<typeof PackagesQuery>;

export const PackagesResponse = Type.Object({
  results: Type.Array(PackageSchema),
  ...Envelope,
});
export type PackagesResponse = Static<typeof PackagesResponse>;

export const PackageParams = Type.Object({
  name: Type.String({ minLength: 1, description: 'Package name, URL-encoded (`%40scope%2Fname`): exact, else a unique case-insensitive match' }),
});

export const PackageSymbolsQuery = Type.Object({
  kind: KindParam,
  limit: Limit,
  offset: Offset,
  include_forward_declarations: IncludeForward,
  format: FormatParam,
});
export type PackageSymbolsQuery = Static<typeof PackageSymbolsQuery>;

export const PackageSymbolsResponse = Type.Object({
  package: Type.String({ description: 'The package name as stored (after case-insensitive resolution)' }),
  results: Type.Array(IndexSymbol),
  ...Envelope,
});
export type PackageSymbolsResponse = Static<typeof PackageSymbolsResponse>;
