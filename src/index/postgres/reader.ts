/**
 * The reads other than search, in one workspace, ordered as the SQLite store orders them (src/index/sqlite/reader.ts);
 * where SQLite's order ends in its index's row-id order, the row id is the last key here.
 */
import type { LanguageId } from '../../syntax/types.js';
import { leftOutOf, packageInfos, type FileFilter, type IndexedFileInfo, type LeftOut, type LeftOutPath, type PackageInfo, type PackageRow, type PackageSymbolsSpec, type StoreCounts, type StoredSymbol } from '../store.js';
import type { PgValue, Reads } from './connection.js';
import { SYMBOL_COLUMNS, SYMBOL_JOINS, toSymbol, type SymbolRow } from './rows.js';

const hasNul = (value: string): boolean => value.includes('\0');

/** ASCII-only lower case, as SQLite's lower() without ICU. */
const ASCII_LOWER = (column: string): string => `translate(${column}, 'ABCDEFGHIJKLMNOPQRSTUVWXYZ', 'abcdefghijklmnopqrstuvwxyz')`;

export class PostgresQueries {
  constructor(private readonly connection: Reads, private readonly workspaceId: () => number) {}

  private symbols(sql: string, values: PgValue[]): Promise<SymbolRow[]> {
    return this.connection.arrays<SymbolRow>(sql, [this.workspaceId(), ...values]);
  }

  async symbolById(id: string): Promise<StoredSymbol | undefined> {
    if (hasNul(id)) return undefined;
    const rows = await this.symbols(`SELECT ${SYMBOL_COLUMNS} FROM symbols s ${SYMBOL_JOINS} WHERE s.workspace_id = $1 AND s.sid = $2 LIMIT 1`, [id]);
    return rows[0] ? toSymbol(rows[0]) : undefined;
  }

  async symbolsInFile(file: string): Promise<StoredSymbol[]> {
    if (hasNul(file)) return [];
    const rows = await this.symbols(`SELECT ${SYMBOL_COLUMNS} FROM symbols s ${SYMBOL_JOINS}
      WHERE s.workspace_id = $1 AND s.file_id = (SELECT id FROM files WHERE workspace_id = $1 AND path = $2) ORDER BY s.sl, s.sc, s.el DESC, s.ec DESC, s.id`, [file]);
    return rows.map(toSymbol);
  }

  async symbolsInContainer(containingType: string, limit: number): Promise<StoredSymbol[]> {
    if (hasNul(containingType)) return [];
    const rows = await this.symbols(`SELECT ${SYMBOL_COLUMNS} FROM symbols s ${SYMBOL_JOINS} WHERE s.workspace_id = $1 AND s.containing_type = $2 ORDER BY f.path, s.sl, s.sc, s.id LIMIT $3`, [containingType, limit]);
    return rows.map(toSymbol);
  }

  async symbolsNamed(names: string[], limitPerName: number): Promise<StoredSymbol[]> {
    const out: StoredSymbol[] = [];
    for (const name of new Set(names)) {
      if (hasNul(name)) continue;
      // SQLite reads them in its name index's order.
      const rows = await this.symbols(`SELECT ${SYMBOL_COLUMNS} FROM symbols s ${SYMBOL_JOINS} WHERE s.workspace_id = $1 AND s.name_lower = $2 AND s.name = $3
        ORDER BY s.fwd, s.rank, s.file_id, s.nl, s.nc, s.id LIMIT $4`, [name.toLowerCase(), name, limitPerName]);
      for (const row of rows) out.push(toSymbol(row));
    }
    return out;
  }

  async symbolsWithBase(name: string, limit: number): Promise<StoredSymbol[]> {
    if (hasNul(name)) return [];
    const rows = await this.symbols(`SELECT ${SYMBOL_COLUMNS} FROM symbol_bases b JOIN symbols s ON s.workspace_id = b.workspace_id AND s.id = b.symbol_id ${SYMBOL_JOINS}
      WHERE b.workspace_id = $1 AND b.base = $2 ORDER BY s.rank, f.path, s.nl, s.nc, s.id LIMIT $3`, [name, limit]);
    return rows.map(toSymbol);
  }

  async indexedFiles(): Promise<string[]> {
    const rows = await this.connection.arrays<[string]>('SELECT path FROM files WHERE workspace_id = $1 ORDER BY path', [this.workspaceId()]);
    return rows.map((row) => row[0]);
  }

  async indexedFileInfos(filter: FileFilter): Promise<IndexedFileInfo[]> {
    const values: PgValue[] = [this.workspaceId()];
    const where = ['f.workspace_id = $1'];
    if (filter.packages?.length) {
      values.push(filter.packages);
      where.push(`p.name = ANY($${values.length}::text[])`);
    }
    if (filter.languages?.length) {
      values.push(filter.languages);
      where.push(`f.language = ANY($${values.length}::text[])`);
    }
    if (filter.userOnly) where.push('f.external = 0');
    const rows = await this.connection.arrays<[string, LanguageId, number, number, string, string, number]>(`SELECT f.path, f.language, f.size, f.mtime, p.name AS package, p.path AS package_path, f.external
      FROM files f JOIN packages p ON p.workspace_id = f.workspace_id AND p.id = f.package_id WHERE ${where.join(' AND ')} ORDER BY f.external, f.path`, values);
    return rows.map(([file, language, size, mtimeMs, pkg, packagePath, external]) => ({ file, language, size, mtimeMs, package: pkg, packagePath, external: external === 1 }));
  }

  async listPackages(): Promise<PackageInfo[]> {
    const workspace = this.workspaceId();
    const rows = await this.connection.rows<PackageRow>(
      `SELECT p.id, p.name, p.path, p.manifest, p.external, count(f.id) AS files, coalesce(sum(f.symbol_count), 0) AS symbols
      FROM packages p LEFT JOIN files f ON f.workspace_id = p.workspace_id AND f.package_id = p.id WHERE p.workspace_id = $1 GROUP BY p.id, p.name, p.path, p.manifest, p.external
      ORDER BY p.external, p.name, p.path`, [workspace]);
    // Ties go to the language first in byte order, as SQLite's GROUP BY hands them over.
    const languages = await this.connection.rows<{ package_id: number; language: string; n: number }>('SELECT package_id, language, count(*) AS n FROM files WHERE workspace_id = $1 GROUP BY package_id, language ORDER BY package_id, language', [workspace]);
    return packageInfos(rows, languages);
  }

  async packageNamesLike(name: string): Promise<string[]> {
    if (hasNul(name)) return [];
    const rows = await this.connection.arrays<[string]>(`SELECT DISTINCT name FROM packages WHERE workspace_id = $1 AND ${ASCII_LOWER('name')} = ${ASCII_LOWER('$2::text')} ORDER BY name`, [this.workspaceId(), name]);
    return rows.map((row) => row[0]);
  }

  async packageSymbols(spec: PackageSymbolsSpec): Promise<{ results: StoredSymbol[]; total: number; forwardDeclarations: number }> {
    if (hasNul(spec.packageName)) return { results: [], total: 0, forwardDeclarations: 0 };
    const values: PgValue[] = [this.workspaceId(), spec.packageName];
    let where = 's.workspace_id = $1 AND s.file_id IN (SELECT f.id FROM files f JOIN packages p ON p.workspace_id = f.workspace_id AND p.id = f.package_id WHERE f.workspace_id = $1 AND p.name = $2)';
    if (spec.kinds?.length) {
      values.push(spec.kinds);
      where += ` AND s.kind = ANY($${values.length}::text[])`;
    }
    const counts = await this.connection.rows<{ fwd: number; n: number }>(`SELECT s.fwd AS fwd, count(*) AS n FROM symbols s WHERE ${where} GROUP BY s.fwd`, values);
    const total = counts.find((c) => c.fwd === 0)?.n ?? 0;
    const forwardDeclarations = counts.find((c) => c.fwd === 1)?.n ?? 0;
    const fwdFilter = spec.includeForwardDeclarations ? '' : ' AND s.fwd = 0';
    const rows = await this.connection.arrays<SymbolRow>(`SELECT ${SYMBOL_COLUMNS} FROM symbols s ${SYMBOL_JOINS} WHERE ${where}${fwdFilter} ORDER BY s.fwd, f.path, s.nl, s.nc, s.id
      LIMIT $${values.length + 1} OFFSET $${values.length + 2}`, [...values, spec.limit, spec.offset]);
    return { results: rows.map(toSymbol), total, forwardDeclarations };
  }

  async counts(): Promise<StoreCounts> {
    const rows = await this.connection.rows<{ files: number; symbols: number }>('SELECT count(*) AS files, coalesce(sum(symbol_count), 0) AS symbols FROM files WHERE workspace_id = $1', [this.workspaceId()]);
    return { files: rows[0].files, symbols: rows[0].symbols };
  }

  async leftOut(limit: number): Promise<LeftOut> {
    const workspace = this.workspaceId();
    const [counts, directories, files, outputs] = await Promise.all([
      this.connection.rows<{ reason: string; n: number }>('SELECT skipped AS reason, count(*)::integer AS n FROM files WHERE workspace_id = $1 AND skipped IS NOT NULL GROUP BY skipped ORDER BY skipped', [workspace]),
      this.connection.rows<{ n: number }>('SELECT count(*)::integer AS n FROM build_output WHERE workspace_id = $1', [workspace]),
      this.connection.arrays<[string, string, string | null]>('SELECT path, skipped, skipped_detail FROM files WHERE workspace_id = $1 AND skipped IS NOT NULL ORDER BY path LIMIT $2', [workspace, limit]),
      this.connection.arrays<[string, string]>('SELECT path, reason FROM build_output WHERE workspace_id = $1 ORDER BY path LIMIT $2', [workspace, limit]),
    ]);
    return leftOutOf(
      counts, directories[0]?.n ?? 0,
      files.map(([path, reason, detail]): LeftOutPath => ({ path, kind: 'file', reason: reason as LeftOutPath['reason'], detail: detail ?? '' })),
      outputs.map(([path, detail]): LeftOutPath => ({ path, kind: 'directory', reason: 'build_output', detail })),
      limit,
    );
  }

  async languageCounts(): Promise<Array<{ language: LanguageId; files: number; symbols: number }>> {
    return this.connection.rows<{ language: LanguageId; files: number; symbols: number }>(
      'SELECT language, count(*) AS files, coalesce(sum(symbol_count), 0) AS symbols FROM files WHERE workspace_id = $1 GROUP BY language ORDER BY symbols DESC, language', [this.workspaceId()]);
  }
}
