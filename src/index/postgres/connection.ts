/**
 * The connections of a PostgreSQL store: a pool for queries (named prepared statements), one dedicated
 * client for LISTEN (or polling, on a standby), and the mapping of a lost database to a 503 (store_unavailable)
 * naming the store. A store URL may name several servers (hosts.ts): each new connection goes to the one the pool
 * keeps to, and is checked against target_session_attrs before its first use.
 *
 * Every statement has a deadline, on both sides: the server cancels it a little before (statement_timeout,
 * the connection stays usable), and the client gives up at it (query_timeout: a database that stopped
 * answering, a network partition) and discards the connection, which may still have the statement in flight.
 * Connecting has the same deadline. Reads (what answers a request, and /status) get the configured one
 * (storeTimeoutMs); the writer's batches, which answer no request, four times that; schema changes, a
 * workspace's reset, VACUUM and large removals half an hour.
 */
import { createHash } from 'node:crypto';
import pg from 'pg';
import { PlumbError } from '../../errors.js';
import { Hosts, parseStoreUrl } from './hosts.js';

/** What a query is bound with. */
export type PgValue = string | number | boolean | null | readonly unknown[];

/** Counts and ids (int8, numeric) read as numbers: every one the store holds is below 2^53. */
const TYPES = {
  getTypeParser: ((oid: number, format?: 'text' | 'binary') => {
    if (oid === 20 || oid === 1700) return (value: string) => Number(value);
    return pg.types.getTypeParser(oid, format ?? 'text');
  }) as typeof pg.types.getTypeParser,
};

/**
 * Named statements are planned once per connection (generic plans, PostgreSQL 12 and later): a search's one
 * statement (search.ts) takes milliseconds to plan afresh and well under one to run, and its generic plan uses the
 * same indexes whatever the values (measured on googletest+Flask: p50 2.1 ms generic, 6.5-7.5 ms custom).
 * No parallel workers and no JIT: every statement here reads at most a few thousand index entries, where starting a
 * worker process (a parallel bitmap scan of a trigram list) or compiling costs the database more CPU than it saves.
 */
const GENERIC_PLANS = '-c plan_cache_mode=force_generic_plan -c max_parallel_workers_per_gather=0 -c jit=off';

/** The deadline of a read when none is configured (config storeTimeoutMs). */
export const DEFAULT_TIMEOUT_MS = 5000;

/** What a statement's deadline is: a read, a writer's batch, or maintenance (schema, reset, VACUUM). */
export type DeadlineClass = 'read' | 'write' | 'maintenance';

const WRITE_FACTOR = 4;
const MAINTENANCE_MS = 30 * 60_000;

/**
 * The server's statement_timeout for a client-side deadline: a little earlier, so that a slow statement on a
 * database that answers is cancelled by the server (the connection stays usable) before the client gives up.
 */
export function serverTimeout(deadlineMs: number): number {
  return Math.max(1, deadlineMs - Math.min(500, Math.floor(deadlineMs / 5)));
}

/** The store's URL without its password, as messages and /status name it. */
export function redactUrl(url: string): string {
  try {
    const parsed = new URL(url);
    parsed.password = '';
    return parsed.toString().replace(/\/$/, '');
  } catch {
    return url.replace(/:[^:@/]*@/, '@');
  }
}

/** Connection-class failures: the database is down, restarting, unreachable, or cut the connection. */
export function isConnectionError(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  const code = (error as { code?: unknown }).code;
  if (typeof code === 'string') {
    if (['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH', '57P01', '57P02', '57P03', '53300'].includes(code)) return true;
    if (code.startsWith('08')) return true;
  }
  return isClientTimeout(error) || /Connection terminated|timeout exceeded when trying to connect|timeout expired|not queryable|Connection refused|connect ECONN/i.test(error.message);
}

/** The client gave up waiting for a statement's answer (query_timeout): the statement may still be in flight. */
export function isClientTimeout(error: unknown): boolean {
  return error instanceof Error && error.message === 'Query read timeout';
}

/** The server cancelled a statement (statement_timeout, or an administrator): the database is too slow to answer. */
function isCancelled(error: unknown): boolean {
  return error instanceof Error && (error as { code?: unknown }).code === '57014';
}

/**
 * A hot standby cancelled a read that conflicted with the WAL it replays (40001: rows the primary's VACUUM removed,
 * a lock it took): the same read on a fresh snapshot succeeds.
 */
export function isRecoveryConflict(error: unknown): boolean {
  return error instanceof Error && ((error as { code?: unknown }).code === '40001' || (error as { code?: unknown }).code === '40P01');
}

/** Errors that mean the store cannot answer now (503), as opposed to plumb's own bugs. */
export function isUnavailableError(error: unknown): boolean {
  return isConnectionError(error) || isCancelled(error) || isRecoveryConflict(error);
}

export function unavailable(location: string, error: unknown, deadlineMs?: number): PlumbError {
  const timedOut = isClientTimeout(error) || isCancelled(error) || (error instanceof Error && /timeout/i.test(error.message));
  const reason = timedOut && deadlineMs !== undefined
    ? `no answer within ${deadlineMs} ms`
    : error instanceof Error ? error.message || (error as { code?: string }).code || error.name : String(error);
  return new PlumbError('store_unavailable', `Index store ${location} is unavailable: ${reason}`, { retryAfter: 2, details: { store: location }, cause: error });
}

/** A statement's name: the same text gets the same name, so every connection prepares it once. */
function statementName(text: string): string {
  return `plumb_${createHash('sha1').update(text).digest('hex').slice(0, 20)}`;
}

/** Where a statement runs: a transaction's connection (connection.transaction), or, when none is given, the pool. */
export interface Queryable {
  query(config: string | pg.QueryConfig | pg.QueryArrayConfig, values?: PgValue[]): Promise<pg.QueryResult | pg.QueryArrayResult>;
}

/** `config` with a client-side deadline (pg's query_timeout, which its types do not list). */
function withDeadline(config: pg.QueryConfig | pg.QueryArrayConfig, deadlineMs: number): pg.QueryConfig {
  return Object.assign({}, config, { query_timeout: deadlineMs });
}

/** A pool client whose statements carry the transaction's deadline. */
class TimedClient implements Queryable {
  constructor(private readonly client: pg.PoolClient, private readonly deadlineMs: number) {}

  query(config: string | pg.QueryConfig | pg.QueryArrayConfig, values?: PgValue[]): Promise<pg.QueryResult | pg.QueryArrayResult> {
    return this.client.query(withDeadline(typeof config === 'string' ? { text: config, values } : config, this.deadlineMs));
  }
}

/** Closes a connection at once, whatever it has in flight (it must not go back to the pool). */
function destroy(client: pg.ClientBase): void {
  (client as unknown as { connection?: { stream?: { destroy(): void } } }).connection?.stream?.destroy();
}

/**
 * Ends a client: politely (Terminate, then waiting for the server to close), or, when the server does not
 * answer within `ms` (frozen, partitioned), by closing its socket.
 */
export async function endClient(client: pg.Client, ms: number): Promise<void> {
  const timer = setTimeout(() => destroy(client), ms);
  try {
    await client.end().catch(() => undefined);
  } finally {
    clearTimeout(timer);
  }
}

/** The rows of the reads that answer requests, each on a pooled connection (the store's reader and search use these). */
export interface Reads {
  /** Rows as objects. */
  rows<T>(text: string, values?: PgValue[]): Promise<T[]>;
  /** Rows as arrays (cheaper to build). */
  arrays<T extends unknown[]>(text: string, values?: PgValue[]): Promise<T[]>;
}

/** The server a pooled connection reached: which of the URL's hosts, and whether it is a hot standby. */
export interface ServerOf {
  host: number;
  label: string;
  standby: boolean;
}

const SERVER = Symbol('plumb.server');
const HOST = Symbol('plumb.host');

type Tagged = pg.ClientBase & { [SERVER]?: ServerOf; [HOST]?: number };

/** How often a read retries one that a standby cancelled for a conflict with recovery (isRecoveryConflict). */
const CONFLICT_RETRIES = 3;
/** Between two tries of a read that found its standby behind the version already answered. */
const BEHIND_RETRY_MS = 50;

/**
 * The pool with the store's error mapping; `rows`/`arrays` run a named prepared statement.
 *
 * A fenced connection (a replica's, fence()) never answers from an older version of its workspace than one it already
 * answered from, whichever server of the URL it reads, and across reconnects: every read carries the workspace's
 * version in the same statement (the same snapshot), and one that finds it below the highest answered so far (a
 * standby further behind than the one read before) waits for its server to replay that far, within the read deadline,
 * else is a 503 saying so. Its rows are not used meanwhile. A primary found below it is believed (the database was
 * restored or replaced: its versions are the truth now).
 */
export class Connection {
  readonly pool: pg.Pool;
  readonly location: string;
  /** Backend pids of the pool's connections: notifications they sent are this store's own writes. */
  readonly ownPids = new Set<number>();
  /** Statements sent so far, each one round trip (the bench reports them per search). */
  statements = 0;
  /** The URL's servers and the one new connections go to. */
  readonly hosts: Hosts;
  /** The pool's connections, to close them when the server does not answer the goodbye (end()). */
  private readonly clients = new Set<pg.PoolClient>();
  /** A fenced connection's workspace (fence()). */
  private fenced: (() => number) | undefined;
  /** The highest workspace version a fenced read answered from. */
  private floor = 0;

  /** Client-side deadlines by class, in milliseconds. */
  readonly deadlines: Readonly<Record<DeadlineClass, number>>;

  constructor(readonly url: string, timeoutMs = DEFAULT_TIMEOUT_MS) {
    this.location = redactUrl(url);
    this.hosts = new Hosts(parseStoreUrl(url));
    this.deadlines = { read: timeoutMs, write: timeoutMs * WRITE_FACTOR, maintenance: Math.max(MAINTENANCE_MS, timeoutMs * WRITE_FACTOR) };
    const settings = this.settings('plumb');
    const client = (): pg.Client => this.hostClient(settings);
    this.pool = new pg.Pool({
      ...settings, max: 8, idleTimeoutMillis: 30_000,
      // Each new connection goes to the server the pool keeps to, and is checked before its first use.
      Client: function HostClient() {
        return client();
      } as unknown as new () => pg.ClientBase,
      onConnect: ((connected: pg.ClientBase) => this.verify(connected)) as unknown as (client: pg.ClientBase) => void,
    });
    // An idle connection cut by the server: the pool drops it and makes a new one on demand.
    this.pool.on('error', () => undefined);
    this.pool.on('connect', (client) => {
      client.on('error', () => undefined);
      this.clients.add(client);
      const pid = (client as unknown as { processID?: number }).processID;
      if (pid) this.ownPids.add(pid);
    });
    this.pool.on('remove', (client) => {
      this.clients.delete(client);
      const pid = (client as unknown as { processID?: number }).processID;
      if (pid) this.ownPids.delete(pid);
    });
  }

  /**
   * Every connection's settings: the read deadline for connecting and for each statement (client side, and a
   * little less server side), TCP keepalive (a peer gone in a partition is noticed even on an idle connection).
   */
  private settings(application: string): pg.ClientConfig {
    const read = this.deadlines.read;
    return {
      connectionString: this.url, types: TYPES, application_name: application, options: `${GENERIC_PLANS} -c statement_timeout=${serverTimeout(read)}`,
      connectionTimeoutMillis: read, query_timeout: read, keepAlive: true, keepAliveInitialDelayMillis: 10_000,
    };
  }

  /** A client for the server the pool keeps to; a failure to connect passes that server over for a while. */
  private hostClient(settings: pg.ClientConfig): pg.Client {
    const { index, host } = this.hosts.pick();
    const client = new pg.Client({ ...settings, connectionString: host.url }) as pg.Client & Tagged;
    client[HOST] = index;
    const connect = client.connect.bind(client) as (callback?: (error: Error | null) => void) => Promise<void> | void;
    const failed = (): void => this.hosts.failed(index);
    (client as unknown as { connect: typeof connect }).connect = (callback) => {
      if (callback) {
        return connect((error) => {
          if (error) failed();
          callback(error);
        });
      }
      return (connect() as Promise<void>).catch((error: unknown) => {
        failed();
        throw error;
      });
    };
    return client;
  }

  /**
   * A new connection's first statement: is its server a standby, and does it fit target_session_attrs. One that does
   * not is refused (store_unavailable saying why) and its server passed over, so the next connection tries another.
   */
  private async verify(client: pg.ClientBase): Promise<ServerOf> {
    const tagged = client as Tagged;
    const index = tagged[HOST] ?? 0;
    let standby: boolean;
    try {
      const result = await client.query({ text: 'SELECT pg_is_in_recovery()', rowMode: 'array', query_timeout: this.deadlines.read } as pg.QueryArrayConfig);
      standby = (result.rows[0] as [boolean])[0];
    } catch (error) {
      this.hosts.failed(index);
      throw error;
    }
    const label = this.hosts.label(index);
    if (!this.hosts.connected(index, standby)) {
      throw new PlumbError('store_unavailable', `Index store ${this.location} is unavailable: ${this.hosts.refusal(index, standby)}`, { retryAfter: 2, details: { store: this.location } });
    }
    tagged[SERVER] = { host: index, label, standby };
    return tagged[SERVER];
  }

  /** A dedicated client (LISTEN, or polling on a standby) with the same settings and deadlines, connected and checked. */
  async listenClient(): Promise<{ client: pg.Client; server: ServerOf }> {
    const client = this.hostClient(this.settings('plumb-listen'));
    client.on('error', () => undefined);
    try {
      await client.connect();
      return { client, server: await this.verify(client) };
    } catch (error) {
      await endClient(client, this.deadlines.read);
      throw this.mapError(error);
    }
  }

  /**
   * Fences this connection's reads (`reads`) by the version of workspace `workspaceId` (see the class comment):
   * a read-only store's, which may read standbys.
   */
  fence(workspaceId: () => number): void {
    this.fenced = workspaceId;
  }

  /** The highest workspace version a fenced read has answered from (0 before any). */
  get answeredVersion(): number {
    return this.floor;
  }

  /** The reads that answer requests: fenced when fence() was called. */
  readonly reads: Reads = {
    rows: <T>(text: string, values: PgValue[] = []) => (this.fenced ? this.fencedRead(text, values, true) as Promise<T[]> : this.rows<T>(text, values)),
    arrays: <T extends unknown[]>(text: string, values: PgValue[] = []) => (this.fenced ? this.fencedRead(text, values, false) as Promise<T[]> : this.arrays<T>(text, values)),
  };

  /** Rows as objects. */
  async rows<T>(text: string, values: PgValue[] = [], on?: Queryable): Promise<T[]> {
    return (await this.run(on, { name: statementName(text), text, values })).rows as T[];
  }

  /** Rows as arrays (cheaper to build). */
  async arrays<T extends unknown[]>(text: string, values: PgValue[] = [], on?: Queryable): Promise<T[]> {
    return (await this.run(on, { name: statementName(text), text, values, rowMode: 'array' })).rows as T[];
  }

  /**
   * A read whose $1 is the fenced workspace, with the workspace's version read in the same statement: the statement
   * joined laterally to the workspace's row, so one row comes back even when the read has none (its columns all
   * NULL: no read here returns such a row of its own), and its rows keep their order (a nested loop over one row).
   */
  private async fencedRead(text: string, values: PgValue[], objects: boolean): Promise<unknown[]> {
    const wrapped = `SELECT v.version, q.* FROM (SELECT version FROM workspaces WHERE id = $1) v LEFT JOIN LATERAL (${text}) q ON true`;
    const config: pg.QueryArrayConfig = { name: statementName(wrapped), text: wrapped, values, rowMode: 'array' };
    const giveUp = Date.now() + this.deadlines.read;
    for (;;) {
      const { result, server } = await this.runRead(config);
      const rows = result.rows as unknown[][];
      if (rows.length === 0) {
        throw new PlumbError('store_unavailable', `Index store ${this.location} no longer holds this workspace: the writer's database was replaced, or the workspace removed`, { retryAfter: 2, details: { store: this.location } });
      }
      const version = rows[0][0] as number;
      if (version < this.floor) {
        if (server?.standby !== false && Date.now() + BEHIND_RETRY_MS < giveUp) {
          await new Promise((resolve) => setTimeout(resolve, BEHIND_RETRY_MS));
          continue;
        }
        if (server?.standby !== false) {
          throw new PlumbError('store_unavailable', `Index store ${this.location} is behind: ${server?.label ?? 'its server'} has replayed version ${version} of the workspace, and this replica already answered from version ${this.floor}; it answers once the standby has caught up`, { retryAfter: 1, details: { store: this.location } });
        }
      }
      this.floor = version;
      const body = rows.length === 1 && rows[0].every((value, i) => i === 0 || value === null) ? [] : rows.map((row) => row.slice(1));
      if (!objects) return body;
      const names = result.fields.slice(1).map((field) => field.name);
      return body.map((row) => Object.fromEntries(names.map((name, i) => [name, row[i]])));
    }
  }

  /** A named prepared statement whose rows are not wanted. */
  async execute(on: Queryable, text: string, values: PgValue[]): Promise<void> {
    await this.run(on, { name: statementName(text), text, values });
  }

  /**
   * A maintenance statement outside a transaction (VACUUM): the long deadline, on a connection of its own that
   * is closed afterwards (its statement_timeout was changed).
   */
  async maintain(text: string): Promise<void> {
    this.statements++;
    const client = await this.checkout();
    const deadline = this.deadlines.maintenance;
    try {
      await client.query({ text: `SET statement_timeout = ${serverTimeout(deadline)}` });
      await client.query(withDeadline({ text }, deadline));
    } catch (error) {
      if (isConnectionError(error)) this.discard(client);
      throw this.mapError(error, deadline);
    } finally {
      client.release(true);
    }
  }

  /**
   * Runs `work` in one transaction on one connection; rolled back on any error. Its statements have the
   * deadline of `deadline` (a writer's batch by default), server side too.
   */
  async transaction<T>(work: (client: Queryable) => Promise<T>, deadline: Exclude<DeadlineClass, 'read'> = 'write'): Promise<T> {
    const client = await this.checkout();
    const ms = this.deadlines[deadline];
    const timed = new TimedClient(client, ms);
    let broken = false;
    try {
      await timed.query(`BEGIN; SET LOCAL statement_timeout = ${serverTimeout(ms)}`);
      const result = await work(timed);
      await timed.query('COMMIT');
      return result;
    } catch (error) {
      // A connection cut, or a statement the client stopped waiting for: the connection is discarded.
      broken = isConnectionError(error);
      if (broken) this.discard(client);
      else await timed.query('ROLLBACK').catch(() => undefined);
      throw this.mapError(error, ms);
    } finally {
      client.release(broken);
    }
  }

  mapError(error: unknown, deadlineMs = this.deadlines.read): unknown {
    if (error instanceof PlumbError) return error;
    return isUnavailableError(error) ? unavailable(this.location, error, deadlineMs) : error;
  }

  /**
   * A connection from the pool, within the read deadline (pool.connect's connectionTimeoutMillis). With several
   * servers, one that cannot be reached or does not fit is passed over and the next tried, within the same deadline.
   */
  private async checkout(): Promise<pg.PoolClient> {
    const giveUp = Date.now() + this.deadlines.read;
    for (let attempt = 1; ; attempt++) {
      try {
        return await this.pool.connect();
      } catch (error) {
        if (attempt >= this.hosts.count || Date.now() >= giveUp) throw this.mapError(error);
      }
    }
  }

  /** Closes a connection whose server went away: its server is passed over for a while. */
  private discard(client: pg.ClientBase): void {
    const server = (client as Tagged)[SERVER];
    if (server) this.hosts.failed(server.host);
    destroy(client);
  }

  /** One statement: on `on` (a transaction's connection), or on a pooled connection with the read deadline. */
  private async run(on: Queryable | undefined, config: pg.QueryConfig | pg.QueryArrayConfig): Promise<pg.QueryResult | pg.QueryArrayResult> {
    // In a transaction: its catch maps the error, with the transaction's deadline, and discards a broken connection.
    if (on) {
      this.statements++;
      return on.query(config);
    }
    return (await this.runRead(config)).result;
  }

  /** A statement on a pooled connection with the read deadline; one a standby cancelled for a recovery conflict is tried again. */
  private async runRead(config: pg.QueryConfig | pg.QueryArrayConfig): Promise<{ result: pg.QueryResult | pg.QueryArrayResult; server: ServerOf | undefined }> {
    for (let attempt = 1; ; attempt++) {
      this.statements++;
      const client = await this.checkout();
      let broken = false;
      try {
        return { result: await client.query(withDeadline(config, this.deadlines.read)), server: (client as Tagged)[SERVER] };
      } catch (error) {
        // A connection that timed out may still have the statement in flight: never reused.
        broken = isConnectionError(error);
        if (broken) this.discard(client);
        else if (isRecoveryConflict(error) && attempt < CONFLICT_RETRIES) continue;
        throw this.mapError(error);
      } finally {
        client.release(broken);
      }
    }
  }

  /** Closes the pool; connections the server does not let go of within the read deadline are closed at once. */
  async end(): Promise<void> {
    const timer = setTimeout(() => {
      for (const client of this.clients) destroy(client);
    }, this.deadlines.read);
    try {
      await this.pool.end().catch(() => undefined);
    } finally {
      clearTimeout(timer);
    }
  }
}
