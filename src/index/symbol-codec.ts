/**
 * How a parser thread's symbols travel to the main thread: one JSON array of values, FIELDS per
 * symbol in a fixed order, instead of an array of objects. The text is a third of the size (no keys,
 * no nested range objects), and reading it back costs the main thread about half as much
 * (Go's std: 143 MB of JSON → 49 MB; JSON.parse 1.9 s → 0.8 s with the objects rebuilt).
 */
import type { ExtractedSymbol, Parameter } from '../syntax/types.js';

const FIELDS = 21;

/** The symbols as compact JSON text (decodeSymbols reads it back to equal objects, keys in the same order). */
export function encodeSymbols(symbols: readonly ExtractedSymbol[]): string {
  const values: unknown[] = [];
  for (const s of symbols) {
    const { range, selectionRange } = s;
    let parameters: string[] | 0 = 0;
    if (s.parameters.length > 0) {
      parameters = [];
      for (const p of s.parameters) parameters.push(p.name, p.type);
    }
    values.push(
      s.name, s.kind, s.containers, s.qualifiedName, s.containingType,
      range.start.line, range.start.column, range.end.line, range.end.column,
      selectionRange.start.line, selectionRange.start.column, selectionRange.end.line, selectionRange.end.column,
      s.signature, parameters, s.returnType, s.doc, (s.definition ? 1 : 0) | (s.forwardDeclaration ? 2 : 0),
      s.bases.length > 0 ? s.bases : 0, s.baseAliases ?? 0, s.language,
    );
  }
  return JSON.stringify(values);
}

export function decodeSymbols(text: string): ExtractedSymbol[] {
  const v = JSON.parse(text) as unknown[];
  const symbols: ExtractedSymbol[] = [];
  for (let i = 0; i + FIELDS <= v.length; i += FIELDS) {
    const flat = v[i + 14] as string[] | 0;
    const parameters: Parameter[] = [];
    if (flat) for (let k = 0; k < flat.length; k += 2) parameters.push({ name: flat[k], type: flat[k + 1] });
    const flags = v[i + 17] as number;
    const symbol: ExtractedSymbol = {
      name: v[i] as string,
      kind: v[i + 1] as ExtractedSymbol['kind'],
      containers: v[i + 2] as string[],
      qualifiedName: v[i + 3] as string,
      containingType: v[i + 4] as string | null,
      range: { start: { line: v[i + 5] as number, column: v[i + 6] as number }, end: { line: v[i + 7] as number, column: v[i + 8] as number } },
      selectionRange: { start: { line: v[i + 9] as number, column: v[i + 10] as number }, end: { line: v[i + 11] as number, column: v[i + 12] as number } },
      signature: v[i + 13] as string,
      parameters,
      returnType: v[i + 15] as string | null,
      doc: v[i + 16] as string | null,
      definition: (flags & 1) !== 0,
      forwardDeclaration: (flags & 2) !== 0,
      bases: (v[i + 18] as string[] | 0) || [],
      language: v[i + 20] as ExtractedSymbol['language'],
    };
    const aliases = v[i + 19] as string[] | 0;
    if (aliases) symbol.baseAliases = aliases;
    symbols.push(symbol);
  }
  return symbols;
}
