/**
 * Row mapping: the columns every symbol query reads, their order, and the StoredSymbol made from a row.
 */
import type { NormalizedKind } from '../../kinds.js';
import type { LanguageId, Parameter } from '../../syntax/types.js';
import type { StoredSymbol } from '../store.js';

/**
 * Read as arrays (SymbolRow): better-sqlite3 builds an array several times faster than an object per row.
 * search() reads many rows as one json_group_array() text instead: JSON.parse builds them faster than
 * better-sqlite3 converts value by value.
 */
export const SYMBOL_COLUMNS = `s.sid, s.name, s.kind, f.path AS file, s.sl, s.sc, s.el, s.ec, s.nl, s.nc, s.nel, s.nec,
  s.containing_type, s.qualified_name, s.signature, s.parameters, s.return_type, p.name AS package, s.language,
  s.definition, s.fwd, s.external, s.doc, s.bases, s.id`;
/** SYMBOL_COLUMNS by their result names, for json_array() over them. */
export const SYMBOL_NAMES = SYMBOL_COLUMNS.split(',').map((column) => column.trim().split(/\s+AS\s+|\./).pop()).join(', ');
export const SYMBOL_JOINS = 'JOIN files f ON f.id = s.file_id JOIN packages p ON p.id = s.package_id';

/** The columns of SYMBOL_COLUMNS, in order. */
export type SymbolRow = [
  sid: string, name: string, kind: string, file: string,
  sl: number, sc: number, el: number, ec: number, nl: number, nc: number, nel: number, nec: number,
  containingType: string | null, qualifiedName: string, signature: string, parameters: string, returnType: string | null,
  pkg: string, language: string, definition: number, fwd: number, external: number, doc: string | null, bases: string, id: number,
];

/** Where the row id (symbols.id) is in a SymbolRow. */
export const ROW_ID = 24;

export function toSymbol(row: SymbolRow): StoredSymbol {
  return {
    id: row[0],
    name: row[1],
    kind: row[2] as NormalizedKind,
    file: row[3],
    line: row[8],
    column: row[9],
    range: { start: { line: row[4], column: row[5] }, end: { line: row[6], column: row[7] } },
    selectionRange: { start: { line: row[8], column: row[9] }, end: { line: row[10], column: row[11] } },
    containingType: row[12],
    qualifiedName: row[13],
    signature: row[14],
    parameters: parseList(row[15]) as Parameter[],
    returnType: row[16],
    package: row[17],
    language: row[18] as LanguageId,
    definition: row[19] === 1,
    forwardDeclaration: row[20] === 1,
    external: row[21] === 1,
    doc: row[22],
    bases: parseList(row[23]) as string[],
  };
}

/** Rows read as one json_group_array(json_array(SYMBOL_NAMES)) text. */
export function parseRows(json: string): SymbolRow[] {
  return JSON.parse(json) as SymbolRow[];
}

/** Most symbols have no parameters or bases: '[]' needs no JSON.parse. */
function parseList(json: string): unknown[] {
  return json === '[]' ? [] : (JSON.parse(json) as unknown[]);
}
