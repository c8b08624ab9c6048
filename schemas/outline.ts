import { Type, type Static, type TSchema } from 'typebox';
import { FileParam, FormatParam, Range, SymbolKindSchema } from './common.js';

export const OutlineQuery = Type.Object({
  file: FileParam,
  display_code_for: Type.Optional(Type.String({
    description: 'Comma-separated symbol names or paths (`User`, `User.save`, `ns::Widget::draw`); every match carries its source in symbolContent. A path\'s containers are the enclosing symbols, and the type a Go method\'s receiver or a C++ out-of-line definition names (`List.Len`, `Widget::draw`)',
  })),
  depth: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, description: 'Levels of nesting to return (1 = top level only); all levels when absent' })),
  format: FormatParam,
});
export type OutlineQuery = Static<typeof OutlineQuery>;

export interface OutlineNode {
  name: string;
  serverName?: string;
  kind: Static<typeof SymbolKindSchema>;
  detail: string | null;
  line: number;
  column: number;
  range: Range;
  selectionRange: Range;
  symbolContent?: string;
  /** Descendants left out below this symbol: `depth` stopped here, or outline.maxSymbols was reached. */
  omittedChildren?: number;
  children: OutlineNode[];
}

// A recursive node: typebox's Cyclic would also do, but fast-json-stringify handles $ref by id most simply.
const outlineNodeFields = (children: TSchema) => ({
  name: Type.String({ description: 'The bare name, as the index has it: `Len` for a Go method, `ExtractSummary` for a C++ method defined outside its class' }),
  serverName: Type.Optional(Type.String({ description: 'The name as the language server gave it, present where it differs from `name`: gopls\'s `(*List).Len`, clangd\'s `TestPartResult::ExtractSummary` or `FormatForComparison<char *, OtherOperand>`' })),
  kind: SymbolKindSchema,
  detail: Type.Union([Type.String(), Type.Null()], { description: 'What the server adds after the name: a signature, a type' }),
  line: Type.Integer({ description: 'Line of the name (selectionRange.start)' }),
  column: Type.Integer(),
  range: Range,
  selectionRange: Range,
  symbolContent: Type.Optional(Type.String({ description: 'Source of the symbol, when named in display_code_for' })),
  omittedChildren: Type.Optional(Type.Integer({ description: 'How many descendants were left out below this symbol: `depth` stopped here, or the symbol cap (outline.maxSymbols) was reached' })),
  children,
});

export const OutlineNodeSchema = Type.Object(outlineNodeFields(Type.Array(Type.Ref('OutlineNode'))), { $id: 'OutlineNode' });

export const OutlineResponse = Type.Object({
  file: Type.String({ description: 'Path relative to the workspace root' }),
  language: Type.String(),
  source: Type.Union([Type.Literal('lsp'), Type.Literal('index')], { description: '`lsp`: the language server\'s document symbols; `index`: the index\'s symbols of the file, where the server gave none or misread the file (a type reported as a variable); `reason` says why' }),
  reason: Type.Optional(Type.String({ description: 'Why the index\'s tree answers instead of the server\'s' })),
  results: Type.Array(Type.Ref('OutlineNode')),
  displayCodeFor: Type.Optional(Type.Array(Type.Object({ query: Type.String(), matches: Type.Integer() }), {
    description: 'How many symbols each display_code_for name matched',
  })),
  truncated: Type.Optional(Type.Boolean({ description: 'true when the symbol cap (outline.maxSymbols) left symbols out: top levels are kept first, breadth first' })),
  omittedSymbols: Type.Optional(Type.Integer({ description: 'Symbols within `depth` the cap left out (each counted in its parent\'s omittedChildren, or here only when top-level)' })),
  elapsedMs: Type.Number(),
});
export type OutlineResponse = {
  file: string;
  language: string;
  source: 'lsp' | 'index';
  reason?: string;
  results: OutlineNode[];
  displayCodeFor?: { query: string; matches: number }[];
  truncated?: boolean;
  omittedSymbols?: number;
  elapsedMs: number;
};
