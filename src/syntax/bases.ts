/**
 * Base types as written, and the imports that say what they name. Syntactic only: the index keys
 * inheritors by a base's last name segment (`ns::Base<T>` → `Base`), and the hierarchy operations read a
 * file's imports, includes and aliases from its text to tell two types of one name apart.
 */
import type { LanguageId } from './types.js';

const IDENTIFIER = /^[A-Za-z_$][\w$]*$/;

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

/** Imports read from a file's text with regular expressions: enough to confirm a base's name, fast on any size. */
export function parseImports(language: LanguageId, text: string): FileImports {
  const result: FileImports = { names: [], modules: [], includes: [], usings: [], usingNamespaces: [] };
  switch (language) {
    case 'python':
      parsePython(text, result);
      break;
    case 'typescript':
    case 'tsx':
    case 'javascript':
      parseScript(text, result);
      break;
    case 'go':
      parseGo(text, result);
      break;
    case 'c':
    case 'cpp':
      for (const match of text.matchAll(/^[ \t]*#[ \t]*include[ \t]*[<"]([^>"\n]+)[>"]/gm)) result.includes.push(match[1]);
      for (const match of text.matchAll(/\busing[ \t]+namespace[ \t]+((?:::)?[\w:]+)[ \t]*;/g)) result.usingNamespaces.push(match[1].replace(/^::/, ''));
      for (const match of text.matchAll(/\busing[ \t]+((?:::)?\w+(?:::\w+)+)[ \t]*;/g)) result.usings.push(match[1].replace(/^::/, ''));
      break;
    default:
      break;
  }
  return result;
}

function parsePython(text: string, result: FileImports): void {
  // Joined continuation lines and parenthesized name lists.
  const source = text.replace(/\\\r?\n/g, ' ');
  for (const match of source.matchAll(/^[ \t]*from[ \t]+([.\w]+)[ \t]+import[ \t]+(\([^)]*\)|[^\n#]+)/gm)) {
    const from = match[1];
    for (const item of match[2].replace(/[()]/g, ' ').split(',')) {
      const parts = item.trim().split(/\s+as\s+/);
      const imported = parts[0]?.trim();
      if (!imported || !IDENTIFIER.test(imported)) continue;
      result.names.push({ imported, local: (parts[1] ?? imported).trim(), from });
    }
  }
  for (const match of source.matchAll(/^[ \t]*import[ \t]+([^\n#]+)/gm)) {
    for (const item of match[1].split(',')) {
      const parts = item.trim().split(/\s+as\s+/);
      const from = parts[0]?.trim();
      if (!from || !/^[\w.]+$/.test(from)) continue;
      result.modules.push({ local: (parts[1] ?? from).trim(), from });
    }
  }
}

function parseScript(text: string, result: FileImports): void {
  for (const match of text.matchAll(/(?:^|[;\n])[ \t]*(?:import|export)[ \t]+(?:type[ \t]+)?([\s\S]*?)[ \t\n]*from[ \t\n]*['"]([^'"\n]+)['"]/g)) {
    const clause = match[1];
    const from = match[2];
    if (clause.length > 2000) continue;
    const braces = /\{([^}]*)\}/.exec(clause);
    if (braces) {
      for (const item of braces[1].split(',')) {
        const parts = item.trim().replace(/^type\s+/, '').split(/\s+as\s+/);
        const imported = parts[0]?.trim();
        if (!imported || !IDENTIFIER.test(imported)) continue;
        result.names.push({ imported, local: (parts[1] ?? imported).trim(), from });
      }
    }
    const star = /\*\s+as\s+([\w$]+)/.exec(clause);
    if (star) result.modules.push({ local: star[1], from });
    const head = clause.replace(/\{[^}]*\}/, '').replace(/\*\s+as\s+[\w$]+/, '').split(',')[0]?.trim();
    if (head && IDENTIFIER.test(head) && head !== 'type') result.names.push({ imported: 'default', local: head, from });
  }
}

function parseGo(text: string, result: FileImports): void {
  const add = (alias: string | undefined, from: string): void => {
    const local = alias && alias !== '_' && alias !== '.' ? alias : from.split('/').pop()!;
    result.modules.push({ local, from });
  };
  for (const block of text.matchAll(/^import[ \t]*\(([\s\S]*?)\)/gm)) {
    for (const line of block[1].matchAll(/^[ \t]*([\w.]+)?[ \t]*"([^"]+)"/gm)) add(line[1], line[2]);
  }
  for (const single of text.matchAll(/^import[ \t]+([\w.]+)?[ \t]*"([^"]+)"/gm)) add(single[1], single[2]);
}

/** For an index writer: local name → imported name for every Python or TypeScript import alias of a file (empty when none). */
export function importAliases(language: LanguageId, text: string): Map<string, string> {
  if (!/\bas\b/.test(text)) return new Map();
  const imports = parseImports(language, text);
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
