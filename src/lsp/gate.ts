import { CancellationTokenSource, type CancellationToken } from 'vscode-languageserver-protocol/node.js';
import type { PlumbError } from '../errors.js';

/** One piece of work run through a RequestGate. */
export interface GateTask<R> {
  /** Aborts the task (with abortError) when the caller goes away. */
  signal?: AbortSignal;
  timeoutMs: number;
  timeoutError(): PlumbError;
  abortError(): PlumbError;
  /** Turns whatever `work` throws into the error the caller gets. */
  toError(error: unknown): PlumbError;
  /** Called when the task gets a slot (before `work`); `onRelease` follows once it settles. Queued tasks hold no slot. */
  onAcquire?(): void;
  onRelease?(): void;
  /** Whether the other side can still be told to stop (a closed connection has nobody to tell). */
  canCancel(): boolean;
  /**
   * The work itself, given the token to pass with the request. It calls `ticket.sent()` once the
   * request is on its way (only sent requests are cancelled) and may check `ticket.settled` to skip
   * work whose answer nobody waits for any more.
   */
  work(token: CancellationToken, ticket: GateTicket): Promise<R>;
}

export interface GateTicket {
  readonly settled: boolean;
  sent(): void;
}

/**
 * Bounds the work in flight (the rest waits in a FIFO queue), gives each task a timeout and an
 * abort signal, and cancels work that was sent but whose answer is no longer wanted (the token's
 * cancel is $/cancelRequest on a JSON-RPC connection). Every task settles exactly once.
 */
export class RequestGate {
  private inFlight = 0;
  private readonly queue: Array<() => void> = [];
  private readonly pending = new Set<(error: PlumbError) => void>();

  constructor(private readonly maxInFlight: number) {}

  run<R>(task: GateTask<R>): Promise<R> {
    return new Promise<R>((resolve, reject) => {
      if (task.signal?.aborted) {
        reject(task.abortError());
        return;
      }
      const source = new CancellationTokenSource();
      let settled = false;
      let acquired = false;
      let sent = false;
      const ticket: GateTicket = {
        get settled() {
          return settled;
        },
        sent: () => {
          sent = true;
        },
      };
      const waiter = (): void => {
        acquired = true;
        task.onAcquire?.();
        void start();
      };
      const finish = (error: PlumbError | undefined, value?: R): void => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        task.signal?.removeEventListener('abort', onAbort);
        this.pending.delete(fail);
        const queued = this.queue.indexOf(waiter);
        if (queued >= 0) this.queue.splice(queued, 1);
        if (acquired) {
          this.release();
          task.onRelease?.();
        }
        if (error && sent && task.canCancel()) {
          // Tells the other side to stop working on it.
          try {
            source.cancel();
          } catch {}
        }
        source.dispose();
        if (error) reject(error);
        else resolve(value as R);
      };
      const fail = (error: PlumbError): void => finish(error);
      const onAbort = (): void => finish(task.abortError());
      const timer = setTimeout(() => finish(task.timeoutError()), task.timeoutMs);
      const start = async (): Promise<void> => {
        try {
          finish(undefined, await task.work(source.token, ticket));
        } catch (error) {
          finish(task.toError(error));
        }
      };
      this.pending.add(fail);
      task.signal?.addEventListener('abort', onAbort, { once: true });
      if (this.inFlight < this.maxInFlight) {
        this.inFlight++;
        waiter();
      } else {
        this.queue.push(waiter);
      }
    });
  }

  /** Fails every task not yet settled, queued or in flight (the server is going away). */
  failAll(error: PlumbError): void {
    for (const fail of [...this.pending]) fail(error);
  }

  /** A settled task's slot goes to the first one waiting, or back to the pool. */
  private release(): void {
    const next = this.queue.shift();
    if (next) next();
    else this.inFlight--;
  }
}
