/**
 * The CamelCase tier's names in memory (src/index/camel-names.ts) for an index, in a thread of its own below the searches:
 * read from the file kept beside the index (CAMEL_SUFFIX) when it is this index's, else built from the names table and
 * saved there. Their arrays (shared memory: the search threads read them as they are) are posted before the thread ends.
 */
import Database from 'better-sqlite3';
import { parentPort, workerData } from 'node:worker_threads';
import { CamelNames, type CamelBuffers } from '../camel-names.js';
import { lowerThreadPriority, WORDS_NICE } from '../thread-priority.js';
import { CAMEL_SUFFIX, INSTANCE_KEY } from './schema.js';

/** The arrays (`saved`: read from the file beside the index), or why they could not be had. */
export type CamelReply = { buffers: CamelBuffers; ms: number; saved: boolean } | { error: string };

/** `fresh`: build them from the names table even if the file holds some (they hold too few of the names). */
const { file, fresh } = workerData as { file: string; fresh: boolean };
// Background work, as the word index's: the searches answer meanwhile, through SQLite alone.
lowerThreadPriority(WORDS_NICE);

try {
  const started = performance.now();
  const db = new Database(file, { readonly: true, fileMustExist: true });
  const instance = db.prepare('SELECT value FROM meta WHERE key = ?').pluck().get(INSTANCE_KEY) as string | undefined;
  const saved = instance && !fresh ? CamelNames.load(file + CAMEL_SUFFIX, instance) : undefined;
  const names = saved ?? CamelNames.build(db.prepare('SELECT id, name FROM names').raw().iterate() as IterableIterator<[number, string]>);
  db.close();
  parentPort?.postMessage({ buffers: names.buffers, ms: Math.round(performance.now() - started), saved: saved !== undefined } satisfies CamelReply);
  if (!saved && instance) {
    try {
      names.save(file + CAMEL_SUFFIX, instance);
    } catch {
      // A folder it may not write (a read-only index): built again at the next start.
    }
  }
} catch (error) {
  parentPort?.postMessage({ error: error instanceof Error ? error.message : String(error) } satisfies CamelReply);
}
