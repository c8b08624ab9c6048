/**
 * The embedded SymbolStore: one SQLite database per workspace (WAL). Every search tier is an
 * indexed lookup (lower(name), distinct names by first hump, FTS5 over distinct names and over
 * signatures); nothing scans the
 * symbols in JavaScript per query.
 */
import { mkdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import type { NormalizedKind } from '../kinds.js';
import { VERSION } from '../version.js';
import { symbolIds } from './ids.js';
import { fuzzyMatches, fuzzyPattern, humpSegments, humpsOf, prefixEnd, queryHumps, rankOf } from './ranking.js';
import type {
  FileFilter, IndexedFileInfo,
  FileStamp, FileState, FileUpdate, MatchTier, PackageInfo, PackageRef, PackageSymbolsSpec, SearchHit, SearchPage, SearchSpec,
  StoreCounts, StoredSymbol, SymbolFilters, SymbolStore,
} from './store.js';
import { COUNT_CAP } from './store.js';
import type { LanguageId, Parameter } from '../syntax/types.js';
import { LANGUAGES } from '../languages/index.js';
import { baseKey } from '../syntax/bases.js';

/** Bump when the tables, or what the extractor stores in them, change: a mismatch rebuilds. */
export const SCHEMA_VERSION = 11;

const SCHEMA = `
CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL) WITHOUT ROWID;
CREATE TABLE packages (
  id INTEGER PRIMARY KEY, name TEXT NOT NULL, path TEXT NOT NULL, manifest TEXT, external INTEGER NOT NULL,
  UNIQUE (name, path)
);
CREATE INDEX packages_lower ON packages (lower(name));
CREATE TABLE files (
  id INTEGER PRIMARY KEY, path TEXT NOT NULL UNIQUE, size INTEGER NOT NULL, mtime REAL NOT NULL, ctime REAL NOT NULL, ino INTEGER NOT NULL, hash TEXT NOT NULL,
  language TEXT NOT NULL, package_id INTEGER NOT NULL, external INTEGER NOT NULL, symbol_count INTEGER NOT NULL
);
CREATE INDEX files_package ON files (package_id);
CREATE TABLE symbols (
  id INTEGER PRIMARY KEY, sid TEXT NOT NULL, file_id INTEGER NOT NULL,
  name TEXT NOT NULL, name_lower TEXT NOT NULL, humps TEXT NOT NULL, kind TEXT NOT NULL,
  qualified_name TEXT NOT NULL, module TEXT, containing_type TEXT,
  sl INTEGER NOT NULL, sc INTEGER NOT NULL, el INTEGER NOT NULL, ec INTEGER NOT NULL,
  nl INTEGER NOT NULL, nc INTEGER NOT NULL, nel INTEGER NOT NULL, nec INTEGER NOT NULL,
  signature TEXT NOT NULL, parameters TEXT NOT NULL, return_type TEXT, doc TEXT,
  definition INTEGER NOT NULL, fwd INTEGER NOT NULL, external INTEGER NOT NULL, rank INTEGER NOT NULL,
  bases TEXT NOT NULL, language TEXT NOT NULL, package_id INTEGER NOT NULL
);
-- Distinct names (a third of the symbols or fewer): the fuzzy and substring tiers search these,
-- then reach symbols through symbols_name. Never deleted: a stale name joins nothing.
CREATE TABLE names (id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE, name_lower TEXT NOT NULL, first TEXT NOT NULL, humps TEXT NOT NULL);
CREATE INDEX names_camel ON names (first, humps);
-- Substrings of distinct names (rowid = names.id, trigrams) and words of signatures (rowid = symbols.id).
CREATE VIRTUAL TABLE name_text USING fts5 (name, tokenize = 'trigram', content = '', contentless_delete = 1);
CREATE VIRTUAL TABLE sig_text USING fts5 (signature, tokenize = 'unicode61', content = '', contentless_delete = 1);
-- The types deriving from a name: one row per base of a type, keyed by the base's last name segment with
-- generics stripped (\`ns::Base<T>\` → Base), and by the original name of a base written through an import alias.
CREATE TABLE symbol_bases (symbol_id INTEGER NOT NULL, base TEXT NOT NULL);
CREATE INDEX symbol_bases_base ON symbol_bases (base, symbol_id);
CREATE INDEX symbol_bases_symbol ON symbol_bases (symbol_id);
`;

/**
 * Additive changes applied to any database of this schema version on open. names_cover
 * carries what the CamelCase tier checks and joins on, so its scan over a first hump's names reads
 * no name rows.
 */
const MIGRATIONS = `
DROP INDEX IF EXISTS symbols_name_lower;
CREATE INDEX IF NOT EXISTS names_cover ON names (first, humps, name_lower, name);
CREATE INDEX IF NOT EXISTS symbols_container ON symbols (containing_type) WHERE containing_type IS NOT NULL;
`;

/**
 * The symbols table's indexes. A first build loads without symbols_sid (random keys, the costly
 * one to keep up row by row) and makes it once at its end; the name and file indexes stay, so
 * searches during the build keep their speed. Opening a database makes any that are missing (a
 * build killed mid-load).
 */
const SYMBOL_INDEXES = `
CREATE INDEX IF NOT EXISTS symbols_sid ON symbols (sid);
CREATE INDEX IF NOT EXISTS symbols_file ON symbols (file_id);
CREATE INDEX IF NOT EXISTS symbols_name ON symbols (name_lower, name, fwd, rank, file_id, nl, nc);
`;
const DROP_LOAD_INDEXES = 'DROP INDEX IF EXISTS symbols_sid;';

/**
 * Set in meta while signatures are not yet in sig_text: a bulk load fills it at its end, in one
 * statement (the signature tier answers once the first build is done).
 */
const TEXT_PENDING = 'signatures_pending';
const FILL_TEXT = 'INSERT INTO sig_text (rowid, signature) SELECT id, plumb_signature_text(signature, return_type) FROM symbols;';

/**
 * Read as arrays (SymbolRow): better-sqlite3 builds an array several times faster than an object per row.
 * search() reads many rows as one json_group_array() text instead: JSON.parse builds them faster than
 * better-sqlite3 converts value by value.
 */
const SYMBOL_COLUMNS = `s.sid, s.name, s.kind, f.path AS file, s.sl, s.sc, s.el, s.ec, s.nl, s.nc, s.nel, s.nec,
  s.containing_type, s.qualified_name, s.signature, s.parameters, s.return_type, p.name AS package, s.language,
  s.definition, s.fwd, s.external, s.doc, s.bases, s.id`;
/** SYMBOL_COLUMNS by their result names, for json_array() over them. */
const SYMBOL_NAMES = SYMBOL_COLUMNS.split(',').map((column) => column.trim().split(/\s+AS\s+|\./).pop()).join(', ');
const SYMBOL_JOINS = 'JOIN files f ON f.id = s.file_id JOIN packages p ON p.id = s.package_id';
/** Within a tier: user before external and definitions before declarations (rank), then name, file (index order), position. */
const ORDER_IN_TIER = 'ORDER BY s.rank, s.name, s.file_id, s.nl, s.nc';

/** The columns of SYMBOL_COLUMNS, in order. */
type SymbolRow = [
  sid: string, name: string, kind: string, file: string,
  sl: number, sc: number, el: number, ec: number, nl: number, nc: number, nel: number, nec: number,
  containingType: string | null, qualifiedName: string, signature: string, parameters: string, returnType: string | null,
  pkg: string, language: string, definition: number, fwd: number, external: number, doc: string | null, bases: string, id: number,
];

type SqlValue = string | number | null;

/** id, fwd, rank, name, file_id, nl, nc: what a tier is counted and ordered by. */
type NarrowRow = [number, number, number, string, number, number, number];
/** A tier with up to this many matches is read once and ordered here; a larger one is counted and paged in SQL. */
const NARROW_MAX = 2000;

/** ORDER_IN_TIER in JavaScript: names by code point, as SQLite's BINARY compares UTF-8 bytes; then id, the index's tie order. */
function compareInTier(a: NarrowRow, b: NarrowRow): number {
  return a[2] - b[2] || compareBinary(a[3], b[3]) || a[4] - b[4] || a[5] - b[5] || a[6] - b[6] || a[0] - b[0];
}

function compareBinary(a: string, b: string): number {
  if (a === b) return 0;
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const x = a.charCodeAt(i);
    const y = b.charCodeAt(i);
    if (x !== y) return codePointOrder(x) - codePointOrder(y);
  }
  return a.length - b.length;
}

/** A UTF-16 unit moved so surrogates (code points above U+FFFF) sort after U+E000..U+FFFF, as in UTF-8. */
function codePointOrder(unit: number): number {
  if (unit >= 0xd800 && unit <= 0xdfff) return unit + 0x2000;
  if (unit >= 0xe000) return unit - 0x800;
  return unit;
}
interface SqlPart { sql: string; params: SqlValue[] }

export interface SqliteStoreOptions {
  /** The database file; its directory is created. */
  file: string;
}

export class SqliteSymbolStore implements SymbolStore {
  private readonly db: Database.Database;
  private readonly statements = new Map<string, Database.Statement>();
  private readonly packageIds = new Map<string, number>();
  /** Set while a first build loads an empty store (see SymbolStore.bulkLoad). */
  private bulk = false;
  /** Names committed during the bulk load: names are never deleted, so a repeat skips its INSERT OR IGNORE. */
  private readonly loadedNames = new Set<string>();

  private constructor(db: Database.Database) {
    this.db = db;
  }

  /** Opens (or creates) the database; a different schema version or plumb version starts it afresh. */
  static open(options: SqliteStoreOptions): SqliteSymbolStore {
    mkdirSync(path.dirname(options.file), { recursive: true });
    let db = openDatabase(options.file);
    const version = readVersion(db);
    if (version !== fingerprint()) {
      db.close();
      for (const suffix of ['', '-wal', '-shm']) rmSync(options.file + suffix, { force: true });
      db = openDatabase(options.file);
      db.exec(SCHEMA);
      db.prepare('INSERT INTO meta (key, value) VALUES (?, ?)').run('version', fingerprint());
    }
    db.exec(MIGRATIONS);
    finishLoad(db);
    return new SqliteSymbolStore(db);
  }

  /**
   * Names per trigram (fts5vocab) and per first-hump prefix, read once each: they only choose how a tier is read.
   * Read afresh once the names grew by a tenth (a first build answers searches while it runs).
   */
  private readonly statCounts = new Map<string, number>();
  private statNames = 0;
  private vocab = false;
  private readonly stats: NameStats = {
    trigram: (trigram) => this.stat(`t${trigram}`, () => {
      if (!this.vocab) this.db.exec("CREATE VIRTUAL TABLE IF NOT EXISTS temp.name_trigrams USING fts5vocab(main, 'name_text', 'row')");
      this.vocab = true;
      return (this.statement('SELECT doc FROM temp.name_trigrams WHERE term = ?').pluck().get(trigram) as number | undefined) ?? 0;
    }),
    firstHump: (prefix) => this.stat(`f${prefix}`, () => this.statement('SELECT count(*) FROM names WHERE first >= ? AND first < ?').pluck().get(prefix, prefixEnd(prefix)) as number),
    names: () => this.statNames,
  };

  /** Forgets the counts when the names grew by a tenth since they were read. */
  private checkStats(): void {
    const names = (this.statement('SELECT max(id) FROM names').pluck().get() as number | null) ?? 0;
    if (names > this.statNames * 1.1) {
      this.statCounts.clear();
      this.statNames = names;
    }
  }

  private stat(key: string, read: () => number): number {
    let n = this.statCounts.get(key);
    if (n === undefined) {
      n = read();
      // Bounded: names hold some tens of thousands of distinct trigrams and first humps.
      if (this.statCounts.size >= 100_000) this.statCounts.clear();
      this.statCounts.set(key, n);
    }
    return n;
  }

  private statement(sql: string): Database.Statement {
    let statement = this.statements.get(sql);
    if (!statement) {
      statement = this.db.prepare(sql);
      this.statements.set(sql, statement);
    }
    return statement;
  }

  async search(spec: SearchSpec): Promise<SearchPage> {
    const end = spec.offset + spec.limit;
    // Counting stops near COUNT_CAP (never below the page's end) unless forward declarations are listed, whose offsets need every count.
    const cap = spec.includeForwardDeclarations ? Infinity : Math.max(COUNT_CAP, end + 1);
    let counted = 0;
    let capped = false;
    // Each tier once: a tier the page may reach is read as narrow rows (count and order from them) when small, else counted.
    let before = 0;
    this.checkStats();
    const tiers = spec.tiers.flatMap((tier) => {
      const source = tierSource(tier, spec, this.stats);
      if (!source || capped) return [];
      let rows: NarrowRow[] | undefined;
      if (before < end || spec.includeForwardDeclarations) {
        const found = JSON.parse(this.statement(`SELECT json_group_array(json_array(id, fwd, rank, name, file_id, nl, nc)) FROM (SELECT s.id AS id, s.fwd AS fwd, s.rank AS rank, s.name AS name, s.file_id AS file_id, s.nl AS nl, s.nc AS nc FROM ${source.from} WHERE ${source.where} LIMIT ${NARROW_MAX + 1})`)
          .pluck().get(...source.params) as string) as NarrowRow[];
        if (found.length <= NARROW_MAX) rows = found.sort(compareInTier);
      }
      let main: number;
      let fwd: number;
      if (rows) {
        fwd = rows.reduce((n, row) => n + row[1], 0);
        main = rows.length - fwd;
      } else if (cap === Infinity) {
        const all = this.statement(`SELECT count(*) AS n, coalesce(sum(s.fwd), 0) AS f FROM ${source.from} WHERE ${source.where}`).get(...source.params) as { n: number; f: number };
        fwd = all.f;
        main = all.n - all.f;
      } else if (before < end) {
        // The page reaches this large tier: its own count goes at least to the page's end, so the offset inside it stays exact.
        const mainLimit = Math.max(cap - counted, end - before);
        main = this.countUpTo(source, 0, mainLimit);
        const fwdLimit = Math.max(cap - counted - main, 0);
        fwd = this.countUpTo(source, 1, fwdLimit);
        if (main >= mainLimit || fwd >= fwdLimit) capped = true;
      } else {
        const budget = cap - counted;
        if (budget <= 0) {
          capped = true;
          return [];
        }
        const some = this.statement(`SELECT count(*) AS n, coalesce(sum(fwd), 0) AS f FROM (SELECT s.fwd AS fwd FROM ${source.from} WHERE ${source.where} LIMIT ?)`)
          .get(...source.params, budget) as { n: number; f: number };
        fwd = some.f;
        main = some.n - some.f;
        if (some.n >= budget) capped = true;
      }
      before += main;
      counted += main + fwd;
      return [{ tier, source, rows, main, fwd }];
    });
    const totalMatches = tiers.reduce((sum, t) => sum + t.main, 0);
    const forwardDeclarations = tiers.reduce((sum, t) => sum + t.fwd, 0);

    // Pages over the tiers in order; forward declarations come after everything when asked for.
    const segments = tiers.map((t) => ({ ...t, segmentFwd: 0, count: t.main }));
    if (spec.includeForwardDeclarations) segments.push(...tiers.map((t) => ({ ...t, segmentFwd: 1, count: t.fwd })));
    const picked: Array<{ id: number; tier: MatchTier }> = [];
    let skip = spec.offset;
    for (const segment of segments) {
      if (picked.length >= spec.limit) break;
      if (skip >= segment.count) {
        skip -= segment.count;
        continue;
      }
      const take = spec.limit - picked.length;
      const { from, where, params } = segment.source;
      const ids = segment.rows
        ? segment.rows.filter((row) => row[1] === segment.segmentFwd).slice(skip, skip + take).map((row) => row[0])
        : (this.statement(`SELECT s.id FROM ${from} WHERE ${where} AND s.fwd = ${segment.segmentFwd} ${ORDER_IN_TIER} LIMIT ? OFFSET ?`).pluck().all(...params, take, skip) as number[]);
      skip = 0;
      for (const id of ids) picked.push({ id, tier: segment.tier });
    }
    // Only the page's symbols are joined to their file and package, in one statement.
    const byId = new Map<number, SymbolRow>();
    if (picked.length > 0) {
      const rows = JSON.parse(this.statement(`SELECT json_group_array(json_array(${SYMBOL_NAMES})) FROM (SELECT ${SYMBOL_COLUMNS} FROM json_each(?) AS page CROSS JOIN symbols s ON s.id = page.value ${SYMBOL_JOINS})`)
        .pluck().get(JSON.stringify(picked.map((p) => p.id))) as string) as SymbolRow[];
      for (const row of rows) byId.set(row[24], row);
    }
    const results: SearchHit[] = [];
    for (const { id, tier } of picked) {
      const row = byId.get(id);
      if (row) results.push({ symbol: toSymbol(row), tier });
    }
    return capped ? { results, totalMatches, forwardDeclarations, countsCapped: true } : { results, totalMatches, forwardDeclarations };
  }

  /** Matches of one tier with this fwd, counting no further than `limit`. */
  private countUpTo(source: TierSql, fwd: number, limit: number): number {
    if (limit <= 0) return 0;
    return this.statement(`SELECT count(*) FROM (SELECT 1 FROM ${source.from} WHERE ${source.where} AND s.fwd = ${fwd} LIMIT ?)`).pluck().get(...source.params, limit) as number;
  }

  async symbolById(id: string): Promise<StoredSymbol | undefined> {
    const row = this.statement(`SELECT ${SYMBOL_COLUMNS} FROM symbols s ${SYMBOL_JOINS} WHERE s.sid = ? LIMIT 1`).raw().get(id) as SymbolRow | undefined;
    return row ? toSymbol(row) : undefined;
  }

  async symbolsInFile(file: string): Promise<StoredSymbol[]> {
    const rows = this.statement(`SELECT ${SYMBOL_COLUMNS} FROM symbols s ${SYMBOL_JOINS} WHERE s.file_id = (SELECT id FROM files WHERE path = ?) ORDER BY s.sl, s.sc, s.el DESC, s.ec DESC`)
      .raw().all(file) as SymbolRow[];
    return rows.map(toSymbol);
  }

  async symbolsInContainer(containingType: string, limit: number): Promise<StoredSymbol[]> {
    const rows = this.statement(`SELECT ${SYMBOL_COLUMNS} FROM symbols s ${SYMBOL_JOINS} WHERE s.containing_type = ? ORDER BY f.path, s.sl, s.sc LIMIT ?`)
      .raw().all(containingType, limit) as SymbolRow[];
    return rows.map(toSymbol);
  }

  async symbolsNamed(names: string[], limitPerName: number): Promise<StoredSymbol[]> {
    const statement = this.statement(`SELECT ${SYMBOL_COLUMNS} FROM symbols s ${SYMBOL_JOINS} WHERE s.name_lower = ? AND s.name = ? LIMIT ?`).raw();
    const out: StoredSymbol[] = [];
    for (const name of new Set(names)) {
      for (const row of statement.all(name.toLowerCase(), name, limitPerName) as SymbolRow[]) out.push(toSymbol(row));
    }
    return out;
  }

  async symbolsWithBase(name: string, limit: number): Promise<StoredSymbol[]> {
    const rows = this.statement(`SELECT ${SYMBOL_COLUMNS} FROM symbol_bases b CROSS JOIN symbols s ON s.id = b.symbol_id ${SYMBOL_JOINS} WHERE b.base = ? ORDER BY s.rank, f.path, s.nl, s.nc LIMIT ?`)
      .raw().all(name, limit) as SymbolRow[];
    return rows.map(toSymbol);
  }

  async indexedFiles(): Promise<string[]> {
    return this.statement('SELECT path FROM files ORDER BY path').pluck().all() as string[];
  }

  async indexedFileInfos(filter: FileFilter): Promise<IndexedFileInfo[]> {
    const where: string[] = [];
    const params: unknown[] = [];
    if (filter.packages?.length) {
      where.push(`p.name IN (${filter.packages.map(() => '?').join(', ')})`);
      params.push(...filter.packages);
    }
    if (filter.languages?.length) {
      where.push(`f.language IN (${filter.languages.map(() => '?').join(', ')})`);
      params.push(...filter.languages);
    }
    if (filter.userOnly) where.push('f.external = 0');
    const rows = this.statement(`SELECT f.path, f.language, f.size, f.mtime, p.name AS package, p.path AS package_path, f.external
      FROM files f JOIN packages p ON p.id = f.package_id ${where.length ? `WHERE ${where.join(' AND ')}` : ''} ORDER BY f.external, f.path`)
      .raw().all(...params) as Array<[string, LanguageId, number, number, string, string, number]>;
    return rows.map(([file, language, size, mtimeMs, pkg, packagePath, external]) => ({ file, language, size, mtimeMs, package: pkg, packagePath, external: external === 1 }));
  }

  async listPackages(): Promise<PackageInfo[]> {
    const rows = this.statement(`SELECT p.id, p.name, p.path, p.manifest, p.external, count(f.id) AS files, coalesce(sum(f.symbol_count), 0) AS symbols
      FROM packages p LEFT JOIN files f ON f.package_id = p.id GROUP BY p.id ORDER BY p.external, p.name, p.path`).all() as Array<{ id: number; name: string; path: string; manifest: string | null; external: number; files: number; symbols: number }>;
    const languages = new Map<number, { language: string; n: number }>();
    for (const row of this.statement('SELECT package_id, language, count(*) AS n FROM files GROUP BY package_id, language').all() as Array<{ package_id: number; language: string; n: number }>) {
      const best = languages.get(row.package_id);
      if (!best || row.n > best.n) languages.set(row.package_id, { language: row.language, n: row.n });
    }
    return rows.map((row) => ({
      name: row.name,
      path: row.path,
      manifest: row.manifest,
      language: (languages.get(row.id)?.language ?? null) as LanguageId | null,
      symbols: row.symbols,
      files: row.files,
      external: row.external === 1,
    }));
  }

  async packageNamesLike(name: string): Promise<string[]> {
    const rows = this.statement('SELECT DISTINCT name FROM packages WHERE lower(name) = lower(?)').all(name) as Array<{ name: string }>;
    return rows.map((row) => row.name);
  }

  async packageSymbols(spec: PackageSymbolsSpec): Promise<{ results: StoredSymbol[]; total: number; forwardDeclarations: number }> {
    const where: SqlPart = { sql: 's.file_id IN (SELECT f.id FROM files f JOIN packages p ON p.id = f.package_id WHERE p.name = ?)', params: [spec.packageName] };
    if (spec.kinds?.length) {
      where.sql += ` AND s.kind IN (${spec.kinds.map(() => '?').join(', ')})`;
      where.params.push(...spec.kinds);
    }
    const counts = this.statement(`SELECT s.fwd AS fwd, count(*) AS n FROM symbols s WHERE ${where.sql} GROUP BY s.fwd`).all(...where.params) as Array<{ fwd: number; n: number }>;
    const total = counts.find((c) => c.fwd === 0)?.n ?? 0;
    const forwardDeclarations = counts.find((c) => c.fwd === 1)?.n ?? 0;
    const fwdFilter = spec.includeForwardDeclarations ? '' : ' AND s.fwd = 0';
    const rows = this.statement(`SELECT ${SYMBOL_COLUMNS} FROM symbols s ${SYMBOL_JOINS} WHERE ${where.sql}${fwdFilter} ORDER BY s.fwd, f.path, s.nl, s.nc LIMIT ? OFFSET ?`)
      .raw().all(...where.params, spec.limit, spec.offset) as SymbolRow[];
    return { results: rows.map(toSymbol), total, forwardDeclarations };
  }

  async counts(): Promise<StoreCounts> {
    const row = this.statement('SELECT count(*) AS files, coalesce(sum(symbol_count), 0) AS symbols FROM files').get() as { files: number; symbols: number };
    return { files: row.files, symbols: row.symbols };
  }

  async languageCounts(): Promise<Array<{ language: LanguageId; files: number; symbols: number }>> {
    return this.statement('SELECT language, count(*) AS files, coalesce(sum(symbol_count), 0) AS symbols FROM files GROUP BY language ORDER BY symbols DESC, language')
      .all() as Array<{ language: LanguageId; files: number; symbols: number }>;
  }

  async fileStates(): Promise<Map<string, FileState>> {
    const states = new Map<string, FileState>();
    for (const row of this.statement('SELECT path, size, mtime, ctime, ino, hash FROM files').all() as Array<{ path: string; size: number; mtime: number; ctime: number; ino: number; hash: string }>) {
      states.set(row.path, { size: row.size, mtimeMs: row.mtime, ctimeMs: row.ctime, ino: row.ino, hash: row.hash });
    }
    return states;
  }

  async fileStatesOf(files: string[]): Promise<Map<string, FileState>> {
    const states = new Map<string, FileState>();
    const statement = this.statement('SELECT size, mtime, ctime, ino, hash FROM files WHERE path = ?');
    for (const file of files) {
      const row = statement.get(file) as { size: number; mtime: number; ctime: number; ino: number; hash: string } | undefined;
      if (row) states.set(file, { size: row.size, mtimeMs: row.mtime, ctimeMs: row.ctime, ino: row.ino, hash: row.hash });
    }
    return states;
  }

  async filesUnder(directory: string): Promise<string[]> {
    const prefix = directory.endsWith('/') ? directory : `${directory}/`;
    const rows = this.statement('SELECT path FROM files WHERE path > ? AND path < ?').all(prefix, prefixEnd(prefix)) as Array<{ path: string }>;
    return rows.map((row) => row.path);
  }

  async write(updates: FileUpdate[], removed: string[], touched: FileStamp[] = []): Promise<void> {
    const fileId = this.statement('SELECT id FROM files WHERE path = ?');
    const dropText = [
      this.statement('DELETE FROM sig_text WHERE rowid IN (SELECT id FROM symbols WHERE file_id = ?)'),
      this.statement('DELETE FROM symbol_bases WHERE symbol_id IN (SELECT id FROM symbols WHERE file_id = ?)'),
    ];
    const dropSymbols = this.statement('DELETE FROM symbols WHERE file_id = ?');
    const dropFile = this.statement('DELETE FROM files WHERE id = ?');
    const touch = this.statement('UPDATE files SET size = ?, mtime = ?, ctime = ?, ino = ? WHERE path = ?');
    const upsertFile = this.statement(`INSERT INTO files (path, size, mtime, ctime, ino, hash, language, package_id, external, symbol_count) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
      ON CONFLICT (path) DO UPDATE SET size = excluded.size, mtime = excluded.mtime, ctime = excluded.ctime, ino = excluded.ino, hash = excluded.hash, language = excluded.language,
      package_id = excluded.package_id, external = excluded.external, symbol_count = excluded.symbol_count RETURNING id`);
    const insertSymbol = this.statement(`INSERT INTO symbols (sid, file_id, name, name_lower, humps, kind, qualified_name, containing_type,
      sl, sc, el, ec, nl, nc, nel, nec, signature, parameters, return_type, doc, definition, fwd, external, rank, bases, language, package_id, module)
      VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`);
    const insertName = this.statement('INSERT OR IGNORE INTO names (name, name_lower, first, humps) VALUES (?, ?, ?, ?)');
    const insertNameText = this.statement('INSERT INTO name_text (rowid, name) VALUES (?, ?)');
    const insertSig = this.statement('INSERT INTO sig_text (rowid, signature) VALUES (?, ?)');
    const insertBase = this.statement('INSERT INTO symbol_bases (symbol_id, base) VALUES (?, ?)');

    const dropFileContent = (id: number): void => {
      for (const statement of dropText) statement.run(id);
      dropSymbols.run(id);
    };
    const apply = this.db.transaction(() => {
      for (const file of removed) {
        const row = fileId.get(file) as { id: number } | undefined;
        if (!row) continue;
        dropFileContent(row.id);
        dropFile.run(row.id);
      }
      for (const t of touched) touch.run(t.size, t.mtimeMs, t.ctimeMs, t.ino, t.file);
      for (const update of updates) {
        const packageId = this.packageId(update.package);
        const existing = fileId.get(update.file) as { id: number } | undefined;
        if (existing) dropFileContent(existing.id);
        const { id } = upsertFile.get(update.file, update.size, update.mtimeMs, update.ctimeMs ?? 0, update.ino ?? 0, update.hash, update.language, packageId, update.external ? 1 : 0, update.symbols.length) as { id: number };
        const ids = symbolIds(update.file, update.symbols);
        update.symbols.forEach((symbol, i) => {
          const humps = humpsOf(symbol.name);
          const { lastInsertRowid } = insertSymbol.run(
            ids[i], id, symbol.name, symbol.name.toLowerCase(), humps, symbol.kind, symbol.qualifiedName, symbol.containingType,
            symbol.range.start.line, symbol.range.start.column, symbol.range.end.line, symbol.range.end.column,
            symbol.selectionRange.start.line, symbol.selectionRange.start.column, symbol.selectionRange.end.line, symbol.selectionRange.end.column,
            symbol.signature, JSON.stringify(symbol.parameters), symbol.returnType, symbol.doc,
            symbol.definition ? 1 : 0, symbol.forwardDeclaration ? 1 : 0, update.external ? 1 : 0, rankOf(update.external, symbol.definition),
            JSON.stringify(symbol.bases), symbol.language, packageId, update.module ?? null,
          );
          if (!this.loadedNames.has(symbol.name)) {
            const name = insertName.run(symbol.name, symbol.name.toLowerCase(), humpSegments(symbol.name)[0] ?? '', humps);
            if (name.changes > 0) insertNameText.run(name.lastInsertRowid, symbol.name);
            if (this.bulk) this.loadedNames.add(symbol.name);
          }
          if (!this.bulk) insertSig.run(lastInsertRowid, signatureText(symbol.signature, symbol.returnType));
          if (symbol.bases.length > 0) for (const key of baseKeys(symbol)) insertBase.run(lastInsertRowid, key);
        });
      }
    });
    try {
      apply();
    } catch (error) {
      // A rolled-back batch may have named names it never committed.
      this.loadedNames.clear();
      throw error;
    }
  }

  async registerPackages(packages: PackageRef[]): Promise<void> {
    this.db.transaction(() => {
      for (const ref of packages) this.packageId(ref);
    })();
  }

  async prunePackages(keep: PackageRef[]): Promise<void> {
    const wanted = new Set(keep.map((ref) => `${ref.name}\u0000${ref.path}`));
    const rows = this.statement('SELECT p.id, p.name, p.path, (SELECT count(*) FROM files f WHERE f.package_id = p.id) AS files FROM packages p').all() as Array<{ id: number; name: string; path: string; files: number }>;
    const drop = this.statement('DELETE FROM packages WHERE id = ?');
    this.db.transaction(() => {
      for (const row of rows) {
        if (row.files > 0 || wanted.has(`${row.name}\u0000${row.path}`)) continue;
        drop.run(row.id);
        this.packageIds.delete(`${row.name}\u0000${row.path}`);
      }
    })();
  }

  /** Refreshes the planner's statistics after a build (bounded work). */
  async optimize(): Promise<void> {
    this.db.pragma('analysis_limit = 1000');
    this.db.pragma('optimize');
  }

  async bulkLoad(on: boolean): Promise<void> {
    if (on === this.bulk || !this.db.open) return;
    this.bulk = on;
    this.loadedNames.clear();
    if (on) {
      // A lookup by id during the load scans the table instead; what is committed is still found.
      this.db.transaction(() => {
        this.db.exec(DROP_LOAD_INDEXES);
        this.statement('INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)').run(TEXT_PENDING, '1');
      })();
    } else {
      finishLoad(this.db);
    }
    // WAL commits are write()s to the OS: a process kill loses none of them with or without fsync.
    this.db.pragma(on ? 'synchronous = OFF' : 'synchronous = NORMAL');
    // The checkpoint under NORMAL syncs the log and the database, covering what OFF left unsynced.
    if (!on) this.db.pragma('wal_checkpoint(PASSIVE)');
  }

  async close(): Promise<void> {
    if (this.bulk) await this.bulkLoad(false);
    if (this.db.open) this.db.close();
  }

  private packageId(ref: PackageRef): number {
    const key = `${ref.name}\u0000${ref.path}`;
    let id = this.packageIds.get(key);
    if (id === undefined) {
      const row = this.statement(`INSERT INTO packages (name, path, manifest, external) VALUES (?, ?, ?, ?)
        ON CONFLICT (name, path) DO UPDATE SET manifest = excluded.manifest, external = excluded.external RETURNING id`)
        .get(ref.name, ref.path, ref.manifest, ref.external ? 1 : 0) as { id: number };
      id = row.id;
      this.packageIds.set(key, id);
    }
    return id;
  }
}

function openDatabase(file: string): Database.Database {
  const db = new Database(file);
  db.pragma('journal_mode = WAL');
  // NORMAL in WAL mode keeps every committed transaction across a process kill (only an OS crash can lose the last ones).
  db.pragma('synchronous = NORMAL');
  db.pragma('temp_store = MEMORY');
  db.pragma('cache_size = -65536');
  // Modest: mapped pages count in the service's RSS, and the page cache serves reads well enough.
  db.pragma('mmap_size = 268435456');
  // sig_text's text, the same whether a row is written alone or a bulk load fills the table at its end.
  db.function('plumb_signature_text', { deterministic: true }, (signature: unknown, returnType: unknown) => signatureText(String(signature), returnType === null ? null : String(returnType)));
  db.function('plumb_camel', { deterministic: true }, (name: unknown, query: unknown) => (fuzzyMatches(String(name), String(query)) ? 1 : 0));
  return db;
}

/** Makes missing symbol indexes and fills sig_text when a bulk load left it pending. */
function finishLoad(db: Database.Database): void {
  db.transaction(() => {
    db.exec(SYMBOL_INDEXES);
    if (db.prepare('SELECT 1 FROM meta WHERE key = ?').get(TEXT_PENDING)) {
      // Only an empty store starts a bulk load, so no signature predates it.
      db.exec(FILL_TEXT);
      // One segment per full-text table: lookups then read one b-tree instead of some twenty.
      db.exec("INSERT INTO name_text (name_text) VALUES ('optimize'); INSERT INTO sig_text (sig_text) VALUES ('optimize');");
      db.prepare('DELETE FROM meta WHERE key = ?').run(TEXT_PENDING);
    }
  })();
}

function readVersion(db: Database.Database): string | undefined {
  try {
    const row = db.prepare("SELECT value FROM meta WHERE key = 'version'").get() as { value: string } | undefined;
    return row?.value;
  } catch {
    return undefined;
  }
}

/** The schema version and the plumb version: a new release may extract differently, so it rebuilds. */
function fingerprint(): string {
  return `${SCHEMA_VERSION}/${VERSION}`;
}

/** The symbol_bases keys of a type: each base's last name segment, and the names its import aliases stand for. */
function baseKeys(symbol: { bases: string[]; baseAliases?: string[] }): Set<string> {
  const keys = new Set<string>();
  for (const base of symbol.bases) {
    const key = baseKey(base);
    if (key) keys.add(key);
  }
  for (const alias of symbol.baseAliases ?? []) keys.add(alias);
  return keys;
}

/** Signature words plus the return type, which some languages' signatures leave out. */
function signatureText(signature: string, returnType: string | null): string {
  return returnType && !signature.includes(returnType) ? `${signature} ${returnType}` : signature;
}

/**
 * An FTS5 phrase: the text quoted, inner quotes doubled, so operators in a query are just text. FTS5 reads
 * its query as a C string, so a NUL would end it mid-phrase ("unterminated string"): it becomes a space,
 * a separator as every other control character is to the tokenizers (names hold none, and the instr()
 * checks after a MATCH still compare the query as sent).
 */
function phrase(text: string): string {
  return `"${text.replace(/\0/g, ' ').replace(/"/g, '""')}"`;
}

/**
 * The trigram MATCH for a substring: an ASCII query as the AND of trigrams that cover it without
 * overlapping (`matcher` → mat AND che AND her), which FTS5 answers from rowid lists, several times
 * faster than a phrase of every trigram; with `docCount` (names per trigram), the AND of its three
 * rarest trigrams, as a common one (`ect`: 28,000 names) costs more than it narrows. The instr()
 * check on the name that follows keeps exactly the names that contain the query.
 */
export function trigramMatch(text: string, docCount?: (trigram: string) => number): string {
  // Non-ASCII case folding may differ between FTS5 and toLowerCase: those keep the exact phrase.
  if (!/^[\x20-\x7e]+$/.test(text) || text.length <= 3) return phrase(text);
  const lower = text.toLowerCase();
  // FTS5 reads the three short rowid lists, instr() does the rest.
  if (docCount) return rarestTrigrams([lower], docCount).map((c) => phrase(c.trigram)).join(' AND ');
  const trigrams = new Set<string>();
  for (let i = 0; i + 3 <= lower.length; i += 3) trigrams.add(lower.slice(i, i + 3));
  trigrams.add(lower.slice(-3));
  return [...trigrams].map(phrase).join(' AND ');
}

/**
 * The three rarest trigrams inside `words` (lower case), weighing at most eight spread over them: the
 * first look-up of each reads its rowid list. A third list costs less than the candidate names it
 * rules out (`matcher`: 2,698 names hold `tch` and `mat`, 415 also `her`).
 */
function rarestTrigrams(words: string[], docCount: (trigram: string) => number): Array<{ trigram: string; n: number }> {
  const all = words.flatMap((word) => Array.from({ length: Math.max(word.length - 2, 0) }, (_, i) => word.slice(i, i + 3)));
  const spread = all.length <= 8 ? all : Array.from({ length: 8 }, (_, i) => all[Math.round((i * (all.length - 1)) / 7)]);
  return [...new Set(spread)].map((trigram) => ({ trigram, n: docCount(trigram) })).sort((a, b) => a.n - b.n).slice(0, 3);
}

function filterSql(filters: SymbolFilters, qualifier: string | undefined): SqlPart {
  const parts: string[] = [];
  const params: SqlValue[] = [];
  if (filters.kinds?.length) {
    parts.push(`s.kind IN (${filters.kinds.map(() => '?').join(', ')})`);
    params.push(...filters.kinds);
  }
  if (filters.packages?.length) {
    parts.push(`s.package_id IN (SELECT id FROM packages WHERE name IN (${filters.packages.map(() => '?').join(', ')}))`);
    params.push(...filters.packages);
  }
  if (filters.language) {
    parts.push('s.language = ?');
    params.push(filters.language);
  }
  if (filters.userOnly) parts.push('s.external = 0');
  if (filters.containingType) {
    parts.push('s.containing_type = ?');
    params.push(filters.containingType);
  }
  if (qualifier) {
    // qualifierMatches in SQL (no JavaScript call per candidate): `qualifier.name` is the whole normalized qualified name or its tail after a `.`.
    // The qualifier's last segment holds no separator, so the raw qualified name contains it too: instr() spares most replace() calls.
    const normalized = "replace(replace(s.qualified_name, '::', '.'), '#', '.')";
    const tail = (path: string): string => `(${path} = ? || '.' || s.name OR substr(${path}, -(length(s.name) + length(?) + 2)) = '.' || ? || '.' || s.name)`;
    // Else the same with the symbol's module in front (`http.HandlerFunc`, `flask.app.Flask`), or, where a package names
    // what its modules hold (Python's `flask.Flask`, `flask.Flask.run`), `qualifier.name` as a package above the module
    // and then the whole qualified name.
    const moduled = `s.module || '.' || ${normalized}`;
    const wanted = "(? || '.' || s.name)";
    const packaged = `(s.language IN (${PACKAGE_PREFIX_LANGUAGES}) AND length(${wanted}) > length(${normalized}) + 1 AND substr(${wanted}, -(length(${normalized}) + 1)) = '.' || ${normalized}
      AND substr(s.module || '.', 1, length(${wanted}) - length(${normalized})) = substr(${wanted}, 1, length(${wanted}) - length(${normalized})))`;
    // The qualifier's last segment is in the module or the qualified name: instr() spares the rest for most candidates.
    const last = qualifier.slice(qualifier.lastIndexOf('.') + 1);
    parts.push(`((instr(s.qualified_name, ?) > 0 AND ${tail(normalized)}) OR (s.module IS NOT NULL AND (instr(s.module, ?) > 0 OR instr(s.qualified_name, ?) > 0)
      AND (${tail(moduled)} OR ${packaged})))`);
    params.push(last, qualifier, qualifier, qualifier, last, last, qualifier, qualifier, qualifier, ...Array(5).fill(qualifier));
  }
  return { sql: parts.map((p) => ` AND ${p}`).join(''), params };
}

interface TierSql { from: string; where: string; params: SqlValue[] }

/** The languages whose packages name what their modules hold (`packagePrefix` in src/languages/<id>.ts), as an SQL list. */
const PACKAGE_PREFIX_LANGUAGES = LANGUAGES.filter((language) => language.packagePrefix).map((language) => `'${language.id}'`).join(', ');

/** How many names hold a trigram, or have a first hump starting with a prefix: they choose a plan, never an answer. */
interface NameStats {
  trigram(trigram: string): number;
  firstHump(prefix: string): number;
  /** Distinct names in all. */
  names(): number;
}

/**
 * What a tier's plan costs, in microseconds, measured on the million-symbol index: reading one entry of
 * a trigram's rowid list; fetching and checking one candidate name; scanning one name of a first-hump range.
 */
const COST_POSTING = 0.015;
const COST_CANDIDATE = 0.7;
const COST_SCAN = 0.12;

/**
 * The trigrams whose names are the CamelCase tier's cheapest candidates, with their estimated cost:
 * the rarest trigram of each hump of three letters or more, the rarest first, as many (up to three)
 * as lower the estimate. A further trigram costs its rowid list and spares the candidates it rules out,
 * guessed as if humps occurred independently (ten times as often together, to be safe).
 */
export function fuzzyTrigrams(humps: string[], docCount: (trigram: string) => number, names: number): { trigrams: string[]; cost: number } | undefined {
  const picks = humps.filter((hump) => hump.length >= 3)
    .map((hump) => rarestTrigrams([hump], docCount)[0])
    .filter((pick) => pick !== undefined)
    .sort((a, b) => a.n - b.n);
  let best: { trigrams: string[]; cost: number } | undefined;
  let listed = 0;
  let candidates = 0;
  for (const [i, pick] of picks.slice(0, 3).entries()) {
    if (best?.trigrams.includes(pick.trigram)) continue;
    listed += pick.n;
    candidates = i === 0 ? pick.n : candidates * Math.min(1, (10 * pick.n) / Math.max(names, 1));
    const cost = listed * COST_POSTING + candidates * COST_CANDIDATE;
    if (!best || cost < best.cost) best = { trigrams: [...(best?.trigrams ?? []), pick.trigram], cost };
    else break;
  }
  return best;
}

/**
 * The FROM/WHERE of one tier, made disjoint from the tiers before it so counts add up and a
 * symbol is listed once, in its best tier. Undefined when the tier cannot apply to the query.
 */
function tierSource(tier: MatchTier, spec: SearchSpec, stats: NameStats): TierSql | undefined {
  const q = spec.name;
  const ql = q.toLowerCase();
  const filters = filterSql(spec, spec.qualifier);
  const fuzzy = fuzzyPattern(q);
  const humps = queryHumps(q);
  // Initials only (`FPC`): the LIKE over the name's initials is the whole CamelCase rule, no JavaScript call needed.
  const initialsOnly = humps.every((hump) => hump.length === 1);
  // The LIKE over humps narrows cheaply; plumb_camel decides (hump prefixes in order).
  const camel = initialsOnly ? '' : ' AND plumb_camel(s.name, ?)';
  const notFuzzy = fuzzy ? ` AND NOT (s.humps LIKE ?${camel})` : '';
  const byName = 'CROSS JOIN symbols s ON s.name_lower = n.name_lower AND s.name = n.name';
  const notFuzzyParams = fuzzy ? (initialsOnly ? [fuzzy] : [fuzzy, q]) : [];
  let base: TierSql;
  switch (tier) {
    case 'exact':
      // Through the lower-case index: one index fewer to maintain on every insert.
      base = { from: 'symbols s', where: 's.name_lower = ? AND s.name = ?', params: [ql, q] };
      break;
    case 'exact_case_insensitive':
      base = { from: 'symbols s', where: 's.name_lower = ? AND s.name <> ?', params: [ql, q] };
      break;
    case 'prefix':
      base = { from: 'symbols s', where: 's.name_lower > ? AND s.name_lower < ?', params: [ql, prefixEnd(ql)] };
      break;
    case 'fuzzy': {
      if (!fuzzy) return undefined;
      const first = humps[0];
      // A later hump of the query starts a hump of the name, so the name contains it: instr() spares most plumb_camel calls.
      const words = humps.slice(1).filter((hump) => hump.length > 1);
      const where = `n.first >= ? AND n.first < ? AND n.humps LIKE ? AND instr(n.name_lower, ?) <> 1${words.map(() => ' AND instr(n.name_lower, ?) > 0').join('')}${camel.replace(/s\./g, 'n.')}`;
      const params = [first, prefixEnd(first), fuzzy, ql, ...words, ...(initialsOnly ? [] : [q])];
      // Each hump of the query is inside the name, so names holding a rare trigram of each hump are candidates too:
      // taken when reading them costs less than scanning the first hump's names (`TestPartResult`: 2,311 names hold
      // `sul`, 57 of them `art` too; 7,986 names start with `test`).
      const rare = fuzzyTrigrams(humps, stats.trigram, stats.names());
      if (rare && rare.cost < stats.firstHump(first) * COST_SCAN) {
        base = { from: `name_text CROSS JOIN names n ON n.id = name_text.rowid ${byName}`, where: `name_text MATCH ? AND ${where}`, params: [rare.trigrams.map(phrase).join(' AND '), ...params] };
        break;
      }
      // Distinct names whose first hump starts with the query's (CROSS JOIN keeps that order), then their symbols.
      base = { from: `names n ${byName}`, where, params };
      break;
    }
    case 'substring':
      // Trigrams need three characters; one or two are served by the prefix and initials tiers, never a scan.
      if (ql.length < 3) return undefined;
      base = {
        from: `name_text CROSS JOIN names n ON n.id = name_text.rowid ${byName}`,
        where: `name_text MATCH ? AND instr(n.name_lower, ?) > 1${notFuzzy.replace(/s\./g, 'n.')}`,
        params: [trigramMatch(q, stats.trigram), ql, ...notFuzzyParams],
      };
      break;
    case 'signature':
      if (spec.qualifier || !/[A-Za-z0-9_]/.test(q)) return undefined;
      base = {
        from: 'sig_text CROSS JOIN symbols s ON s.id = sig_text.rowid',
        where: `sig_text MATCH ? AND instr(s.name_lower, ?) = 0${notFuzzy}`,
        params: [phrase(q), ql, ...notFuzzyParams],
      };
      break;
  }
  return { from: base.from, where: base.where + filters.sql, params: [...base.params, ...filters.params] };
}

function toSymbol(row: SymbolRow): StoredSymbol {
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

/** Most symbols have no parameters or bases: '[]' needs no JSON.parse. */
function parseList(json: string): unknown[] {
  return json === '[]' ? [] : (JSON.parse(json) as unknown[]);
}
