import { realpathSync, statSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL, fileURLToPath } from 'node:url';
import { PlumbError, invalidParameter } from './errors.js';
import { FileReader } from './files.js';

export interface WorkspaceFile {
  /** Absolute real path on disk. */
  absolute: string;
  /** Path relative to the workspace root, with `/`. */
  relative: string;
}

/** The workspace root and the one gate every request path and every read of a file's content go through. */
export class Workspace {
  readonly root: string;
  /** The extra roots (index.extraRoots) that exist, as real paths: their files may be read too. */
  readonly extraRoots: readonly string[];
  /** The one reader of file content: nothing outside the root and the extra roots, checked on the real path at read time. */
  readonly files: FileReader;

  constructor(root: string, extraRoots: readonly string[] = [], cacheBytes?: number) {
    this.root = realpathSync(path.resolve(root));
    this.extraRoots = extraRoots.flatMap((extra) => {
      try {
        return [realpathSync(path.resolve(this.root, extra))];
      } catch {
        return [];
      }
    });
    this.files = new FileReader((real) => this.contains(real) || this.extraRoots.some((extra) => isInside(real, extra)), cacheBytes);
  }

  /** Relative `/`-separated path of an absolute path inside the root (no check). */
  relative(absolute: string): string {
    return path.relative(this.root, absolute).split(path.sep).join('/');
  }

  /** The absolute path of a path as the index stores it: root-relative for a workspace file, absolute for an extra root's (no check). */
  absolute(stored: string): string {
    return path.isAbsolute(stored) ? stored : path.join(this.root, stored);
  }

  contains(absolute: string): boolean {
    return isInside(absolute, this.root);
  }

  uriOf(absolute: string): string {
    return pathToFileURL(absolute).href;
  }

  /** Absolute path of a file: URI, or undefined when it is not a file URI. */
  pathOfUri(uri: string): string | undefined {
    return uri.startsWith('file:') ? fileURLToPath(uri) : undefined;
  }

  /**
   * Resolves a request's file parameter (root-relative or absolute inside the root) to an
   * existing regular file. `..` and symlinks are resolved before the containment check, so
   * nothing outside the root is ever read.
   */
  resolveFile(parameter: string, value: string | undefined): WorkspaceFile {
    if (value === undefined || value.trim() === '') throw invalidParameter(parameter, 'is required: a path relative to the workspace root or an absolute path inside it');
    if (value.includes('\0')) throw invalidParameter(parameter, 'must not contain NUL characters');
    const candidate = path.resolve(this.root, value);
    if (!this.contains(candidate)) throw outside(parameter, value);
    let real: string;
    try {
      real = realpathSync(candidate);
    } catch {
      throw new PlumbError('file_not_found', `File '${value}' not found in the workspace (parameter '${parameter}')`, { details: { parameter } });
    }
    if (!this.contains(real)) throw outside(parameter, value);
    const stats = statSync(real);
    if (stats.isDirectory()) throw invalidParameter(parameter, `must name a file, and '${value}' is a directory`);
    if (!stats.isFile()) throw invalidParameter(parameter, `must name a regular file, and '${value}' is not one (a FIFO, socket or device)`);
    return { absolute: real, relative: this.relative(real) };
  }
}

function outside(parameter: string, value: string): PlumbError {
  return new PlumbError('path_outside_root', `Parameter '${parameter}': path '${value}' is outside the workspace root`, { details: { parameter } });
}

/**
 * Whether an absolute path is `root` or below it (by its text: symlinks are the caller's to resolve).
 * Outside means a leading `..` segment: `..dotdot.py` or `..dir/` is a name inside the root.
 */
export function isInside(absolute: string, root: string): boolean {
  const relative = path.relative(root, absolute);
  return relative === '' || (relative !== '..' && !relative.startsWith(`..${path.sep}`) && !path.isAbsolute(relative));
}
