/**
 * File contents kept in memory for the scans and snippets of usages and resolve: a bounded LRU of raw
 * bytes, each entry checked against the file's size and mtime (one stat) before use, so an edited
 * file is read again. Reading Go's std (5,500 files, 63 MB) from the page cache takes about a second;
 * from here, the stats and a byte search take a few tens of milliseconds.
 */
import { statSync } from 'node:fs';
import { readFile } from 'node:fs/promises';

interface Entry {
  bytes: Buffer;
  size: number;
  mtimeMs: number;
}

/** Files larger than this are read each time, not kept. */
const MAX_FILE_BYTES = 4 * 1024 * 1024;

export class FileContents {
  private readonly entries = new Map<string, Entry>();
  private bytes = 0;

  constructor(private readonly capacityBytes = 160 * 1024 * 1024) {}

  /** The file's bytes, from memory while it is unchanged on disk; undefined when it cannot be read. */
  async read(absolute: string): Promise<Buffer | undefined> {
    const cached = this.cached(absolute);
    if (cached) return cached;
    let stats;
    let bytes: Buffer;
    try {
      stats = statSync(absolute);
      if (!stats.isFile()) return undefined;
      bytes = await readFile(absolute);
    } catch {
      return undefined;
    }
    if (bytes.length <= MAX_FILE_BYTES) this.remember(absolute, { bytes, size: stats.size, mtimeMs: stats.mtimeMs });
    return bytes;
  }

  /** The bytes kept for a file when it has not changed since; undefined otherwise (no read). */
  cached(absolute: string): Buffer | undefined {
    const entry = this.entries.get(absolute);
    if (!entry) return undefined;
    let stats;
    try {
      stats = statSync(absolute, { throwIfNoEntry: false });
    } catch {
      stats = undefined;
    }
    if (!stats || stats.size !== entry.size || stats.mtimeMs !== entry.mtimeMs) {
      this.forget(absolute);
      return undefined;
    }
    // Most recently used last.
    this.entries.delete(absolute);
    this.entries.set(absolute, entry);
    return entry.bytes;
  }

  /** The file's text (UTF-8, without a byte-order mark). */
  async text(absolute: string): Promise<string | undefined> {
    const bytes = await this.read(absolute);
    return bytes === undefined ? undefined : decode(bytes);
  }

  /** A version stamp for caches keyed on content (size and mtime). */
  stamp(absolute: string): string {
    const entry = this.entries.get(absolute);
    return entry ? `${entry.size}:${entry.mtimeMs}` : '';
  }

  private remember(absolute: string, entry: Entry): void {
    this.forget(absolute);
    this.entries.set(absolute, entry);
    this.bytes += entry.bytes.length;
    while (this.bytes > this.capacityBytes) {
      const oldest = this.entries.keys().next().value as string;
      this.forget(oldest);
    }
  }

  private forget(absolute: string): void {
    const entry = this.entries.get(absolute);
    if (!entry) return;
    this.entries.delete(absolute);
    this.bytes -= entry.bytes.length;
  }
}

export function decode(bytes: Buffer): string {
  const text = bytes.toString('utf8');
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}

/** One per process: every workspace's files are keyed by absolute path. */
export const fileContents = new FileContents();
