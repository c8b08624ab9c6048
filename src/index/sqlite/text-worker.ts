/**
 * The end of a first build's second thread (finishLoadWithThread, src/index/sqlite/schema.ts): it fills the full-text
 * tables in a scratch database of its own, reading the build's committed rows. First sig_text, from the symbols; then,
 * once the main thread says its names are committed, name_text, name_initials and name_trigram_counts from them.
 * The statements are schema.ts's; this file only runs them, each part in one transaction.
 */
import Database from 'better-sqlite3';
import { parentPort, workerData } from 'node:worker_threads';
import { initialPairs } from '../ranking.js';

export type TextThreadData = { main: string; scratch: string; signatures: string[]; names: string[] };
/** To the thread: true once the names are committed (go on with them), false to stop. */
export type TextThreadGo = boolean;
/** From the thread: the number of names it read, or why it could not. */
export type TextThreadReply = { names: number } | { error: string };

const { main, scratch, signatures, names } = workerData as TextThreadData;
const reply = (message: TextThreadReply): void => parentPort?.postMessage(message);
const failed = (error: unknown): TextThreadReply => ({ error: String(error instanceof Error ? error.message : error) });

let db: Database.Database | undefined;
try {
  db = new Database(scratch);
  for (const pragma of ['journal_mode = OFF', 'synchronous = OFF', 'temp_store = FILE', 'cache_size = -32768']) db.pragma(pragma);
  db.function('plumb_initial_pairs', { deterministic: true }, (humps: unknown) => initialPairs(String(humps)));
  db.prepare('ATTACH DATABASE ? AS src').run(main);
  run(db, signatures);
  parentPort?.once('message', (go: TextThreadGo) => {
    const open = db as Database.Database;
    try {
      // A read transaction of its own: it sees the names the main thread committed after the first part began.
      const count = go ? run(open, names, 'SELECT count(*) FROM src.names') : undefined;
      open.close();
      reply(count === undefined ? { error: 'stopped' } : { names: count });
    } catch (error) {
      open.close();
      reply(failed(error));
    }
  });
} catch (error) {
  db?.close();
  reply(failed(error));
}

/** The statements in one transaction; `count`, if given, read before it commits. */
function run(db: Database.Database, statements: readonly string[], count?: string): number | undefined {
  db.exec('BEGIN');
  for (const sql of statements) db.exec(sql);
  const counted = count === undefined ? undefined : (db.prepare(count).pluck().get() as number);
  db.exec('COMMIT');
  return counted;
}
