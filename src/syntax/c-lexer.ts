/**
 * One lexer for the C family (C, C++, and the C-like Go, Java and Rust): where comments, strings,
 * character literals, raw strings and (in C and C++) directive lines start and end, so a scanner
 * looking for brackets or words can step over them. Used by bodies.ts (function bodies to blank)
 * and src/languages/cpp/macros.ts (macro noise to blank).
 */

export interface CLexOptions {
  /** Lines starting with `#` are directives (C, C++): one span, backslash continuations included. */
  directives?: boolean;
  /**
   * The language's raw string form, which may span lines and hold quotes: `delimited` R"x( ... )x" (C++),
   * `backtick` `...` (Go), `hashed` r#"..."# (Rust), `text-block` """...""" (Java).
   */
  rawStrings?: 'delimited' | 'backtick' | 'hashed' | 'text-block';
  /** Whether an ordinary "..." string may span lines (Rust). */
  multilineStrings?: boolean;
}

export type SpanKind = 'code' | 'comment' | 'string' | 'char' | 'raw-string' | 'directive';

export interface Span {
  kind: SpanKind;
  start: number;
  /** Exclusive. */
  end: number;
}

export const isIdentStart = (c: number): boolean => (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || c === 95 || c > 127;
export const isIdentPart = (c: number): boolean => isIdentStart(c) || (c >= 48 && c <= 57);

/** Whether the character code can start a literal, comment or directive (a cheap test before literalEnd). */
export const mayStartLiteral = (c: number): boolean => c === 47 || c === 34 || c === 39 || c === 96 || c === 35;

/**
 * When a comment, string, character literal or directive starts at `i`, the index right after it
 * (the source length when it never ends); otherwise `i`.
 */
export function literalEnd(source: string, i: number, options: CLexOptions): number {
  return literalAt(source, i, options)?.end ?? i;
}

/** The comment, string, character literal or directive starting at `i`; undefined at code. */
export function literalAt(source: string, i: number, options: CLexOptions): Span | undefined {
  const c = source.charCodeAt(i);
  if (c === 47 /* / */) {
    const next = source.charCodeAt(i + 1);
    if (next === 47) {
      const end = source.indexOf('\n', i);
      return { kind: 'comment', start: i, end: end < 0 ? source.length : end };
    }
    if (next === 42) {
      const end = source.indexOf('*/', i + 2);
      return { kind: 'comment', start: i, end: end < 0 ? source.length : end + 2 };
    }
    return undefined;
  }
  if (c === 34 /* " */) {
    const raw = rawStringEnd(source, i, options);
    return raw === undefined ? { kind: 'string', start: i, end: stringEnd(source, i, options) } : { kind: 'raw-string', start: i, end: raw };
  }
  if (c === 39 /* ' */) {
    // A character literal ('x', '\n', '\u1234'); otherwise a Rust lifetime or a C++ digit separator (code).
    if (source.charCodeAt(i + 1) === 92) {
      const end = source.indexOf('\'', i + 3);
      return end > 0 && end < i + 14 ? { kind: 'char', start: i, end: end + 1 } : { kind: 'code', start: i, end: i + 1 };
    }
    return source.charCodeAt(i + 2) === 39 ? { kind: 'char', start: i, end: i + 3 } : { kind: 'code', start: i, end: i + 1 };
  }
  if (c === 96 /* ` */ && options.rawStrings === 'backtick') {
    const end = source.indexOf('`', i + 1);
    return { kind: 'raw-string', start: i, end: end < 0 ? source.length : end + 1 };
  }
  if (c === 35 /* # */ && options.directives && startsLine(source, i)) return { kind: 'directive', start: i, end: directiveEnd(source, i) };
  return undefined;
}

/** The source cut into spans in order: code between the comments, strings, character literals and directives. */
export function* lexSpans(source: string, options: CLexOptions, from = 0, to = source.length): Generator<Span> {
  let code = from;
  for (let i = from; i < to; i++) {
    if (!mayStartLiteral(source.charCodeAt(i))) continue;
    const literal = literalAt(source, i, options);
    if (!literal || literal.kind === 'code') continue;
    if (i > code) yield { kind: 'code', start: code, end: i };
    const end = Math.min(literal.end, to);
    yield { kind: literal.kind, start: i, end };
    code = end;
    i = end - 1;
  }
  if (to > code) yield { kind: 'code', start: code, end: to };
}

/** Only spaces and tabs between the line start and `i`. */
export function startsLine(source: string, i: number): boolean {
  for (let j = i - 1; j >= 0; j--) {
    const c = source.charCodeAt(j);
    if (c === 10) return true;
    if (c !== 32 && c !== 9) return false;
  }
  return true;
}

/** End (exclusive) of a directive's logical line, backslash continuations included. */
export function directiveEnd(source: string, start: number): number {
  let end = source.indexOf('\n', start);
  while (end > 0 && source.charCodeAt(end - 1 - (source.charCodeAt(end - 1) === 13 ? 1 : 0)) === 92) end = source.indexOf('\n', end + 1);
  return end < 0 ? source.length : end;
}

/** End (exclusive) of the "..." string at `open`; an unclosed one ends at the line break unless strings span lines. */
function stringEnd(source: string, open: number, options: CLexOptions): number {
  const n = source.length;
  for (let i = open + 1; i < n; i++) {
    const c = source.charCodeAt(i);
    if (c === 92) i++;
    else if (c === 34) return i + 1;
    else if (c === 10 && !options.multilineStrings) return i;
  }
  return n;
}

/** End (exclusive) of a raw string whose opening quote is at `quote` (C++ R"d(...)d", Rust r#"..."#); undefined when it is not one. */
function rawStringEnd(source: string, quote: number, options: CLexOptions): number | undefined {
  if (options.rawStrings === 'delimited') {
    // R, u8R, uR, UR or LR right before the quote, not the end of a longer identifier.
    if (source.charCodeAt(quote - 1) !== 82) return undefined;
    let p = quote - 2;
    if (source.charCodeAt(p) === 56 && source.charCodeAt(p - 1) === 117) p -= 2;
    else if (source.charCodeAt(p) === 117 || source.charCodeAt(p) === 85 || source.charCodeAt(p) === 76) p--;
    if (p >= 0 && isIdentPart(source.charCodeAt(p))) return undefined;
    const paren = source.indexOf('(', quote);
    if (paren < 0 || paren - quote > 17) return undefined;
    const close = source.indexOf(`)${source.slice(quote + 1, paren)}"`, paren);
    return close < 0 ? source.length : close + (paren - quote) + 1;
  }
  if (options.rawStrings === 'text-block') {
    if (!source.startsWith('"""', quote)) return undefined;
    const close = source.indexOf('"""', quote + 3);
    return close < 0 ? source.length : close + 3;
  }
  if (options.rawStrings === 'hashed') {
    let hashes = 0;
    while (source.charCodeAt(quote - 1 - hashes) === 35) hashes++;
    let p = quote - 1 - hashes;
    if (source.charCodeAt(p) !== 114) return undefined;
    if (source.charCodeAt(p - 1) === 98) p--;
    if (p > 0 && isIdentPart(source.charCodeAt(p - 1))) return undefined;
    const close = source.indexOf(`"${'#'.repeat(hashes)}`, quote + 1);
    return close < 0 ? source.length : close + 1 + hashes;
  }
  return undefined;
}

/** The ASCII characters matchingBrace stops at: braces, and what may start a literal (mayStartLiteral). */
const BRACE_OR_LITERAL = new Uint8Array(128);
for (const c of '{}/"\'`#') BRACE_OR_LITERAL[c.charCodeAt(0)] = 1;

/**
 * The `}` matching the `{` at `open`, skipping comments and literals as `options` lex them; -1 when the file ends
 * first, or when the search would read past `until` (the caller's budget: a file of unclosed braces would otherwise
 * be read to its end from each of them).
 */
export function matchingBrace(source: string, open: number, options: CLexOptions, until: number): number {
  let depth = 0;
  const n = Math.min(source.length, until);
  for (let i = open; i < n; i++) {
    const c = source.charCodeAt(i);
    // Most characters are none of these: one table look-up passes them.
    if (c < 128 && !BRACE_OR_LITERAL[c]) continue;
    if (c === 123) {
      depth++;
    } else if (c === 125) {
      if (--depth === 0) return i;
    } else if (mayStartLiteral(c)) {
      const end = literalEnd(source, i, options);
      if (end > i) i = end - 1;
    }
  }
  return -1;
}
