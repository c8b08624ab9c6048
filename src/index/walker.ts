/**
 * Finds the files to index: walks the workspace and the extra roots honouring .gitignore (nested
 * ones too), the default exclusions (dependencies, build output, VCS and other dot directories)
 * and config include/exclude. Symlinks are not followed, so nothing outside a root is read.
 */
import { readFileSync } from 'node:fs';
import { lstat, readdir } from 'node:fs/promises';
import path from 'node:path';
import ignore, { type Ignore } from 'ignore';
import { activeLanguages, type Languages } from '../languages/index.js';
import type { LanguageId } from '../syntax/types.js';
import { isInside } from '../workspace.js';

/** Directory names never indexed: dependencies, build output, caches; every dot directory too. Unreal's `*.generated.h` under Intermediate/ are the exception. */
export const DEFAULT_EXCLUDED_DIRECTORIES = new Set([
  'node_modules', 'bower_components', 'dist', 'build', 'out', 'target', 'bin', 'obj', '__pycache__', 'venv',
  'site-packages', 'coverage', 'Binaries', 'Intermediate', 'DerivedDataCache', 'Saved',
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
}

export interface FilterOptions {
  include: string[];
  exclude: string[];
  /** Absolute paths never walked (plumb's own cache directory). */
  skip: string[];
  /** The languages whose files are indexed, by extension (default: the built-in ones). */
  languages?: Languages;
}

interface GitignoreRule {
  base: string;
  rules: Ignore;
}

/** The decision for one root: which directories to enter and which files to index. */
export class RootFilter {
  readonly root: IndexRoot;
  private readonly include: Ignore | undefined;
  private readonly exclude: Ignore;
  private readonly skip: Set<string>;
  private readonly languages: Languages;
  private readonly gitignores = new Map<string, Ignore | null>();

  constructor(root: IndexRoot, options: FilterOptions) {
    this.root = root;
    this.include = options.include.length ? ignore().add(options.include) : undefined;
    this.exclude = ignore().add(options.exclude);
    this.skip = new Set(options.skip);
    this.languages = options.languages ?? activeLanguages();
  }

  /** Whether a directory (absolute, inside the root) is walked. */
  acceptsDirectory(absolute: string): boolean {
    if (absolute === this.root.path) return true;
    const generated = this.generatedHeaderDirectory(absolute);
    if (generated !== undefined) return generated !== false && !this.skip.has(absolute) && !this.exclude.ignores(this.relative(absolute) + '/');
    const name = path.basename(absolute);
    if (DEFAULT_EXCLUDED_DIRECTORIES.has(name) || EXCLUDED_DIRECTORY_PATTERN.test(name) || this.skip.has(absolute)) return false;
    const relative = this.relative(absolute) + '/';
    return !this.exclude.ignores(relative) && !this.ignoredByGit(absolute, true);
  }

  /** Whether a file (absolute, inside the root) is indexed, and as which language. */
  acceptsFile(absolute: string): LanguageId | undefined {
    // A language outside LANGUAGES (withLanguages) answers its own id.
    const language = this.languages.forPath(absolute)?.id as LanguageId | undefined;
    if (!language) return undefined;
    const relative = this.relative(absolute);
    if (this.include && !this.include.ignores(relative)) return undefined;
    // Under Unreal's Intermediate/ only the header tool's output, whatever .gitignore says of the directory.
    const directory = this.generatedHeaderDirectory(path.dirname(absolute));
    if (directory !== undefined) {
      return directory === 'module' && absolute.endsWith(GENERATED_HEADER_SUFFIX) && !this.exclude.ignores(relative) ? language : undefined;
    }
    if (this.exclude.ignores(relative) || this.ignoredByGit(absolute, false)) return undefined;
    return language;
  }

  /** Whether a file is indexed when every directory between the root and it is walked (watcher events). */
  acceptsPath(absolute: string): LanguageId | undefined {
    if (absolute === this.root.path || !isInside(absolute, this.root.path)) return undefined;
    return this.acceptsDirectoryChain(path.dirname(absolute)) ? this.acceptsFile(absolute) : undefined;
  }

  /** Whether a directory and each one above it up to the root is walked. */
  acceptsDirectoryChain(absolute: string): boolean {
    const chain: string[] = [];
    for (let d = absolute; d !== this.root.path && d.length > this.root.path.length; d = path.dirname(d)) chain.push(d);
    return chain.reverse().every((d) => this.acceptsDirectory(d));
  }

  /**
   * For a directory in an Unreal `Intermediate/` tree (build output, skipped), whether it may hold the
   * headers Unreal's header tool generates (`Intermediate/Build/<Platform>/<Target>/Inc/<Module>/[UHT/]X.generated.h`),
   * which the real headers include and which declare the project's types: `Intermediate/` itself, and
   * `Build/*​/*​/Inc/` and below. Undefined outside an `Intermediate/` tree.
   */
  private generatedHeaderDirectory(absolute: string): 'module' | 'on the way' | false | undefined {
    if (absolute === this.root.path || !isInside(absolute, this.root.path)) return undefined;
    const segments = this.relative(absolute).split('/');
    const at = segments.lastIndexOf('Intermediate');
    if (at < 0) return undefined;
    const rest = segments.slice(at + 1);
    if (rest.length === 0 || (rest[0] === 'Build' && rest.length < 4)) return 'on the way';
    return rest[0] === 'Build' && rest[3] === 'Inc' ? (rest.length >= 5 ? 'module' : 'on the way') : false;
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

/** Walks one root (or a directory below it); directories in parallel batches so stats overlap. */
export async function walkRoot(filter: RootFilter, result: WalkResult, start: string = filter.root.path): Promise<void> {
  const pending: string[] = [start];
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
      result.directories.push(directory);
      result.listings.set(directory, entries.map((e) => e.name));
      const files: Array<{ absolute: string; language: LanguageId }> = [];
      for (const entry of entries) {
        const absolute = path.join(directory, entry.name);
        if (entry.isDirectory()) {
          if (filter.acceptsDirectory(absolute)) pending.push(absolute);
        } else if (entry.isFile()) {
          const language = filter.acceptsFile(absolute);
          if (language) files.push({ absolute, language });
        }
      }
      await Promise.all(files.map(async ({ absolute, language }) => {
        try {
          const stats = await lstat(absolute);
          result.files.push({ absolute, stored: storedPath(filter.root, absolute), root: filter.root, language, size: stats.size, mtimeMs: stats.mtimeMs, ctimeMs: stats.ctimeMs, ino: stats.ino });
        } catch {
          // Deleted between readdir and stat.
        }
      }));
    }));
  }
}

export async function walkRoots(filters: RootFilter[]): Promise<WalkResult> {
  const result: WalkResult = { files: [], directories: [], listings: new Map() };
  for (const filter of filters) await walkRoot(filter, result);
  // A stable order: builds are reproducible and progress moves through the tree predictably.
  result.files.sort((a, b) => (a.stored < b.stored ? -1 : a.stored > b.stored ? 1 : 0));
  return result;
}
