/**
 * Runs a user's regular expression off the main thread, so a catastrophic pattern (`(a+)+\\1$`) cannot
 * stall the event loop: one worker thread (plain JavaScript, no loader) tests texts, and a call that
 * runs past its time limit ends the worker (a fresh one starts on the next call) and rejects with
 * RegexTimeoutError.
 */
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

export class RegexTimeoutError extends Error {
  constructor(readonly timeoutMs: number) {
    super(`the regular expression ran for more than ${timeoutMs} ms`);
    this.name = 'RegexTimeoutError';
  }
}

type Job =
  | { op: 'texts'; texts: string[] }
  | { op: 'spans'; text: string; starts: number[]; ends: number[] };

interface Waiting {
  worker: Worker;
  resolve(hits: number[]): void;
  reject(error: Error): void;
  timer: NodeJS.Timeout;
}

let worker: Worker | null = null;
/** Resolves when the current worker runs: its boot does not count against an expression's time. */
let online: Promise<void> = Promise.resolve();
let nextId = 1;
const waiting = new Map<number, Waiting>();

function failAll(of: Worker, error: Error): void {
  for (const [id, job] of waiting) {
    if (job.worker !== of) continue;
    clearTimeout(job.timer);
    job.reject(error);
    waiting.delete(id);
  }
}

function getWorker(): Worker {
  if (worker) return worker;
  // No inherited loaders (tsx, test hooks): the worker is plain JavaScript and must end at once when terminated.
  const created = new Worker(WORKER_SOURCE, { eval: true, execArgv: [] });
  created.unref();
  online = new Promise<void>((resolve) => {
    created.once('online', () => resolve());
    created.once('exit', () => resolve());
  });
  created.on('message', (message: { id: number; hits?: number[]; error?: string }) => {
    const job = waiting.get(message.id);
    if (!job) return;
    waiting.delete(message.id);
    clearTimeout(job.timer);
    if (message.error !== undefined) job.reject(new Error(message.error));
    else job.resolve(message.hits ?? []);
  });
  created.on('error', (error) => {
    if (worker === created) worker = null;
    failAll(created, error);
  });
  created.on('exit', () => {
    if (worker === created) worker = null;
    failAll(created, new Error('the regular expression worker stopped'));
  });
  worker = created;
  return created;
}

/** Indices of the texts (or spans of one text) the expression matches somewhere in. */
export async function regexHits(source: string, flags: string, job: Job, timeoutMs: number): Promise<number[]> {
  const id = nextId++;
  const target = getWorker();
  await online;
  return new Promise<number[]>((resolve, reject) => {
    const timer = setTimeout(() => {
      waiting.delete(id);
      // The worker is stuck in the expression: end it; the next call starts another.
      if (worker === target) worker = null;
      void target.terminate();
      reject(new RegexTimeoutError(timeoutMs));
    }, timeoutMs);
    waiting.set(id, { worker: target, resolve, reject, timer });
    target.postMessage({ id, source, flags, ...job });
  });
}

/** Ends the worker (tests, shutdown). */
export async function stopRegexRunner(): Promise<void> {
  const current = worker;
  worker = null;
  if (current) await current.terminate();
}
