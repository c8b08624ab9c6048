/**
 * Base types as written, and the imports that say what they name. Syntactic only: the index keys
 * inheritors by a base's last name segment (`ns::Base<T>` → `Base`), and the hierarchy operations read a
 * file's imports, includes and aliases from its text to tell two types of one name apart.
 */
import type { LanguageSpec } from './spec.js';

/** A plain identifier (no qualifier): what an import's local and imported names must be. */
export const IDENTIFIER = /^[A-Za-z_$][\w$]*$/;

/**
 * A base as written → the name it ends in: generics and call arguments dropped, qualifiers and pointer
 * marks stripped (`public virtual ::ns::Base<int>` → `Base`, `mod.J<T>` → `J`, `Generic[T]` → `Generic`,
 * `*pkg.Mixin` → `Mixin`); undefined when nothing name-like is left.
 */
export function baseKey(written: string): string | undefined {
  const path = basePath(written);
  const last = path[path.length - 1];
  return last && IDENTIFIER.test(last) ? last : undefined;
}

/** The segments of a base's name (`::ns::Base<int>` → ['ns', 'Base']). */
export function basePath(written: string): string[] {
  let text = stripBrackets(written.trim());
  text = text.replace(/^(?:(?:public|protected|private|virtual|internal)\s+)+/, '').replace(/^[*&\s]+/, '').replace(/\s+/g, '');
  return text.split(/::|\./).filter((part) => part !== '');
}

/** Drops everything between matched <...>, [...], (...) (nested), keeping the text around them. */
function stripBrackets(text: string): string {
  let depth = 0;
  let out = '';
  for (const ch of text) {
    if (ch === '<' || ch === '[' || ch === '(' || ch === '{') depth++;
    else if (ch === '>' || ch === ']' || ch === ')' || ch === '}') depth = Math.max(0, depth - 1);
    else if (depth === 0) out += ch;
  }
  return out;
}

/** One imported name: `local` in this file stands for `imported` of `from` (a module path or specifier). */
export interface ImportedName {
  local: string;
  imported: string;
  from: string;
}

/** What a file's text imports: names (with aliases), whole modules, and C/C++ includes. */
export interface FileImports {
  names: ImportedName[];
  /** Whole modules: `import x.y as z` (local z), `import * as ns from './m'` (local ns), Go imports (local = last path segment or alias). */
  modules: Array<{ local: string; from: string }>;
  /** `#include "a/b.h"` and `<a/b.h>`, as written. */
  includes: string[];
  /** C++ `using a::B;` (qualified names) and `using namespace a::b;` (namespaces), with `::` separators. */
  usings: string[];
  usingNamespaces: string[];
}

/** Imports read from a file's text by its language's rules (regular expressions): enough to confirm a base's name, fast on any size. */
export function parseImports(spec: LanguageSpec | undefined, text: string): FileImports {
  const result: FileImports = { names: [], modules: [], includes: [], usings: [], usingNamespaces: [] };
  spec?.readImports?.(text, result);
  return result;
}

/** For an index writer: local name → imported name for every Python or TypeScript import alias of a file (empty when none). */
export function importAliases(spec: LanguageSpec, text: string): Map<string, string> {
  if (!spec.importsRename || !/\bas\b/.test(text)) return new Map();
  const imports = parseImports(spec, text);
  return new Map(imports.names.filter((n) => n.local !== n.imported && n.imported !== 'default').map((n) => [n.local, n.imported]));
}

/** The names that bases written through an import alias stand for (`B` after `from x import Base as B` → `Base`). */
export function aliasedBaseNames(aliases: Map<string, string>, bases: string[]): string[] {
  const out: string[] = [];
  for (const base of bases) {
    const path = basePath(base);
    if (path.length === 1 && aliases.has(path[0])) out.push(aliases.get(path[0])!);
  }
  return out;
}
