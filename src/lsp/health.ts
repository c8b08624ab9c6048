/**
 * Whether a language server still does its job, judged from its answers alone (no probes): a server that
 * leaves requests unanswered past their deadline and says nothing since is stuck, and new requests fail at
 * once instead of queueing behind the unanswered ones; one that stays silent a further while, or fails the
 * same kind of request again and again, is unhealthy and gets restarted. Pure: the caller gives the time.
 *
 * ```ts
 * const health = new ServerHealth({ unhealthyAfter: 3, failFastAfterMs: 1000, wedgedAfterMs: 30_000 });
 * const call = health.sent('textDocument/references', performance.now());
 * health.timedOut(call, performance.now());       // the caller stopped waiting; $/cancelRequest went out
 * health.failFast(performance.now());             // a reason once it has stayed unanswered 1 s, nothing heard since
 * health.answered(call, { failure: 'Internal error' }, performance.now()); // a reason after 3 in a row
 * ```
 */

export interface HealthOptions {
  /** Failures in a row of one method (the server's internal errors on requests it should answer) that make it unhealthy; 0: never. */
  unhealthyAfter: number;
  /** How long past its deadline a request may stay unanswered, nothing heard from the server since, before new requests fail at once. */
  failFastAfterMs: number;
  /** How long past its deadline a request may stay unanswered, nothing heard since (not even the answer to $/cancelRequest), before the server is unhealthy. */
  wedgedAfterMs: number;
}

/** One request sent to the server. */
export interface HealthCall {
  readonly method: string;
  readonly sentAt: number;
  /** When the caller stopped waiting (its deadline), if it did before the answer. */
  timedOutAt?: number;
  answered: boolean;
}

/** How an answer counts: a value, the server's own failure (counted), or anything else (a cancellation, bad parameters: not counted). */
export type HealthOutcome = 'ok' | 'neutral' | { failure: string };

export class ServerHealth {
  private readonly overdue = new Set<HealthCall>();
  private readonly failures = new Map<string, { count: number; message: string }>();
  /** When the server last answered anything. */
  private lastAnswerAt = -Infinity;
  private verdict: string | undefined;

  constructor(private readonly options: HealthOptions) {}

  sent(method: string, now: number): HealthCall {
    return { method, sentAt: now, answered: false };
  }

  /** The caller stopped waiting for the call (its timeout); it stays overdue until the server answers it. */
  timedOut(call: HealthCall, now: number): void {
    if (call.answered) return;
    call.timedOutAt = now;
    this.overdue.add(call);
  }

  /** The server answered the call; a reason when this answer made the server unhealthy (failures in a row). */
  answered(call: HealthCall, outcome: HealthOutcome, now: number): string | undefined {
    call.answered = true;
    this.overdue.delete(call);
    this.lastAnswerAt = Math.max(this.lastAnswerAt, now);
    if (outcome === 'ok') {
      this.failures.delete(call.method);
      return undefined;
    }
    if (outcome === 'neutral') return undefined;
    const count = (this.failures.get(call.method)?.count ?? 0) + 1;
    this.failures.set(call.method, { count, message: outcome.failure });
    if (this.options.unhealthyAfter > 0 && count >= this.options.unhealthyAfter && !this.verdict) {
      this.verdict = `failed ${count} ${call.method} requests in a row (the last: ${outcome.failure})`;
      return this.verdict;
    }
    return undefined;
  }

  /** Why new requests should fail at once: a request unanswered failFastAfterMs past its deadline, nothing heard since. */
  failFast(now: number): string | undefined {
    if (this.verdict) return this.verdict;
    const silent = this.silentOverdue(now, this.options.failFastAfterMs);
    if (silent.length === 0) return undefined;
    const oldest = silent[0];
    const over = ((now - oldest.timedOutAt!) / 1000).toFixed(1);
    return `did not answer ${silent.length === 1 ? `a ${oldest.method} request` : `${silent.length} requests (the oldest ${oldest.method})`} past its deadline (${over} s over) and has answered nothing since`;
  }

  /** Why the server should be restarted: failures in a row, or a request unanswered wedgedAfterMs past its deadline, nothing heard since. */
  unhealthy(now: number): string | undefined {
    if (this.verdict) return this.verdict;
    const silent = this.silentOverdue(now, this.options.wedgedAfterMs);
    if (silent.length === 0) return undefined;
    const oldest = silent[0];
    this.verdict = `did not answer ${oldest.method} (not even $/cancelRequest) ${((now - oldest.timedOutAt!) / 1000).toFixed(1)} s after its deadline, nor anything since`;
    return this.verdict;
  }

  /** Overdue calls at least `ms` past their deadline with no answer of any kind since, oldest first. */
  private silentOverdue(now: number, ms: number): HealthCall[] {
    return [...this.overdue]
      .filter((call) => now - call.timedOutAt! >= ms && this.lastAnswerAt < call.timedOutAt!)
      .sort((a, b) => a.timedOutAt! - b.timedOutAt!);
  }
}
