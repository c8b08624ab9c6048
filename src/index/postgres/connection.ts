/**
 * The connections of a PostgreSQL store: a pool for queries (named prepared statements), one dedicated
 * client for LISTEN, and the mapping of a lost database to a 503 (store_unavailable) naming the store.
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
  return /Connection terminated|timeout exceeded when trying to connect|not queryable|Connection refused|connect ECONN/i.test(error.message);
}

export function unavailable(location: string, error: unknown): PlumbError {
  const reason = error instanceof Error ? error.message || (error as { code?: string }).code || error.name : String(error);
  return new PlumbError('store_unavailable', `Index store ${location} is unavailable: ${reason}`, { retryAfter: 2, details: { store: location }, cause: error });
}

/** A statement's name: the same text gets the same name, so every connection prepares it once. */
function statementName(text: string): string {
  return `plumb_${createHash('sha1').update(text).digest('hex').slice(0, 20)}`;
}

export interface Queryable {
  query(config: pg.QueryConfig | pg.QueryArrayConfig): Promise<pg.QueryResult | pg.QueryArrayResult>;
}

/** The pool with the store's error mapping; `rows`/`arrays` run a named prepared statement. */
export class Connection {
  readonly pool: pg.Pool;
  readonly location: string;
  /** Backend pids of the pool's connections: notifications they sent are this store's own writes. */
  readonly ownPids = new Set<number>();
  /** Statements sent so far, each one round trip (the bench reports them per search). */
  statements = 0;

  constructor(readonly url: string) {
    this.location = redactUrl(url);
    this.pool = new pg.Pool({ connectionString: url, max: 8, idleTimeoutMillis: 30_000, connectionTimeoutMillis: 5_000, types: TYPES, application_name: 'plumb', options: GENERIC_PLANS });
    // An idle connection cut by the server: the pool drops it and makes a new one on demand.
    this.pool.on('error', () => undefined);
    this.pool.on('connect', (client) => {
      client.on('error', () => undefined);
      const pid = (client as unknown as { processID?: number }).processID;
      if (pid) this.ownPids.add(pid);
    });
    this.pool.on('remove', (client) => {
      const pid = (client as unknown as { processID?: number }).processID;
      if (pid) this.ownPids.delete(pid);
    });
  }

  /** A dedicated client (LISTEN) with the same settings. */
  client(): pg.Client {
    const client = new pg.Client({ connectionString: this.url, types: TYPES, application_name: 'plumb-listen' });
    client.on('error', () => undefined);
    return client;
  }

  /** Rows as objects. */
  async rows<T>(text: string, values: PgValue[] = [], on: Queryable = this.pool): Promise<T[]> {
    return (await this.run(on, { name: statementName(text), text, values })).rows as T[];
  }

  /** Rows as arrays (cheaper to build). */
  async arrays<T extends unknown[]>(text: string, values: PgValue[] = [], on: Queryable = this.pool): Promise<T[]> {
    return (await this.run(on, { name: statementName(text), text, values, rowMode: 'array' })).rows as T[];
  }

  /** A named prepared statement whose rows are not wanted. */
  async execute(on: Queryable, text: string, values: PgValue[]): Promise<void> {
    await this.run(on, { name: statementName(text), text, values });
  }

  /** Unprepared (DDL, one-off statements). */
  async exec(text: string, on: Queryable = this.pool): Promise<void> {
    await this.run(on, { text });
  }

  /** Runs `work` in one transaction on one connection; rolled back on any error. */
  async transaction<T>(work: (client: pg.PoolClient) => Promise<T>): Promise<T> {
    let client: pg.PoolClient;
    try {
      client = await this.pool.connect();
    } catch (error) {
      throw this.mapError(error);
    }
    let broken = false;
    try {
      await client.query('BEGIN');
      const result = await work(client);
      await client.query('COMMIT');
      return result;
    } catch (error) {
      broken = isConnectionError(error);
      if (!broken) await client.query('ROLLBACK').catch(() => undefined);
      throw this.mapError(error);
    } finally {
      client.release(broken);
    }
  }

  mapError(error: unknown): unknown {
    if (error instanceof PlumbError) return error;
    return isConnectionError(error) ? unavailable(this.location, error) : error;
  }

  private async run(on: Queryable, config: pg.QueryConfig | pg.QueryArrayConfig): Promise<pg.QueryResult | pg.QueryArrayResult> {
    this.statements++;
    try {
      return await on.query(config);
    } catch (error) {
      throw this.mapError(error);
    }
  }

  async end(): Promise<void> {
    await this.pool.end().catch(() => undefined);
  }
}
