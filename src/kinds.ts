import { SymbolKind } from 'vscode-languageserver-protocol';

/** The normalized symbol kinds (docs/API.md), lower case. */
export const SYMBOL_KINDS = [
  'namespace', 'module', 'package', 'class', 'struct', 'interface', 'enum', 'enum_member', 'type_alias',
  'function', 'method', 'constructor', 'field', 'property', 'variable', 'constant', 'macro',
] as const;
export type NormalizedKind = (typeof SYMBOL_KINDS)[number];

const FROM_LSP: Record<number, NormalizedKind> = {
  [SymbolKind.File]: 'module',
  [SymbolKind.Module]: 'module',
  [SymbolKind.Namespace]: 'namespace',
  [SymbolKind.Package]: 'package',
  [SymbolKind.Class]: 'class',
  [SymbolKind.Method]: 'method',
  [SymbolKind.Property]: 'property',
  [SymbolKind.Field]: 'field',
  [SymbolKind.Constructor]: 'constructor',
  [SymbolKind.Enum]: 'enum',
  [SymbolKind.Interface]: 'interface',
  [SymbolKind.Function]: 'function',
  [SymbolKind.Variable]: 'variable',
  [SymbolKind.Constant]: 'constant',
  [SymbolKind.String]: 'constant',
  [SymbolKind.Number]: 'constant',
  [SymbolKind.Boolean]: 'constant',
  [SymbolKind.Array]: 'variable',
  [SymbolKind.Object]: 'variable',
  [SymbolKind.Key]: 'property',
  [SymbolKind.Null]: 'constant',
  [SymbolKind.EnumMember]: 'enum_member',
  [SymbolKind.Struct]: 'struct',
  [SymbolKind.Event]: 'field',
  [SymbolKind.Operator]: 'function',
  [SymbolKind.TypeParameter]: 'type_alias',
};

export function kindFromLsp(kind: SymbolKind): NormalizedKind {
  return FROM_LSP[kind] ?? 'variable';
}

/** Seed markdown shows kinds as LSP names them (`Class`, `Method`); map ours back to that spelling. */
export function displayKind(kind: NormalizedKind): string {
  return kind.split('_').map((part) => part[0].toUpperCase() + part.slice(1)).join('');
}
