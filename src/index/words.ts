/**
 * The word index: which indexed files hold which words (maximal runs of ASCII letters, digits and `_`), so that the
 * syntactic answers that read the tree for a name (usages' fallback, syntactic callers) read only the files holding
 * it, not every file of the language family: on the kernel 55,000 files, 1.3 GB, for each name asked.
 *
 * It lives in a database of its own beside the index (`words.sqlite`), whatever the store (a team's replicas keep
 * one each, from the files on their disk), and is filled in a thread of its own (words-worker.ts) after the index is
 * ready, then kept up with the index's changes. A file counts as covered only while the word index read it at the
 * size and modification time the index holds for it; every other file (not read yet, changed since, too large,
 * unreadable) is read as before. So the word index only ever leaves out files it read and found without the name:
 * the answers are those of reading every file, sooner.
 */
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import Database from 'better-sqlite3';
import { TimeSlice } from '../semaphore.js';
import { readWalkedFile } from './walked-file.js';
import { workerScript } from './worker-script.js';

/**
 * The files the word index has read, with the index's stamp they had (id = the words row), and those it could not
 * cover at that stamp (covered = 0: too large, unreadable, changed while read), left to be read by the answers.
 */
export const WORDS_SCHEMA = `
CREATE TABLE IF NOT EXISTS word_files (id INTEGER PRIMARY KEY, path TEXT NOT NULL UNIQUE, size INTEGER NOT NULL, mtime REAL NOT NULL, covered INTEGER NOT NULL);
CREATE VIRTUAL TABLE IF NOT EXISTS words USING fts5 (text, tokenize = "ascii tokenchars '_'", content = '', contentless_delete = 1, detail = none);
`;
/** Bump when what a words row holds changes: a mismatch starts the database afresh. */
export const WORDS_VERSION = 2;

/** A pass of at most this many files and bytes runs on the main thread, a slice at a time; a larger one in a thread. */
const HERE_FILES = 2000;
const HERE_BYTES = 32 * 1024 * 1024;
/** A file's words are one insert: a larger file goes to the thread (a 24 MB register header is some 100 ms). */
const HERE_FILE_BYTES = 2 * 1024 * 1024;

/** Names the word index can answer for: ASCII identifiers (anything else is looked for in every file). */
const WORD = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** A file as the index holds it. */
export interface WordFile {
  file: string;
  size: number;
  mtimeMs: number;
}

/** To the thread: files to read (stored path, absolute path, the index's stamp) and stored paths to drop. */
export interface WordsJob {
  read: Array<{ file: string; absolute: string; size: number; mtimeMs: number }>;
  drop: string[];
}
/** What one commit changed: the files now covered (their words row's id), those read but not covered, those dropped. */
export interface WordsChange {
  covered: Array<WordFile & { id: number }>;
  uncovered: WordFile[];
  dropped: string[];
}
/** From the thread: each commit's change, and at the end `done`. */
export type WordsReply = WordsChange | { done: true; read: number; bytes: number; ms: number } | { error: string };

export interface WordIndexStatus {
  /** `reading`: the thread is bringing it up to date; `ready`: idle; `off`: it could not be opened (everything is read). */
  state: 'reading' | 'ready' | 'off';
  /** Files it covers at the index's stamp. */
  files: number;
}

/**
 * A run of ASCII letters, digits and `_` is a word; a leading run of digits is not part of one (`12foo` holds `foo`,
 * as a lexer that reads a number then a name would). Every other byte (a non-ASCII one too) separates words. Returns
 * the text the full-text table tokenizes: `bytes` with every separator made a space (in place).
 */
export function wordText(bytes: Buffer): string {
  let inWord = false;
  for (let i = 0; i < bytes.length; i++) {
    const b = bytes[i];
    if ((b >= 97 && b <= 122) || (b >= 65 && b <= 90) || b === 95) {
      inWord = true;
    } else if (b >= 48 && b <= 57) {
      if (!inWord) bytes[i] = 32;
    } else {
      if (b !== 32) bytes[i] = 32;
      inWord = false;
    }
  }
  return bytes.toString('latin1');
}

/** Whether the word index can narrow a search for `name`. */
export function isWord(name: string): boolean {
  return WORD.test(name);
}

export class WordIndex {
  private readonly db: Database.Database | undefined;
  /** What the database covers: stored path → stamp read at. */
  private readonly covered = new Map<string, { size: number; mtimeMs: number }>();
  private readonly match: Database.Statement | undefined;
  private readonly idOf = new Map<number, string>();
  private thread: Worker | undefined;
  /** A pass is under way (here or in the thread). */
  private running = false;
  private timer: NodeJS.Timeout | undefined;
  private again = false;
  private closed = false;
  /** Files a pass could not cover, at the stamp it tried: not tried again until they change. */
  private readonly failed = new Map<string, { size: number; mtimeMs: number }>();
  private lastRun: { read: number; bytes: number; ms: number; thread: boolean } | undefined;

  private constructor(
    private readonly file: string,
    private readonly root: string,
    private readonly files: () => Promise<WordFile[]>,
    private readonly warn: (message: string) => void,
  ) {
    try {
      mkdirSync(path.dirname(file), { recursive: true });
      this.db = openWords(file);
      for (const row of this.db.prepare('SELECT id, path, size, mtime, covered FROM word_files').all() as Array<{ id: number; path: string; size: number; mtime: number; covered: number }>) {
        const stamp = { size: row.size, mtimeMs: row.mtime };
        if (row.covered === 0) {
          this.failed.set(row.path, stamp);
          continue;
        }
        this.covered.set(row.path, stamp);
        this.idOf.set(row.id, row.path);
      }
      this.match = this.db.prepare('SELECT rowid FROM words WHERE words MATCH ?').pluck();
    } catch (error) {
      this.warn(`word index: ${file} could not be opened, every file is read for syntactic answers: ${error instanceof Error ? error.message : String(error)}`);
      this.db = undefined;
    }
  }

  /**
   * The word index beside an index database; `files` lists what the index holds (read when it is brought up to date).
   * Stored paths are relative to `root` unless absolute (an extra root's).
   */
  static open(indexFile: string, root: string, files: () => Promise<WordFile[]>, warn: (message: string) => void): WordIndex {
    return new WordIndex(path.join(path.dirname(indexFile), 'words.sqlite'), root, files, warn);
  }

  /** Whether it has read, or tried to read, as many files as the index holds (a restart that changed nothing need not compare). */
  knows(files: number): boolean {
    return this.covered.size + this.failed.size === files;
  }

  status(): WordIndexStatus {
    return { state: !this.db ? 'off' : this.running ? 'reading' : 'ready', files: this.covered.size };
  }

  /** The last pass's figures (files covered, their bytes, milliseconds, whether in the thread); for the bench and tests. */
  lastUpdate(): { read: number; bytes: number; ms: number; thread: boolean } | undefined {
    return this.lastRun;
  }

  /**
   * Of `files` (the index's, in the caller's order), those that may hold `name` as a word: every file the word index
   * does not cover at its index stamp, and the covered ones that hold it (letter case aside). `passedOver` is how many
   * were left out. A name that is not an ASCII identifier, or no word index, leaves every file in.
   */
  narrow<T extends WordFile>(files: readonly T[], name: string): { files: T[]; passedOver: number } {
    if (!this.db || !this.match || this.closed || !isWord(name)) return { files: [...files], passedOver: 0 };
    let holding: Set<string | undefined> | undefined;
    const out: T[] = [];
    let stale = false;
    for (const file of files) {
      if (!sameStamp(this.covered.get(file.file), file)) {
        if (!sameStamp(this.failed.get(file.file), file)) stale = true;
        out.push(file);
        continue;
      }
      holding ??= new Set((this.match.all(`"${name}"`) as number[]).map((id) => this.idOf.get(id)));
      if (holding.has(file.file)) out.push(file);
    }
    if (stale) this.update();
    return { files: out, passedOver: files.length - out.length };
  }

  /** Brings the word index up to the index's files soon (after the index changed); one pass at a time. */
  update(delayMs = 1000): void {
    if (!this.db || this.closed) return;
    if (this.running) {
      this.again = true;
      return;
    }
    if (this.timer) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      void this.run().catch((error: unknown) => this.warn(`word index: ${error instanceof Error ? error.message : String(error)}`));
    }, delayMs);
    this.timer.unref?.();
  }

  /** Resolves once no pass is running or due (tests, the bench). */
  async settled(): Promise<void> {
    while (!this.closed && (this.running || this.timer)) await new Promise((resolve) => setTimeout(resolve, 50));
  }

  private async run(): Promise<void> {
    if (this.closed || this.running || !this.db) return;
    this.running = true;
    try {
      const files = await this.files();
      const listed = new Set<string>();
      const job: WordsJob = { read: [], drop: [] };
      let bytes = 0;
      let largest = 0;
      for (const file of files) {
        listed.add(file.file);
        if (sameStamp(this.covered.get(file.file), file) || sameStamp(this.failed.get(file.file), file)) continue;
        job.read.push({ ...file, absolute: path.isAbsolute(file.file) ? file.file : path.join(this.root, file.file) });
        bytes += file.size;
        largest = Math.max(largest, file.size);
      }
      for (const file of new Set([...this.covered.keys(), ...this.failed.keys()])) if (!listed.has(file)) job.drop.push(file);
      if ((job.read.length === 0 && job.drop.length === 0) || this.closed) return;
      if (job.read.length <= HERE_FILES && bytes <= HERE_BYTES && largest <= HERE_FILE_BYTES) await this.fillHere(job);
      else await this.fillInThread(job);
    } finally {
      this.running = false;
    }
    if (this.again && !this.closed) {
      this.again = false;
      this.update(0);
    }
  }

  /** A few files (an edit, a small tree) on this thread, a slice at a time: no thread to start. */
  private async fillHere(job: WordsJob): Promise<void> {
    const started = performance.now();
    const fill = new WordsFill(this.db!, job);
    const slice = new TimeSlice();
    while (!fill.done && !this.closed) {
      this.apply(fill.step(() => slice.due()));
      await slice.pause();
    }
    this.lastRun = { read: fill.read, bytes: fill.bytes, ms: Math.round(performance.now() - started), thread: false };
  }

  private fillInThread(job: WordsJob): Promise<void> {
    return new Promise<void>((resolve) => {
      const { script, options } = workerScript(import.meta.url, 'words-worker', { workerData: { file: this.file, job } });
      const thread = new Worker(script, options);
      this.thread = thread;
      thread.unref();
      thread.on('message', (reply: WordsReply) => {
        if ('covered' in reply) this.apply(reply);
        else if ('done' in reply) this.lastRun = { read: reply.read, bytes: reply.bytes, ms: reply.ms, thread: true };
        else this.warn(`word index: ${reply.error}`);
      });
      thread.on('error', (error) => this.warn(`word index: ${error.message}`));
      thread.on('exit', () => {
        this.thread = undefined;
        resolve();
      });
    });
  }

  /** What a committed step changed, into the maps narrow() reads. */
  private apply(change: WordsChange): void {
    for (const file of change.covered) {
      this.covered.set(file.file, { size: file.size, mtimeMs: file.mtimeMs });
      this.idOf.set(file.id, file.file);
      this.failed.delete(file.file);
    }
    for (const file of change.uncovered) {
      this.covered.delete(file.file);
      this.failed.set(file.file, { size: file.size, mtimeMs: file.mtimeMs });
    }
    for (const file of change.dropped) {
      this.covered.delete(file);
      this.failed.delete(file);
    }
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    await this.thread?.terminate();
    this.db?.close();
  }
}

/** Whether a stamp the word index keeps is the one the index holds for the file now. */
function sameStamp(kept: { size: number; mtimeMs: number } | undefined, file: WordFile): boolean {
  return kept !== undefined && kept.size === file.size && kept.mtimeMs === file.mtimeMs;
}

/**
 * A job's writes into the word index's database, a commit at a time (on the main thread for a few files, in the
 * thread for many): the dropped files first, then each file read, covered (its words in) or not (a row at its stamp,
 * so it is not tried again until it changes).
 */
export class WordsFill {
  private readonly rowOf: Database.Statement;
  private readonly dropWords: Database.Statement;
  private readonly dropFile: Database.Statement;
  private readonly addFile: Database.Statement;
  private readonly addWords: Database.Statement;
  private readonly commit: (work: () => void) => void;
  private next = 0;
  private dropsDone = false;
  /** Files covered and their words' bytes, so far. */
  read = 0;
  bytes = 0;

  constructor(db: Database.Database, private readonly job: WordsJob) {
    this.rowOf = db.prepare('SELECT id, covered FROM word_files WHERE path = ?');
    this.dropWords = db.prepare('DELETE FROM words WHERE rowid = ?');
    this.dropFile = db.prepare('DELETE FROM word_files WHERE id = ?');
    this.addFile = db.prepare('INSERT INTO word_files (path, size, mtime, covered) VALUES (?, ?, ?, ?)');
    this.addWords = db.prepare('INSERT INTO words (rowid, text) VALUES (?, ?)');
    this.commit = db.transaction((work: () => void) => work());
  }

  get done(): boolean {
    return this.dropsDone && this.next >= this.job.read.length;
  }

  /** One transaction: files read until `enough(bytes read in it)`; what it changed, for the main thread's maps. */
  step(enough: (bytes: number) => boolean): WordsChange {
    const out: WordsChange = { covered: [], uncovered: [], dropped: [] };
    this.commit(() => {
      if (!this.dropsDone) {
        for (const file of this.job.drop) this.drop(file);
        out.dropped.push(...this.job.drop);
        this.dropsDone = true;
      }
      let bytes = 0;
      for (; this.next < this.job.read.length && !enough(bytes); this.next++) {
        const target = this.job.read[this.next];
        const text = readWords(target.absolute, target.size, target.mtimeMs);
        this.drop(target.file);
        const stamp = { file: target.file, size: target.size, mtimeMs: target.mtimeMs };
        if (text === undefined) {
          this.addFile.run(target.file, target.size, target.mtimeMs, 0);
          out.uncovered.push(stamp);
          continue;
        }
        const id = Number(this.addFile.run(target.file, target.size, target.mtimeMs, 1).lastInsertRowid);
        this.addWords.run(id, text);
        out.covered.push({ ...stamp, id });
        bytes += text.length;
        this.bytes += text.length;
        this.read++;
      }
    });
    return out;
  }

  private drop(file: string): void {
    const row = this.rowOf.get(file) as { id: number; covered: number } | undefined;
    if (!row) return;
    if (row.covered === 1) this.dropWords.run(row.id);
    this.dropFile.run(row.id);
  }
}

/**
 * The file's words, when it is still the file the index holds (a regular file of the same size and modification
 * time, no larger than the index parses); undefined otherwise. Read as the parser threads read walked files
 * (readWalkedFile); what it holds is never answered, only which words.
 */
function readWords(absolute: string, size: number, mtimeMs: number): string | undefined {
  try {
    const read = readWalkedFile(absolute, (stats) => stats.isFile() && stats.size === size && stats.mtimeMs === mtimeMs);
    // Not read, or changed while read: the stamp does not say what was read.
    return read.bytes?.length === size ? wordText(read.bytes) : undefined;
  } catch {
    return undefined;
  }
}

/** Opens (or starts afresh) the word index's database. */
export function openWords(file: string): Database.Database {
  const db = new Database(file);
  db.pragma('journal_mode = WAL');
  if (db.pragma('user_version', { simple: true }) !== WORDS_VERSION) {
    db.exec('DROP TABLE IF EXISTS words; DROP TABLE IF EXISTS word_files;');
    db.pragma(`user_version = ${WORDS_VERSION}`);
  }
  db.pragma('synchronous = NORMAL');
  db.exec(WORDS_SCHEMA);
  return db;
}
