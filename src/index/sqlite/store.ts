/**
 * The embedded SymbolStore: one SQLite database per workspace (WAL). It composes the parts, each
 * one job: schema.ts opens the database, search.ts plans searches, reader.ts answers the other
 * reads, writer.ts writes, rows.ts maps rows to symbols.
 */
import type Database from 'better-sqlite3';
import type {
  BuildOutputDirectory, FileFilter, FileStamp, FileState, FileUpdate, IndexedFileInfo, LeftOut, PackageInfo, PackageRef, PackageSymbolsSpec,
  SearchPage, SearchSpec, StoreCounts, StoredSymbol, StoreInfo, SymbolStore,
} from '../store.js';
import type { LanguageId } from '../../syntax/types.js';
import { SearchCache } from '../search-cache.js';
import { SymbolQueries } from './reader.js';
import { openStoreDatabase, SCHEMA_VERSION } from './schema.js';
import { SearchPlanner } from './search.js';
import { SearchThreads, THREADS_FROM_SYMBOLS } from './search-threads.js';
import { Statements } from './statements.js';
import { SymbolWrites } from './writer.js';

export interface SqliteStoreOptions {
  /** The database file; its directory is created. */
  file: string;
  /**
   * Threads answering searches (src/index/sqlite/search-threads.ts): by default one per core once the index holds
   * THREADS_FROM_SYMBOLS symbols; 0 keeps every search on the calling thread; a number starts that many when serving begins
   * (serveSearches) or at the first search.
   */
  searchThreads?: number;
}

/** meta's row for the last build's state (recordBuild): `{"state":"ready","filesTotal":83}`. */
const BUILD_KEY = 'build';

/** The build state a previous process recorded; null when none did (a new database, or one from before it was kept). */
function readBuild(db: Database.Database): StoreInfo['build'] {
  const row = db.prepare('SELECT value FROM meta WHERE key = ?').get(BUILD_KEY) as { value: string } | undefined;
  if (!row) return null;
  try {
    const value = JSON.parse(row.value) as { state?: unknown; filesTotal?: unknown };
    if ((value.state === 'building' || value.state === 'ready') && typeof value.filesTotal === 'number') return { state: value.state, filesTotal: value.filesTotal };
  } catch {
    // An unreadable row is no record.
  }
  return null;
}

export class SqliteSymbolStore implements SymbolStore {
  private readonly db: Database.Database;
  private readonly planner: SearchPlanner;
  private readonly queries: SymbolQueries;
  private readonly writes: SymbolWrites;
  private readonly file: string;
  /** Writes committed through this process (the only writer of an embedded store). */
  private version = 0;
  private lastUpdate: string | null = null;
  private build: StoreInfo['build'] = null;
  /** Search pages answered since the last change (src/index/search-cache.ts). */
  private readonly searches = new SearchCache();
  /** Bumped by every write method; with SQLite's data_version (commits by other connections) it stamps the cached searches. */
  private changes = 0;
  private readonly dataVersion: Database.Statement;
  private threads: SearchThreads | undefined;
  private readonly threadCount: number | undefined;
  private readonly maxSymbolId: Database.Statement;
  private fileInfos: { stamp: string; infos: IndexedFileInfo[] } | undefined;

  private constructor(db: Database.Database, file: string, threadCount: number | undefined) {
    this.db = db;
    this.file = file;
    this.threadCount = threadCount;
    const statements = new Statements(db);
    this.planner = new SearchPlanner(statements);
    this.queries = new SymbolQueries(statements);
    this.writes = new SymbolWrites(statements);
    this.dataVersion = db.prepare('PRAGMA data_version').pluck();
    this.maxSymbolId = db.prepare('SELECT max(id) FROM symbols').pluck();
    this.build = readBuild(db);
  }

  /** Opens (or creates) the database; a different schema version or plumb version starts it afresh. */
  static open(options: SqliteStoreOptions): SqliteSymbolStore {
    return new SqliteSymbolStore(openStoreDatabase(options.file), options.file, options.searchThreads);
  }

  async storeInfo(): Promise<StoreInfo> {
    return { backend: 'sqlite', location: this.file, schemaVersion: SCHEMA_VERSION, workspace: null, version: this.version, lastUpdate: this.lastUpdate, build: this.build };
  }

  /** Kept in meta: a restart on a store whose last build finished answers at once, not as a partial index. */
  async recordBuild(state: 'building' | 'ready', filesTotal: number): Promise<void> {
    this.build = { state, filesTotal };
    this.db.prepare('INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)').run(BUILD_KEY, JSON.stringify(this.build));
  }

  onChange(): () => void {
    return () => undefined;
  }

  async search(spec: SearchSpec): Promise<SearchPage> {
    // Another process writing the same database (plumb index while plumb serves) changes data_version.
    const stamp = `${this.changes}:${this.dataVersion.get() as number}`;
    const threads = this.searchThreads();
    return this.searches.pageAsync(spec, stamp, async () => (threads ? await threads.search(spec) : undefined) ?? this.planner.search(spec));
  }

  /** Serving begins: the search threads start now on an index large enough for them (or as the options say), not at the first search. */
  serveSearches(): void {
    this.searchThreads();
  }

  /** The search threads, started when serving begins or at the first search, on an index large enough for them (or as the options say). */
  private searchThreads(): SearchThreads | undefined {
    if (this.threads || this.threadCount === 0 || !this.db.open) return this.threads;
    if (this.threadCount === undefined && ((this.maxSymbolId.get() as number | null) ?? 0) < THREADS_FROM_SYMBOLS) return undefined;
    this.threads = new SearchThreads(this.file, this.threadCount);
    return this.threads;
  }

  async symbolById(id: string): Promise<StoredSymbol | undefined> {
    return this.queries.symbolById(id);
  }

  async symbolsInFile(file: string): Promise<StoredSymbol[]> {
    return this.queries.symbolsInFile(file);
  }

  async symbolsInContainer(containingType: string, limit: number): Promise<StoredSymbol[]> {
    return this.queries.symbolsInContainer(containingType, limit);
  }

  async symbolsNamed(names: string[], limitPerName: number): Promise<StoredSymbol[]> {
    return this.queries.symbolsNamed(names, limitPerName);
  }

  async symbolsWithBase(name: string, limit: number): Promise<StoredSymbol[]> {
    return this.queries.symbolsWithBase(name, limit);
  }

  async indexedFiles(): Promise<string[]> {
    return this.queries.indexedFiles();
  }

  /**
   * Kept until the next change (the last filter asked): the syntactic answers that read the tree for a name ask for
   * every file each time, 55,000 rows on the kernel (about 100 ms) against the few files the word index leaves them.
   */
  async indexedFileInfos(filter: FileFilter): Promise<IndexedFileInfo[]> {
    const stamp = `${this.changes}:${this.dataVersion.get() as number}:${JSON.stringify(filter)}`;
    if (this.fileInfos?.stamp !== stamp) this.fileInfos = { stamp, infos: this.queries.indexedFileInfos(filter) };
    return this.fileInfos.infos.slice();
  }

  async listPackages(): Promise<PackageInfo[]> {
    return this.queries.listPackages();
  }

  async packageNamesLike(name: string): Promise<string[]> {
    return this.queries.packageNamesLike(name);
  }

  async packageSymbols(spec: PackageSymbolsSpec): Promise<{ results: StoredSymbol[]; total: number; forwardDeclarations: number }> {
    return this.queries.packageSymbols(spec);
  }

  async counts(): Promise<StoreCounts> {
    return this.queries.counts();
  }

  async languageCounts(): Promise<Array<{ language: LanguageId; files: number; symbols: number }>> {
    return this.queries.languageCounts();
  }

  async leftOut(limit: number): Promise<LeftOut> {
    return this.queries.leftOut(limit);
  }

  async recordBuildOutput(directories: BuildOutputDirectory[], cleared: string[] | 'all'): Promise<void> {
    this.changed();
    this.writes.recordBuildOutput(directories, cleared);
  }

  async fileStates(): Promise<Map<string, FileState>> {
    return this.writes.fileStates();
  }

  async fileStatesOf(files: string[]): Promise<Map<string, FileState>> {
    return this.writes.fileStatesOf(files);
  }

  async filesUnder(directory: string): Promise<string[]> {
    return this.writes.filesUnder(directory);
  }

  async write(updates: FileUpdate[], removed: string[], touched: FileStamp[] = []): Promise<void> {
    this.changed();
    this.writes.write(updates, removed, touched);
    this.version++;
    this.lastUpdate = new Date().toISOString();
  }

  async registerPackages(packages: PackageRef[]): Promise<void> {
    this.changed();
    this.writes.registerPackages(packages);
  }

  async prunePackages(keep: PackageRef[]): Promise<void> {
    this.changed();
    this.writes.prunePackages(keep);
  }

  async optimize(): Promise<void> {
    this.changed();
    this.writes.optimize();
  }

  async bulkLoad(on: boolean): Promise<void> {
    this.changed();
    await this.writes.bulkLoad(on, true);
  }

  /** Before every write (each runs synchronously): searches answered from here on are read afresh. */
  private changed(): void {
    this.changes++;
  }

  async close(): Promise<void> {
    await this.threads?.close();
    await this.writes.bulkLoad(false);
    if (this.db.open) this.db.close();
  }
}
