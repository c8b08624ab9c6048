/**
 * The shared SymbolStore: one workspace's index in a PostgreSQL database that may hold many. It composes the
 * parts, each one job: connection.ts (pool, LISTEN client, errors), schema.ts (migrations, workspaces),
 * search.ts (the tiers), reader.ts (the other reads), writer.ts (the writes). It answers exactly as the
 * SQLite store does. A read-only store (a replica) checks the schema and the workspace and never writes; its reads
 * are fenced (connection.ts): it never answers from an older version than one it answered from, when it reads a hot
 * standby or moves to another server of a multi-host URL.
 *
 * How it learns of new versions: on a primary, LISTEN (the writer NOTIFYs each commit), checked every 30 s; on a hot
 * standby, where NOTIFY is not delivered and LISTEN is refused, by asking the workspace's version every
 * STANDBY_POLL_MS. Answers never wait for either: every read asks the database.
 */
import pg from 'pg';
import { PlumbError } from '../../errors.js';
import type { LanguageId } from '../../syntax/types.js';
import { planSearch } from '../search-plan.js';
import type {
  BuildOutputDirectory, FileFilter, FileStamp, FileState, FileUpdate, IndexedFileInfo, LeftOut, PackageInfo, PackageRef, PackageSymbolsSpec,
  ReplicationInfo, SearchPage, SearchSpec, StoreCounts, StoredSymbol, StoreInfo, SymbolStore,
} from '../store.js';
import { Connection, endClient, type ServerOf } from './connection.js';
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

/** How often a store on a hot standby asks the workspace's version (NOTIFY does not reach a standby). */
export const STANDBY_POLL_MS = 500;

/** The deadline of asking a standby's primary for its version (/status), and how long a primary that did not answer is left. */
const PRIMARY_DEADLINE_MS = 1000;
const PRIMARY_RETRY_MS = 5000;

/** The workspace row with what the server says of its replication (a standby's receiver and replay). */
interface InfoRow extends WorkspaceRow {
  standby: boolean;
  replay_lag_ms: number | null;
  last_replayed: Date | null;
  receiving: string | null;
  sender_host: string | null;
  sender_port: number | null;
}

const INFO_SQL = `SELECT w.*, pg_is_in_recovery() AS standby,
  CASE WHEN NOT pg_is_in_recovery() THEN NULL
    WHEN pg_last_wal_receive_lsn() IS NOT NULL AND pg_last_wal_receive_lsn() <= pg_last_wal_replay_lsn() THEN 0
    ELSE greatest(0, extract(epoch FROM clock_timestamp() - pg_last_xact_replay_timestamp()) * 1000)::float8 END AS replay_lag_ms,
  pg_last_xact_replay_timestamp() AS last_replayed, r.status AS receiving, r.sender_host, r.sender_port
  FROM workspaces w LEFT JOIN pg_stat_wal_receiver r ON true WHERE w.id = $1`;

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
  /** The writer's build state and file total as the last poll saw them (`state:total`). */
  private seenBuild: string | null | undefined;
  /** The primary the standby streamed from when last asked. */
  private lastPrimary: { host: string; port: number } | undefined;
  /** A standby's primary, asked for its version by /status. */
  private primary: { key: string; client: pg.Client | undefined; retryAt: number; error?: string } | undefined;
  /** The last version this store knows of (its own writes, notifications, a check after reconnecting). */
  private seenVersion: number;
  private closed = false;

  private constructor(connection: Connection, workspace: WorkspaceRow, readOnly: boolean) {
    this.connection = connection;
    this.workspace = workspace;
    this.readOnly = readOnly;
    this.seenVersion = workspace.version;
    const id = (): number => workspace.id;
    // A replica's reads are fenced by the workspace's version (connection.ts).
    if (readOnly) connection.fence(id);
    this.queries = new PostgresQueries(connection.reads, id);
    this.writes = new PostgresWrites(connection, id, workspace.name);
    this.lookups = postgresTierLookups(connection.reads, id);
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
    const rows = await this.connection.reads.rows<InfoRow>(INFO_SQL, [this.workspace.id]);
    const row = rows[0];
    if (!row) throw new PlumbError('store_unavailable', `Index store ${this.location} no longer holds workspace '${this.workspace.name}'`, { retryAfter: 2, details: { store: this.location } });
    const info: StoreInfo = {
      backend: 'postgres',
      location: this.location,
      schemaVersion: SCHEMA_VERSION,
      workspace: row.name,
      version: row.version,
      lastUpdate: row.last_update ? row.last_update.toISOString() : null,
      build: row.build_state ? { state: row.build_state, filesTotal: row.files_total ?? 0 } : null,
    };
    if (row.standby) info.replication = await this.replication(row);
    return info;
  }

  /** A standby's replication: its receiver and replay, and the version on the primary it streams from when that answers. */
  private async replication(row: InfoRow): Promise<ReplicationInfo> {
    // The primary it streams from; while it does not stream (the primary down), the one it streamed from last.
    if (row.sender_host) this.lastPrimary = { host: row.sender_host, port: row.sender_port ?? 5432 };
    const from = this.lastPrimary;
    const primary = from ? `${from.host.includes(':') ? `[${from.host}]` : from.host}:${from.port}` : null;
    const asked = from ? await this.primaryVersion(from.host, from.port) : { version: null, error: `the standby ${row.receiving === 'streaming' ? 'does not say which primary it streams from to this user (a superuser or a member of pg_read_all_stats sees it)' : 'is not streaming from a primary'}` };
    return {
      streaming: row.receiving === 'streaming',
      replayLagMs: Math.round(row.replay_lag_ms ?? 0),
      lastReplayed: row.last_replayed ? row.last_replayed.toISOString() : null,
      primary,
      primaryVersion: asked.version,
      ...(asked.error ? { primaryError: asked.error } : {}),
    };
  }

  /**
   * The workspace's version on a standby's primary (host and port as the standby's WAL receiver names them; user,
   * password and database of the store URL): one connection kept for it, a short deadline, and a primary that did
   * not answer left alone for a while, so /status stays prompt while the primary is down.
   */
  private async primaryVersion(host: string, port: number): Promise<{ version: number | null; error?: string }> {
    const key = `${host}:${port}`;
    if (this.primary?.key !== key) {
      if (this.primary?.client) void endClient(this.primary.client, PRIMARY_DEADLINE_MS);
      this.primary = { key, client: undefined, retryAt: 0 };
    }
    const state = this.primary;
    if (state.retryAt > Date.now()) return { version: null, error: state.error };
    try {
      if (!state.client) {
        const client = new pg.Client({ ...credentials(this.connection.url), host, port, connectionTimeoutMillis: PRIMARY_DEADLINE_MS, query_timeout: PRIMARY_DEADLINE_MS, application_name: 'plumb-status' });
        client.on('error', () => undefined);
        state.client = client;
        await client.connect();
      }
      const result = await state.client.query<{ version: string }>('SELECT version FROM workspaces WHERE id = $1', [this.workspace.id]);
      const version = result.rows[0] ? Number(result.rows[0].version) : null;
      return version === null ? { version, error: `${key} holds no workspace '${this.workspace.name}'` } : { version };
    } catch (error) {
      if (state.client) void endClient(state.client, PRIMARY_DEADLINE_MS);
      state.client = undefined;
      state.retryAt = Date.now() + PRIMARY_RETRY_MS;
      state.error = `the primary ${key} does not answer: ${error instanceof Error ? error.message : String(error)}`;
      return { version: null, error: state.error };
    }
  }

  /** The highest workspace version a read of this (read-only) store has answered from. */
  get answeredVersion(): number {
    return this.connection.answeredVersion;
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

  leftOut(limit: number): Promise<LeftOut> {
    return this.queries.leftOut(limit);
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

  async recordBuildOutput(directories: BuildOutputDirectory[], cleared: string[] | 'all'): Promise<void> {
    this.writable();
    await this.writes.recordBuildOutput(directories, cleared);
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
    let dropped = false;
    let client: pg.Client | undefined;
    const reconnect = (): void => {
      if (dropped || this.closed) return;
      dropped = true;
      if (this.listener === client) this.listener = undefined;
      if (this.check) clearInterval(this.check);
      this.check = undefined;
      if (client) void endClient(client, this.connection.deadlines.read);
      this.retry = setTimeout(() => {
        this.retry = undefined;
        this.listening = this.listen();
      }, 1000);
      this.retry.unref?.();
    };
    let server: ServerOf;
    try {
      // Connecting and each statement have the read deadline (connection.ts): a database that does not answer is tried again.
      ({ client, server } = await this.connection.listenClient());
    } catch {
      reconnect();
      return;
    }
    if (this.closed) {
      void endClient(client, this.connection.deadlines.read);
      return;
    }
    const listening = client;
    this.listener = listening;
    listening.on('error', reconnect);
    listening.on('end', reconnect);
    // A change committed while nothing listened (the database restarting), a notification lost, or on a standby every
    // change: told now. A server that became or stopped being a standby (a promotion) is connected to afresh.
    const catchUp = async (): Promise<void> => {
      const rows = await listening.query<{ version: string | number; build: string | null; standby: boolean }>(
        "SELECT version, build_state || ':' || files_total AS build, pg_is_in_recovery() AS standby FROM workspaces WHERE id = $1", [this.workspace.id]);
      const row = rows.rows[0];
      if (row && row.standby !== server.standby) {
        reconnect();
        return;
      }
      const version = Number(row?.version ?? this.seenVersion);
      // The writer's build state changes without a new version (its NOTIFY says so on a primary): a standby compares it too.
      const build = row?.build ?? null;
      const changed = version !== this.seenVersion || (this.seenBuild !== undefined && build !== this.seenBuild);
      this.seenBuild = build;
      if (changed && !dropped) this.changed(version);
    };
    try {
      if (!server.standby) {
        listening.on('notification', (message) => {
          if (message.channel !== CHANNEL || !message.payload || this.connection.ownPids.has(message.processId)) return;
          const at = message.payload.lastIndexOf(':');
          if (message.payload.slice(0, at) !== this.workspace.name) return;
          this.changed(Number(message.payload.slice(at + 1)));
        });
        // A hot standby refuses LISTEN (NOTIFY is not replicated): it is polled instead.
        await listening.query(`LISTEN ${CHANNEL}`);
      }
      await catchUp();
      if (dropped || this.closed) return;
      this.check = setInterval(() => void catchUp().catch(reconnect), server.standby ? STANDBY_POLL_MS : LISTEN_CHECK_MS);
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
    if (this.primary?.client) void endClient(this.primary.client, PRIMARY_DEADLINE_MS);
    if (this.listener) await endClient(this.listener, this.connection.deadlines.read);
    await this.connection.end();
  }
}

/** User, password and database of a store URL (its first server's), for a connection to another host. */
function credentials(url: string): pg.ClientConfig {
  const first = url.replace(/^(postgres(?:ql)?:\/\/(?:[^@/?#]*@)?)([^,/?#]*)(?:,[^/?#]*)?/, '$1$2');
  try {
    const parsed = new URL(first);
    return {
      user: parsed.username ? decodeURIComponent(parsed.username) : undefined,
      password: parsed.password ? decodeURIComponent(parsed.password) : undefined,
      database: parsed.pathname.length > 1 ? decodeURIComponent(parsed.pathname.slice(1)) : undefined,
      ssl: ['require', 'verify-ca', 'verify-full'].includes(parsed.searchParams.get('sslmode') ?? '') ? { rejectUnauthorized: parsed.searchParams.get('sslmode') !== 'require' } : undefined,
    };
  } catch {
    return {};
  }
}
