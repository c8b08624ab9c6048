/**
 * The reads other than search: a symbol by id, a file's symbols, a type's members and inheritors by
 * name, the indexed files, the packages and the counts.
 */
import type { LanguageId } from '../../syntax/types.js';
import { leftOutOf, packageInfos, type FileFilter, type IndexedFileInfo, type LeftOut, type LeftOutPath, type PackageInfo, type PackageRow, type PackageSymbolsSpec, type StoreCounts, type StoredSymbol } from '../store.js';
import { SYMBOL_COLUMNS, SYMBOL_JOINS, toSymbol, type SymbolRow } from './rows.js';
import { namedList, type SqlParams, type Statements } from './statements.js';

export class SymbolQueries {
  constructor(private readonly statements: Statements) {}

  symbolById(id: string): StoredSymbol | undefined {
    const row = this.statements.get(`SELECT ${SYMBOL_COLUMNS} FROM symbols s ${SYMBOL_JOINS} WHERE s.sid = ? LIMIT 1`).raw().get(id) as SymbolRow | undefined;
    return row ? toSymbol(row) : undefined;
  }

  symbolsInFile(file: string): StoredSymbol[] {
    const rows = this.statements.get(`SELECT ${SYMBOL_COLUMNS} FROM symbols s ${SYMBOL_JOINS} WHERE s.file_id = (SELECT id FROM files WHERE path = ?) ORDER BY s.sl, s.sc, s.el DESC, s.ec DESC`)
      .raw().all(file) as SymbolRow[];
    return rows.map(toSymbol);
  }

  symbolsInContainer(containingType: string, limit: number): StoredSymbol[] {
    const rows = this.statements.get(`SELECT ${SYMBOL_COLUMNS} FROM symbols s ${SYMBOL_JOINS} WHERE s.containing_type = @containingType ORDER BY f.path, s.sl, s.sc LIMIT @limit`)
      .raw().all({ containingType, limit }) as SymbolRow[];
    return rows.map(toSymbol);
  }

  symbolsNamed(names: string[], limitPerName: number): StoredSymbol[] {
    const statement = this.statements.get(`SELECT ${SYMBOL_COLUMNS} FROM symbols s ${SYMBOL_JOINS} WHERE s.name_lower = @lower AND s.name = @name LIMIT @limit`).raw();
    const out: StoredSymbol[] = [];
    for (const name of new Set(names)) {
      for (const row of statement.all({ lower: name.toLowerCase(), name, limit: limitPerName }) as SymbolRow[]) out.push(toSymbol(row));
    }
    return out;
  }

  symbolsWithBase(name: string, limit: number): StoredSymbol[] {
    const rows = this.statements.get(`SELECT ${SYMBOL_COLUMNS} FROM symbol_bases b CROSS JOIN symbols s ON s.id = b.symbol_id ${SYMBOL_JOINS} WHERE b.base = @base ORDER BY s.rank, f.path, s.nl, s.nc LIMIT @limit`)
      .raw().all({ base: name, limit }) as SymbolRow[];
    return rows.map(toSymbol);
  }

  indexedFiles(): string[] {
    return this.statements.get('SELECT path FROM files ORDER BY path').pluck().all() as string[];
  }

  indexedFileInfos(filter: FileFilter): IndexedFileInfo[] {
    const where: string[] = [];
    const params: SqlParams = {};
    if (filter.packages?.length) where.push(`p.name IN (${namedList('package', filter.packages, params)})`);
    if (filter.languages?.length) where.push(`f.language IN (${namedList('language', filter.languages, params)})`);
    if (filter.userOnly) where.push('f.external = 0');
    const rows = this.statements.get(`SELECT f.path, f.language, f.size, f.mtime, p.name AS package, p.path AS package_path, f.external
      FROM files f JOIN packages p ON p.id = f.package_id ${where.length ? `WHERE ${where.join(' AND ')}` : ''} ORDER BY f.external, f.path`)
      .raw().all(params) as Array<[string, LanguageId, number, number, string, string, number]>;
    return rows.map(([file, language, size, mtimeMs, pkg, packagePath, external]) => ({ file, language, size, mtimeMs, package: pkg, packagePath, external: external === 1 }));
  }

  listPackages(): PackageInfo[] {
    const rows = this.statements.get(`SELECT p.id, p.name, p.path, p.manifest, p.external, count(f.id) AS files, coalesce(sum(f.symbol_count), 0) AS symbols
      FROM packages p LEFT JOIN files f ON f.package_id = p.id GROUP BY p.id ORDER BY p.external, p.name, p.path`).all() as PackageRow[];
    const languages = this.statements.get('SELECT package_id, language, count(*) AS n FROM files GROUP BY package_id, language').all() as Array<{ package_id: number; language: string; n: number }>;
    return packageInfos(rows, languages);
  }

  packageNamesLike(name: string): string[] {
    const rows = this.statements.get('SELECT DISTINCT name FROM packages WHERE lower(name) = lower(?) ORDER BY name').all(name) as Array<{ name: string }>;
    return rows.map((row) => row.name);
  }

  packageSymbols(spec: PackageSymbolsSpec): { results: StoredSymbol[]; total: number; forwardDeclarations: number } {
    const params: SqlParams = { package: spec.packageName };
    let where = 's.file_id IN (SELECT f.id FROM files f JOIN packages p ON p.id = f.package_id WHERE p.name = @package)';
    if (spec.kinds?.length) where += ` AND s.kind IN (${namedList('kind', spec.kinds, params)})`;
    const counts = this.statements.get(`SELECT s.fwd AS fwd, count(*) AS n FROM symbols s WHERE ${where} GROUP BY s.fwd`).all(params) as Array<{ fwd: number; n: number }>;
    const total = counts.find((c) => c.fwd === 0)?.n ?? 0;
    const forwardDeclarations = counts.find((c) => c.fwd === 1)?.n ?? 0;
    const fwdFilter = spec.includeForwardDeclarations ? '' : ' AND s.fwd = 0';
    const rows = this.statements.get(`SELECT ${SYMBOL_COLUMNS} FROM symbols s ${SYMBOL_JOINS} WHERE ${where}${fwdFilter} ORDER BY s.fwd, f.path, s.nl, s.nc LIMIT @limit OFFSET @offset`)
      .raw().all({ ...params, limit: spec.limit, offset: spec.offset }) as SymbolRow[];
    return { results: rows.map(toSymbol), total, forwardDeclarations };
  }

  counts(): StoreCounts {
    const row = this.statements.get('SELECT count(*) AS files, coalesce(sum(symbol_count), 0) AS symbols FROM files').get() as { files: number; symbols: number };
    return { files: row.files, symbols: row.symbols };
  }

  leftOut(limit: number): LeftOut {
    const counts = this.statements.get('SELECT skipped AS reason, count(*) AS n FROM files WHERE skipped IS NOT NULL GROUP BY skipped ORDER BY skipped').all() as Array<{ reason: string; n: number }>;
    const directories = this.statements.get('SELECT count(*) FROM build_output').pluck().get() as number;
    const files = (this.statements.get('SELECT path, skipped, skipped_detail FROM files WHERE skipped IS NOT NULL ORDER BY path LIMIT ?').raw().all(limit) as Array<[string, string, string | null]>)
      .map(([path, reason, detail]): LeftOutPath => ({ path, kind: 'file', reason: reason as LeftOutPath['reason'], detail: detail ?? '' }));
    const outputs = (this.statements.get('SELECT path, reason FROM build_output ORDER BY path LIMIT ?').raw().all(limit) as Array<[string, string]>)
      .map(([path, detail]): LeftOutPath => ({ path, kind: 'directory', reason: 'build_output', detail }));
    return leftOutOf(counts, directories, files, outputs, limit);
  }

  languageCounts(): Array<{ language: LanguageId; files: number; symbols: number }> {
    return this.statements.get('SELECT language, count(*) AS files, coalesce(sum(symbol_count), 0) AS symbols FROM files GROUP BY language ORDER BY symbols DESC, language')
      .all() as Array<{ language: LanguageId; files: number; symbols: number }>;
  }
}
