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
  return humpSegments(name).map((segment) => segment[0]).join('');
}

/**
 * A name cut at its humps, lower case: `FMyPlayerController` → `f my player controller`,
 * `get_player_name` → `get player name`. The same hump starts as humpsOf.
 */
export function humpSegments(name: string): string[] {
  const segments: string[] = [];
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
    if (starts) segments.push(ch.toLowerCase());
    else segments[segments.length - 1] += ch.toLowerCase();
    previous = ch;
  }
  return segments;
}

/**
 * The humps a CamelCase query stands for: an all-capital abbreviation, or an all-lower-case one
 * of up to four letters, is one initial per letter (`FPC`, `fpc`); otherwise its own humps
 * (`ParseInt` → `parse int`; `printf` is one word).
 */
export function queryHumps(query: string): string[] {
  if (/^[A-Z0-9]+$/.test(query) || /^[a-z0-9]{1,4}$/.test(query)) return query.toLowerCase().split('');
  return humpSegments(query);
}

/**
 * The SQL LIKE pattern over a name's humps (humpsOf) that every CamelCase match satisfies:
 * `FPC` → `f%p%c%`. Undefined when the query is not a plausible abbreviation (one hump, or
 * characters other than letters, digits and `_`).
 */
export function fuzzyPattern(query: string): string | undefined {
  if (query.length > 64 || !/^[A-Za-z0-9_]+$/.test(query)) return undefined;
  const humps = queryHumps(query);
  if (humps.length < 2) return undefined;
  return humps.map((h) => h[0]).join('%') + '%';
}

/**
 * CamelCase matching: the query's first hump starts the name's first hump, and each following
 * query hump starts a later hump of the name, in order (humps may be skipped): `FPC` and
 * `FPlayerCont` find FMyPlayerController, `ParseInt` finds parseInteger and parse_int_list.
 */
export function fuzzyMatches(name: string, query: string): boolean {
  const wanted = lastQueryHumps(query);
  const have = humpSegments(name);
  if (wanted.length < 2 || have.length === 0 || !have[0].startsWith(wanted[0])) return false;
  let at = 1;
  for (const hump of wanted.slice(1)) {
    while (at < have.length && !have[at].startsWith(hump)) at++;
    if (at >= have.length) return false;
    at++;
  }
  return true;
}

let lastQuery = '';
let lastHumps: string[] = [];
/** queryHumps of the query SQLite asks about for every candidate name: computed once per query. */
function lastQueryHumps(query: string): string[] {
  if (query !== lastQuery) {
    lastHumps = queryHumps(query);
    lastQuery = query;
  }
  return lastHumps;
}

export interface ParsedQuery {
  /** The name part: the last segment of a qualified name. */
  name: string;
  /** Everything before it with `::`, `.`, `#`, `/` or `\` normalized to `.`; undefined when unqualified. */
  qualifier?: string;
}

/**
 * Splits `leveldb::Iterator`, `Outer.Inner.method` or `pkg.module.Class` into qualifier and name. Separators
 * count outside brackets only: `Action::operator OnceAction<U(Args...)>` is one name in `Action`.
 */
export function parseQuery(query: string): ParsedQuery {
  const trimmed = query.trim();
  const parts: string[] = [];
  let depth = 0;
  let current = '';
  for (let i = 0; i < trimmed.length; i++) {
    const c = trimmed[i];
    if (c === '<' || c === '(' || c === '[') depth++;
    else if ((c === '>' || c === ')' || c === ']') && depth > 0) depth--;
    if (depth === 0 && (c === '.' || c === '#' || c === '\\' || (c === ':' && trimmed[i + 1] === ':'))) {
      parts.push(current);
      current = '';
      if (c === ':') i++;
      continue;
    }
    current += c;
  }
  parts.push(current);
  // A name never ends with a separator; a trailing one is a typo, not a qualifier.
  const named = parts.filter((part) => part !== '');
  if (named.length <= 1) return { name: named[0] ?? trimmed };
  // The qualifier is compared with stored qualified names normalized the same way, brackets included.
  return { name: named[named.length - 1], qualifier: named.slice(0, -1).join('.').replace(/::|#|\\/g, '.') };
}

/**
 * Sort key inside a tier: user before external, definitions before declarations (docs/API.md);
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
