/**
 * The word index's thread (words.ts): reads the files it is given and writes their words, committing every
 * COMMIT_BYTES read and telling the main thread which files each commit covers. A file is opened as the parser
 * threads open it (O_NOFOLLOW), and covered only when it is a regular file no larger than the index parses whose
 * size and modification time are still the ones the index holds: otherwise its row is dropped, and the syntactic
 * answers read it themselves.
 */
import { closeSync, constants, fstatSync, openSync, readFileSync } from 'node:fs';
import { parentPort, workerData } from 'node:worker_threads';
import { MAX_PARSED_BYTES } from './parse-pool.js';
import { openWords, wordText, type WordFile, type WordsJob, type WordsReply } from './words.js';

/** Bytes read between commits: the main thread learns of covered files this often. */
const COMMIT_BYTES = 64 * 1024 * 1024;
/** A pass reading this many files merges its words once at its end. */
const BULK_FILES = 1000;

const { file, job } = workerData as { file: string; job: WordsJob };
const reply = (message: WordsReply): void => parentPort?.postMessage(message);

try {
  const started = performance.now();
  const db = openWords(file);
  // A first pass's words are merged once at its end, not four segments at a time as they come.
  const bulk = job.read.length >= BULK_FILES;
  if (bulk) db.exec("INSERT INTO words (words, rank) VALUES ('automerge', 0)");
  const rowOf = db.prepare('SELECT id, covered FROM word_files WHERE path = ?');
  const dropWords = db.prepare('DELETE FROM words WHERE rowid = ?');
  const dropFile = db.prepare('DELETE FROM word_files WHERE id = ?');
  const addFile = db.prepare('INSERT INTO word_files (path, size, mtime, covered) VALUES (?, ?, ?, ?)');
  const addWords = db.prepare('INSERT INTO words (rowid, text) VALUES (?, ?)');
  const drop = (path: string): void => {
    const row = rowOf.get(path) as { id: number; covered: number } | undefined;
    if (!row) return;
    if (row.covered === 1) dropWords.run(row.id);
    dropFile.run(row.id);
  };
  let covered: Array<WordFile & { id: number }> = [];
  let uncovered: WordFile[] = [];
  let dropped: string[] = [];
  let pending = 0;
  let bytes = 0;
  let read = 0;
  const commit = db.transaction((work: () => void) => work());
  const flush = (): void => {
    if (covered.length > 0 || uncovered.length > 0 || dropped.length > 0) reply({ covered, uncovered, dropped });
    covered = [];
    uncovered = [];
    dropped = [];
    pending = 0;
  };
  commit(() => {
    for (const path of job.drop) drop(path);
    dropped.push(...job.drop);
  });
  flush();
  let i = 0;
  while (i < job.read.length) {
    commit(() => {
      for (; i < job.read.length && pending < COMMIT_BYTES; i++) {
        const target = job.read[i];
        const text = readWords(target.absolute, target.size, target.mtimeMs);
        drop(target.file);
        if (text === undefined) {
          // Known not to be covered at this stamp: not tried again until it changes.
          addFile.run(target.file, target.size, target.mtimeMs, 0);
          uncovered.push({ file: target.file, size: target.size, mtimeMs: target.mtimeMs });
          continue;
        }
        const id = Number(addFile.run(target.file, target.size, target.mtimeMs, 1).lastInsertRowid);
        addWords.run(id, text);
        covered.push({ file: target.file, size: target.size, mtimeMs: target.mtimeMs, id });
        pending += text.length;
        bytes += text.length;
        read++;
      }
    });
    flush();
  }
  if (bulk) db.exec("INSERT INTO words (words) VALUES ('optimize'); INSERT INTO words (words, rank) VALUES ('automerge', 4)");
  db.close();
  reply({ done: true, read, bytes, ms: Math.round(performance.now() - started) });
} catch (error) {
  reply({ error: error instanceof Error ? error.message : String(error) });
}

/** The file's words, when it is still the file the index holds (same size and modification time); undefined otherwise. */
function readWords(absolute: string, size: number, mtimeMs: number): string | undefined {
  let fd: number;
  try {
    fd = openSync(absolute, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  } catch {
    return undefined;
  }
  try {
    const stats = fstatSync(fd);
    if (!stats.isFile() || stats.size > MAX_PARSED_BYTES || stats.size !== size || stats.mtimeMs !== mtimeMs) return undefined;
    const bytes = readFileSync(fd);
    // Changed while read: the stamp no longer says what was read.
    if (bytes.length !== size) return undefined;
    return wordText(bytes);
  } catch {
    return undefined;
  } finally {
    closeSync(fd);
  }
}
