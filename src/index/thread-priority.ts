/**
 * A worker thread's own priority, below the main thread's: on Linux a thread has an id of its own (read from
 * /proc/thread-self) that takes a nice value of its own. Elsewhere, or when not allowed, the thread runs as it is.
 */
import { readlinkSync } from 'node:fs';
import { setPriority } from 'node:os';

/**
 * The search threads' (sqlite/search-worker.ts): below the main thread (0), which parses requests and writes answers, so
 * that a reply waking it takes a core at once instead of waiting for a search's SQL (kernel, 16 clients asking common names:
 * /health p50 4.9-6.7 -> 2.3-2.9 ms, p99 39-48 -> 17-22 ms). The parser threads stay at 0: below it, the kernel's cold
 * build took no less (201.7 s against 196.4 s).
 */
export const SEARCH_NICE = 10;
/** The word index's thread (words-worker.ts): background work, below the searches. */
export const WORDS_NICE = 19;

/** Sets the calling thread's nice value (higher is lower priority), where the system lets it. */
export function lowerThreadPriority(nice: number): void {
  try {
    const tid = Number(readlinkSync('/proc/thread-self').split('/').pop());
    if (tid > 0) setPriority(tid, nice);
  } catch {
    // No /proc, or not allowed: the same work at the same priority.
  }
}
