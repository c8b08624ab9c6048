/**
 * The shared SymbolStore: one workspace's index in a PostgreSQL database that may hold many. It composes the
 * parts, each one job: connection.ts (pool, LISTEN client, errors), schema.ts (migrations, workspaces),
 * search.ts (the tiers), reader.ts (the other reads), writer.ts (the writes). It answers exactly as the
 * SQLite store does. A read-only store (a replica) checks the schema and the workspace and never writes.
 */
import type pg from 'pg';
import { PlumbError } from '../../errors.js';
import type { LanguageId } from '../../syntax/types.js';
import { planSearch } from '../search-plan.js';
import type {
  FileFilter, FileStamp, FileState, FileUpdate, IndexedFileInfo, PackageInfo, PackageRef, PackageSymbolsSpec,
  SearchPage, SearchSpec, StoreCounts, StoredSymbol, StoreInfo, SymbolStore,
} from '../store.js';
import { Connection, endClient } from './connection.js';
import { PostgresQueries } from './reader.js';
import { openForReading, openForWriting, SCHEMA_VERSION, type WorkspaceRow } from './schema.js';
import { postgresTierLookups } from './search.js';
import { PostgresWrites } from './writer.js';

export interface PostgresStoreOptions {
  /** postgres://user[:password]@host:port/database */
  url: string;
  /** The workspace's key in the database (one database holds many). */
  workspace: string;
  /** A replica: checks the schema and the workspace, writes nothing. */
  readOnly: boolean;
  /** The deadline of connecting and of each read, in milliseconds (config storeTimeoutMs; connection.ts). */
  timeoutMs?: number;
}

/** The channel every writer notifies with `<workspace>:<version>` after a commit. */
export const CHANNEL = 'plumb_index';

/**
 * How often the LISTEN connection is asked the workspace's version: a connection that no longer answers (a frozen
 * database, a partition that dropped it silently) is made again, and a change it missed is reported.
 */
const LISTEN_CHECK_MS = 30_000;

export class PostgresSymbolStore implements SymbolStore {
  private readonly connection: Connection;
  private readonly workspace: WorkspaceRow;
  private readonly readOnly: boolean;
  private readonly queries: PostgresQueries;
  private readonly writes: PostgresWrites;
  private readonly lookups: ReturnType<typeof postgresTierLookups>;
  private readonly listeners = new Set<(version: number) => void>();
  private listener: pg.Client | undefined;
  private listening: Promise<void> | undefined;
  private retry: NodeJS.Timeout | undefined;
  private check: NodeJS.Timeout | undefined;
  /** The last version this store knows of (its own writes, notifications, a check after reconnecting). */
  private seenVersion: number;
  private closed = false;

  private constructor(connection: Connection, workspace: WorkspaceRow, readOnly: boolean) {
    this.connection = connection;
    this.workspace = workspace;
    this.readOnly = readOnly;
    this.seenVersion = workspace.version;
    const id = (): number => workspace.id;
    this.queries = new PostgresQueries(connection, id);
    this.writes = new PostgresWrites(connection, id, workspace.name);
    this.lookups = postgresTierLookups(connection, id);
  }

  /**
   * Connects and opens the workspace: a writer applies migrations (under an advisory lock) and creates the
   * workspace or starts it afresh on another schema or plumb version; a read-only store requires both as they
   * should be (store_unavailable naming the store and what to run otherwise).
   */
  static async open(options: PostgresStoreOptions): Promise<PostgresSymbolStore> {
    const connection = new Connection(options.url, options.timeoutMs);
    try {
      const workspace = options.readOnly ? await openForReading(connection, options.workspace) : await openForWriting(connection, options.workspace);
      return new PostgresSymbolStore(connection, workspace, options.readOnly);
    } catch (error) {
      await connection.end();
      throw connection.mapError(error);
    }
  }

  /** Statements sent to the database so far, each one round trip. */
  get statementsSent(): number {
    return this.connection.statements;
  }

  /** The URL without its password. */
  get location(): string {
    return this.connection.location;
  }

  async storeInfo(): Promise<StoreInfo> {
    const rows = await this.connection.rows<WorkspaceRow>('SELECT * FROM workspaces WHERE id = $1', [this.workspace.id]);
    const row = rows[0];
    if (!row) throw new PlumbError('store_unavailable', `Index store ${this.location} no longer holds workspace '${this.workspace.name}'`, { retryAfter: 2, details: { store: this.location } });
    return {
      backend: 'postgres',
      location: this.location,
      schemaVersion: SCHEMA_VERSION,
      workspace: row.name,
      version: row.version,
      lastUpdate: row.last_update ? row.last_update.toISOString() : null,
      build: row.build_state ? { state: row.build_state, filesTotal: row.files_total ?? 0 } : null,
    };
  }

  async search(spec: SearchSpec): Promise<SearchPage> {
    return planSearch(spec, this.lookups);
  }

  symbolById(id: string): Promise<StoredSymbol | undefined> {
    return this.queries.symbolById(id);
  }

  symbolsInFile(file: string): Promise<StoredSymbol[]> {
    return this.queries.symbolsInFile(file);
  }

  symbolsInContainer(containingType: string, limit: number): Promise<StoredSymbol[]> {
    return this.queries.symbolsInContainer(containingType, limit);
  }

  symbolsNamed(names: string[], limitPerName: number): Promise<StoredSymbol[]> {
    return this.queries.symbolsNamed(names, limitPerName);
  }

  symbolsWithBase(name: string, limit: number): Promise<StoredSymbol[]> {
    return this.queries.symbolsWithBase(name, limit);
  }

  indexedFiles(): Promise<string[]> {
    return this.queries.indexedFiles();
  }

  indexedFileInfos(filter: FileFilter): Promise<IndexedFileInfo[]> {
    return this.queries.indexedFileInfos(filter);
  }

  listPackages(): Promise<PackageInfo[]> {
    return this.queries.listPackages();
  }

  packageNamesLike(name: string): Promise<string[]> {
    return this.queries.packageNamesLike(name);
  }

  packageSymbols(spec: PackageSymbolsSpec): Promise<{ results: StoredSymbol[]; total: number; forwardDeclarations: number }> {
    return this.queries.packageSymbols(spec);
  }

  counts(): Promise<StoreCounts> {
    return this.queries.counts();
  }

  languageCounts(): Promise<Array<{ language: LanguageId; files: number; symbols: number }>> {
    return this.queries.languageCounts();
  }

  fileStates(): Promise<Map<string, FileState>> {
    return this.writes.fileStates();
  }

  fileStatesOf(files: string[]): Promise<Map<string, FileState>> {
    return this.writes.fileStatesOf(files);
  }

  filesUnder(directory: string): Promise<string[]> {
    return this.writes.filesUnder(directory);
  }

  async write(updates: FileUpdate[], removed: string[], touched: FileStamp[] = []): Promise<void> {
    this.writable();
    const commit = await this.writes.write(updates, removed, touched);
    this.seenVersion = Math.max(this.seenVersion, commit.version);
  }

  async registerPackages(packages: PackageRef[]): Promise<void> {
    this.writable();
    await this.writes.registerPackages(packages);
  }

  async prunePackages(keep: PackageRef[]): Promise<void> {
    this.writable();
    await this.writes.prunePackages(keep);
  }

  async optimize(): Promise<void> {
    this.writable();
    await this.writes.optimize();
  }

  async bulkLoad(on: boolean): Promise<void> {
    this.writable();
    await this.writes.bulkLoad(on);
  }

  async recordBuild(state: 'building' | 'ready', filesTotal: number): Promise<void> {
    this.writable();
    await this.writes.recordBuild(state, filesTotal);
  }

  private writable(): void {
    // A replica's code never writes: reaching here is plumb's own bug.
    if (this.readOnly) throw new PlumbError('internal_error', `The index store ${this.location} is open read-only (a replica writes nothing)`);
  }

  /**
   * Calls `listener` with the new version after another connection commits a write to this workspace
   * (LISTEN on a dedicated connection, made again when it drops; a change missed meanwhile is reported then).
   */
  onChange(listener: (version: number) => void): () => void {
    this.listeners.add(listener);
    this.listening ??= this.listen();
    return () => {
      this.listeners.delete(listener);
    };
  }

  /** Resolves once LISTEN is in place (tests, and a replica that wants to know it will hear of changes). */
  async listeningReady(): Promise<void> {
    this.listening ??= this.listen();
    await this.listening;
  }

  private async listen(): Promise<void> {
    if (this.closed) return;
    const client = this.connection.client();
    this.listener = client;
    let dropped = false;
    const reconnect = (): void => {
      if (dropped || this.closed) return;
      dropped = true;
      this.listener = undefined;
      if (this.check) clearInterval(this.check);
      this.check = undefined;
      void endClient(client, this.connection.deadlines.read);
      this.retry = setTimeout(() => {
        this.retry = undefined;
        this.listening = this.listen();
      }, 1000);
      this.retry.unref?.();
    };
    client.on('error', reconnect);
    client.on('end', reconnect);
    client.on('notification', (message) => {
      if (message.channel !== CHANNEL || !message.payload || this.connection.ownPids.has(message.processId)) return;
      const at = message.payload.lastIndexOf(':');
      if (message.payload.slice(0, at) !== this.workspace.name) return;
      this.changed(Number(message.payload.slice(at + 1)));
    });
    // A change committed while no LISTEN was in place (the database restarting), or a notification lost: tell it now.
    const catchUp = async (): Promise<void> => {
      const rows = await client.query<{ version: string | number }>('SELECT version FROM workspaces WHERE id = $1', [this.workspace.id]);
      const version = Number(rows.rows[0]?.version ?? this.seenVersion);
      if (version !== this.seenVersion && !dropped) this.changed(version);
    };
    try {
      // Connecting and each statement have the read deadline (connection.ts): a database that does not answer is tried again.
      await client.connect();
      await client.query(`LISTEN ${CHANNEL}`);
      await catchUp();
      if (dropped || this.closed) return;
      this.check = setInterval(() => void catchUp().catch(reconnect), LISTEN_CHECK_MS);
      this.check.unref?.();
    } catch {
      reconnect();
    }
  }

  private changed(version: number): void {
    if (!Number.isFinite(version)) return;
    this.seenVersion = version;
    for (const listener of this.listeners) {
      try {
        listener(version);
      } catch {
        // A listener's failure is its own.
      }
    }
  }

  async close(): Promise<void> {
    this.closed = true;
    if (this.retry) clearTimeout(this.retry);
    if (this.check) clearInterval(this.check);
    this.listeners.clear();
    if (this.listener) await endClient(this.listener, this.connection.deadlines.read);
    await this.connection.end();
  }
}
