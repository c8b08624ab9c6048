import { PlumbError } from './errors.js';

/**
 * At most `size` holders at once; the rest wait in order. Expensive answers (a large file's outline) take a
 * permit, so many at once queue instead of each holding a language server's whole answer in memory; one
 * answer's server requests take one each (src/symbols/server-conversation.ts), so it never floods a server.
 */
export class Semaphore {
  private held = 0;
  private readonly waiting: Array<() => void> = [];

  constructor(readonly size: number) {}

  /**
   * Runs `work` holding a permit; a caller that goes away while waiting stops waiting (request_cancelled), and
   * so does one that waited `limit.timeoutMs` (failing with `limit.timeoutError()`).
   */
  async run<T>(work: () => Promise<T>, signal?: AbortSignal, limit?: { timeoutMs: number; timeoutError(): PlumbError }): Promise<T> {
    await this.acquire(signal, limit);
    try {
      return await work();
    } finally {
      this.release();
    }
  }

  private acquire(signal?: AbortSignal, limit?: { timeoutMs: number; timeoutError(): PlumbError }): Promise<void> {
    if (this.held < this.size) {
      this.held++;
      return Promise.resolve();
    }
    return new Promise<void>((resolve, reject) => {
      let timer: NodeJS.Timeout | undefined;
      const grant = (): void => {
        signal?.removeEventListener('abort', onAbort);
        clearTimeout(timer);
        this.held++;
        resolve();
      };
      const leave = (error: PlumbError): void => {
        signal?.removeEventListener('abort', onAbort);
        clearTimeout(timer);
        const at = this.waiting.indexOf(grant);
        if (at >= 0) this.waiting.splice(at, 1);
        reject(error);
      };
      const onAbort = (): void => leave(new PlumbError('request_cancelled', 'The request was cancelled while it waited for its turn: the caller went away'));
      if (signal?.aborted) return onAbort();
      signal?.addEventListener('abort', onAbort, { once: true });
      if (limit) timer = setTimeout(() => leave(limit.timeoutError()), limit.timeoutMs);
      this.waiting.push(grant);
    });
  }

  private release(): void {
    this.held--;
    this.waiting.shift()?.();
  }
}

/**
 * A Semaphore of `size` permits per key (a language's server): one server's slow answers never hold the permits
 * another's need. Waiting for a permit counts against the request's time budget: past `timeoutMs` it is a 504.
 */
export class KeyedSemaphore {
  private readonly semaphores = new Map<string, Semaphore>();

  constructor(readonly size: number, private readonly timeoutMs: number) {}

  run<T>(key: string, work: () => Promise<T>, signal?: AbortSignal): Promise<T> {
    let semaphore = this.semaphores.get(key);
    if (!semaphore) {
      semaphore = new Semaphore(this.size);
      this.semaphores.set(key, semaphore);
    }
    return semaphore.run(work, signal, {
      timeoutMs: this.timeoutMs,
      timeoutError: () => new PlumbError('server_timeout', `The request waited ${this.timeoutMs} ms (lsp.requestTimeoutMs) for the ${key} server's other outline and children answers to finish (outline.concurrency: ${this.size} at once per server) and was given up`, {
        details: { language: key, timeoutMs: this.timeoutMs },
      }),
    });
  }
}

/** Lets other requests run between chunks of a long synchronous loop. */
export function yieldToEventLoop(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

/**
 * A long loop's turns: `due()` is true once `ms` have passed since the last pause, and `pause()` lets other requests
 * run (`if (slice.due()) await slice.pause()`), so a loop over a whole tree never holds the event loop for longer.
 */
export class TimeSlice {
  private started = performance.now();

  constructor(private readonly ms = 10) {}

  due(): boolean {
    return performance.now() - this.started > this.ms;
  }

  async pause(): Promise<void> {
    await yieldToEventLoop();
    this.started = performance.now();
  }
}
