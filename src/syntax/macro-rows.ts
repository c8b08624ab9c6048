/**
 * Macros a language reads from a file's lines without parsing it (LanguageSpec.readWithoutParse: the C and C++
 * headers of nothing but preprocessor lines, 4M of the kernel's 7.2M symbols), kept as columns rather than as
 * symbol objects: the parser thread packs them as rows (index/symbol-codec.ts packMacroRows) without making ten
 * objects a macro (the symbol, its ranges and positions, three arrays) that live until the file is packed. Reading
 * the kernel's register headers, those objects cost about as much as everything else the reader does.
 */
import type { ExtractedSymbol, LanguageId, Parameter } from './types.js';

export interface MacroRows {
  language: LanguageId;
  names: string[];
  signatures: string[];
  docs: Array<string | null>;
  /** Each macro's parameters, NO_PARAMETERS when it has none. */
  parameters: Array<readonly Parameter[]>;
  /** Four numbers a macro (POSITIONS): the line it starts on, its column, the line its range ends on (column 1), its name's column. */
  positions: number[];
}

export const POSITIONS = 4;
/** A macro without parameters (never handed out as a symbol's own array). */
export const NO_PARAMETERS: readonly Parameter[] = Object.freeze([]);

export function emptyMacroRows(language: LanguageId): MacroRows {
  return { language, names: [], signatures: [], docs: [], parameters: [], positions: [] };
}

/** The rows as the symbols extraction gives (a macro: its name on its first line, no containers, no bases, a definition). */
export function macroSymbols(rows: MacroRows): ExtractedSymbol[] {
  const symbols: ExtractedSymbol[] = [];
  for (let i = 0; i < rows.names.length; i++) {
    const name = rows.names[i];
    const at = i * POSITIONS;
    const line = rows.positions[at];
    const nameColumn = rows.positions[at + 3];
    symbols.push({
      name,
      kind: 'macro',
      containers: [],
      qualifiedName: name,
      containingType: null,
      range: { start: { line, column: rows.positions[at + 1] }, end: { line: rows.positions[at + 2], column: 1 } },
      selectionRange: { start: { line, column: nameColumn }, end: { line, column: nameColumn + name.length } },
      signature: rows.signatures[i],
      parameters: rows.parameters[i] === NO_PARAMETERS ? [] : (rows.parameters[i] as Parameter[]),
      returnType: null,
      doc: rows.docs[i],
      definition: true,
      forwardDeclaration: false,
      bases: [],
      language: rows.language,
    });
  }
  return symbols;
}
