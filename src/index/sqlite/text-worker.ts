/**
 * The end of a first build's second thread (finishLoadWithThread, src/index/sqlite/schema.ts): it fills the full-text
 * tables in scratch databases of its own, reading the build's committed rows. First sig_text, from the symbols; then,
 * once the main thread says its names are committed, name_text, name_initials and name_trigram_counts from them, in
 * a second database (the main thread copies sig_text in from the first meanwhile). The statements are schema.ts's;
 * this file only runs them, each part in one transaction.
 */
import Database from 'better-sqlite3';
import { parentPort, workerData } from 'node:worker_threads';
import { initialPairs } from '../ranking.js';

export type TextThreadData = { main: string; scratch: { signatures: string; names: string }; signatures: string[]; names: string[] };
/** To the thread: true once the names are committed (go on with them), false to stop. */
export type TextThreadGo = boolean;
/** From the thread: sig_text is filled; then the number of names it read, or why it could not. */
export type TextThreadReply = { signatures: true } | { names: number } | { error: string };

const { main, scratch, signatures, names } = workerData as TextThreadData;
const reply = (message: TextThreadReply): void => parentPort?.postMessage(message);
const failed = (error: unknown): TextThreadReply => ({ error: String(error instanceof Error ? error.message : error) });

try {
  run(scratch.signatures, signatures);
  reply({ signatures: true });
  parentPort?.once('message', (go: TextThreadGo) => {
    try {
      // A read transaction of its own: it sees the names the main thread committed after the first part began.
      reply(go ? { names: run(scratch.names, names, 'SELECT count(*) FROM src.names') as number } : { error: 'stopped' });
    } catch (error) {
      reply(failed(error));
    }
  });
} catch (error) {
  reply(failed(error));
}

/** The statements in one transaction on a new scratch database with the main one attached; `count`, if given, read before it commits. */
function run(file: string, statements: readonly string[], count?: string): number | undefined {
  const db = new Database(file);
  try {
    for (const pragma of ['journal_mode = OFF', 'synchronous = OFF', 'temp_store = FILE', 'cache_size = -32768']) db.pragma(pragma);
    db.function('plumb_initial_pairs', { deterministic: true }, (humps: unknown) => initialPairs(String(humps)));
    db.prepare('ATTACH DATABASE ? AS src').run(main);
    db.exec('BEGIN');
    for (const sql of statements) db.exec(sql);
    const counted = count === undefined ? undefined : (db.prepare(count).pluck().get() as number);
    db.exec('COMMIT');
    return counted;
  } finally {
    db.close();
  }
}
