/**
 * The tests' waits. Each polls something it can observe until it holds and, past its time limit,
 * throws saying what it waited for and what it saw last: a wait never ends silently, and no test
 * sleeps a fixed time for something it could observe instead.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import type { PlumbApp } from '../src/app.js';
import type { SymbolIndex } from '../src/index/symbol-index.js';

export interface WaitOptions {
  /** Give up after this long (default 10 s). */
  timeoutMs?: number;
  /** Between two probes (default 50 ms). */
  intervalMs?: number;
  /** A probe that throws has not held yet (a store still unreachable); the error is what was seen last. */
  retryErrors?: boolean;
}

export class WaitTimeoutError extends Error {
  constructor(readonly what: string, readonly timeoutMs: number, readonly last: unknown) {
    super(`timed out after ${timeoutMs} ms waiting for ${what}; last seen: ${describe(last)}`);
    this.name = 'WaitTimeoutError';
  }
}

/** Probes until `done` holds for what `probe` gives, and returns that; throws WaitTimeoutError past the time limit. */
export async function waitFor<T>(what: string, probe: () => T | Promise<T>, done: (value: T) => boolean, options: WaitOptions = {}): Promise<T> {
  const { timeoutMs = 10_000, intervalMs = 50, retryErrors = false } = options;
  const started = Date.now();
  for (;;) {
    let last: unknown;
    try {
      const value = await probe();
      if (done(value)) return value;
      last = value;
    } catch (error) {
      if (!retryErrors) throw error;
      last = error instanceof Error ? `${error.name}: ${error.message}` : error;
    }
    if (Date.now() - started >= timeoutMs) throw new WaitTimeoutError(what, timeoutMs, last);
    await sleep(intervalMs);
  }
}

/** Polls `check` until it holds; returns how long that took (watcher tests measure it). */
export async function waitUntil(what: string, check: () => boolean | Promise<boolean>, options: WaitOptions = {}): Promise<number> {
  const started = Date.now();
  await waitFor(what, check, (held) => held, options);
  return Date.now() - started;
}

/** Resolves once the index has finished its build (the app starts it in the background). */
export async function indexReady(target: PlumbApp | SymbolIndex, timeoutMs = 240_000): Promise<void> {
  const index = 'plumb' in target ? target.plumb.index : target;
  await waitFor('the index to finish its build', () => index.status(), (status) => status.state === 'ready', { timeoutMs });
}

type ServerState = ReturnType<PlumbApp['plumb']['lsp']['status']>[number]['state'];

/** Resolves once `language`'s server is in one of `states` (default: ready); returns its status. */
export async function serverState(app: PlumbApp, language: string, states: ServerState[] = ['ready'], timeoutMs = 120_000): Promise<ReturnType<PlumbApp['plumb']['lsp']['status']>[number]> {
  const status = await waitFor(
    `the ${language} server to be ${states.join(' or ')}`,
    () => app.plumb.lsp.status().find((server) => server.language === language),
    (server) => server !== undefined && states.includes(server.state),
    { timeoutMs, intervalMs: 100 },
  );
  return status!;
}

function describe(value: unknown): string {
  let text: string;
  try {
    text = JSON.stringify(value) ?? String(value);
  } catch {
    text = String(value);
  }
  return text.length > 500 ? `${text.slice(0, 500)}…` : text;
}
