/**
 * A search thread (src/index/sqlite/search-threads.ts): its own read-only connection to the index and its own
 * SearchPlanner, answering one SearchSpec at a time, each inside one read transaction (one snapshot of the
 * index, as a search on the main thread sees between two writes).
 */
import Database from 'better-sqlite3';
import { parentPort, workerData } from 'node:worker_threads';
import { CamelNames, type CamelBuffers } from '../camel-names.js';
import { fuzzyMatches } from '../ranking.js';
import type { SearchPage, SearchSpec } from '../store.js';
import { SearchPlanner } from './search.js';
import { Statements } from './statements.js';
import { lowerThreadPriority, SEARCH_NICE } from '../thread-priority.js';

export type SearchRequest = { id: number; spec: SearchSpec };
/** The CamelCase tier's names in memory, built by camel-worker.ts: the thread reads its candidates from them from now on. */
export type CamelMessage = { camel: CamelBuffers };
/** An answer, or (id 0) the thread saying it is ready, or that it wants the CamelCase tier's names built (again). */
export type SearchReply = { id: number; page: SearchPage } | { id: number; error: string } | { id: 0; ready: true } | { id: 0; camelWanted: true };

/** How often a thread asks again for names in memory while its own are missing or stale (the parent builds them one at a time). */
const CAMEL_ASK_MS = 10_000;

const { file } = workerData as { file: string };
// Below the main thread, above the word index's thread (why, and what it gave: SEARCH_NICE).
lowerThreadPriority(SEARCH_NICE);
const db = new Database(file, { readonly: true, fileMustExist: true });
// The main connection's cache and map (src/index/sqlite/schema.ts): the pages a search reads stay in memory per thread.
db.pragma('cache_size = -65536');
db.pragma('mmap_size = 268435456');
db.function('plumb_camel', { deterministic: true }, (name: unknown, query: unknown) => (fuzzyMatches(String(name), String(query)) ? 1 : 0));
const planner = new SearchPlanner(new Statements(db));
// Before the thread takes searches (the main thread answers until then): no search waits for a first read of a long list.
// Best effort: a count not read here is read when a search needs it.
try {
  planner.readPairCounts();
} catch {
  // An index without name_initials yet: nothing to read.
}
const begin = db.prepare('BEGIN');
const commit = db.prepare('COMMIT');

let queue: Promise<void> = Promise.resolve();
let camelAsked = -Infinity;
parentPort?.on('message', (request: SearchRequest | CamelMessage) => {
  if ('camel' in request) {
    planner.useCamelNames(CamelNames.from(request.camel));
    return;
  }
  // One at a time: a search's statements share one read transaction.
  queue = queue.then(() => answer(request)).catch((error: unknown) => parentPort?.postMessage({ id: request.id, error: String(error) } satisfies SearchReply));
});

parentPort?.postMessage({ id: 0, ready: true } satisfies SearchReply);

async function answer({ id, spec }: SearchRequest): Promise<void> {
  let reply: SearchReply;
  try {
    begin.run();
    reply = { id, page: await planner.search(spec) };
  } catch (error) {
    reply = { id, error: error instanceof Error ? error.message : String(error) };
  } finally {
    if (db.inTransaction) commit.run();
  }
  parentPort?.postMessage(reply);
  if (planner.camelStale && performance.now() - camelAsked >= CAMEL_ASK_MS) {
    camelAsked = performance.now();
    parentPort?.postMessage({ id: 0, camelWanted: true } satisfies SearchReply);
  }
}
