/**
 * The symbol index of one workspace: opens its store, builds it (walk, diff against what is
 * stored, parse the changed files in worker threads, commit in batches), keeps it fresh with a
 * watcher, and reports progress. The query side reads through `store` only.
 */
import { createHash } from 'node:crypto';
import { readdirSync } from 'node:fs';
import { lstat, realpath } from 'node:fs/promises';
import path from 'node:path';
import type { PlumbConfig } from '../config.js';
import { languageById } from '../languages/index.js';
import { isManifestFile, PackageResolver } from './manifests.js';
import { MAX_PARSED_BYTES, ParsePool, tooLargeDetail, type ParseResult, type WorkerStats } from './parse-pool.js';
import { NO_SYMBOLS, symbolCount, type PackedSymbols } from './symbol-codec.js';
import { threadCpuMs } from './thread-cpu.js';
import { collectIfGrown } from './heap.js';
import { openStore } from './open-store.js';
import { storeLocation, type BuildOutputDirectory, type FileStamp, type LeftOut, type FileState, type FileUpdate, type PackageRef, type SymbolReader, type SymbolStore } from './store.js';
import type { StoreStatus } from '../../schemas/status.js';
import { moduleOf, packageDirectoryCheck, type PackageDirectoryCheck } from './modules.js';
import { RootFilter, storedPath, walkRoot, walkRoots, type IndexRoot, type WalkedFile, type WalkResult } from './walker.js';
import { DirectoryWatcher } from './watcher.js';
import { WordIndex } from './words.js';
import { BUILD_OUTPUT_NAMES, mayMarkBuildOutput } from './build-output.js';
import { isInside } from '../workspace.js';
import { languageOfPath } from '../languages/index.js';
import { PlumbError } from '../errors.js';
import { TimeSlice } from '../semaphore.js';

export interface IndexProgress {
  state: 'building' | 'ready';
  filesIndexed: number;
  filesTotal: number;
  symbols: number;
}

export interface BuildSummary {
  filesTotal: number;
  /** Files parsed this time (new or changed content). */
  filesParsed: number;
  /** Files whose size, mtime, ctime and inode (or content hash) matched the store: not parsed. */
  filesReused: number;
  filesRemoved: number;
  /** Files recorded without being parsed (too large, binary, unreadable): /status lists them. */
  filesSkipped: number;
  filesFailed: number;
  symbols: number;
  elapsedMs: number;
  /** Where the build's time went, stage by stage (npm run bench prints it). */
  profile: BuildProfile;
}

/** Wall and CPU milliseconds of one stage; CPU is the main thread's own (undefined where it cannot be read). */
export interface StageTime {
  wallMs: number;
  cpuMs: number | undefined;
}

export interface BuildProfile {
  /** Main thread: the walk (readdir, stat, filters). */
  walk: StageTime;
  /** Main thread: stored states, the diff, packages registered. */
  diff: StageTime;
  /** From the first file sent to the threads to the last batch committed. */
  parseAndWrite: StageTime;
  /** Main thread, within parseAndWrite: the store's batch writes (transactions committed). */
  writes: StageTime & { batches: number };
  /** Main thread: the end of a first build's bulk load (indexes, names, full-text tables). */
  finishLoad: StageTime;
  /** Main thread: packages pruned, planner statistics. */
  optimize: StageTime;
  /** The parser threads, each one's steps in wall milliseconds summed over its files, and its CPU, since the thread started. */
  workers: WorkerStats[];
}

export interface IndexLogger {
  info(message: string): void;
  warn(message: string): void;
}

export interface SymbolIndexOptions {
  /** The workspace root (real path). */
  root: string;
  config: PlumbConfig;
  cacheDir: string;
  logger?: IndexLogger;
  /** The store to use; by default the workspace's SQLite database under cacheDir. */
  store?: SymbolStore;
}

/** Commit when a batch holds this many files or symbols, or has waited this long; small batches keep queries answered meanwhile. */
const BATCH_FILES = 200;
const BATCH_SYMBOLS = 5_000;
const BATCH_MS = 200;

/** Files handed to the parser threads at once: enough to keep every thread busy (the pool takes 16 per thread). */
const PARSE_WINDOW = 1024;
/**
 * Parsed symbols not committed yet past which no more files are parsed until the writes catch up: a tree of
 * generated headers (the kernel's asic_reg/: 3.5 million macros in 373 files) parses faster than the store takes
 * its symbols, which otherwise pile up in memory. 100,000 (was 300,000) and 4 MB below: the kernel's
 * drivers/gpu/drm/amd/include (3.5M symbols) peaked at 1.32 GB instead of 1.72 GB, in 122 s instead of 133 s.
 */
const UNWRITTEN_SYMBOLS = 100_000;
/**
 * Bytes of source sent to the threads and not committed yet past which no more files are sent: a file's symbols
 * take some 25 times its size in memory between its parse and its commit (the kernel's register headers: a
 * #define per 110 bytes, 2.7 KB per symbol in the threads' messages, their objects and the batch), and the count
 * of symbols is known only once a file is parsed. One file larger than this still goes alone.
 */
const UNWRITTEN_BYTES = 4 * 1024 * 1024;

/** How often a replica asks a store that does not answer yet. */
const FOLLOW_RETRY_MS = 2000;

/** Changes (and a build) that failed are tried again after this, doubling per failure up to RETRY_MAX_MS. */
const RETRY_FIRST_MS = 500;
const RETRY_MAX_MS = 5_000;
/** Attempts at changes that failed for a reason other than an unavailable store (a bug) before they are dropped. */
const RETRY_OTHER_ERRORS = 3;
/** /status lists this many of the files and directories the index leaves out (all are counted). */
const LEFT_OUT_LISTED = 50;
/** /status waits at most this long for the store's answer (and storeTimeoutMs when that is shorter). */
const STATUS_DEADLINE_MS = 2000;

/**
 * A failure that goes away by itself: the store cannot be reached or does not answer (store_unavailable), or an
 * SQLite database is locked by another process, its disk full or failing.
 */
export function isTransientStoreError(error: unknown): boolean {
  if (error instanceof PlumbError) return error.code === 'store_unavailable';
  const code = (error as { code?: unknown } | undefined)?.code;
  return typeof code === 'string' && /^SQLITE_(BUSY|LOCKED|FULL|IOERR|CANTOPEN)/.test(code);
}

/** The index's changes not committed yet, for /status. */
export interface PendingChanges {
  /** Changed paths waiting to be indexed: failed and held for a retry, or noted during a build. */
  pendingChanges: number;
  /** Why the last attempt failed, while changes wait for a retry. */
  pendingError?: string;
}

const SILENT: IndexLogger = { info: () => undefined, warn: () => undefined };

export class SymbolIndex {
  /** The read-only side of the store: what every use case gets. */
  readonly reader: SymbolReader;
  private readonly store: SymbolStore;
  readonly databaseFile: string;
  /** Which files hold which words (words.ts): what the syntactic answers that read the tree for a name read. */
  readonly words: WordIndex;
  private readonly options: SymbolIndexOptions;
  private readonly logger: IndexLogger;
  private readonly progressValue: IndexProgress = { state: 'building', filesIndexed: 0, filesTotal: 0, symbols: 0 };
  private readonly listeners = new Set<(progress: IndexProgress) => void>();
  private readonly resolver = new PackageResolver();
  private filters: RootFilter[] = [];
  private pool: ParsePool | undefined;
  private watcher: DirectoryWatcher | undefined;
  private building: Promise<BuildSummary> | undefined;
  private firstLoad = false;
  /** Serializes writes: the build's batches and the watcher's updates never interleave. */
  private writing: Promise<unknown> = Promise.resolve();
  private changesDuringBuild = new Set<string>();
  /** Files in the store at the last refreshCounts(). */
  private storedFiles: number | undefined;
  private closed = false;
  /** Python package directories seen in this pass (modules.ts). */
  private isPackage: PackageDirectoryCheck = packageDirectoryCheck();
  /** The store version this process has caught up with (a replica: the last change announced to it). */
  private seenVersion = 0;
  private unsubscribe: (() => void) | undefined;
  private lastInfo: StoreStatus | undefined;
  /** What the store said last of the files and directories the index leaves out. */
  private lastLeftOut: LeftOut | undefined;
  /** The store's answer /status waits for: one at a time, however many ask. */
  private statusProbe: Promise<StoreStatus> | undefined;
  /** Changed paths (absolute) the watcher reported that are not committed yet; a failure puts them back. */
  private readonly pendingPaths = new Set<string>();
  /** The batch being indexed now. */
  private inFlight: string[] = [];
  private draining = false;
  /** Failed attempts in a row (at changes or at the build); the next waits RETRY_FIRST_MS doubled as often. */
  private failures = 0;
  /** Failed attempts in a row for a reason other than an unavailable store. */
  private otherFailures = 0;
  private pendingError: string | undefined;
  private retryTimer: NodeJS.Timeout | undefined;
  private buildRetry: NodeJS.Timeout | undefined;
  private buildFailures = 0;
  /** Files a refresh of a ready index (the build at a restart) is parsing: changes not indexed yet. */
  private refreshing = 0;

  private constructor(options: SymbolIndexOptions, store: SymbolStore, databaseFile: string) {
    this.options = options;
    this.store = store;
    this.reader = store;
    this.databaseFile = databaseFile;
    this.logger = options.logger ?? SILENT;
    this.words = WordIndex.open(databaseFile, options.root, () => store.indexedFileInfos({}), (message) => this.logger.warn(message));
  }

  /**
   * Opens the workspace's store: its database under the cache directory (created, or rebuilt on a schema
   * change), or the shared store of config.store. A replica's store may not answer yet: start() follows it.
   */
  static async open(options: SymbolIndexOptions): Promise<SymbolIndex> {
    const file = databaseFileFor(options.cacheDir, options.root);
    const store = options.store ?? await openStore({ config: options.config, root: options.root, databaseFile: file });
    const index = new SymbolIndex(options, store, file);
    if (index.readOnly) return index;
    const [counts, info] = await Promise.all([store.counts(), store.storeInfo().catch(() => undefined)]);
    index.progressValue.symbols = counts.symbols;
    index.progressValue.filesIndexed = counts.files;
    index.progressValue.filesTotal = counts.files;
    // The last build finished: the index is whole from the start (start() refreshes the files changed since, as the
    // watcher would, without making every answer partial meanwhile). One killed mid-build recorded 'building'.
    if (info?.build?.state === 'ready' && counts.files > 0) index.progressValue.state = 'ready';
    return index;
  }

  status(): IndexProgress {
    return { ...this.progressValue };
  }

  /** True while a first build loads an empty store: signature text is written only at its end. */
  get isFirstLoad(): boolean {
    return this.firstLoad;
  }

  onProgress(listener: (progress: IndexProgress) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Builds (or brings up to date) the index; concurrent calls share one build. */
  build(): Promise<BuildSummary> {
    if (this.readOnly) return Promise.reject(new Error('a read-only replica builds no index: run the writer (plumb index or plumb serve without --read-only)'));
    this.building ??= this.runBuild().finally(() => {
      this.building = undefined;
    });
    return this.building;
  }

  /**
   * Builds in the background, then watches the workspace when config.index.watch is on. A read-only
   * replica (config.readOnly) builds and watches nothing: it follows what the store's writer commits.
   */
  start(): void {
    if (this.readOnly) {
      void this.follow().catch((error: unknown) => {
        if (!this.closed) this.logger.warn(`index: reading the store failed: ${error instanceof Error ? error.message : String(error)}`);
      });
      return;
    }
    const watch = this.options.config.index.watch;
    void this.build().then(
      () => {
        this.buildFailures = 0;
        if (watch && !this.closed) this.flushChangesDuringBuild();
      },
      (error: unknown) => {
        if (this.closed) return;
        const message = error instanceof Error ? error.message : String(error);
        if (!isTransientStoreError(error)) {
          this.logger.warn(`index build failed: ${message}`);
          return;
        }
        // The store went away during the build: the build starts again (diffing against what was committed) once it answers.
        const delay = Math.min(RETRY_MAX_MS, RETRY_FIRST_MS * 2 ** this.buildFailures++);
        this.logger.warn(`index build failed: ${message}; trying again in ${delay} ms`);
        this.buildRetry = setTimeout(() => {
          this.buildRetry = undefined;
          this.start();
        }, delay);
        this.buildRetry.unref?.();
      },
    );
  }

  /** True for a replica: the store is written by another plumb, this one only reads it. */
  get readOnly(): boolean {
    return this.options.config.readOnly;
  }

  /**
   * The store's description for /status: what it says of itself, how many of its writes this process
   * has not been told of, and, while it cannot be reached, what it said last with the reason.
   */
  async storeStatus(): Promise<StoreStatus> {
    // Never longer than a short deadline: a store that does not answer is reported unreachable meanwhile.
    const deadline = Math.min(STATUS_DEADLINE_MS, this.options.config.storeTimeoutMs);
    this.statusProbe ??= this.probeStore().finally(() => {
      this.statusProbe = undefined;
    });
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<StoreStatus>((resolve) => {
      timer = setTimeout(() => resolve(this.unreachable(`no answer within ${deadline} ms`)), deadline);
    });
    try {
      return await Promise.race([this.statusProbe, late]);
    } finally {
      clearTimeout(timer);
    }
  }

  /**
   * The files the index records without parsing (too large, binary, unreadable) and the directories it leaves out
   * as build output, as the store said at the last storeStatus(): counts, and the first LEFT_OUT_LISTED by path.
   */
  notIndexed(): LeftOut | undefined {
    return this.lastLeftOut;
  }

  /** Changed paths not committed yet (held for a retry, or noted during a build), and why they wait. */
  pending(): PendingChanges {
    const count = new Set([...this.pendingPaths, ...this.inFlight, ...this.changesDuringBuild]).size + this.refreshing;
    return count > 0 && this.pendingError ? { pendingChanges: count, pendingError: this.pendingError } : { pendingChanges: count };
  }

  private async probeStore(): Promise<StoreStatus> {
    try {
      // What the index leaves out is asked alongside, within the same deadline (notIndexed answers what it said last).
      const [info, leftOut] = await Promise.all([this.store.storeInfo(), this.store.leftOut(LEFT_OUT_LISTED).catch(() => this.lastLeftOut)]);
      this.lastLeftOut = leftOut;
      // The store answers again: changes held for a retry need not wait for the rest of their backoff.
      if (this.retryTimer) {
        clearTimeout(this.retryTimer);
        this.retryTimer = undefined;
        void this.drainChanges();
      }
      // The writer's own commits are seen as they happen.
      if (!this.readOnly) this.seenVersion = info.version;
      const { build: _build, ...rest } = info;
      // Read from a standby: the versions its primary committed that it has not replayed yet, when the primary answers.
      const primaryVersion = info.replication?.primaryVersion;
      const behind = primaryVersion !== undefined && primaryVersion !== null ? primaryVersion - info.version : info.version - this.seenVersion;
      this.lastInfo = { ...rest, readOnly: this.readOnly, reachable: true, behind: Math.max(0, behind) };
      return this.lastInfo;
    } catch (error) {
      return this.unreachable(error instanceof Error ? error.message : String(error));
    }
  }

  /** What the store said last, with the reason it cannot answer now. */
  private unreachable(reason: string): StoreStatus {
    const known = this.lastInfo ?? { backend: this.options.config.store ? 'postgres' : 'sqlite', location: this.options.config.store ? storeLocation(this.options.config.store) : this.databaseFile, schemaVersion: 0, workspace: null, version: 0, lastUpdate: null, behind: 0, readOnly: this.readOnly };
    return { ...known, reachable: false, error: reason };
  }

  /**
   * A replica's progress from the store: the writer's recorded build and the counts as committed, again on
   * every change the writer announces. A store that does not answer yet is asked again every few seconds.
   */
  private async follow(): Promise<void> {
    this.filters = await this.rootFilters();
    this.unsubscribe = this.store.onChange((version) => {
      void this.catchUp(version).catch((error: unknown) => {
        if (!this.closed) this.logger.warn(`index: reading the store failed: ${error instanceof Error ? error.message : String(error)}`);
      });
    });
    for (let attempt = 0; !this.closed; attempt++) {
      try {
        await this.catchUp();
        return;
      } catch (error) {
        if (attempt === 0) this.logger.warn(`index: ${error instanceof Error ? error.message : String(error)}; trying again`);
        await new Promise((resolve) => setTimeout(resolve, FOLLOW_RETRY_MS).unref());
      }
    }
  }

  private async catchUp(version?: number): Promise<void> {
    if (this.closed) return;
    const [info, counts] = await Promise.all([this.store.storeInfo(), this.store.counts()]);
    this.seenVersion = Math.max(this.seenVersion, version ?? info.version);
    this.setProgress({
      state: info.build?.state ?? (counts.files > 0 ? 'ready' : 'building'),
      filesTotal: Math.max(info.build?.filesTotal ?? counts.files, counts.files),
      filesIndexed: counts.files,
      symbols: counts.symbols,
    });
  }

  async close(): Promise<void> {
    this.closed = true;
    if (this.retryTimer) clearTimeout(this.retryTimer);
    if (this.buildRetry) clearTimeout(this.buildRetry);
    this.unsubscribe?.();
    this.watcher?.close();
    await this.pool?.close();
    this.pool = undefined;
    await this.writing.catch(() => undefined);
    await this.building?.catch(() => undefined);
    await this.words.close();
    await this.store.close();
  }

  /**
   * Where a file named from outside the index (a language server's reference) belongs: its stored path and
   * whether it is external; undefined when no root holds it or the root's rules leave it out (dependencies,
   * build output, dot directories, .gitignore, config exclude). A file of a language the index does not parse
   * counts when its directory is walked.
   */
  placeOf(absolute: string): { stored: string; external: boolean } | undefined {
    if (this.filters.length === 0) {
      // Before the first walk: the workspace root holds it or nothing does.
      return isInside(absolute, this.options.root) ? { stored: storedPath({ path: this.options.root, external: false }, absolute), external: false } : undefined;
    }
    // The innermost root first: an extra root may lie inside the workspace.
    const filter = [...this.filters].sort((a, b) => b.root.path.length - a.root.path.length).find((f) => isInside(absolute, f.root.path));
    if (!filter) return undefined;
    const accepted = filter.acceptsPath(absolute) !== undefined || (languageOfPath(absolute)?.id === undefined && filter.acceptsDirectoryChain(path.dirname(absolute)));
    return accepted ? { stored: storedPath(filter.root, absolute), external: filter.root.external } : undefined;
  }

  /** Re-indexes changed paths (files, or directories created or deleted); used by the watcher and tests. */
  async applyChanges(paths: string[]): Promise<void> {
    if (this.closed || this.readOnly) return;
    if (this.building) {
      for (const p of paths) this.changesDuringBuild.add(p);
      return;
    }
    const updates: FileUpdate[] = [];
    const removed = new Set<string>();
    const pool = this.parsePool();
    // An added or removed __init__.py changes what later files' modules are.
    this.isPackage = packageDirectoryCheck();
    const previousHash = async (file: string): Promise<string | undefined> => (await this.store.fileStatesOf([file])).get(file)?.hash;
    // A build tool's marker or a manifest that came or went: directories that became build output leave the index,
    // those that stopped being it are walked.
    const { output, sources } = this.rejudgeBuildOutput(paths);
    /** Build output directories that came, and stored directories whose record goes (each with those under it). */
    const outputs: BuildOutputDirectory[] = [];
    const cleared: string[] = [];
    for (const { directory, reason } of output) {
      const filter = this.filters.find((f) => isInside(directory, f.root.path));
      if (!filter) continue;
      const key = storedPath(filter.root, directory);
      for (const file of await this.store.filesUnder(key)) removed.add(file);
      // Only the directory itself stays watched: its marker may go again.
      this.watcher?.remove(directory);
      this.watcher?.add(directory);
      outputs.push({ path: key, reason });
    }
    for (const directory of sources) {
      const filter = this.filters.find((f) => isInside(directory, f.root.path));
      if (filter) cleared.push(storedPath(filter.root, directory));
      // Walked below as a new directory (it was watched alone).
      this.watcher?.remove(directory);
    }
    await Promise.all([...paths, ...sources].map(async (absolute) => {
      const filter = this.filters.find((f) => isInside(absolute, f.root.path));
      if (!filter) return;
      const name = path.basename(absolute);
      // Inside a directory the index leaves out (build output being written): nothing to do.
      if (!filter.acceptsDirectoryChain(path.dirname(absolute))) return;
      if (name === '.gitignore') filter.forgetGitignore(path.dirname(absolute));
      if (isManifestFile(name)) this.resolver.forget(path.dirname(absolute));
      let stats;
      try {
        stats = await lstat(absolute);
      } catch {
        stats = undefined;
      }
      if (!stats || (!stats.isFile() && !stats.isDirectory())) {
        // Gone: the file, or a whole directory of them. A symlink (what a checkout of a branch with a link
        // in place of a file or directory leaves), a FIFO or a device is not indexed either: what the path
        // held before leaves the index, and the link is not followed.
        const key = storedPath(filter.root, absolute);
        removed.add(key);
        if (key !== '.') for (const file of await this.store.filesUnder(key)) removed.add(file);
        this.watcher?.remove(absolute);
        // A build output directory deleted (rm -rf build) is no longer left out.
        if (key !== '.') cleared.push(key);
        return;
      }
      if (stats.isDirectory()) {
        if (this.watcher?.has(absolute) || !filter.acceptsDirectoryChain(absolute)) return;
        // A new directory (a checkout, an unpacked tree): walk it and watch what it holds.
        const result: WalkResult = { files: [], directories: [], listings: new Map(), buildOutput: [] };
        await walkRoot(filter, result, absolute);
        filter.settleLanguages(result.files, result.listings, false);
        for (const directory of result.directories) this.watcher?.add(directory);
        for (const file of result.files) {
          const update = await this.parseOne(pool, file, await previousHash(file.stored));
          if (update) updates.push(update);
        }
        return;
      }
      const language = filter.acceptsPath(absolute);
      if (!language) return;
      const file: WalkedFile = { absolute, stored: storedPath(filter.root, absolute), root: filter.root, language, size: stats.size, mtimeMs: stats.mtimeMs, ctimeMs: stats.ctimeMs, ino: stats.ino };
      const update = await this.parseOne(pool, file, await previousHash(file.stored));
      if (update) updates.push(update);
    }));
    // The files first: once a directory is listed as build output, what it held is out of the index.
    if (updates.length > 0 || removed.size > 0) await this.serialized(() => this.store.write(updates, [...removed]));
    if (outputs.length > 0 || cleared.length > 0) await this.serialized(() => this.store.recordBuildOutput(outputs, cleared));
    if (updates.length > 0 || removed.size > 0) {
      await this.refreshCounts();
      this.words.update();
    }
  }

  /**
   * The directories whose build-output judgement (build-output.ts) changes with these changed paths: a marker
   * (CMakeCache.txt...) judges its own directory, a manifest (Cargo.toml...) the directories beside it.
   */
  private rejudgeBuildOutput(paths: string[]): { output: Array<{ directory: string; reason: string }>; sources: string[] } {
    const output: Array<{ directory: string; reason: string }> = [];
    const sources: string[] = [];
    const directories = new Set(paths.filter((p) => mayMarkBuildOutput(path.basename(p))).map((p) => path.dirname(p)));
    for (const directory of directories) {
      const filter = this.filters.find((f) => isInside(directory, f.root.path));
      if (!filter || !filter.acceptsDirectoryChain(path.dirname(directory))) continue;
      let children: string[] = [];
      try {
        children = readdirSync(directory, { withFileTypes: true }).filter((entry) => entry.isDirectory() && BUILD_OUTPUT_NAMES.has(entry.name)).map((entry) => path.join(directory, entry.name));
      } catch {
        // Gone: its removal is handled as such.
      }
      const judged = [directory, ...children].filter((d) => d !== filter.root.path && filter.acceptsDirectoryByName(d));
      const before = judged.map((d) => filter.buildOutput(d));
      filter.forgetBuildOutput(directory);
      judged.forEach((d, i) => {
        const now = filter.buildOutput(d);
        if (now !== undefined && before[i] === undefined) output.push({ directory: d, reason: now });
        else if (now === undefined && before[i] !== undefined) sources.push(d);
      });
    }
    return { output, sources };
  }

  private async parseOne(pool: ParsePool, file: WalkedFile, previousHash: string | undefined): Promise<FileUpdate | undefined> {
    const result = await parseFile(pool, file, previousHash);
    if (result.outcome === 'skipped') return this.toUpdate(file, result.hash, result.size, NO_SYMBOLS, { reason: result.reason, detail: result.detail });
    if (result.outcome !== 'parsed') return undefined;
    return this.toUpdate(result.language ? { ...file, language: result.language } : file, result.hash, result.size, result.symbols);
  }

  /** `symbols` as the parser threads packed them: the symbols the index keeps (parse-worker.ts drops unnamed ones). */
  private toUpdate(file: WalkedFile, hash: string, size: number, symbols: PackedSymbols, skipped?: FileUpdate['skipped']): FileUpdate {
    return {
      file: file.stored,
      size,
      mtimeMs: file.mtimeMs,
      ctimeMs: file.ctimeMs,
      ino: file.ino,
      hash,
      language: file.language,
      package: this.packageOf(file.absolute, file.root),
      external: file.root.external,
      module: moduleOf(file.absolute, file.root.path, languageById(file.language), this.isPackage),
      symbols,
      ...(skipped ? { skipped } : {}),
    };
  }

  private packageOf(absolute: string, root: IndexRoot): PackageRef {
    return this.resolver.packageOf(absolute, root.path, root.external, (directory) => storedPath(root, directory));
  }

  private parsePool(): ParsePool {
    this.pool ??= new ParsePool(this.options.config.index.workers);
    return this.pool;
  }

  /** What each root indexes: the workspace with config include/exclude, the extra roots whole. */
  private async rootFilters(): Promise<RootFilter[]> {
    const config = this.options.config.index;
    const roots = await this.resolveRoots();
    const skip = [this.options.cacheDir];
    return roots.map((root) => new RootFilter(root, { include: root.external ? [] : config.include, exclude: config.exclude, skip }));
  }

  private async resolveRoots(): Promise<IndexRoot[]> {
    const roots: IndexRoot[] = [{ path: this.options.root, external: false }];
    for (const extra of this.options.config.index.extraRoots) {
      try {
        const real = await realpath(path.resolve(this.options.root, extra));
        if (!roots.some((r) => r.path === real)) roots.push({ path: real, external: true });
      } catch {
        this.logger.warn(`index: extra root '${extra}' does not exist; skipped`);
      }
    }
    return roots;
  }

  private async runBuild(): Promise<BuildSummary> {
    const started = performance.now();
    const zero = (): StageTime => ({ wallMs: 0, cpuMs: 0 });
    const profile: BuildProfile = { walk: zero(), diff: zero(), parseAndWrite: zero(), writes: { ...zero(), batches: 0 }, finishLoad: zero(), optimize: zero(), workers: [] };
    let stage = startStage();
    // A ready index (a finished build, reopened) is refreshed: it stays ready, its changed files are pending changes.
    const refresh = this.progressValue.state === 'ready';
    if (!refresh) this.setProgress({ state: 'building' });
    this.isPackage = packageDirectoryCheck();
    this.filters = await this.rootFilters();
    const walk = await walkRoots(this.filters);
    stage = endStage(profile.walk, stage);
    if (!refresh) await this.serialized(() => this.store.recordBuild('building', walk.files.length));
    // Build output directories are watched themselves (not what is below them): their marker may go.
    if (this.options.config.index.watch && !this.closed) this.watchDirectories([...walk.directories, ...walk.buildOutput.map((output) => output.directory)]);

    // Packages from every manifest seen, so a package without symbols still exists.
    const packages = new Map<string, PackageRef>();
    for (const [directory, entries] of walk.listings) {
      const manifest = this.resolver.noteDirectory(directory, entries);
      const root = this.filters.find((f) => isInside(directory, f.root.path))?.root;
      if (manifest && root) packages.set(`${manifest.name}\u0000${directory}`, { name: manifest.name, path: storedPath(root, directory), manifest: manifest.file, external: root.external });
    }

    const stored = await this.store.fileStates();
    const walked = new Set(walk.files.map((f) => f.stored));
    const removed = [...stored.keys()].filter((file) => !walked.has(file));
    const toParse = walk.files.filter((file) => {
      const state = stored.get(file.stored);
      // Any stat difference sends the file to the worker, which hashes it first: an unchanged hash is only a touch.
      return !state || state.size !== file.size || state.mtimeMs !== file.mtimeMs || state.ctimeMs !== file.ctimeMs || state.ino !== file.ino;
    });
    // One look-up per directory (a file's package is its directory's), a slice at a time: the kernel's 55,000 files
    // held the event loop some 300 ms here at every restart.
    const slice = new TimeSlice();
    const seen = new Set<string>();
    for (const file of walk.files) {
      const directory = `${file.root.path}\u0000${path.dirname(file.absolute)}`;
      if (seen.has(directory)) continue;
      seen.add(directory);
      if (slice.due()) await slice.pause();
      const ref = this.packageOf(file.absolute, file.root);
      packages.set(`${ref.name}\u0000${ref.path}`, ref);
    }
    // A refresh that changes nothing leaves the record 'ready': a process stopped during its walk is no reason for the next start to answer partial.
    if (refresh && (toParse.length > 0 || removed.length > 0)) await this.serialized(() => this.store.recordBuild('building', walk.files.length));
    await this.serialized(async () => {
      await this.store.registerPackages([...packages.values()]);
      if (removed.length) await this.store.write([], removed);
      await this.store.recordBuildOutput(walk.buildOutput.map((output) => ({ path: storedPath(output.root, output.directory), reason: output.reason })), 'all');
    });
    stage = endStage(profile.diff, stage);
    const summary: BuildSummary = {
      filesTotal: walk.files.length,
      filesParsed: 0,
      filesReused: walk.files.length - toParse.length,
      filesRemoved: removed.length,
      filesSkipped: 0,
      filesFailed: 0,
      symbols: 0,
      elapsedMs: 0,
      profile,
    };
    await this.refreshCounts();
    this.setProgress({ filesTotal: walk.files.length, filesIndexed: summary.filesReused });

    // A first build has nothing to lose to an OS crash that a rebuild would not restore.
    const bulk = stored.size === 0 && toParse.length > 0;
    if (bulk) await this.serialized(() => this.store.bulkLoad(true));
    this.firstLoad = bulk;
    if (refresh) this.refreshing = toParse.length;
    stage = startStage();
    try {
      await this.parseAll(toParse, stored, summary);
      stage = endStage(profile.parseAndWrite, stage);
      if (this.pool && toParse.length > 0) {
        profile.workers = await this.pool.stats();
      }
      if (bulk && this.pool) {
        // The parser threads' heaps and tree-sitter's memory are much of a first build's RSS, and the end of its load
        // (one long statement on this thread) has no use for them: they end now, and a later change starts one again.
        const pool = this.pool;
        this.pool = undefined;
        await pool.close();
      }
    } finally {
      if (bulk && !this.closed) await this.serialized(() => this.store.bulkLoad(false));
      this.firstLoad = false;
      this.refreshing = 0;
    }
    stage = endStage(profile.finishLoad, stage);
    if (this.closed) throw new Error('index closed during its build');
    await this.serialized(async () => {
      await this.store.prunePackages([...packages.values()]);
      if (summary.filesParsed + summary.filesRemoved > 0) await this.store.optimize();
    });
    endStage(profile.optimize, stage);
    await this.refreshCounts();
    await this.serialized(() => this.store.recordBuild('ready', walk.files.length));
    this.setProgress({ state: 'ready', filesIndexed: walk.files.length, filesTotal: walk.files.length });
    // Not after a restart that changed nothing on a word index that covers every file: listing the files to compare
    // is some 100 ms of the main thread on the kernel, among the first searches. A file touched since is found stale
    // by the first answer that asks (WordIndex.narrow) and read then.
    if (summary.filesParsed + summary.filesRemoved > 0 || !this.words.knows(walk.files.length)) this.words.update();
    summary.symbols = this.progressValue.symbols;
    summary.elapsedMs = Math.round(performance.now() - started);
    this.logger.info(`index ready: ${summary.filesTotal} files (${summary.filesParsed} parsed, ${summary.filesReused} reused, ${summary.filesRemoved} removed), ${summary.symbols} symbols in ${summary.elapsedMs} ms`);
    return summary;
  }

  /** Parses the files in the pool and commits their symbols in batches. */
  private async parseAll(toParse: WalkedFile[], stored: Map<string, FileState>, summary: BuildSummary): Promise<void> {
    if (toParse.length === 0 || this.closed) return;
    const pool = this.parsePool();
    let batch: FileUpdate[] = [];
    let touched: FileStamp[] = [];
    let batchSymbols = 0;
    let lastFlush = performance.now();
    let flushing: Promise<void> = Promise.resolve();
    /** Symbols parsed and not committed yet: past UNWRITTEN_SYMBOLS no more files go to the threads until writes catch up. */
    let unwritten = 0;
    /** Bytes of the files sent to the threads and not committed yet (UNWRITTEN_BYTES), and those of the batch. */
    let unwrittenBytes = 0;
    let batchBytes = 0;
    /** Files over UNWRITTEN_BYTES waiting for their lane (sendLarge), the bytes of the one sent and not committed, and those of the batch. */
    const large: WalkedFile[] = [];
    let largeUnwritten = 0;
    let batchLargeBytes = 0;
    /**
     * Wakes the loop below when a parse ends or a batch commits. One waiter at a time, not Promise.race over the tasks
     * running: that added a reaction to each of up to PARSE_WINDOW pending promises per file sent (on the kernel's
     * fs/ + include/, 7,806 files, the main thread's CPU in the parse + write phase went from 5.3-5.6 s to 3.5 s).
     */
    let wake: (() => void) | undefined;
    const changed = (): void => {
      const resolve = wake;
      wake = undefined;
      resolve?.();
    };
    const nextChange = (): Promise<void> => new Promise((resolve) => {
      wake = resolve;
    });
    const flush = (): void => {
      const updates = batch;
      const touches = touched;
      const done = updates.length + touches.length;
      const symbols = batchSymbols;
      const bytes = batchBytes;
      const largeBytes = batchLargeBytes;
      batchLargeBytes = 0;
      batch = [];
      touched = [];
      batchSymbols = 0;
      batchBytes = 0;
      lastFlush = performance.now();
      flushing = flushing.then(() => this.serialized(async () => {
        if (this.closed) return;
        // The batches written before this one are garbage now: a large tree's builds would pile them up (heap.ts).
        collectIfGrown();
        const stage = startStage();
        await this.store.write(updates, [], touches);
        endStage(summary.profile.writes, stage);
        summary.profile.writes.batches++;
        this.progressValue.symbols += updates.reduce((sum, u) => sum + symbolCount(u.symbols), 0);
        this.setProgress({ filesIndexed: this.progressValue.filesIndexed + done });
      })).finally(() => {
        unwritten -= symbols;
        unwrittenBytes -= bytes;
        largeUnwritten -= largeBytes;
        sendLarge();
        changed();
        // This batch is garbage once this callback returns: a large file's lump is collected before the next arrives.
        setImmediate(collectIfGrown);
      });
    };
    const parseOne = async (file: WalkedFile, lane: boolean): Promise<void> => {
      const previous = stored.get(file.stored);
      const result = await parseFile(pool, file, previous?.hash);
      if (lane) batchLargeBytes += file.size;
      else batchBytes += file.size;
      if (this.closed) return;
      if (result.outcome === 'parsed') {
        summary.filesParsed++;
        // The language the text said it is in, where it overruled the walker's (a `.h` its tree calls C holding classes).
        batch.push(this.toUpdate(result.language ? { ...file, language: result.language } : file, result.hash, result.size, result.symbols));
        batchSymbols += result.symbols.count;
        unwritten += result.symbols.count;
      } else if (result.outcome === 'skipped') {
        // Recorded without symbols, with why: /status lists it.
        summary.filesSkipped++;
        batch.push(this.toUpdate(file, result.hash, result.size, NO_SYMBOLS, { reason: result.reason, detail: result.detail }));
      } else if (result.outcome === 'unchanged') {
        summary.filesReused++;
        touched.push({ file: file.stored, size: file.size, mtimeMs: file.mtimeMs, ctimeMs: file.ctimeMs, ino: file.ino });
      } else {
        summary.filesFailed++;
        this.logger.warn(`index: ${file.stored}: ${result.error}`);
        this.setProgress({ filesIndexed: this.progressValue.filesIndexed + 1 });
      }
      // A large file's symbols are committed at once: the next large file waits for that.
      if (lane || batch.length + touched.length >= BATCH_FILES || batchSymbols >= BATCH_SYMBOLS || performance.now() - lastFlush >= BATCH_MS) flush();
    };
    const running = new Set<Promise<void>>();
    const start = (file: WalkedFile, lane: boolean): void => {
      const task: Promise<void> = parseOne(file, lane).finally(() => {
        running.delete(task);
        changed();
      });
      running.add(task);
    };
    /**
     * A file over UNWRITTEN_BYTES goes in a lane of its own, one at a time (its symbols are held whole until committed),
     * while the other files go on through the window beside it. Sent alone, as before, it left one parser thread idle
     * and the writes waiting on the other: on the kernel's register headers (40 files of 4-24 MB in a row) the threads
     * were idle 52 s in all; with the lane, 33 s.
     */
    const sendLarge = (): void => {
      if (largeUnwritten > 0 || large.length === 0 || this.closed) return;
      const file = large.shift() as WalkedFile;
      largeUnwritten += file.size;
      start(file, true);
    };
    // Files go to the threads a window at a time, and wait while the writes lag: parsed symbols are held in memory
    // until committed (a tree of generated headers parses faster than SQLite takes millions of macros).
    for (const file of toParse) {
      if (this.closed) break;
      if (file.size > UNWRITTEN_BYTES) {
        large.push(file);
        sendLarge();
        continue;
      }
      while (running.size >= PARSE_WINDOW) await nextChange();
      while (unwritten > UNWRITTEN_SYMBOLS && !this.closed) {
        flush();
        await flushing;
      }
      // Sent and not committed: wait for a commit (or, when every file sent is parsed, commit what is parsed).
      while (unwrittenBytes > 0 && unwrittenBytes + file.size > UNWRITTEN_BYTES && !this.closed) {
        const next = nextChange();
        if (running.size === 0) flush();
        await next;
      }
      unwrittenBytes += file.size;
      start(file, false);
    }
    // The large files left go one by one, each once the one before it is committed.
    while ((running.size > 0 || large.length > 0) && !this.closed) {
      const next = nextChange();
      sendLarge();
      // Nothing parsing: the lane's file is parsed and its commit queued, after which the next one goes.
      await (running.size > 0 ? next : flushing);
    }
    await Promise.all(running);
    flush();
    await flushing;
  }

  private watchDirectories(directories: string[]): void {
    this.watcher ??= new DirectoryWatcher((paths) => this.queueChanges(paths));
    // Only the workspace is watched: extra roots (engines, libraries) rarely change under a session.
    const workspace = this.options.root;
    for (const directory of directories) if (isInside(directory, workspace)) this.watcher.add(directory);
  }

  private flushChangesDuringBuild(): void {
    const paths = [...this.changesDuringBuild];
    this.changesDuringBuild.clear();
    if (paths.length) this.queueChanges(paths);
  }

  /**
   * Re-indexes changed paths, one batch at a time. A batch that fails is kept: its paths join the next batch,
   * tried again after a backoff (RETRY_FIRST_MS doubling to RETRY_MAX_MS) until it is committed; while the store
   * is unavailable that is for as long as it takes, otherwise (a bug) RETRY_OTHER_ERRORS times.
   */
  private queueChanges(paths: string[]): void {
    for (const p of paths) this.pendingPaths.add(p);
    // While a retry is scheduled, new changes wait for it (the store just failed).
    if (!this.retryTimer) void this.drainChanges();
  }

  private async drainChanges(): Promise<void> {
    if (this.draining) return;
    this.draining = true;
    try {
      while (this.pendingPaths.size > 0 && !this.closed) {
        const paths = [...this.pendingPaths];
        this.pendingPaths.clear();
        this.inFlight = paths;
        try {
          await this.applyChanges(paths);
          this.inFlight = [];
          if (this.failures > 0) this.logger.info(`index: ${paths.length} changed path(s) held back by a failure are indexed now`);
          this.failures = 0;
          this.otherFailures = 0;
          this.pendingError = undefined;
        } catch (error) {
          this.inFlight = [];
          if (this.closed) return;
          const message = error instanceof Error ? error.message : String(error);
          const transient = isTransientStoreError(error);
          this.otherFailures = transient ? 0 : this.otherFailures + 1;
          if (!transient && this.otherFailures >= RETRY_OTHER_ERRORS) {
            this.logger.warn(`index: re-indexing ${paths.length} changed path(s) failed ${this.otherFailures} times; dropped: ${message}`);
            this.otherFailures = 0;
            this.failures = 0;
            this.pendingError = undefined;
            continue;
          }
          for (const p of paths) this.pendingPaths.add(p);
          const delay = Math.min(RETRY_MAX_MS, RETRY_FIRST_MS * 2 ** this.failures);
          if (this.failures === 0 || message !== this.pendingError) this.logger.warn(`index: re-indexing changed files failed: ${message}; ${this.pendingPaths.size} changed path(s) kept, trying again`);
          this.failures++;
          this.pendingError = message;
          this.retryTimer = setTimeout(() => {
            this.retryTimer = undefined;
            void this.drainChanges();
          }, delay);
          this.retryTimer.unref?.();
          return;
        }
      }
    } finally {
      this.draining = false;
    }
  }

  /**
   * Symbols from the store; once the index is ready, the files the store gained or lost since the last
   * look move filesIndexed and filesTotal alike (live updates), so /status stays true between builds.
   */
  private async refreshCounts(): Promise<void> {
    const counts = await this.store.counts();
    const change: Partial<IndexProgress> = { symbols: counts.symbols };
    const delta = this.storedFiles === undefined ? 0 : counts.files - this.storedFiles;
    if (this.progressValue.state === 'ready' && delta !== 0) {
      change.filesIndexed = Math.max(0, this.progressValue.filesIndexed + delta);
      change.filesTotal = Math.max(0, this.progressValue.filesTotal + delta);
    }
    this.storedFiles = counts.files;
    this.setProgress(change);
  }

  private setProgress(change: Partial<IndexProgress>): void {
    Object.assign(this.progressValue, change);
    for (const listener of this.listeners) listener(this.status());
  }

  private serialized<T>(work: () => Promise<T>): Promise<T> {
    const next = this.writing.then(work, work);
    this.writing = next.catch(() => undefined);
    return next;
  }
}

function startStage(): { wall: number; cpu: number | undefined } {
  return { wall: performance.now(), cpu: threadCpuMs() };
}

/** Adds the time since `since` to `into`; returns a new start. */
function endStage(into: StageTime, since: { wall: number; cpu: number | undefined }): { wall: number; cpu: number | undefined } {
  const now = startStage();
  into.wallMs += now.wall - since.wall;
  into.cpuMs = into.cpuMs === undefined || now.cpu === undefined || since.cpu === undefined ? undefined : into.cpuMs + now.cpu - since.cpu;
  return now;
}

/** A walked file's symbols from the parser threads; one larger than plumb parses is not read at all. */
function parseFile(pool: ParsePool, file: WalkedFile, previousHash: string | undefined): Promise<ParseResult> {
  if (file.size > MAX_PARSED_BYTES) return Promise.resolve({ id: 0, outcome: 'skipped', reason: 'too_large', detail: tooLargeDetail(file.size), hash: '', size: file.size });
  return pool.parse({ absolute: file.absolute, language: file.language, previousHash, stored: file.stored, size: file.size });
}

/** `<cacheDir>/<root name>-<hash of root>/index.sqlite`: one database per workspace. */
export function databaseFileFor(cacheDir: string, root: string): string {
  const hash = createHash('sha256').update(root).digest('hex').slice(0, 16);
  const name = path.basename(root).replace(/[^A-Za-z0-9._-]/g, '_') || 'root';
  return path.join(cacheDir, `${name}-${hash}`, 'index.sqlite');
}
