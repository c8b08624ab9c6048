/**
 * The connections of a PostgreSQL store: a pool for queries (named prepared statements), one dedicated
 * client for LISTEN, and the mapping of a lost database to a 503 (store_unavailable) naming the store.
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
 */
const GENERIC_PLANS = '-c plan_cache_mode=force_generic_plan';

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

/** Errors that mean the store cannot answer now (503), as opposed to plumb's own bugs. */
export function isUnavailableError(error: unknown): boolean {
  return isConnectionError(error) || isCancelled(error);
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

/** The pool with the store's error mapping; `rows`/`arrays` run a named prepared statement. */
export class Connection {
  readonly pool: pg.Pool;
  readonly location: string;
  /** Backend pids of the pool's connections: notifications they sent are this store's own writes. */
  readonly ownPids = new Set<number>();
  /** Statements sent so far, each one round trip (the bench reports them per search). */
  statements = 0;
  /** The pool's connections, to close them when the server does not answer the goodbye (end()). */
  private readonly clients = new Set<pg.PoolClient>();

  /** Client-side deadlines by class, in milliseconds. */
  readonly deadlines: Readonly<Record<DeadlineClass, number>>;

  constructor(readonly url: string, timeoutMs = DEFAULT_TIMEOUT_MS) {
    this.location = redactUrl(url);
    this.deadlines = { read: timeoutMs, write: timeoutMs * WRITE_FACTOR, maintenance: Math.max(MAINTENANCE_MS, timeoutMs * WRITE_FACTOR) };
    this.pool = new pg.Pool({ ...this.settings('plumb'), max: 8, idleTimeoutMillis: 30_000 });
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

  /** A dedicated client (LISTEN) with the same settings and deadlines. */
  client(): pg.Client {
    const client = new pg.Client(this.settings('plumb-listen'));
    client.on('error', () => undefined);
    return client;
  }

  /** Rows as objects. */
  async rows<T>(text: string, values: PgValue[] = [], on?: Queryable): Promise<T[]> {
    return (await this.run(on, { name: statementName(text), text, values })).rows as T[];
  }

  /** Rows as arrays (cheaper to build). */
  async arrays<T extends unknown[]>(text: string, values: PgValue[] = [], on?: Queryable): Promise<T[]> {
    return (await this.run(on, { name: statementName(text), text, values, rowMode: 'array' })).rows as T[];
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
      if (isConnectionError(error)) destroy(client);
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
      if (broken) destroy(client);
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

  /** A connection from the pool, within the read deadline (pool.connect's connectionTimeoutMillis). */
  private async checkout(): Promise<pg.PoolClient> {
    try {
      return await this.pool.connect();
    } catch (error) {
      throw this.mapError(error);
    }
  }

  /** One statement: on `on` (a transaction's connection), or on a pooled connection with the read deadline. */
  private async run(on: Queryable | undefined, config: pg.QueryConfig | pg.QueryArrayConfig): Promise<pg.QueryResult | pg.QueryArrayResult> {
    this.statements++;
    // In a transaction: its catch maps the error, with the transaction's deadline, and discards a broken connection.
    if (on) return on.query(config);
    const client = await this.checkout();
    let broken = false;
    try {
      return await client.query(withDeadline(config, this.deadlines.read));
    } catch (error) {
      // A connection that timed out may still have the statement in flight: never reused.
      broken = isConnectionError(error);
      if (broken) destroy(client);
      throw this.mapError(error);
    } finally {
      client.release(broken);
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
