/**
 * Prepared statements by their SQL text: each is prepared once per database and reused. SQL that is
 * built per query (the search tiers, IN lists) is cached the same way; its text repeats per query shape.
 */
import type Database from 'better-sqlite3';

/** A value bound to an SQL parameter. */
export type SqlValue = string | number | null;
/** Named parameters (`@name` in the SQL, `name` here). */
export type SqlParams = Record<string, SqlValue>;

export class Statements {
  private readonly prepared = new Map<string, Database.Statement>();

  constructor(readonly db: Database.Database) {}

  get(sql: string): Database.Statement {
    let statement = this.prepared.get(sql);
    if (!statement) {
      statement = this.db.prepare(sql);
      this.prepared.set(sql, statement);
    }
    return statement;
  }
}

/** `@prefix0, @prefix1, ...` for a list bound as `prefix0`, `prefix1`... in `params`. */
export function namedList(prefix: string, values: readonly string[], params: SqlParams): string {
  return values.map((value, i) => {
    params[`${prefix}${i}`] = value;
    return `@${prefix}${i}`;
  }).join(', ');
}
