import { PlumbError } from './errors.js';

/**
 * At most `size` holders at once; the rest wait in order. Expensive answers (a large file's outline) take a
 * permit, so many at once queue instead of each holding a language server's whole answer in memory.
 */
export class Semaphore {
  private held = 0;
  private readonly waiting: Array<() => void> = [];

  constructor(readonly size: number) {}

  /** Runs `work` holding a permit; a caller that goes away while waiting stops waiting. */
  async run<T>(work: () => Promise<T>, signal?: AbortSignal): Promise<T> {
    await this.acquire(signal);
    try {
      return await work();
    } finally {
      this.release();
    }
  }

  private acquire(signal?: AbortSignal): Promise<void> {
    if (this.held < this.size) {
      this.held++;
      return Promise.resolve();
    }
    return new Promise<void>((resolve, reject) => {
      const grant = (): void => {
        signal?.removeEventListener('abort', onAbort);
        this.held++;
        resolve();
      };
      const onAbort = (): void => {
        const at = this.waiting.indexOf(grant);
        if (at >= 0) this.waiting.splice(at, 1);
        reject(new PlumbError('server_timeout', 'The request was cancelled while it waited for other large answers to finish', { details: { cancelled: true } }));
      };
      if (signal?.aborted) return onAbort();
      signal?.addEventListener('abort', onAbort, { once: true });
      this.waiting.push(grant);
    });
  }

  private release(): void {
    this.held--;
    this.waiting.shift()?.();
  }
}

/** Lets other requests run between chunks of a long synchronous loop. */
export function yieldToEventLoop(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}
