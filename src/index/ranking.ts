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
  // Each hump's first letter alone, without cutting the spans (humpSpans) and lower-casing copies of them: once per
  // symbol a build stores (millions for a large tree), where those cost some 2 µs a name. One pass keeps the class of
  // the character before (startsHump's test, without reading it again); each initial is a string made once (LOWER_CHAR).
  const length = name.length;
  let humps = '';
  /** The class of the character before: 0 none or a separator, then LOWER, UPPER or DIGIT. */
  let before = 0;
  for (let i = 0; i < length; i++) {
    const ch = name.charCodeAt(i);
    const now = CLASS[ch & 127] * (ch < 128 ? 1 : 0);
    if (now !== 0) {
      if (before === 0) {
        humps += LOWER_CHAR[ch];
      } else if (now === UPPER && (before !== UPPER || (i + 1 < length && isLowerCode(name.charCodeAt(i + 1))))) {
        humps += LOWER_CHAR[ch];
      }
    }
    before = now;
  }
  return humps;
}

const LOWER = 1;
const UPPER = 2;
const DIGIT = 3;
/** The class of each ASCII character (humpsOf): 0 for a separator. */
const CLASS = new Uint8Array(128);
for (let c = 97; c <= 122; c++) CLASS[c] = LOWER;
for (let c = 65; c <= 90; c++) CLASS[c] = UPPER;
for (let c = 48; c <= 57; c++) CLASS[c] = DIGIT;
/** Each ASCII letter or digit lower case, as a string. */
const LOWER_CHAR = Array.from({ length: 128 }, (_, c) => String.fromCharCode(c >= 65 && c <= 90 ? c + 32 : c));

/**
 * Whether the letter or digit at `i` starts a hump: after the start or any separator, a capital after a lower-case
 * letter or a digit, and the last capital of a run when a lower-case letter follows (`HTTPServer` → `HTTP`, `Server`).
 */
export function startsHump(name: string, i: number): boolean {
  const previous = i > 0 ? name.charCodeAt(i - 1) : -1;
  if (previous < 0 || !isAlnumCode(previous)) return true;
  if (!isUpperCode(name.charCodeAt(i))) return false;
  return isLowerCode(previous) || isDigitCode(previous) || (isUpperCode(previous) && i + 1 < name.length && isLowerCode(name.charCodeAt(i + 1)));
}

const isLowerCode = (c: number): boolean => c >= 97 && c <= 122;
const isUpperCode = (c: number): boolean => c >= 65 && c <= 90;
const isDigitCode = (c: number): boolean => c >= 48 && c <= 57;
const isAlnumCode = (c: number): boolean => isLowerCode(c) || isUpperCode(c) || isDigitCode(c);

/**
 * A name's first initial paired with each later one, once each, as the words name_initials indexes (SQLite):
 * `fmpc` → `fm fp fc`. A CamelCase match's initials (fuzzyPattern) start with the name's first initial and hold
 * each of the query's later ones after it, so a name holds every pair the query's initials make with its first.
 */
export function initialPairs(humps: string): string {
  const pairs = new Set<string>();
  for (let i = 1; i < humps.length; i++) pairs.add(humps[0] + humps[i]);
  return [...pairs].join(' ');
}

/**
 * The pairs (initialPairs) a CamelCase match of these query humps holds: `both`, its first initial with the first
 * letter of each later hump (`STT_FUNC` → sf, `FPC` → fp, fc), whichever way a hump is read; `initials`, when the first hump may be
 * initials, those a match reading it as initials holds (`SYS1_INFRAC` → si, sy, ss, s1); read as a word, the name's
 * first hump starts with it instead. Undefined when a letter is not an ASCII letter or digit (SQLite's
 * name_initials folds ASCII only) or there is nothing to pair.
 */
export function camelPairs(humps: readonly QueryHump[]): { both: string[]; initials?: string[] } | undefined {
  const letters = humps.map((hump) => hump.text[0]);
  const firstLetters = humps[0].initials ? [...humps[0].text].slice(1) : [];
  if (letters.length < 2 || ![...letters, ...firstLetters].every((letter) => /^[a-z0-9]$/.test(letter))) return undefined;
  const both = [...new Set(letters.slice(1).map((letter) => letters[0] + letter))];
  if (!humps[0].initials) return { both };
  return { both, initials: [...new Set([...both, ...firstLetters.map((letter) => letters[0] + letter)])] };
}

/**
 * The pairs (initialPairs) a CamelCase match of these query humps holds when it reads hump `index` (after the first) as
 * initials: camelPairs' `both`, and the first initial paired with each of that hump's letters (`CC_DSTINC`, hump 1 →
 * cd, cs, ct, ci, cn, cc). A match reading it as a word holds the word instead (`dstinc`). Undefined as for camelPairs.
 */
export function humpInitialsPairs(humps: readonly QueryHump[], index: number): string[] | undefined {
  const pairs = camelPairs(humps);
  const first = humps[0].text[0];
  if (!pairs || index < 1 || ![...humps[index].text].every((letter) => /^[a-z0-9]$/.test(letter))) return undefined;
  return [...new Set([...pairs.both, ...[...humps[index].text].map((letter) => first + letter)])];
}

/**
 * A name cut at its humps, lower case: `FMyPlayerController` → `f my player controller`,
 * `get_player_name` → `get player name`. The same hump starts as humpsOf.
 */
export function humpSegments(name: string): string[] {
  return humpSpans(name).map((span) => span.toLowerCase());
}

/** humpSegments(name)[0] without cutting the rest of the name: once per distinct name at the end of a load (SQLite's plumb_first_hump). */
export function firstHump(name: string): string {
  let start = 0;
  while (start < name.length && !isAlnumCode(name.charCodeAt(start))) start++;
  let end = start + 1;
  while (end < name.length && isAlnumCode(name.charCodeAt(end)) && !startsHump(name, end)) end++;
  return name.slice(start, end).toLowerCase();
}

/** A name cut at its humps, as written: `UMyASC` → `U My ASC`. */
function humpSpans(name: string): string[] {
  const segments: string[] = [];
  for (let i = 0; i < name.length; i++) {
    if (!isAlnumCode(name.charCodeAt(i))) continue;
    if (startsHump(name, i)) segments.push(name[i]);
    else segments[segments.length - 1] += name[i];
  }
  return segments;
}

/**
 * One hump of a CamelCase query: its text, lower case, and whether it may also stand for initials. A capital
 * run written inside a mixed query does (`ASC` in `UMyASC`: the word `asc`, or the initials a, s, c of
 * `AbilitySystemComponent`), so a query may mix whole words and initials.
 */
export interface QueryHump {
  text: string;
  initials: boolean;
}

/**
 * The humps a CamelCase query stands for: an all-capital abbreviation, or an all-lower-case one
 * of up to four letters, is one initial per letter (`FPC`, `fpc`); otherwise its own humps
 * (`ParseInt` → `parse int`; `printf` is one word), a capital run among them a word or initials
 * (`UMyASC` → `u my asc|a.s.c`).
 */
export function camelHumps(query: string): QueryHump[] {
  if (/^[A-Z0-9]+$/.test(query) || /^[a-z0-9]{1,4}$/.test(query)) return query.toLowerCase().split('').map((text) => ({ text, initials: false }));
  return humpSpans(query).map((span) => ({ text: span.toLowerCase(), initials: span.length > 1 && /^[A-Z][A-Z0-9]*$/.test(span) }));
}

/** The texts of camelHumps. */
export function queryHumps(query: string): string[] {
  return camelHumps(query).map((hump) => hump.text);
}

/**
 * The SQL LIKE pattern over a name's humps (humpsOf) that every CamelCase match satisfies:
 * `FPC` → `f%p%c%`, `UMyASC` → `u%m%a%`. Undefined when the query is not a plausible abbreviation
 * (one hump, or characters other than letters, digits and `_`).
 */
export function fuzzyPattern(query: string): string | undefined {
  if (query.length > 64 || !/^[A-Za-z0-9_]+$/.test(query)) return undefined;
  const humps = camelHumps(query);
  if (humps.length < 2) return undefined;
  return humps.map((h) => h.text[0]).join('%') + '%';
}

/**
 * What the name's first hump must start with for a CamelCase match: the query's first hump, or its first
 * letter when that hump may be initials.
 */
export function firstHumpPrefix(humps: readonly QueryHump[]): string {
  const first = humps[0];
  return first.initials ? first.text[0] : first.text;
}

/**
 * CamelCase matching: the query's first hump starts the name's first hump, and each following
 * query hump starts a later hump of the name, in order (humps may be skipped); a hump that may be
 * initials may instead have each of its letters start a hump, in order: `FPC` and `FPlayerCont`
 * find FMyPlayerController, `ParseInt` finds parseInteger and parse_int_list, `UMyASC` finds
 * UMyAbilitySystemComponent and UMyASCProxy.
 */
export function fuzzyMatches(name: string, query: string): boolean {
  const wanted = lastQueryHumps(query);
  const have = humpSegments(name);
  if (wanted.length < 2 || have.length === 0) return false;
  let at = 0;
  for (let i = 0; i < wanted.length; i++) {
    at = humpEnd(have, at, wanted[i], i === 0);
    if (at < 0) return false;
  }
  return true;
}

/**
 * Matching one query hump from the name's hump `from` on: the earliest hump after it (what the next query hump
 * may start at), or -1 when it does not match. `anchored`: it must start at `from`. The earliest end is the best
 * one, as what follows only needs humps after it.
 */
function humpEnd(have: string[], from: number, hump: QueryHump, anchored: boolean): number {
  const word = humpStarting(have, from, hump.text, anchored);
  let best = word < 0 ? -1 : word + 1;
  if (hump.initials) {
    let at = from;
    for (let j = 0; j < hump.text.length && at >= 0; j++) {
      const found = humpStarting(have, at, hump.text[j], anchored && j === 0);
      at = found < 0 ? -1 : found + 1;
    }
    if (at >= 0 && (best < 0 || at < best)) best = at;
  }
  return best;
}

/** The first of the name's humps from `from` on that starts with `text` (`anchored`: only `from` itself), or -1. */
function humpStarting(have: string[], from: number, text: string, anchored: boolean): number {
  for (let at = from; at < have.length; at++) {
    if (have[at].startsWith(text)) return at;
    if (anchored) break;
  }
  return -1;
}

let lastQuery = '';
let lastHumps: QueryHump[] = [];
/** camelHumps of the query SQLite asks about for every candidate name: computed once per query. */
function lastQueryHumps(query: string): QueryHump[] {
  if (query !== lastQuery) {
    lastHumps = camelHumps(query);
    lastQuery = query;
  }
  return lastHumps;
}

/**
 * The regular expression over a name's hump segments, joined by spaces (`u my ability system component`), that
 * holds exactly when fuzzyMatches does: `^w0.* w1.* w2`, each hump that may be initials `(?:asc|a.* s.* c)`.
 * PostgreSQL's search uses it (the same syntax there as in JavaScript).
 */
export function camelRegex(humps: readonly QueryHump[]): string {
  // Humps are lower-case ASCII letters and digits: nothing to escape.
  return `^${humps.map((hump, i) => {
    const lead = i === 0 ? '' : '.* ';
    return hump.initials ? `${lead}(?:${hump.text}|${[...hump.text].join('.* ')})` : `${lead}${hump.text}`;
  }).join('')}`;
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
