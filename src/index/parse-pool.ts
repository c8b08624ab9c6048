/**
 * Worker threads that parse files in parallel, fed from one queue. Each worker loads its own
 * tree-sitter runtime and grammars (module state is per thread).
 */
import os from 'node:os';
import { languageModules } from '../languages/index.js';
import { Worker, type WorkerOptions } from 'node:worker_threads';
import { workerScript } from './worker-script.js';
import type { LanguageId } from '../syntax/types.js';
import type { PackedSymbols, SymbolChunk } from './symbol-codec.js';
import type { SkipReason } from './store.js';

export interface ParseTask {
  id: number;
  absolute: string;
  language: LanguageId;
  /** The stored hash: an equal hash means the file's symbols are unchanged and it is not parsed. */
  previousHash?: string;
  /** The file's stored path, which the symbols' ids are made of (without it, of the absolute path: a result nothing writes). */
  stored?: string;
  /** The bench's baseline: parse only (the text as written, or prepared as the extractor does), no symbols. */
  parseOnly?: 'raw' | 'prepared';
  /** The file's size as walked, when known: the pool gives each task to the thread with the fewest bytes to parse. */
  size?: number;
}

/** What the pool posts to a thread: a file to parse, or a request for its profile. */
export type WorkerRequest = ParseTask | { id: number; stats: true };

/** A parser thread's profile since it started: wall milliseconds per step summed over its files, and its CPU time. */
export interface WorkerStats {
  files: number;
  /** Read and hash. */
  read: number;
  /** Bodies blanked, macros blanked (the language's prepare step). */
  prepare: number;
  /** tree-sitter's parse. */
  parse: number;
  /** The extraction walk over the tree. */
  extract: number;
  /** The symbols packed for the message: their row values worked out (ids, humps, JSON columns...; symbol-codec.ts). */
  serialize: number;
  /** The thread's CPU time (Linux), undefined where it cannot be read. */
  cpuMs: number | undefined;
  /** Of cpuMs, what the thread spent before its first task: loading its modules (under tsx, compiling them too). */
  startCpuMs: number | undefined;
}

/** What a parser thread posts: the symbols packed as symbol-codec.ts says (a text and two transferred arrays). */
export type WorkerResult =
  /** `retire`: the thread parsed a file so large that it should be replaced once its tasks are done (parse-worker.ts). */
  | { id: number; outcome: 'parsed'; hash: string; size: number; chunk: SymbolChunk; language?: LanguageId; retire?: boolean }
  /**
   * Symbols of a file read in pieces, sent as each piece is read, ahead of the file's 'parsed' message (whose
   * symbols come after them): the main thread never holds one whole large header's message and its decoded values.
   */
  | { id: number; outcome: 'piece'; chunk: SymbolChunk }
  | { id: number; outcome: 'stats'; stats: WorkerStats }
  | Exclude<ParseResult, { outcome: 'parsed' }>;

/**
 * Larger files are recorded, not parsed, and listed in /status as too large. Measured on the kernel's generated
 * register headers: tree-sitter reads 24 MB of `#define`s in 1.1 s (symbols in 2.4 s), 71 MB in 4 s (8.4 s).
 */
export const MAX_PARSED_BYTES = 64 * 1024 * 1024;

/** What /status says of a file larger than plumb parses. */
export function tooLargeDetail(size: number): string {
  return `is ${(size / 1024 / 1024).toFixed(1)} MB, more than the ${MAX_PARSED_BYTES / 1024 / 1024} MB plumb parses`;
}

export type ParseResult =
  /** `language`: the file's text said it is written in another language than the task's (LanguageOfFile.ofText); it was parsed as that. */
  | { id: number; outcome: 'parsed'; hash: string; size: number; symbols: PackedSymbols; language?: LanguageId }
  | { id: number; outcome: 'unchanged'; hash: string; size: number }
  /** Read but not parsed, with why (`detail`: a sentence for people); `hash` is empty when it could not be read. */
  | { id: number; outcome: 'skipped'; reason: SkipReason; detail: string; hash: string; size: number }
  | { id: number; outcome: 'failed'; error: string };

/** Waiting tasks beyond which another thread is started (up to the pool's size). */
const SPAWN_BACKLOG = 16;
/**
 * Bytes handed to the threads and not parsed yet beyond which another thread is started too: a build that sends
 * few files at a time, because they are large (the kernel's register headers, 1-24 MB each, under the builder's
 * UNWRITTEN_BYTES), never has SPAWN_BACKLOG of them waiting, and one thread parsed them all while the other idled.
 */
const SPAWN_BYTES = 512 * 1024;
/** What a task weighs beside its bytes (reading, hashing, messages): many small files weigh something too. */
const TASK_BYTES = 8 * 1024;

/** Tasks handed to a worker at once, so it never waits on the main thread between files. */
const IN_FLIGHT_PER_WORKER = 16;

interface Pending {
  task: ParseTask;
  resolve: (result: ParseResult) => void;
}

/** Crashed threads are replaced; past this many crashes the pool fails its tasks instead. */
const MAX_CRASHES = 16;

interface Slot {
  worker: Worker;
  running: Map<number, Pending>;
  /** The weight of its running tasks (taskWeight): the next task goes to the thread with the least. */
  bytes: number;
  /** Symbols of a task's pieces received so far (WorkerResult 'piece'), until its last message. */
  pieces: Map<number, SymbolChunk[]>;
  /** Takes no more tasks, and ends once those it has are done (it parsed a very large file). */
  retiring?: boolean;
}

export class ParsePool {
  private readonly slots: Slot[] = [];
  private readonly queue: Pending[] = [];
  private readonly script: URL | string;
  private readonly workerOptions: WorkerOptions;
  private nextId = 1;
  private readonly maxSize: number;
  private crashes = 0;
  private closed = false;
  private readonly statsWaiting = new Map<number, (stats: WorkerStats | undefined) => void>();

  constructor(size: number = os.availableParallelism()) {
    ({ script: this.script, options: this.workerOptions } = workerScript(import.meta.url, 'parse-worker', { workerData: { languageModules: languageModules() } }));
    this.maxSize = Math.max(1, size);
    // More threads only once a backlog shows they pay for their start-up (a runtime and grammars each).
    this.slots.push(this.spawn());
  }

  get size(): number {
    return this.slots.length;
  }

  parse(task: Omit<ParseTask, 'id'>): Promise<ParseResult> {
    if (this.closed) return Promise.resolve({ id: 0, outcome: 'failed', error: 'parser pool closed' });
    return new Promise((resolve) => {
      this.queue.push({ task: { ...task, id: this.nextId++ }, resolve });
      this.pump();
    });
  }

  /** Each running thread's profile (for the build's stage breakdown). */
  async stats(): Promise<WorkerStats[]> {
    const answers = await Promise.all(this.slots.map((slot) => new Promise<WorkerStats | undefined>((resolve) => {
      const id = this.nextId++;
      const done = (stats: WorkerStats | undefined): void => {
        clearTimeout(timer);
        this.statsWaiting.delete(id);
        if (slot.running.size === 0) slot.worker.unref();
        resolve(stats);
      };
      // A thread that died meanwhile answers nothing: do not wait for it.
      const timer = setTimeout(() => done(undefined), 2000);
      this.statsWaiting.set(id, done);
      slot.worker.ref();
      slot.worker.postMessage({ id, stats: true } satisfies WorkerRequest);
    })));
    return answers.filter((stats): stats is WorkerStats => stats !== undefined);
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const pending of this.queue.splice(0)) pending.resolve({ id: pending.task.id, outcome: 'failed', error: 'parser pool closed' });
    await Promise.all(this.slots.map(({ worker }) => worker.terminate()));
  }

  private spawn(): Slot {
    const slot: Slot = { worker: new Worker(this.script, this.workerOptions), running: new Map(), bytes: 0, pieces: new Map() };
    // An idle pool must not keep the process alive; a busy one must.
    slot.worker.unref();
    slot.worker.on('message', (message: WorkerResult) => {
      if (message.outcome === 'stats') {
        this.statsWaiting.get(message.id)?.(message.stats);
        return;
      }
      if (message.outcome === 'piece') {
        const chunks = slot.pieces.get(message.id) ?? [];
        chunks.push(message.chunk);
        slot.pieces.set(message.id, chunks);
        return;
      }
      const pending = slot.running.get(message.id);
      slot.running.delete(message.id);
      if (pending) slot.bytes -= taskWeight(pending.task);
      const pieces = slot.pieces.get(message.id);
      slot.pieces.delete(message.id);
      if (message.outcome === 'parsed' && message.retire) slot.retiring = true;
      if (message.outcome === 'parsed') {
        const chunks = pieces ? [...pieces, message.chunk] : [message.chunk];
        const symbols: PackedSymbols = { packed: chunks, count: chunks.reduce((sum, chunk) => sum + chunk.count, 0) };
        pending?.resolve({ id: message.id, outcome: 'parsed', hash: message.hash, size: message.size, symbols, ...(message.language ? { language: message.language } : {}) });
      } else {
        pending?.resolve(message);
      }
      if (slot.running.size === 0) slot.worker.unref();
      if (slot.retiring && slot.running.size === 0) this.retire(slot);
      this.pump();
    });
    let failure = 'parser thread exited';
    slot.worker.on('error', (error) => {
      failure = error.message;
    });
    slot.worker.on('exit', () => {
      for (const [id, pending] of slot.running) pending.resolve({ id, outcome: 'failed', error: failure });
      slot.running.clear();
      slot.bytes = 0;
      if (this.closed || !this.slots.includes(slot)) return;
      this.crashes++;
      if (this.crashes > MAX_CRASHES) {
        for (const pending of this.queue.splice(0)) pending.resolve({ id: pending.task.id, outcome: 'failed', error: failure });
        return;
      }
      const index = this.slots.indexOf(slot);
      if (index >= 0) this.slots[index] = this.spawn();
      this.pump();
    });
    return slot;
  }

  /** Ends a retiring thread (its tasks are done); a new one starts when there is work for it. */
  private retire(slot: Slot): void {
    this.slots.splice(this.slots.indexOf(slot), 1);
    void slot.worker.terminate();
  }

  private pump(): void {
    if (this.closed) return;
    // Work waiting and no thread to take it (the last one retired), or a backlog another thread pays for.
    const working = this.slots.filter((slot) => !slot.retiring);
    const backlog = (): boolean => this.queue.length > SPAWN_BACKLOG
      || this.queue.reduce((sum, pending) => sum + taskWeight(pending.task), 0) + working.reduce((sum, slot) => sum + slot.bytes, 0) > SPAWN_BYTES;
    if (this.queue.length > 0 && (working.length === 0 || (this.slots.length < this.maxSize && backlog()))) {
      const slot = this.spawn();
      this.slots.push(slot);
      working.push(slot);
    }
    // Each task to the thread with the fewest bytes to parse (not the first with room: a few large files sent at a
    // time all went to one thread), so the threads finish together.
    while (this.queue.length > 0) {
      let slot: Slot | undefined;
      for (const candidate of working) if (candidate.running.size < IN_FLIGHT_PER_WORKER && (!slot || candidate.bytes < slot.bytes)) slot = candidate;
      if (!slot) break;
      const pending = this.queue.shift() as Pending;
      slot.running.set(pending.task.id, pending);
      slot.bytes += taskWeight(pending.task);
      slot.worker.ref();
      slot.worker.postMessage(pending.task);
    }
  }
}

function taskWeight(task: ParseTask): number {
  return (task.size ?? 0) + TASK_BYTES;
}
