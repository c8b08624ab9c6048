/**
 * Every read of a file's content goes through here: snippets, bodies, usage lines, statements,
 * outlines, signatures, the imports a base is resolved by, the text a language server is sent.
 *
 * One containment check, on the real path, at read time: the path is resolved (symlinks and `..`),
 * the result must lie in the workspace root or an extra root, and must be a regular file; the file is
 * then opened by that real path with O_NOFOLLOW, so a link put in its place after the check is not
 * followed either. A path a language server reports outside the roots is named by the caller, never read.
 *
 * Contents are kept as text (UTF-8 decoded once) in one bounded LRU per workspace, keyed by the real path
 * and checked against the file's size and mtime before use (the containment check's own stat), so an
 * edited file is read again; its budget is `files.cacheMb`. Reading Go's std (5,500 files, 63 MB) from the
 * page cache takes about a second; from here, the checks and a text search take a few tens of milliseconds.
 */
import { closeSync, constants, fstatSync, openSync, readFileSync, realpathSync, statSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { TimeSlice } from './semaphore.js';

/** Why a file's content was not read. */
export type RefusalReason = 'outside_root' | 'not_found' | 'not_a_file' | 'too_large' | 'binary' | 'unreadable';

/** A file not read, and why: `message` says what is wrong with it without naming it. */
export type Refusal = { ok: false; reason: RefusalReason; message: string };

export type FileAccess =
  | { ok: true; real: string; size: number; mtimeMs: number }
  | Refusal;

/** A file read: its text as written (UTF-8, a byte-order mark kept), and whether it looks binary. */
export type FileRead = { ok: true; text: string; binary: boolean; real: string } | Refusal;

/** One file of FileReader.scan: the text when the file holds the needle, null when it does not. */
export type FileScan = { ok: true; text: string | null; binary: boolean; real: string } | Refusal;

/** Files above this are not read for a snippet, a line of text or a server (generated code or data). */
export const READ_BYTES_MAX = 16 * 1024 * 1024;
/** A scan reads files for this long at most before other requests get their turn. */
const SCAN_SLICE_MS = 8;
/** Files above this are not kept in memory; read each time. */
const CACHED_FILE_BYTES_MAX = 4 * 1024 * 1024;
/** The cache's budget when none is configured (files.cacheMb). */
export const FILE_CACHE_BYTES_DEFAULT = 160 * 1024 * 1024;

interface Entry {
  text: string;
  binary: boolean;
  size: number;
  mtimeMs: number;
}

/** Files' text by real path, least recently used out first past the budget (a FileReader checks before it looks). */
class ContentCache {
  private readonly entries = new Map<string, Entry>();
  private bytes = 0;

  constructor(private readonly capacityBytes: number) {}

  get(real: string, size: number, mtimeMs: number): Entry | undefined {
    const entry = this.entries.get(real);
    if (!entry) return undefined;
    if (entry.size !== size || entry.mtimeMs !== mtimeMs) {
      this.forget(real);
      return undefined;
    }
    // Most recently used last.
    this.entries.delete(real);
    this.entries.set(real, entry);
    return entry;
  }

  set(real: string, entry: Entry): void {
    if (entry.size > CACHED_FILE_BYTES_MAX || entry.size > this.capacityBytes) return;
    this.forget(real);
    this.entries.set(real, entry);
    this.bytes += entry.size;
    while (this.bytes > this.capacityBytes) this.forget(this.entries.keys().next().value as string);
  }

  private forget(real: string): void {
    const entry = this.entries.get(real);
    if (!entry) return;
    this.entries.delete(real);
    this.bytes -= entry.size;
  }
}

/** Reads files of one workspace: inside its root or one of its extra roots (real paths), nothing else. */
export class FileReader {
  private readonly cache: ContentCache;

  /** `allowed` says whether a real path lies in the workspace root or an extra root; `cacheBytes` is the memory budget. */
  constructor(private readonly allowed: (real: string) => boolean, cacheBytes = FILE_CACHE_BYTES_DEFAULT) {
    this.cache = new ContentCache(cacheBytes);
  }

  /** The containment check alone: where the path really leads, and whether it may be read. */
  check(absolute: string): FileAccess {
    if (absolute.includes('\0')) return refuse('not_found', 'is not a valid path');
    let real: string;
    try {
      real = realpathSync.native(absolute);
    } catch {
      return refuse('not_found', 'does not exist (changed or removed since it was indexed)');
    }
    if (!this.allowed(real)) return refuse('outside_root', 'leads outside the workspace root and its extra roots; not read');
    let stats;
    try {
      stats = statSync(real);
    } catch {
      return refuse('not_found', 'does not exist (changed or removed since it was indexed)');
    }
    if (!stats.isFile()) return refuse('not_a_file', 'is not a regular file; not read');
    return { ok: true, real, size: stats.size, mtimeMs: stats.mtimeMs };
  }

  /** The file's text, after the check; from memory while the file is unchanged. */
  async read(absolute: string, maxBytes = READ_BYTES_MAX): Promise<FileRead> {
    const found = this.lookup(absolute, maxBytes);
    if (!found.ok) return found;
    if (found.cached) return { ok: true, text: found.cached.text, binary: found.cached.binary, real: found.real };
    let handle;
    try {
      handle = await open(found.real, OPEN_FLAGS);
    } catch {
      return cannotOpen();
    }
    try {
      const stats = await handle.stat();
      const refused = refuseOpened(stats, maxBytes);
      if (refused) return refused;
      const entry = this.keep(found.real, await handle.readFile(), stats);
      return { ok: true, text: entry.text, binary: entry.binary, real: found.real };
    } catch {
      return refuse('unreadable', 'could not be read');
    } finally {
      await handle.close().catch(() => undefined);
    }
  }

  /**
   * Reads `paths` in order, giving `each` the text of every file that holds `needle` (`text: null` for one that does
   * not) or why it was not read, until `stop()` says enough; returns how many were read. The bytes are searched before
   * they are decoded, so a file without the needle is neither decoded nor kept in memory, and each file is one
   * synchronous open, stat and read rather than thread-pool round trips: a scan of a whole tree for one name (the
   * syntactic usages, callers and impact; the kernel's 55,000 files) costs about its reads alone. Other requests get
   * their turn every SCAN_SLICE_MS, and while `each` awaits.
   */
  async scan(paths: readonly string[], needle: string, maxBytes: number, each: (index: number, scan: FileScan) => void | Promise<void>, stop?: () => boolean): Promise<number> {
    const slice = new TimeSlice(SCAN_SLICE_MS);
    let i = 0;
    for (; i < paths.length; i++) {
      if (slice.due()) await slice.pause();
      if (stop?.()) break;
      const pending = each(i, this.scanOne(paths[i], needle, maxBytes));
      if (pending) await pending;
    }
    return i;
  }

  /** One file of scan(). */
  private scanOne(absolute: string, needle: string, maxBytes: number): FileScan {
    const found = this.lookup(absolute, maxBytes);
    if (!found.ok) return found;
    const holding = (entry: Entry): FileScan => ({ ok: true, text: entry.text.includes(needle) ? entry.text : null, binary: entry.binary, real: found.real });
    if (found.cached) return holding(found.cached);
    let fd: number;
    try {
      fd = openSync(found.real, OPEN_FLAGS);
    } catch {
      return cannotOpen();
    }
    try {
      const stats = fstatSync(fd);
      const refused = refuseOpened(stats, maxBytes);
      if (refused) return refused;
      const bytes = readFileSync(fd);
      if (!bytes.includes(needle)) return { ok: true, text: null, binary: looksBinary(bytes), real: found.real };
      return holding(this.keep(found.real, bytes, stats));
    } catch {
      return refuse('unreadable', 'could not be read');
    } finally {
      closeSync(fd);
    }
  }

  /** Before a read: the containment check, the size limit, and the text kept from an earlier read of the unchanged file. */
  private lookup(absolute: string, maxBytes: number): { ok: true; real: string; cached?: Entry } | Refusal {
    const access = this.check(absolute);
    if (!access.ok) return access;
    if (access.size > maxBytes) return tooLarge(maxBytes);
    return { ok: true, real: access.real, cached: this.cache.get(access.real, access.size, access.mtimeMs) };
  }

  /** The bytes read, decoded once and kept (within the cache's budget). */
  private keep(real: string, bytes: Buffer, stats: { size: number; mtimeMs: number }): Entry {
    const entry: Entry = { text: bytes.toString('utf8'), binary: looksBinary(bytes), size: stats.size, mtimeMs: stats.mtimeMs };
    this.cache.set(real, entry);
    return entry;
  }

  /** The text kept in memory for the file (a byte-order mark dropped) when it is unchanged and still readable; undefined otherwise (no read). */
  cached(absolute: string): string | undefined {
    const access = this.check(absolute);
    const entry = access.ok ? this.cache.get(access.real, access.size, access.mtimeMs) : undefined;
    return entry ? stripBom(entry.text) : undefined;
  }

  /** The file's text (a byte-order mark dropped), or undefined when it may not or cannot be read. */
  async text(absolute: string, maxBytes = READ_BYTES_MAX): Promise<string | undefined> {
    const read = await this.read(absolute, maxBytes);
    return read.ok ? stripBom(read.text) : undefined;
  }

  /** The file's text (a byte-order mark dropped), or why it was not read (binary files included: a NUL in the first 8 KB). */
  async textOrReason(absolute: string, maxBytes = READ_BYTES_MAX): Promise<{ ok: true; text: string } | Refusal> {
    const read = await this.read(absolute, maxBytes);
    if (!read.ok) return read;
    if (read.binary) return refuse('binary', 'looks binary (a NUL byte in its first 8 KB); not read');
    return { ok: true, text: stripBom(read.text) };
  }

  /** A version stamp for caches keyed on content (real path, size and mtime); '' when it may not be read. */
  stamp(absolute: string): string {
    const access = this.check(absolute);
    return access.ok ? `${access.real}:${access.size}:${access.mtimeMs}` : '';
  }
}

/** The text without a leading byte-order mark (editors and servers do not count it). */
export function stripBom(text: string): string {
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}

/** A NUL byte in the first 8 KB: not source text. */
export function looksBinary(bytes: Buffer): boolean {
  return bytes.subarray(0, 8192).includes(0);
}

/** Opened by the real path the check found: a link put in its place since is not followed. */
const OPEN_FLAGS = constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK;

function cannotOpen(): Refusal {
  return refuse('unreadable', 'could not be opened (replaced by a link, or no permission); not read');
}

/** What the opened file turned out to be, when it may not be read after all. */
function refuseOpened(stats: { isFile(): boolean; size: number }, maxBytes: number): Refusal | undefined {
  if (!stats.isFile()) return refuse('not_a_file', 'is not a regular file; not read');
  if (stats.size > maxBytes) return tooLarge(maxBytes);
  return undefined;
}

/** `message` says what is wrong with the file without naming it: the caller names it as its answer does. */
function refuse(reason: RefusalReason, message: string): Refusal {
  return { ok: false, reason, message };
}

function tooLarge(maxBytes: number): Refusal {
  return refuse('too_large', `is larger than ${formatMb(maxBytes)}; not read`);
}

function formatMb(bytes: number): string {
  return `${Math.round((bytes / 1024 / 1024) * 10) / 10} MB`;
}
