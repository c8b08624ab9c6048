/**
 * Runs a user's regular expression off the main thread, so a catastrophic pattern (`(a+)+\\1$`) cannot
 * stall the event loop, nor fail another client's query.
 *
 * A small pool of worker threads (plain JavaScript, no loader; POOL_SIZE) runs one job at a time each:
 * a job waits in a queue until a worker is free, and its time limit starts when it starts on the worker.
 * A job that runs past its time limit ends its worker, which held that job alone, and rejects with
 * RegexTimeoutError; the jobs of other queries run on the other workers or wait for a fresh one.
 *
 * A query's jobs may wait for a worker for RegexBudget.maxWaitMs in all (twice the time limit): past that
 * (a flood of catastrophic expressions holding every worker for its whole time limit) the waiting job
 * rejects with RegexBusyError, so no query waits forever and the queue drains. Workers stay running
 * between jobs (unref'd, one spare kept booted), so a query never waits for one to start when one is free.
 */
import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';

const WORKER_SOURCE = `
// Past this many backtracks V8 reruns an expression on its linear-time engine (where the expression allows it:
// no backreferences or lookarounds), so (a+)+$ answers in milliseconds; the time limit covers the rest.
require('node:v8').setFlagsFromString('--enable-experimental-regexp-engine-on-excessive-backtracks');
const { parentPort } = require('node:worker_threads');
parentPort.on('message', (m) => {
  try {
    const re = new RegExp(m.source, m.flags);
    const hits = [];
    if (m.op === 'texts') {
      for (let i = 0; i < m.texts.length; i++) { if (re.test(m.texts[i])) hits.push(i); }
    } else {
      for (let i = 0; i < m.starts.length; i++) { if (re.test(m.text.slice(m.starts[i], m.ends[i]))) hits.push(i); }
    }
    parentPort.postMessage({ id: m.id, hits });
  } catch (error) {
    parentPort.postMessage({ id: m.id, error: String(error && error.message || error) });
  }
});
`;

/**
 * Workers at most: two even on one core, so one catastrophic expression running out its time limit leaves
 * a worker for everyone else; at most four, since each is CPU-bound and regex queries are not the service's main work.
 */
export const POOL_SIZE = Math.max(2, Math.min(4, availableParallelism()));

export class RegexTimeoutError extends Error {
  constructor(readonly timeoutMs: number) {
    super(`the regular expression ran for more than ${timeoutMs} ms`);
    this.name = 'RegexTimeoutError';
  }
}

/** Every worker stayed busy with other queries' jobs while this query waited its whole budget. */
export class RegexBusyError extends Error {
  constructor(readonly waitedMs: number, readonly maxWaitMs: number, readonly workers: number) {
    super(`the ${workers} regular expression workers were all busy with other queries while this one waited more than ${maxWaitMs} ms`);
    this.name = 'RegexBusyError';
  }
}

/** The caller went away: its jobs leave the queue, a running one ends its worker. */
export class RegexCancelledError extends Error {
  constructor() {
    super('the regular expression query was cancelled: the caller went away');
    this.name = 'RegexCancelledError';
  }
}

/** One query's limits, shared by all its jobs: the time limit of each job and the waiting for a worker they may do in all. */
export class RegexBudget {
  /** Time the query's jobs have waited for a worker so far. */
  waitedMs = 0;
  readonly maxWaitMs: number;

  constructor(readonly timeoutMs: number, readonly signal?: AbortSignal, maxWaitMs = 2 * timeoutMs) {
    this.maxWaitMs = maxWaitMs;
  }
}

export type RegexJob =
  | { op: 'texts'; texts: string[] }
  | { op: 'spans'; text: string; starts: number[]; ends: number[] };

interface Pending {
  id: number;
  message: { id: number; source: string; flags: string } & RegexJob;
  budget: RegexBudget;
  queuedAt: number;
  resolve(hits: number[]): void;
  reject(error: Error): void;
  /** Set while queued: rejects with RegexBusyError when the budget runs out. */
  waitTimer?: NodeJS.Timeout;
  /** Set while running: ends the worker at the time limit. */
  runTimer?: NodeJS.Timeout;
  onAbort?: () => void;
}

interface Slot {
  worker: Worker;
  online: boolean;
  job: Pending | null;
}

const slots = new Set<Slot>();
const queue: Pending[] = [];
let nextId = 1;

function settle(job: Pending): void {
  clearTimeout(job.waitTimer);
  clearTimeout(job.runTimer);
  if (job.onAbort) job.budget.signal?.removeEventListener('abort', job.onAbort);
}

function spawn(): Slot {
  // No inherited loaders (tsx, test hooks): the worker is plain JavaScript and must end at once when terminated.
  const worker = new Worker(WORKER_SOURCE, { eval: true, execArgv: [] });
  worker.unref();
  const slot: Slot = { worker, online: false, job: null };
  slots.add(slot);
  worker.once('online', () => {
    slot.online = true;
    pump();
  });
  worker.on('message', (message: { id: number; hits?: number[]; error?: string }) => {
    const job = slot.job;
    if (!job || job.id !== message.id) return;
    slot.job = null;
    settle(job);
    if (message.error !== undefined) job.reject(new Error(message.error));
    else job.resolve(message.hits ?? []);
    pump();
  });
  const gone = (error: Error): void => {
    if (!slots.delete(slot)) return;
    const job = slot.job;
    slot.job = null;
    if (job) {
      settle(job);
      job.reject(error);
    } else if (!slot.online && queue.length > 0) {
      // A worker that cannot start fails the job that waited longest, rather than being booted again and again.
      const first = queue.shift()!;
      settle(first);
      first.reject(error);
    }
    pump();
  };
  worker.on('error', gone);
  worker.on('exit', () => gone(new Error('the regular expression worker stopped')));
  return slot;
}

/** Ends a worker stuck in a job (time limit, cancelled caller): only that job fails; the queue moves on. */
function kill(slot: Slot, error: Error): void {
  slots.delete(slot);
  const job = slot.job;
  slot.job = null;
  void slot.worker.terminate();
  if (job) {
    settle(job);
    job.reject(error);
  }
  pump();
}

function start(slot: Slot, job: Pending): void {
  clearTimeout(job.waitTimer);
  job.budget.waitedMs += performance.now() - job.queuedAt;
  slot.job = job;
  job.runTimer = setTimeout(() => {
    if (slot.job === job) kill(slot, new RegexTimeoutError(job.budget.timeoutMs));
  }, job.budget.timeoutMs);
  slot.worker.postMessage(job.message);
}

/** Starts queued jobs on free workers; boots workers for the rest (up to POOL_SIZE) and keeps one spare booted. */
function pump(): void {
  for (const slot of slots) {
    if (queue.length === 0) break;
    if (slot.online && !slot.job) start(slot, queue.shift()!);
  }
  let booting = 0;
  let idle = 0;
  for (const slot of slots) {
    if (!slot.online) booting++;
    else if (!slot.job) idle++;
  }
  while (slots.size < POOL_SIZE && booting < queue.length) {
    spawn();
    booting++;
  }
  if (slots.size > 0 && slots.size < POOL_SIZE && idle + booting === 0) spawn();
}

/** Indices of the texts (or spans of one text) the expression matches somewhere in. */
export function regexHits(source: string, flags: string, job: RegexJob, limits: RegexBudget | number): Promise<number[]> {
  const budget = typeof limits === 'number' ? new RegexBudget(limits) : limits;
  return new Promise<number[]>((resolve, reject) => {
    if (budget.signal?.aborted) {
      reject(new RegexCancelledError());
      return;
    }
    const id = nextId++;
    const pending: Pending = { id, message: { id, source, flags, ...job }, budget, queuedAt: performance.now(), resolve, reject };
    pending.onAbort = () => {
      const at = queue.indexOf(pending);
      if (at >= 0) {
        queue.splice(at, 1);
        settle(pending);
        reject(new RegexCancelledError());
        return;
      }
      for (const slot of slots) if (slot.job === pending) kill(slot, new RegexCancelledError());
    };
    budget.signal?.addEventListener('abort', pending.onAbort, { once: true });
    queue.push(pending);
    pump();
    if (!queue.includes(pending)) return;
    const left = budget.maxWaitMs - budget.waitedMs;
    const busy = (): void => {
      const at = queue.indexOf(pending);
      if (at < 0) return;
      queue.splice(at, 1);
      budget.waitedMs += performance.now() - pending.queuedAt;
      settle(pending);
      reject(new RegexBusyError(Math.round(budget.waitedMs), budget.maxWaitMs, POOL_SIZE));
    };
    if (left <= 0) busy();
    else pending.waitTimer = setTimeout(busy, left);
  });
}

/** Ends the workers (tests, shutdown): running and queued jobs reject. */
export async function stopRegexRunner(): Promise<void> {
  const stopped = new Error('the regular expression runner was stopped');
  for (const job of queue.splice(0)) {
    settle(job);
    job.reject(stopped);
  }
  const ending = [...slots];
  slots.clear();
  await Promise.all(ending.map(async (slot) => {
    const job = slot.job;
    slot.job = null;
    if (job) {
      settle(job);
      job.reject(stopped);
    }
    await slot.worker.terminate();
  }));
}
