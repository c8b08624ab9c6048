/**
 * The word index's thread (words.ts), for the passes that read many files (a first pass over the whole tree): writes
 * their words a commit of COMMIT_BYTES at a time (WordsFill) and tells the main thread what each commit changed.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { lowerThreadPriority, WORDS_NICE } from './thread-priority.js';
import { openWords, WordsFill, type WordsJob, type WordsReply } from './words.js';

/** Words' bytes written between commits: the main thread learns of covered files this often. */
const COMMIT_BYTES = 64 * 1024 * 1024;

const { file, job } = workerData as { file: string; job: WordsJob };
const reply = (message: WordsReply): void => parentPort?.postMessage(message);

// Below the searches (their threads run at SEARCH_NICE) and the build: the pass is background work (some 20 s of a core
// on the kernel, right after a first build, while the first searches come).
lowerThreadPriority(WORDS_NICE);

try {
  const started = performance.now();
  const db = openWords(file);
  // A first pass's words are merged once at its end, not four segments at a time as they come.
  db.exec("INSERT INTO words (words, rank) VALUES ('automerge', 0)");
  const fill = new WordsFill(db, job);
  while (!fill.done) reply(fill.step((bytes) => bytes >= COMMIT_BYTES));
  db.exec("INSERT INTO words (words) VALUES ('optimize'); INSERT INTO words (words, rank) VALUES ('automerge', 4)");
  db.close();
  reply({ done: true, read: fill.read, bytes: fill.bytes, ms: Math.round(performance.now() - started) });
} catch (error) {
  reply({ error: error instanceof Error ? error.message : String(error) });
}
