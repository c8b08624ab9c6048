/**
 * A file's module as users qualify names with it (`flask.app.Flask`, `http.HandlerFunc`,
 * `java.util.HashMap`): the index records it per file so qualified search can match it, while
 * qualifiedName stays what the file itself declares. Only directories inside the file's root are
 * looked at.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import type { Language } from '../languages/index.js';
import { isInside } from '../workspace.js';

/** Whether a directory holds `__init__.py(i)`, cached for one pass over the tree. */
export type PackageDirectoryCheck = (directory: string) => boolean;

export function packageDirectoryCheck(): PackageDirectoryCheck {
  const known = new Map<string, boolean>();
  return (directory) => {
    let isPackage = known.get(directory);
    if (isPackage === undefined) {
      isPackage = existsSync(path.join(directory, '__init__.py')) || existsSync(path.join(directory, '__init__.pyi'));
      known.set(directory, isPackage);
    }
    return isPackage;
  };
}

/** The module of `absolute` (a file inside `root`) by its language's rule (`modulePath` in src/languages/<id>/), or null when it has none. */
export function moduleOf(absolute: string, root: string, language: Pick<Language, 'modulePath'> | undefined, isPackage: PackageDirectoryCheck): string | null {
  const rule = language?.modulePath;
  if (!rule) return null;
  const directory = path.dirname(absolute);
  const segments: string[] = [];
  if (rule === 'python-package') {
    const stem = path.basename(absolute).replace(/\.pyi?$/, '');
    if (stem !== '__init__') segments.push(stem);
    // Up through packages; the root's own name counts when the root is a package itself.
    for (let dir = directory; isInside(dir, root) && isPackage(dir); dir = path.dirname(dir)) {
      segments.unshift(path.basename(dir));
      if (dir === root) break;
    }
  } else {
    const relative = path.relative(root, directory);
    segments.push(...(relative === '' ? [path.basename(root)] : relative.split(path.sep)));
  }
  return segments.filter((segment) => segment !== '').join('.') || null;
}
