/**
 * Watches the walked directories (one non-recursive fs.watch each, so ignored trees such as
 * node_modules cost nothing) and reports changed paths in debounced batches.
 */
import { watch, type FSWatcher } from 'node:fs';
import path from 'node:path';

export interface WatcherOptions {
  /** Quiet time before a batch is reported; editors write a file in several steps. */
  debounceMs?: number;
  /** Upper bound on watched directories (inotify watches are a per-user resource). */
  maxDirectories?: number;
  onError?: (error: Error) => void;
}

export class DirectoryWatcher {
  private readonly watchers = new Map<string, FSWatcher>();
  private readonly pending = new Set<string>();
  private timer: NodeJS.Timeout | undefined;
  private readonly debounceMs: number;
  private readonly maxDirectories: number;
  private closed = false;
  private firstPendingAt = 0;
  /** Directories not watched because of maxDirectories. */
  skipped = 0;

  constructor(private readonly onChange: (paths: string[]) => void, private readonly options: WatcherOptions = {}) {
    this.debounceMs = options.debounceMs ?? 50;
    this.maxDirectories = options.maxDirectories ?? 100_000;
  }

  has(directory: string): boolean {
    return this.watchers.has(directory);
  }

  add(directory: string): void {
    if (this.closed || this.watchers.has(directory)) return;
    if (this.watchers.size >= this.maxDirectories) {
      this.skipped++;
      return;
    }
    try {
      const watcher = watch(directory, { persistent: false }, (_event, filename) => {
        this.note(filename ? path.join(directory, filename.toString()) : directory);
      });
      watcher.on('error', () => this.remove(directory));
      this.watchers.set(directory, watcher);
    } catch (error) {
      // Vanished before we got to it, or out of watches: the rest still work.
      this.options.onError?.(error as Error);
    }
  }

  /** Stops watching a directory and everything below it (it was deleted). */
  remove(directory: string): void {
    const prefix = directory + path.sep;
    for (const [watched, watcher] of this.watchers) {
      if (watched === directory || watched.startsWith(prefix)) {
        watcher.close();
        this.watchers.delete(watched);
      }
    }
  }

  get size(): number {
    return this.watchers.size;
  }

  close(): void {
    this.closed = true;
    if (this.timer) clearTimeout(this.timer);
    for (const watcher of this.watchers.values()) watcher.close();
    this.watchers.clear();
  }

  private note(changed: string): void {
    if (this.closed) return;
    this.pending.add(changed);
    // Debounce, but never past 250 ms: a file that is written continuously must still show up.
    if (this.timer && Date.now() - this.firstPendingAt < 250) clearTimeout(this.timer);
    else if (this.timer) return;
    else this.firstPendingAt = Date.now();
    this.timer = setTimeout(() => {
      this.timer = undefined;
      const batch = [...this.pending];
      this.pending.clear();
      this.onChange(batch);
    }, this.debounceMs);
  }
}
