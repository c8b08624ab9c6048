import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, open, readFile, readdir, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { PlumbConfig } from '../config.js';
import { PlumbError } from '../errors.js';
import { buildOutputReason } from '../index/build-output.js';
import { declarationFiles } from '../languages/index.js';

/** One entry of compile_commands.json, as clang's JSONCompilationDatabase reads it. */
export interface CompileCommand {
  directory: string;
  file: string;
  arguments?: string[];
  command?: string;
  output?: string;
}

/** The database clangd is pointed at, as /status reports it. */
export interface CompileDatabase {
  /** compile_commands.json (or compile_flags.txt) clangd reads. */
  path: string;
  synthesized: boolean;
  /** The workspace's database was copied with absolute paths into the cache. */
  rewritten: boolean;
  /** The workspace's own database, when there is one. */
  source?: string;
  entries: number;
  /** Arguments for clangd: --compile-commands-dir, or none when clangd finds compile_flags.txt itself. */
  clangdArgs: string[];
}

/**
 * Directories never walked for sources: dependencies, VCS data, Bazel's output links. Build output is told as the
 * index tells it (build-output.ts: a build tool's marker, or a manifest naming it), never by a name alone: the
 * kernel's drivers/target and tools/build are sources clangd must have commands for.
 */
const SKIPPED_DIRECTORIES = new Set(['node_modules', '.git', '.hg', '.svn', 'bazel-out', 'bazel-bin', 'bazel-testlogs']);
/** Directories kept on the include path even without headers of their own, because code includes through them ("gtest/gtest.h"). */
const INCLUDE_ROOT_NAMES = new Set(['include', 'inc', 'src', 'source', 'lib']);
/**
 * A build file that makes its directory a project's root, which the project's code includes from ("src/x.h",
 * "include/y/z.h"): CMake, Meson and Bazel projects put their source directory on the include path. Makefiles are
 * left out: the kernel has one in nearly every directory, and its includes are resolved from the header directories.
 */
const PROJECT_ROOT_FILES = new Set(['CMakeLists.txt', 'meson.build', 'BUILD', 'BUILD.bazel']);
const MAX_FILES = 200_000;

/** `<cacheDir>/<hash of root>/compile-db`: where plumb writes rewritten or synthesized databases for this workspace. */
export function compileDatabaseCacheDir(cacheDir: string, root: string): string {
  return path.join(cacheDir, createHash('sha256').update(root).digest('hex').slice(0, 16), 'compile-db');
}

/** compile_commands.json at the configured directory, else ROOT, ROOT/build, ROOT/out. */
export function findCompileDatabase(root: string, configuredDirectory?: string): string | undefined {
  const directories = configuredDirectory ? [path.resolve(root, configuredDirectory)] : [];
  directories.push(root, path.join(root, 'build'), path.join(root, 'out'));
  return directories.map((directory) => path.join(directory, 'compile_commands.json')).find((file) => existsSync(file));
}

/** Parses compile_commands.json; a broken one is a server_unavailable naming the file, since clangd cannot work from it. */
export function parseCompileCommands(text: string, file: string): CompileCommand[] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    throw new PlumbError('server_unavailable', `Compile database '${file}' is not valid JSON: ${(error as Error).message}`);
  }
  if (!Array.isArray(parsed)) throw new PlumbError('server_unavailable', `Compile database '${file}' must hold a JSON array of compile commands`);
  return parsed.filter((entry): entry is CompileCommand =>
    entry !== null && typeof entry === 'object' && typeof entry.directory === 'string' && typeof entry.file === 'string'
    && (Array.isArray(entry.arguments) || typeof entry.command === 'string'));
}

/**
 * Makes `directory` absolute (relative to the database's own directory) and `file`/`output` absolute
 * (relative to `directory`), as clang resolves them; arguments stay relative to the now absolute directory.
 */
export function rewriteCompileCommands(entries: CompileCommand[], databaseDirectory: string): { entries: CompileCommand[]; changed: boolean } {
  let changed = false;
  const rewritten = entries.map((entry) => {
    const directory = path.resolve(databaseDirectory, entry.directory);
    const file = path.resolve(directory, entry.file);
    const output = entry.output === undefined ? undefined : path.resolve(directory, entry.output);
    if (directory !== entry.directory || file !== entry.file || output !== entry.output) changed = true;
    return { ...entry, directory, file, ...(output === undefined ? {} : { output }) };
  });
  return { entries: rewritten, changed };
}

export interface SynthesisOptions {
  standard: string;
  cStandard: string;
  defines: string[];
}

/**
 * Every C/C++ source under ROOT compiled with the configured standards, defines and -I for each directory
 * holding headers, its include-like ancestors, and each project root (a directory with a CMake, Meson or Bazel
 * build file: googletest's sources include "src/gtest-internal-inl.h" from googletest/). The defines and -I flags are the same for every source, so they go once into a response
 * file (`@flags`, which clangd expands) that each entry names: a tree of any size (the Linux kernel's 30,000
 * sources and 5,000 header directories) gives a database of a few megabytes, not gigabytes.
 */
export async function synthesizeCompileCommands(root: string, options: SynthesisOptions, responseFile: string): Promise<{ entries: CompileCommand[]; flags: string[] }> {
  const sources: string[] = [];
  const includeDirectories = new Set<string>();
  await walk(root, root, [], sources, includeDirectories, declarationFiles());
  const flags = [...options.defines.map((define) => `-D${define}`), ...[...includeDirectories].sort().map((directory) => `-I${directory}`)];
  const entries = sources.sort().map((file) => {
    const isC = path.extname(file) === '.c';
    return {
      directory: root,
      file,
      arguments: [isC ? 'clang' : 'clang++', `-std=${isC ? options.cStandard : options.standard}`, `@${responseFile}`, '-c', file],
    };
  });
  return { entries, flags };
}

/** A response file's text: one argument a line, quoted where it holds spaces, quotes or backslashes (clang's GNU rules). */
export function responseFileText(flags: readonly string[]): string {
  return flags.map((flag) => (/[\s"'\\]/.test(flag) ? `"${flag.replace(/(["\\])/g, '\\$1')}"` : flag)).join('\n') + '\n';
}

/** Walks a directory for sources and header directories; `parentEntries` are the names its parent holds (build output is told by them too). */
async function walk(root: string, directory: string, parentEntries: readonly string[], sources: string[], includes: Set<string>, extensions: ReturnType<typeof declarationFiles>): Promise<void> {
  let entries;
  try {
    entries = await readdir(directory, { withFileTypes: true });
  } catch {
    return; // Unreadable directories are skipped, as an editor would.
  }
  const names = entries.map((entry) => entry.name);
  if (directory !== root && buildOutputReason(path.basename(directory), names, path.dirname(directory), () => parentEntries)) return;
  let hasHeaders = false;
  const subdirectories: string[] = [];
  for (const entry of entries) {
    if (entry.isDirectory()) {
      if (!SKIPPED_DIRECTORIES.has(entry.name) && !entry.name.startsWith('.')) subdirectories.push(path.join(directory, entry.name));
    } else if (entry.isFile() && PROJECT_ROOT_FILES.has(entry.name)) {
      includes.add(directory);
    } else if (entry.isFile() && sources.length < MAX_FILES) {
      const extension = path.extname(entry.name).toLowerCase();
      if (extensions.sources.has(extension)) sources.push(path.join(directory, entry.name));
      else if (extensions.headers.has(extension)) hasHeaders = true;
    }
  }
  if (hasHeaders) {
    includes.add(directory);
    // Code includes "gtest/gtest.h" from include/, so the include-like ancestors of a header directory count too.
    for (let parent = path.dirname(directory); parent.length >= root.length && parent !== path.dirname(parent); parent = path.dirname(parent)) {
      if (INCLUDE_ROOT_NAMES.has(path.basename(parent)) || parent === root) includes.add(parent);
      if (parent === root) break;
    }
  }
  for (const subdirectory of subdirectories) await walk(root, subdirectory, names, sources, includes, extensions);
}

/** Writes the entries as a JSON array, a chunk of entries at a time: no single string holds the whole database. */
async function writeEntriesAtomically(file: string, entries: readonly CompileCommand[]): Promise<void> {
  await mkdir(path.dirname(file), { recursive: true });
  const temporary = `${file}.${process.pid}.tmp`;
  const handle = await open(temporary, 'w');
  try {
    await handle.write('[\n');
    for (let i = 0; i < entries.length; i += WRITE_CHUNK) {
      const chunk = entries.slice(i, i + WRITE_CHUNK).map((entry) => JSON.stringify(entry)).join(',\n');
      await handle.write(i + WRITE_CHUNK < entries.length ? `${chunk},\n` : `${chunk}\n`);
    }
    await handle.write(']\n');
  } finally {
    await handle.close();
  }
  await rename(temporary, file);
}

async function writeTextAtomically(file: string, text: string): Promise<void> {
  await mkdir(path.dirname(file), { recursive: true });
  const temporary = `${file}.${process.pid}.tmp`;
  await writeFile(temporary, text);
  await rename(temporary, file);
}

/** Entries written per chunk. */
const WRITE_CHUNK = 1000;

/**
 * Picks the compile database clangd uses: the workspace's own (copied with absolute paths into the
 * cache when it has relative ones), compile_flags.txt at ROOT, or one synthesized into the cache.
 */
export async function prepareCompileDatabase(options: { root: string; cacheDir: string; config: PlumbConfig['compileDatabase'] }): Promise<CompileDatabase> {
  const { root, config } = options;
  const cacheDirectory = compileDatabaseCacheDir(options.cacheDir, root);
  const cached = path.join(cacheDirectory, 'compile_commands.json');
  const found = findCompileDatabase(root, config.directory);
  if (found) {
    const { entries, changed } = rewriteCompileCommands(parseCompileCommands(await readFile(found, 'utf8'), found), path.dirname(found));
    if (!changed) return { path: found, synthesized: false, rewritten: false, source: found, entries: entries.length, clangdArgs: [`--compile-commands-dir=${path.dirname(found)}`] };
    await writeEntriesAtomically(cached, entries);
    return { path: cached, synthesized: false, rewritten: true, source: found, entries: entries.length, clangdArgs: [`--compile-commands-dir=${cacheDirectory}`] };
  }
  const flags = path.join(root, 'compile_flags.txt');
  if (!config.directory && existsSync(flags)) return { path: flags, synthesized: false, rewritten: false, source: flags, entries: 0, clangdArgs: [] };
  const responseFile = path.join(cacheDirectory, 'flags.rsp');
  const synthesized = await synthesizeCompileCommands(root, config, responseFile);
  const entries = synthesized.entries;
  await writeTextAtomically(responseFile, responseFileText(synthesized.flags));
  await writeEntriesAtomically(cached, entries);
  return { path: cached, synthesized: true, rewritten: false, entries: entries.length, clangdArgs: [`--compile-commands-dir=${cacheDirectory}`] };
}
