/**
 * Row mapping: the same columns, order and StoredSymbol as the SQLite store (src/index/sqlite/rows.ts), joined
 * within the symbol's workspace.
 */
export { ROW_ID, SYMBOL_COLUMNS, toSymbol, type SymbolRow } from '../sqlite/rows.js';
export const SYMBOL_JOINS = 'JOIN files f ON f.workspace_id = s.workspace_id AND f.id = s.file_id JOIN packages p ON p.workspace_id = s.workspace_id AND p.id = s.package_id';
