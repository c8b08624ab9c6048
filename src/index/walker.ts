/**
 * Finds the files to index: walks the workspace and the extra roots honouring .gitignore (nested
 * ones too), the default exclusions (dependencies, VCS and other dot directories, build output where
 * something says it is: build-output.ts) and config include/exclude. Symlinks are not followed, so
 * nothing outside a root is read.
 */
import { lstatSync, readdirSync, readFileSync } from 'node:fs';
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import ignore, { type Ignore } from 'ignore';
import { activeLanguages, type Languages } from '../languages/index.js';
import type { LanguageId } from '../syntax/types.js';
import { TimeSlice } from '../semaphore.js';
import { isInside } from '../workspace.js';
import { buildOutputReason } from './build-output.js';

/**
 * Directory names never indexed: dependencies, caches, Unreal's build output; every dot directory too. Unreal's
 * `*.generated.h` under Intermediate/ are the exception. Names that are also source folders' (`build`, `target`,
 * `out`, `bin`, `obj`...) are build output only where something says so (build-output.ts).
 */
export const DEFAULT_EXCLUDED_DIRECTORIES = new Set([
  'node_modules', 'bower_components', '__pycache__', 'venv', 'site-packages', 'Binaries', 'Intermediate', 'DerivedDataCache', 'Saved',
]);
/** What Unreal's header tool writes under Intermediate/: indexed, unlike the rest of that directory. */
const GENERATED_HEADER_SUFFIX = '.generated.h';
const EXCLUDED_DIRECTORY_PATTERN = /^(\..+|cmake-build-.*|bazel-.*)$/;

export interface IndexRoot {
  /** Absolute real path. */
  path: string;
  /** Extra roots (engine, libraries) are indexed as external. */
  external: boolean;
}

export interface WalkedFile {
  absolute: string;
  /** The path stored and answered: root-relative for the workspace, absolute for extra roots. */
  stored: string;
  root: IndexRoot;
  language: LanguageId;
  size: number;
  mtimeMs: number;
  ctimeMs: number;
  ino: number;
}

export interface WalkResult {
  files: WalkedFile[];
  /** Every directory walked (absolute), for the watcher. */
  directories: string[];
  /** Directories and their entry names, for manifest lookup without a second readdir. */
  listings: Map<string, string[]>;
  /** Directories not walked because they hold build output (absolute), with why: what /status lists. */
  buildOutput: Array<{ directory: string; root: IndexRoot; reason: string }>;
}

export interface FilterOptions {
  include: string[];
  exclude: string[];
  /** Absolute paths never walked (plumb's own cache directory). */
  skip: string[];
  /** The languages whose files are indexed, by extension (default: the built-in ones). */
  languages?: Languages;
}

/** The decision for one root: which directories to enter and which files to index. */
export class RootFilter {
  readonly root: IndexRoot;
  private readonly include: Ignore | undefined;
  private readonly exclude: Ignore;
  private readonly skip: Set<string>;
  private readonly languages: Languages;
  private readonly gitignores = new Map<string, Ignore | null>();
  /** Directories judged build output or not (build-output.ts): the reason, or null. */
  private readonly outputs = new Map<string, string | null>();
  /** Files per extension in each directory's tree, of the extensions languages weigh to tell a file's language (settleLanguages). */
  private readonly evidence = new Map<string, Map<string, number>>();

  constructor(root: IndexRoot, options: FilterOptions) {
    this.root = root;
    this.include = options.include.length ? ignore().add(options.include) : undefined;
    this.exclude = ignore().add(options.exclude);
    this.skip = new Set(options.skip);
    this.languages = options.languages ?? activeLanguages();
  }

  /** Whether a directory (absolute, inside the root) is walked. */
  acceptsDirectory(absolute: string): boolean {
    return this.acceptsDirectoryByName(absolute) && this.buildOutput(absolute) === undefined;
  }

  /**
   * acceptsDirectory without looking inside the directory: its name, .gitignore and config. The walk asks this of
   * a directory it found, and buildOutput once it has listed it.
   */
  acceptsDirectoryByName(absolute: string): boolean {
    if (absolute === this.root.path) return true;
    const name = path.basename(absolute);
    if (EXCLUDED_DIRECTORY_PATTERN.test(name) || this.skip.has(absolute)) return false;
    const relative = this.relative(absolute) + '/';
    // An Unreal `Intermediate/` tree is walked for the header tool's output, whatever .gitignore says of it.
    if (this.inIntermediate(absolute)) return !this.exclude.ignores(relative);
    if (DEFAULT_EXCLUDED_DIRECTORIES.has(name)) return false;
    return !this.exclude.ignores(relative) && !this.ignoredByGit(absolute, true);
  }

  /**
   * Why a directory holds build output (build-output.ts), or undefined; `entries` are its names when the caller
   * listed it (otherwise it is listed here). The root never is, nor what is in an Intermediate/ tree (walked for its
   * generated headers alone). Remembered until forgetBuildOutput.
   */
  buildOutput(absolute: string, entries?: readonly string[]): string | undefined {
    if (absolute === this.root.path || this.inIntermediate(absolute)) return undefined;
    let reason = this.outputs.get(absolute);
    if (reason === undefined) {
      const parent = path.dirname(absolute);
      reason = buildOutputReason(path.basename(absolute), entries ?? listing(absolute), parent, () => listing(parent)) ?? null;
      this.outputs.set(absolute, reason);
    }
    return reason ?? undefined;
  }

  /** Forgets what was judged of a directory and the directories in it (a marker or a manifest in it changed). */
  forgetBuildOutput(directory: string): void {
    this.outputs.delete(directory);
    for (const judged of this.outputs.keys()) if (path.dirname(judged) === directory) this.outputs.delete(judged);
  }

  /** Whether a file (absolute, inside the root) is indexed, and as which language by its extension (settleLanguages says the rest). */
  acceptsFile(absolute: string): LanguageId | undefined {
    // A language outside LANGUAGES (withLanguages) answers its own id.
    const language = this.languages.forPath(absolute)?.id as LanguageId | undefined;
    if (!language) return undefined;
    const relative = this.relative(absolute);
    if (this.include && !this.include.ignores(relative)) return undefined;
    // Under Unreal's Intermediate/ only the header tool's output, whatever .gitignore says of the directory.
    if (this.inIntermediate(path.dirname(absolute))) return absolute.endsWith(GENERATED_HEADER_SUFFIX) && !this.exclude.ignores(relative) ? language : undefined;
    if (this.exclude.ignores(relative) || this.ignoredByGit(absolute, false)) return undefined;
    return language;
  }

  /** Whether a file is indexed when every directory between the root and it is walked (watcher events), and as which language. */
  acceptsPath(absolute: string): LanguageId | undefined {
    if (absolute === this.root.path || !isInside(absolute, this.root.path)) return undefined;
    const language = this.acceptsDirectoryChain(path.dirname(absolute)) ? this.acceptsFile(absolute) : undefined;
    return language && this.languageAround(absolute, language);
  }

  /**
   * The languages of a walk's files (of this root) whose extension alone does not say (a `.h`: C or C++), asked of
   * their language (Language.languageOf) with what the walk found around them; remembered for the watcher's files.
   * `recount` false: the files of a part of the tree (a new directory), weighed against the last whole walk.
   */
  settleLanguages(files: WalkedFile[], listings: ReadonlyMap<string, readonly string[]>, recount = true): void {
    const weighed = new Set(this.languages.list.flatMap((language) => language.languageOf?.evidence ?? []));
    if (recount) this.evidence.clear();
    if (weighed.size === 0) return;
    for (const file of recount ? files : []) {
      const extension = path.extname(file.absolute).toLowerCase();
      if (!weighed.has(extension)) continue;
      for (let directory = path.dirname(file.absolute); ; directory = path.dirname(directory)) {
        let counts = this.evidence.get(directory);
        if (!counts) this.evidence.set(directory, (counts = new Map()));
        counts.set(extension, (counts.get(extension) ?? 0) + 1);
        if (directory === this.root.path || directory.length <= this.root.path.length) break;
      }
    }
    const siblings = new Map<string, ReadonlySet<string>>();
    const siblingsOf = (directory: string): ReadonlySet<string> => {
      let names = siblings.get(directory);
      if (!names) siblings.set(directory, (names = new Set(listings.get(directory) ?? listing(directory))));
      return names;
    };
    for (const file of files) file.language = this.languageAround(file.absolute, file.language, siblingsOf);
  }

  /** A file's language given the files around it, where its language decides so (`.h`); otherwise `language`. */
  private languageAround(absolute: string, language: LanguageId, siblingsOf: (directory: string) => ReadonlySet<string> = (directory) => new Set(listing(directory))): LanguageId {
    const decider = this.languages.byId(language)?.languageOf;
    if (!decider?.extensions.includes(path.extname(absolute).toLowerCase())) return language;
    let nearest: ReadonlyMap<string, number> = new Map();
    for (let directory = path.dirname(absolute); ; directory = path.dirname(directory)) {
      const counts = this.evidence.get(directory);
      if (counts && decider.evidence.some((extension) => (counts.get(extension) ?? 0) > 0)) {
        nearest = counts;
        break;
      }
      if (directory === this.root.path || directory.length <= this.root.path.length) break;
    }
    const decided = decider.of(absolute, { siblings: siblingsOf(path.dirname(absolute)), nearest });
    return this.languages.byId(decided) ? (decided as LanguageId) : language;
  }

  /** Whether a directory and each one above it up to the root is walked. */
  acceptsDirectoryChain(absolute: string): boolean {
    const chain: string[] = [];
    for (let d = absolute; d !== this.root.path && d.length > this.root.path.length; d = path.dirname(d)) chain.push(d);
    return chain.reverse().every((d) => this.acceptsDirectory(d));
  }

  /**
   * Whether a directory is an Unreal `Intermediate/` folder or inside one: build output, walked only for the headers
   * Unreal's header tool generates (`*.generated.h`, in `Build/<Platform>/<Target>/Inc/<Module>/[UHT/]` or any
   * other layout), which the real headers include and which declare the project's types.
   */
  private inIntermediate(absolute: string): boolean {
    if (absolute === this.root.path || !isInside(absolute, this.root.path)) return false;
    return this.relative(absolute).split('/').includes('Intermediate');
  }

  /** Forgets a cached .gitignore (it changed on disk). */
  forgetGitignore(directory: string): void {
    this.gitignores.delete(directory);
  }

  relative(absolute: string): string {
    return path.relative(this.root.path, absolute).split(path.sep).join('/');
  }

  private ignoredByGit(absolute: string, directory: boolean): boolean {
    let base = path.dirname(absolute);
    for (;;) {
      const rules = this.gitignoreOf(base);
      if (rules) {
        const relative = path.relative(base, absolute).split(path.sep).join('/') + (directory ? '/' : '');
        if (rules.ignores(relative)) return true;
      }
      if (base === this.root.path || base.length <= this.root.path.length) return false;
      base = path.dirname(base);
    }
  }

  private gitignoreOf(directory: string): Ignore | null {
    let rules = this.gitignores.get(directory);
    if (rules === undefined) {
      rules = null;
      try {
        rules = ignore().add(readFileSync(path.join(directory, '.gitignore'), 'utf8'));
      } catch {
        // No .gitignore here (the usual case).
      }
      this.gitignores.set(directory, rules);
    }
    return rules;
  }
}

/** The stored form of a path: root-relative with `/` in the workspace, absolute under an extra root. */
export function storedPath(root: IndexRoot, absolute: string): string {
  if (root.external) return absolute.split(path.sep).join('/');
  const relative = path.relative(root.path, absolute).split(path.sep).join('/');
  return relative === '' ? '.' : relative;
}

/** A directory's names; none when it cannot be read. */
function listing(directory: string): string[] {
  try {
    return readdirSync(directory);
  } catch {
    return [];
  }
}

/** Walks one root (or a directory below it); directories in parallel batches so stats overlap. */
export async function walkRoot(filter: RootFilter, result: WalkResult, start: string = filter.root.path): Promise<void> {
  const pending: string[] = [start];
  const slice = new TimeSlice();
  while (pending.length > 0) {
    const batch = pending.splice(0, 32);
    await Promise.all(batch.map(async (directory) => {
      let entries;
      try {
        entries = await readdir(directory, { withFileTypes: true });
      } catch {
        // Unreadable or vanished directory: nothing to index there.
        return;
      }
      const names = entries.map((e) => e.name);
      // What a build left (CMakeCache.txt, a cache directory tag, Cargo.toml's target/...): not walked, and listed in /status.
      const output = directory === start ? undefined : filter.buildOutput(directory, names);
      if (output !== undefined) {
        result.buildOutput.push({ directory, root: filter.root, reason: output });
        return;
      }
      result.directories.push(directory);
      result.listings.set(directory, names);
      const files: Array<{ absolute: string; language: LanguageId }> = [];
      for (const entry of entries) {
        if (slice.due()) await slice.pause();
        const absolute = path.join(directory, entry.name);
        if (entry.isDirectory()) {
          if (filter.acceptsDirectoryByName(absolute)) pending.push(absolute);
        } else if (entry.isFile()) {
          const language = filter.acceptsFile(absolute);
          if (language) files.push({ absolute, language });
        }
      }
      // Stated on this thread, a slice at a time: thousands of the thread pool's lstat replies in one turn of the event
      // loop held it 100-400 ms at a time on the kernel (a restart's refresh), and each costs more than the call.
      for (const { absolute, language } of files) {
        if (slice.due()) await slice.pause();
        const stats = lstatSync(absolute, { throwIfNoEntry: false });
        // Undefined: deleted between readdir and stat.
        if (stats) result.files.push({ absolute, stored: storedPath(filter.root, absolute), root: filter.root, language, size: stats.size, mtimeMs: stats.mtimeMs, ctimeMs: stats.ctimeMs, ino: stats.ino });
      }
    }));
  }
}

export async function walkRoots(filters: RootFilter[]): Promise<WalkResult> {
  const result: WalkResult = { files: [], directories: [], listings: new Map(), buildOutput: [] };
  for (const filter of filters) {
    await walkRoot(filter, result);
    filter.settleLanguages(result.files.filter((file) => file.root === filter.root), result.listings);
  }
  // A stable order: builds are reproducible and progress moves through the tree predictably.
  result.files.sort((a, b) => (a.stored < b.stored ? -1 : a.stored > b.stored ? 1 : 0));
  return result;
}
