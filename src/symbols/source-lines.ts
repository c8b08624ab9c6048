/**
 * Reads the lines of an indexed file for snippets: a workspace file by its root-relative path, a file
 * of an extra root by its absolute path, and nothing else (a path that leaves the workspace and every
 * extra root, also through a symlink, is refused). One reader per request keeps each file read once.
 */
import { readFile, realpath, stat } from 'node:fs/promises';
import path from 'node:path';
import type { Services } from '../services.js';
import { isInside } from '../workspace.js';

/** Files larger than this are not read for a snippet (generated or minified code). */
export const SNIPPET_FILE_BYTES_MAX = 16 * 1024 * 1024;

export type LinesResult = { lines: string[] } | { error: string };

export class SourceLines {
  private readonly cache = new Map<string, Promise<LinesResult>>();
  private extraRoots: Promise<string[]> | undefined;

  constructor(private readonly services: Services) {}

  /** The file's lines (without line ends), or why they could not be read. */
  read(storedFile: string): Promise<LinesResult> {
    let pending = this.cache.get(storedFile);
    if (!pending) {
      pending = this.load(storedFile);
      this.cache.set(storedFile, pending);
    }
    return pending;
  }

  private async load(storedFile: string): Promise<LinesResult> {
    const { workspace } = this.services;
    const candidate = path.isAbsolute(storedFile) ? storedFile : path.resolve(workspace.root, storedFile);
    try {
      const real = await realpath(candidate);
      const allowed = workspace.contains(real) || (path.isAbsolute(storedFile) && (await this.roots()).some((root) => isInside(real, root)));
      if (!allowed) return { error: `'${storedFile}' is outside the workspace and its extra roots` };
      const info = await stat(real);
      if (!info.isFile()) return { error: `'${storedFile}' is not a file` };
      if (info.size > SNIPPET_FILE_BYTES_MAX) return { error: `'${storedFile}' is larger than ${SNIPPET_FILE_BYTES_MAX / 1024 / 1024} MB; not read` };
      const text = await readFile(real, 'utf8');
      return { lines: text.split(/\r?\n/) };
    } catch {
      return { error: `'${storedFile}' could not be read (changed or removed since it was indexed)` };
    }
  }

  private roots(): Promise<string[]> {
    this.extraRoots ??= Promise.all(this.services.config.index.extraRoots.map(async (extra) => {
      try {
        return await realpath(path.resolve(this.services.workspace.root, extra));
      } catch {
        return undefined;
      }
    })).then((roots) => roots.filter((root): root is string => root !== undefined));
    return this.extraRoots;
  }
}
