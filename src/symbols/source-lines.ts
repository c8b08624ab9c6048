/**
 * Reads the lines of an indexed file for snippets: a workspace file by its root-relative path, a file
 * of an extra root by its absolute path, through the workspace's one file reader (a path that leaves
 * the workspace and every extra root, also through a symlink, is refused). One reader per request keeps
 * each file read once.
 */
import path from 'node:path';
import { READ_BYTES_MAX, stripBom } from '../files.js';
import type { Services } from '../services.js';

/** Files larger than this are not read for a snippet (generated or minified code). */
export const SNIPPET_FILE_BYTES_MAX = READ_BYTES_MAX;

export type LinesResult = { lines: string[] } | { error: string };

export class SourceLines {
  private readonly cache = new Map<string, Promise<LinesResult>>();

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
    const absolute = path.isAbsolute(storedFile) ? storedFile : path.resolve(workspace.root, storedFile);
    const read = await workspace.files.read(absolute, SNIPPET_FILE_BYTES_MAX);
    if (!read.ok) return { error: `'${storedFile}' ${read.message}` };
    return { lines: stripBom(read.text).split(/\r?\n/) };
  }
}
