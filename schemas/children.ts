import { Type, type Static } from 'typebox';
import { FileParam, FormatParam, Range, SymbolKindSchema } from './common.js';

export const ChildrenQuery = Type.Object({
  file: FileParam,
  line: Type.Integer({ minimum: 1, description: '1-based line of a position inside the symbol' }),
  column: Type.Integer({ minimum: 1, description: '1-based column (UTF-16 code units)' }),
  depth: Type.Optional(Type.Enum(['1', '2', '3', 'all'], {
    description: 'Levels of descendants: 1 (direct children, default), 2, 3 or all',
  })),
  include_hover: Type.Optional(Type.Boolean({ description: 'Add each child\'s hover text (type, signature, docs) from the language server' })),
  format: FormatParam,
});
export type ChildrenQuery = Static<typeof ChildrenQuery>;

/** What /children says of every symbol: the one at the position and each descendant. */
const symbolFields = {
  name: Type.String({ description: 'The bare name, as the index has it (`Len` for gopls\'s `(*List).Len`)' }),
  serverName: Type.Optional(Type.String({ description: 'The name as the language server gave it, where it differs from `name`' })),
  kind: SymbolKindSchema,
  detail: Type.Union([Type.String(), Type.Null()]),
  line: Type.Integer(),
  column: Type.Integer(),
  range: Range,
  selectionRange: Range,
};

export const ChildSymbol = Type.Object({
  ...symbolFields,
  parent: Type.String({ description: 'Name of the parent symbol' }),
  depth: Type.Integer({ description: '1 = direct child of the symbol' }),
  hover: Type.Optional(Type.Union([Type.String(), Type.Null()], { description: 'Hover text, when include_hover=true and not skipped' })),
});
export type ChildSymbol = Static<typeof ChildSymbol>;

export const ChildrenResponse = Type.Object({
  file: Type.String(),
  language: Type.String(),
  source: Type.Union([Type.Literal('lsp'), Type.Literal('index')], { description: '`lsp`: the language server\'s document symbols; `index`: the index\'s symbols of the file, where the server gave none or misread the file (a type reported as a variable); `reason` says why' }),
  reason: Type.Optional(Type.String({ description: 'Why the index\'s tree answers instead of the server\'s' })),
  symbol: Type.Object({
    ...symbolFields,
    hover: Type.Optional(Type.Union([Type.String(), Type.Null()])),
  }, { description: 'The symbol at the position' }),
  depth: Type.Union([Type.Integer(), Type.Literal('all')]),
  results: Type.Array(ChildSymbol, { description: 'Descendants in document order, flat' }),
  hover: Type.Object({
    requested: Type.Boolean(),
    skipped: Type.Boolean({ description: 'true when there were more children than hover.maxSymbols and hover was not fetched' }),
    reason: Type.Optional(Type.String()),
  }),
  truncated: Type.Optional(Type.Boolean({ description: 'true when the symbol cap (outline.maxSymbols) cut the list' })),
  omittedSymbols: Type.Optional(Type.Integer({ description: 'Descendants within `depth` left out past the cap' })),
  elapsedMs: Type.Number(),
});
export type ChildrenResponse = Static<typeof ChildrenResponse>;
