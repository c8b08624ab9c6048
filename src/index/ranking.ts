/**
 * Pure functions behind name matching: CamelCase humps, the fuzzy pattern, qualified queries and
 * the within-tier order. The store turns them into indexed SQL; tests check them directly.
 */

/**
 * The lower-case initials of a name's humps: `FMyPlayerController` → `fmpc`, `get_player_name` →
 * `gpn`, `XMLHttpRequest` → `xhr`, `MAX_VALUE` → `mv`. A hump starts at the first letter or digit,
 * at an upper-case letter after a lower-case one or a digit, at the last capital of a capital run
 * followed by a lower-case letter, and after `_`, `$` or any other separator.
 */
export function humpsOf(name: string): string {
  let out = '';
  let previous = '';
  for (let i = 0; i < name.length; i++) {
    const ch = name[i];
    if (!isAlnum(ch)) {
      previous = ch;
      continue;
    }
    const next = name[i + 1] ?? '';
    const starts =
      previous === '' || !isAlnum(previous) ||
      (isUpper(ch) && (isLower(previous) || isDigit(previous))) ||
      (isUpper(ch) && isUpper(previous) && isLower(next));
    if (starts) out += ch.toLowerCase();
    previous = ch;
  }
  return out;
}

/**
 * The fuzzy (CamelCase initials) pattern for a query, as a SQL LIKE pattern over humps: `FPC` →
 * `f%p%c%`, so the query's letters must be hump initials in order, the first one first. Undefined
 * when the query is not a plausible abbreviation (under two characters, or not all letters/digits).
 */
export function fuzzyPattern(query: string): string | undefined {
  if (query.length < 2 || query.length > 32 || !/^[A-Za-z0-9]+$/.test(query)) return undefined;
  return query.toLowerCase().split('').join('%') + '%';
}

/** Whether humps match a fuzzy pattern built by fuzzyPattern (the same test SQL LIKE does). */
export function fuzzyMatches(humps: string, query: string): boolean {
  const letters = query.toLowerCase();
  if (humps[0] !== letters[0]) return false;
  let at = 0;
  for (const ch of letters) {
    at = humps.indexOf(ch, at);
    if (at < 0) return false;
    at++;
  }
  return true;
}

export interface ParsedQuery {
  /** The name part: the last segment of a qualified name. */
  name: string;
  /** Everything before it with `::`, `.`, `#`, `/` or `\` normalized to `.`; undefined when unqualified. */
  qualifier?: string;
}

/** Splits `leveldb::Iterator`, `Outer.Inner.method` or `pkg.module.Class` into qualifier and name. */
export function parseQuery(query: string): ParsedQuery {
  const trimmed = query.trim();
  const normalized = trimmed.replace(/::|#|\\/g, '.');
  // A name never ends with a separator; a trailing one is a typo, not a qualifier.
  const parts = normalized.split('.').filter((part) => part !== '');
  if (parts.length <= 1) return { name: parts[0] ?? trimmed };
  return { name: parts[parts.length - 1], qualifier: parts.slice(0, -1).join('.') };
}

/**
 * Whether a qualified name has `qualifier` right before `name` on separator boundaries:
 * `ns::leveldb::Iterator` fits qualifier `leveldb` and name `Iterator`; `myleveldb::Iterator` does not.
 */
export function qualifierMatches(qualifiedName: string, name: string, qualifier: string): boolean {
  const qn = qualifiedName.replace(/::|#/g, '.');
  const tail = `${qualifier}.${name}`;
  if (qn === tail) return true;
  return qn.endsWith(`.${tail}`);
}

/**
 * Sort key inside a tier: user before external, definitions before declarations (DESIGN.md);
 * then name, file and line, which the store applies.
 */
export function rankOf(external: boolean, definition: boolean): number {
  return (external ? 2 : 0) + (definition ? 0 : 1);
}

/** The exclusive upper bound of a prefix range: every string starting with `prefix` sorts below it. */
export function prefixEnd(prefix: string): string {
  return prefix + '\u{10FFFF}';
}

function isAlnum(ch: string): boolean {
  return isLower(ch) || isUpper(ch) || isDigit(ch);
}
function isLower(ch: string): boolean {
  return ch >= 'a' && ch <= 'z';
}
function isUpper(ch: string): boolean {
  return ch >= 'A' && ch <= 'Z';
}
function isDigit(ch: string): boolean {
  return ch >= '0' && ch <= '9';
}
