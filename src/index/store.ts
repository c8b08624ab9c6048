/**
 * The storage contract of the symbol index. The use cases (src/symbols/) and the builder talk to
 * this interface only, so a PostgreSQL backend can implement it without touching them; every
 * method is async for that reason even though the SQLite backend answers synchronously.
 */
import type { NormalizedKind } from '../kinds.js';
import type { IndexSymbol } from '../../schemas/symbols.js';
import type { LanguageId } from '../syntax/types.js';
import type { FileSymbols } from './symbol-codec.js';

/**
 * One symbol as stored and answered: the extracted facts plus identity, file and package. The same
 * shape as the API's symbol (schemas/symbols.ts IndexSymbol, the one definition), without `match`.
 */
export type StoredSymbol = Omit<IndexSymbol, 'match'>;

export interface PackageInfo {
  name: string;
  /** Directory of the manifest (root-relative, `.` for the root; absolute under an extra root). */
  path: string;
  /** The manifest file name (`package.json`, `go.mod`...), or null for a directory-named package. */
  manifest: string | null;
  /** The most common language among its indexed files, or null when it has none. */
  language: LanguageId | null;
  symbols: number;
  files: number;
  external: boolean;
}

/** A package row as both stores read it, with its file and symbol counts. */
export interface PackageRow { id: number; name: string; path: string; manifest: string | null; external: number; files: number; symbols: number }

/**
 * The packages as answered: each with the language most of its files have (the first seen wins a tie, so
 * `languages` comes in the order a store's GROUP BY hands it over).
 */
export function packageInfos(packages: PackageRow[], languages: Array<{ package_id: number; language: string; n: number }>): PackageInfo[] {
  const best = new Map<number, { language: string; n: number }>();
  for (const row of languages) {
    const seen = best.get(row.package_id);
    if (!seen || row.n > seen.n) best.set(row.package_id, { language: row.language, n: row.n });
  }
  return packages.map((row) => ({
    name: row.name,
    path: row.path,
    manifest: row.manifest,
    language: (best.get(row.id)?.language ?? null) as LanguageId | null,
    symbols: row.symbols,
    files: row.files,
    external: row.external === 1,
  }));
}

/** The match tiers, best first (docs/API.md "Search ranking"). */
export const MATCH_TIERS = ['exact', 'exact_case_insensitive', 'prefix', 'fuzzy', 'substring', 'signature'] as const;
export type MatchTier = (typeof MATCH_TIERS)[number];

export interface SymbolFilters {
  kinds?: NormalizedKind[];
  /** Package names (already resolved to the names the store holds). */
  packages?: string[];
  language?: LanguageId;
  /** true: workspace files only; false: extra roots too. */
  userOnly?: boolean;
  containingType?: string;
}

export interface SearchSpec extends SymbolFilters {
  /** The name to look for: the last segment of a qualified query. */
  name: string;
  /** Qualifier of a qualified query (`leveldb` in `leveldb::Iterator`), separators normalized to `.`. */
  qualifier?: string;
  /** Which tiers to consult (match=exact asks for `exact`, then for `exact_case_insensitive` when that finds nothing). */
  tiers: readonly MatchTier[];
  offset: number;
  limit: number;
  includeForwardDeclarations: boolean;
}

export interface PackageSymbolsSpec {
  packageName: string;
  kinds?: NormalizedKind[];
  offset: number;
  limit: number;
  includeForwardDeclarations: boolean;
}

export interface SearchHit {
  symbol: StoredSymbol;
  tier: MatchTier;
}

export interface SearchPage {
  results: SearchHit[];
  /** Matches that are not forward declarations. */
  totalMatches: number;
  /** Forward declarations that matched (grouped out unless asked for). */
  forwardDeclarations: number;
  /** true when counting stopped at COUNT_CAP: totalMatches and forwardDeclarations are lower bounds. */
  countsCapped?: boolean;
}

/**
 * Search counts matches up to about this many: exact counts of a generic query (`get`: 90,000
 * substring matches) cost tens of milliseconds, more than the page itself.
 */
export { COUNT_CAP } from '../../schemas/symbols.js';

/**
 * What a file was when it was indexed. Size and mtime alone miss an edit of the same length whose mtime
 * was set back (an editor, a checkout, a tool keeping timestamps): ctime and the inode move then too.
 */
export interface FileState {
  size: number;
  mtimeMs: number;
  ctimeMs: number;
  ino: number;
  hash: string;
}

/** A file's stat as stored: what a later walk compares (and a touch refreshes without a parse). */
export interface FileStamp {
  file: string;
  size: number;
  mtimeMs: number;
  ctimeMs: number;
  ino: number;
}

/** A file's new content for the index: its symbols replace whatever the store held for it. */
export interface FileUpdate {
  /** Stored path (see StoredSymbol.file). */
  file: string;
  size: number;
  mtimeMs: number;
  /** Absent (0) from writers that do not stat: the next walk then hashes the file once. */
  ctimeMs?: number;
  ino?: number;
  hash: string;
  language: LanguageId;
  package: PackageRef;
  external: boolean;
  /** The file's module for qualified search, dotted (`flask.app`, `net.http`; src/index/modules.ts), or null where its language has none. */
  module?: string | null;
  /**
   * Its symbols: objects, or the row values the parser threads worked out and packed (symbol-codec.ts), which the
   * main thread, the build's busiest, then only binds.
   */
  symbols: FileSymbols;
  /** Why the file is recorded without being parsed (its symbols are none): listed in /status. */
  skipped?: { reason: SkipReason; detail: string };
}

/** Why a file is not indexed: larger than plumb parses, not text, or not readable. */
export type SkipReason = 'too_large' | 'binary' | 'unreadable' | 'parse_timeout' | 'too_deep';

/** Why a file or directory is left out of the index: a file's SkipReason, or a directory of build output (src/index/build-output.ts). */
export type LeftOutReason = SkipReason | 'build_output';

/** A directory the walk left out as build output: its stored path and why. */
export interface BuildOutputDirectory {
  path: string;
  reason: string;
}

/** What the index leaves out, for /status: how many of each reason, and the first of them by path. */
export interface LeftOut {
  total: number;
  byReason: Partial<Record<LeftOutReason, number>>;
  paths: LeftOutPath[];
}

export interface LeftOutPath {
  path: string;
  kind: 'file' | 'directory';
  reason: LeftOutReason;
  detail: string;
}

/**
 * LeftOut as both stores answer it, from their rows: the skipped files' counts by reason, the number of build
 * output directories, and the first `limit` of each by path (merged here, in JavaScript's string order).
 */
export function leftOutOf(fileCounts: Array<{ reason: string; n: number }>, directories: number, files: LeftOutPath[], outputs: LeftOutPath[], limit: number): LeftOut {
  const byReason: Partial<Record<LeftOutReason, number>> = {};
  for (const row of fileCounts) byReason[row.reason as LeftOutReason] = row.n;
  if (directories > 0) byReason.build_output = directories;
  const paths = [...files, ...outputs].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0)).slice(0, limit);
  return { total: Object.values(byReason).reduce((sum, n) => sum + n, 0), byReason, paths };
}

export interface PackageRef {
  name: string;
  path: string;
  manifest: string | null;
  external: boolean;
}

export interface StoreCounts {
  files: number;
  symbols: number;
}

/** An indexed file with what /statements needs to read and name it. */
export interface IndexedFileInfo {
  /** Stored path (see StoredSymbol.file). */
  file: string;
  language: LanguageId;
  size: number;
  mtimeMs: number;
  package: string;
  /** The package's directory (root-relative, `.` for the root; absolute under an extra root). */
  packagePath: string;
  external: boolean;
}

export interface FileFilter {
  /** Package names (already resolved to the names the store holds). */
  packages?: string[];
  languages?: LanguageId[];
  /** true: workspace files only. */
  userOnly?: boolean;
}

/** A store URL as shown in /status, logs and errors: without its password. */
export function storeLocation(url: string): string {
  try {
    const parsed = new URL(url);
    parsed.password = '';
    return parsed.toString();
  } catch {
    return url.replace(/\/\/([^:/@]*):[^@]*@/, '//$1@');
  }
}

/** What /status says of the store behind the index. */
export interface StoreInfo {
  backend: 'sqlite' | 'postgres';
  /** The database file, or the store's URL without its password. */
  location: string;
  schemaVersion: number;
  /** The workspace's key in a shared store (PostgreSQL), or null for the embedded one. */
  workspace: string | null;
  /** Bumped by every committed write: a replica compares it with the one it last saw. */
  version: number;
  /** When the last write was committed (ISO 8601), or null before any. */
  lastUpdate: string | null;
  /** The writer's build progress as it last recorded it, or null before any (what a replica shows). */
  build: { state: 'building' | 'ready'; filesTotal: number } | null;
  /** Present when the server answering is a hot standby (a shared store read from a streaming replica). */
  replication?: ReplicationInfo;
}

/** A hot standby's replication, as /status reports it. */
export interface ReplicationInfo {
  /** Its WAL receiver is streaming from its primary now. */
  streaming: boolean;
  /**
   * How far its answers are behind its primary in time: 0 when it has replayed all the WAL it received, else the time
   * since the last transaction it replayed was committed on the primary.
   */
  replayLagMs: number;
  /** When the last transaction it replayed was committed on the primary (ISO 8601), or null before any. */
  lastReplayed: string | null;
  /** host:port it streams from, when the store's user may see it (a superuser or a member of pg_read_all_stats). */
  primary: string | null;
  /** The workspace's version on that primary when it answers, else null with the reason in primaryError. */
  primaryVersion: number | null;
  primaryError?: string;
}

/**
 * The query side: only reads. Every use case (src/symbols/) gets this and nothing more.
 */
export interface SymbolReader {
  /** Backend, location, schema version and the last committed change. */
  storeInfo(): Promise<StoreInfo>;
  search(spec: SearchSpec): Promise<SearchPage>;
  /**
   * Serving begins (createServices: `plumb serve`, `plumb mcp`): start now what answers searches (the SQLite store's
   * search threads, on an index large enough for them), so the first searches do not wait for it. A store without
   * such a part omits it.
   */
  serveSearches?(): void;
  symbolById(id: string): Promise<StoredSymbol | undefined>;
  /** A file's symbols (stored path), in document order: by the start of their ranges, outer before inner. */
  symbolsInFile(file: string): Promise<StoredSymbol[]>;
  /**
   * Symbols whose innermost enclosing type is named `containingType` (its simple name), ordered by file
   * then position, at most `limit`: the candidates for a type's members (the caller keeps the ones of its type).
   */
  symbolsInContainer(containingType: string, limit: number): Promise<StoredSymbol[]>;
  /**
   * Symbols named exactly (case-sensitive) one of `names`, at most `limitPerName` of each, in no
   * particular order: the places of a file's symbols elsewhere (header/source counterparts).
   */
  symbolsNamed(names: string[], limitPerName: number): Promise<StoredSymbol[]>;
  /**
   * Types with a base named `name` as written (its last segment, generics stripped: `ns::Base<T>` and
   * `module.Base` are `Base`) or through an import alias of `name`; ordered workspace first, then by file and
   * position, at most `limit`. The candidates for a type's inheritors (the caller confirms which mean it).
   */
  symbolsWithBase(name: string, limit: number): Promise<StoredSymbol[]>;
  /** Stored paths of every indexed file. */
  indexedFiles(): Promise<string[]>;
  /** Indexed files with language, size, mtime and package, ordered by path (workspace files first). */
  indexedFileInfos(filter: FileFilter): Promise<IndexedFileInfo[]>;
  listPackages(): Promise<PackageInfo[]>;
  /** Distinct package names equal to `name`, ignoring case (the caller prefers an exact one). */
  packageNamesLike(name: string): Promise<string[]>;
  /** Symbols of every package with this exact name, ordered by file then position; forward declarations last. */
  packageSymbols(spec: PackageSymbolsSpec): Promise<{ results: StoredSymbol[]; total: number; forwardDeclarations: number }>;
  counts(): Promise<StoreCounts>;
  /** Symbol counts per language, most first. */
  languageCounts(): Promise<Array<{ language: LanguageId; files: number; symbols: number }>>;
  /** The files recorded without being parsed and the directories left out as build output: counts, and the first `limit` by path. */
  leftOut(limit: number): Promise<LeftOut>;
}

/** The build side: only the index builder (src/index/symbol-index.ts) holds it. */
export interface SymbolWriter {
  fileStates(): Promise<Map<string, FileState>>;
  /** The states of a few files (the watcher's), without reading every file's. */
  fileStatesOf(files: string[]): Promise<Map<string, FileState>>;
  /** Stored files below a directory (`dir/`), for a deleted directory. */
  filesUnder(directory: string): Promise<string[]>;
  /** Applies updates and removals in one transaction: a crash loses nothing already committed. */
  write(updates: FileUpdate[], removed: string[], touched?: FileStamp[]): Promise<void>;
  /** Makes sure packages exist even when none of their files hold a symbol. */
  registerPackages(packages: PackageRef[]): Promise<void>;
  /** Drops packages that no longer have a manifest nor a file. */
  prunePackages(keep: PackageRef[]): Promise<void>;
  /** Housekeeping after a build (planner statistics and the like). */
  optimize(): Promise<void>;
  /**
   * On for a first build over an empty store: commits skip disk syncs (a killed process still
   * keeps every committed batch; an OS crash mid-build may cost the index, which a rebuild restores).
   * Off syncs everything written meanwhile.
   */
  bulkLoad(on: boolean): Promise<void>;
  /** Records the build's state for readers elsewhere (a replica's /status). */
  recordBuild(state: 'building' | 'ready', filesTotal: number): Promise<void>;
  /**
   * Records directories left out as build output: `cleared` are forgotten first (each with the directories under
   * it), or every one with 'all' (a build's walk lists them all).
   */
  recordBuildOutput(directories: BuildOutputDirectory[], cleared: string[] | 'all'): Promise<void>;
}

/** A store backend (SQLite in the cache, or a shared PostgreSQL: open-store.ts chooses): the reader the use cases get and the writer the builder gets. */
export interface SymbolStore extends SymbolReader, SymbolWriter {
  /**
   * Calls `listener` after writes committed by another process (a PostgreSQL writer's NOTIFY), with the
   * store's new version; returns the unsubscribe. The embedded store has one process and never calls it.
   */
  onChange(listener: (version: number) => void): () => void;
  close(): Promise<void>;
}
