/**
 * Searches off the main thread: worker threads, each with its own read-only SQLite connection
 * (search-worker.ts), so a search of a common name never holds up /health or a cheap request, and
 * searches run on as many cores as there are threads. SQLite in WAL mode lets every connection read
 * while the main one writes; each search reads one snapshot. The threads start when serving begins (or at the first
 * search) once the index is large enough for a search to cost more than a message (THREADS_FROM_SYMBOLS); until a thread is ready, and
 * for any search a thread could not answer, the main thread answers as before: the same SQL either way.
 */
import { statSync } from 'node:fs';
import os from 'node:os';
import { Worker } from 'node:worker_threads';
import { workerScript } from '../worker-script.js';
import type { SearchPage, SearchSpec } from '../store.js';
import type { CamelBuffers } from '../camel-names.js';
import type { CamelReply } from './camel-worker.js';
import type { CamelMessage, SearchReply, SearchRequest } from './search-worker.js';

/**
 * From this many symbols searches go to threads. Below it a search costs well under a millisecond on the
 * main thread, about what a message to a thread and back costs, and no thread is started.
 */
export const THREADS_FROM_SYMBOLS = 200_000;

/** A thread that stopped this many times is not started again: the main thread answers. */
const MAX_CRASHES = 3;

/**
 * The CamelCase tier's names in memory (camel-worker.ts) are built again, when a thread finds its own stale, no sooner than this
 * many times the last build's time after it ended: while a first build writes names, building them costs at most a fifth of a core.
 */
const CAMEL_REBUILD_GAP = 4;

interface Slot {
  worker: Worker;
  ready: boolean;
  busy: number;
}

interface Pending {
  id: number;
  spec: SearchSpec;
  resolve(page: SearchPage | undefined): void;
}

export class SearchThreads {
  private readonly slots: Slot[] = [];
  private readonly queue: Pending[] = [];
  private readonly running = new Map<number, { slot: Slot; pending: Pending }>();
  private nextId = 1;
  /** Searches the threads answered (a page each), for tests and profiles. */
  answered = 0;
  private crashes = 0;
  private closed = false;
  /** The thread reading the index file into the page cache (warmPageCache), while it runs. */
  private warming: Worker | undefined;
  /** The CamelCase tier's names in memory, once built; the thread building them, while it runs; when it may run again. */
  private camel: CamelBuffers | undefined;
  private camelBuilder: Worker | undefined;
  private camelNext = 0;
  /** Names in memory had (camelBuilds), and how many of those were read from the file beside the index (camelLoads), for tests and profiles. */
  camelBuilds = 0;
  camelLoads = 0;

  constructor(private readonly file: string, private readonly size: number = os.availableParallelism()) {
    for (let i = 0; i < Math.max(1, size); i++) this.slots.push(this.spawn());
    this.warming = warmPageCache(file);
    this.buildCamel();
  }

  /** Whether a thread can take a search now or soon (one is ready). */
  get ready(): boolean {
    return !this.closed && this.slots.some((slot) => slot.ready);
  }

  /** The page from a thread, or undefined when no thread could answer (the caller answers itself: errors are raised there, as they always were). */
  search(spec: SearchSpec): Promise<SearchPage | undefined> {
    if (!this.ready) return Promise.resolve(undefined);
    return new Promise((resolve) => {
      this.queue.push({ id: this.nextId++, spec, resolve });
      this.pump();
    });
  }

  async close(): Promise<void> {
    this.closed = true;
    void this.warming?.terminate();
    void this.camelBuilder?.terminate();
    for (const pending of this.queue.splice(0)) pending.resolve(undefined);
    for (const { pending } of this.running.values()) pending.resolve(undefined);
    this.running.clear();
    await Promise.all(this.slots.splice(0).map(({ worker }) => worker.terminate()));
  }

  private pump(): void {
    // The least busy ready thread; one search in flight per thread, so a long one waits in the queue, not behind another.
    while (this.queue.length > 0) {
      const slot = this.slots.filter((s) => s.ready && s.busy === 0)[0];
      if (!slot) return;
      const pending = this.queue.shift() as Pending;
      slot.busy++;
      this.running.set(pending.id, { slot, pending });
      slot.worker.ref();
      slot.worker.postMessage({ id: pending.id, spec: pending.spec } satisfies SearchRequest);
    }
  }

  /** Starts a build of the CamelCase tier's names in memory unless one runs or the last ended too recently; each thread gets them when done. */
  private buildCamel(): void {
    if (this.closed || this.camelBuilder || performance.now() < this.camelNext) return;
    // Once some are held, they are stale (a thread asked again): built from the names table, not read from the file beside the index.
    const { script, options } = workerScript(import.meta.url, 'camel-worker', { workerData: { file: this.file, fresh: this.camel !== undefined } });
    const builder = new Worker(script, options);
    this.camelBuilder = builder;
    builder.unref();
    const started = performance.now();
    builder.on('message', (reply: CamelReply) => {
      if (!('buffers' in reply) || this.closed) return;
      this.camel = reply.buffers;
      this.camelBuilds++;
      if (reply.saved) this.camelLoads++;
      for (const slot of this.slots) if (slot.ready) slot.worker.postMessage({ camel: reply.buffers } satisfies CamelMessage);
    });
    builder.on('error', () => undefined);
    builder.on('exit', () => {
      this.camelBuilder = undefined;
      this.camelNext = performance.now() + CAMEL_REBUILD_GAP * (performance.now() - started);
    });
  }

  private spawn(): Slot {
    const { script, options } = workerScript(import.meta.url, 'search-worker', { workerData: { file: this.file } });
    const slot: Slot = { worker: new Worker(script, options), ready: false, busy: 0 };
    slot.worker.unref();
    slot.worker.on('message', (reply: SearchReply) => {
      if ('ready' in reply) {
        // Its connection is open: searches go to it from now on.
        slot.ready = true;
        if (this.camel) slot.worker.postMessage({ camel: this.camel } satisfies CamelMessage);
        this.pump();
        return;
      }
      if ('camelWanted' in reply) {
        this.buildCamel();
        return;
      }
      const entry = this.running.get(reply.id);
      this.running.delete(reply.id);
      slot.busy = Math.max(0, slot.busy - 1);
      if (slot.busy === 0) slot.worker.unref();
      if ('page' in reply) this.answered++;
      entry?.pending.resolve('page' in reply ? reply.page : undefined);
      this.pump();
    });
    slot.worker.on('error', () => undefined);
    slot.worker.on('exit', () => {
      slot.ready = false;
      for (const [id, entry] of this.running) {
        if (entry.slot !== slot) continue;
        this.running.delete(id);
        entry.pending.resolve(undefined);
      }
      const index = this.slots.indexOf(slot);
      if (index >= 0) this.slots.splice(index, 1);
      if (this.closed) return;
      if (++this.crashes <= MAX_CRASHES) this.slots.push(this.spawn());
      // No thread left to take the queue: the callers answer on the main thread.
      if (!this.slots.some((s) => s.ready)) for (const pending of this.queue.splice(0)) pending.resolve(undefined);
      this.pump();
    });
    return slot;
  }
}

/**
 * Reads a file end to start in 4 MB pieces and ends: warmPageCache's thread (plain JavaScript, so no loader is needed).
 * From the end: a first build makes the indexes and full-text tables searches read after the symbols' rows (on the
 * kernel, from 58% of the file on), so those come into the cache first. On the kernel with the page cache dropped, the
 * first 300 searches after a restart, 3 rounds each way: p99 445 / 498 / 387 -> 243 / 173 / 147 ms, p50 the same.
 * Synchronous reads in a thread of its own keep nothing waiting on the event loop, and the thread, unreferenced, does not
 * keep the process alive.
 */
const WARM_SCRIPT = `
const { closeSync, fstatSync, openSync, readSync } = require('node:fs');
const { workerData } = require('node:worker_threads');
const fd = openSync(workerData.file, 'r');
try {
  const size = fstatSync(fd).size;
  // 64 pages spread over the file: when all but two come at memory speed (well under 50 µs; a disk read takes some
  // 100 µs or more), the file is in the cache already and reading it all would only cost a copy of it, on a core the
  // searches need.
  const page = Buffer.allocUnsafe(4096);
  let slow = 0;
  for (let i = 0; i < 64 && slow <= 2 && size > 4096; i++) {
    const started = process.hrtime.bigint();
    readSync(fd, page, 0, page.length, Math.floor(((size - 4096) * i) / 63 / 4096) * 4096);
    if (process.hrtime.bigint() - started >= 50000n) slow++;
  }
  const cached = slow <= 2;
  const buffer = Buffer.allocUnsafe(4 * 1024 * 1024);
  for (let end = size; end > 0 && !cached; end -= buffer.length) {
    const at = Math.max(0, end - buffer.length);
    readSync(fd, buffer, 0, end - at, at);
  }
} finally {
  closeSync(fd);
}`;

/**
 * The index file read once, start to end, as the search threads start, so that the first searches after a restart do not
 * wait for the disk: with the file out of the OS page cache, each page a search touches is a random read (56 µs for 4 KB
 * on the bench machine's disk, some 25 ms a kernel search), where reading the file in order fills the cache at the disk's
 * speed (the kernel's 4.7 GB: 9.5 s, 5.9 s of it system CPU, at load 7), in a thread of its own. Pages already cached cost a copy:
 * a file whose sampled pages all come from the cache is not read (the kernel's: some 2 s of a core while the first searches run). Not for a file over
 * a quarter of the memory (the machine's, or the container's limit): the cache could not keep it. Best effort: an error
 * ends it, and searches read as they would have. The thread, or undefined when none was started.
 */
function warmPageCache(file: string): Worker | undefined {
  const memory = Math.min(os.totalmem(), process.constrainedMemory?.() || Infinity);
  try {
    if (statSync(file).size > memory / 4) return undefined;
    const worker = new Worker(WARM_SCRIPT, { eval: true, workerData: { file } });
    worker.unref();
    worker.on('error', () => undefined);
    return worker;
  } catch {
    // The file went away: nothing to warm.
    return undefined;
  }
}
