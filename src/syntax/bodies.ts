/**
 * Blanks the insides of function bodies that can hold nothing the index keeps, keeping every
 * offset and line break, so tree-sitter parses (and the walker visits) the declarations only.
 * Much of a C, C++, Go, Java or Rust file is function bodies, and the index wants none of their
 * statements: without them tree-sitter parses a quarter to a half less text (googletest 39%, Go's
 * std 48%, the JDK's java.base 26%, Rust crates 29% of the characters) and the tree is smaller.
 *
 * A body is kept whole when its text holds one of the language's keep words (the same words
 * that make the extractor search a body for local classes or nested functions), so what the
 * extractor finds inside bodies is unchanged. Only braces whose head reads as a function head
 * are candidates, and in C and C++ an initializer's (`= { ... };`, values only: a fifth of the
 * kernel's text once its bodies are blanked); a type or namespace brace is never blanked, only
 * searched for bodies inside it. Strings, character literals, comments and (in C and C++)
 * directive lines are skipped, so a brace in them counts for nothing.
 */

import { isIdentPart, isIdentStart, literalEnd, matchingBrace, mayStartLiteral, type CLexOptions } from './c-lexer.js';
import { containsWord } from './common.js';

/** The lexing options (directives, raw strings, multi-line strings) say how comments and literals are skipped (c-lexer.ts). */
export interface BodyRules extends CLexOptions {
  /** A line break ends a statement after a word, literal or closing bracket (Go's semicolon rule). */
  newlineEnds?: boolean;
  /** Words in a head's top level that make its brace a type/namespace/impl body, never a function body. */
  typeWords: ReadonlySet<string>;
  /** Whether the brace after this head opens a function body. */
  isBody(head: Head): boolean;
  /** `X() : a_{1}, b_{2} {`: a brace right after a word that follows `:` or `,` initializes a member (C++). */
  memberInitializers?: boolean;
  /**
   * A brace right after a head's `=` (not inside brackets) opens an initializer, blanked like a body (with no filler,
   * its directives too) when it is its declaration's only one (no `,` before it, a `;` after it), unless it holds a
   * keep word: C and C++, whose `= { ... }` holds values only, while a Rust `const _: () = { ... };` holds items.
   */
  initializers?: boolean;
  /** Words before a brace that opens a type literal inside a function head (Go `func f() struct{} {`). */
  literalTypes?: ReadonlySet<string>;
  /** A body whose text contains one of these is kept whole: the words that make the extractor search a body. */
  keepWords: readonly string[];
  /** A body whose text matches this is kept whole too. */
  keepPattern?: RegExp;
  /**
   * Written at the start of a blanked body so the grammar still reads a block: C++ parses an
   * empty `void f() {}` before a macro call as a brace initializer, and `{;}` after a macro head
   * (`MATCHER(A, "b") {`) differently from the real body; an expression statement keeps the parse.
   */
  filler?: string;
  /**
   * Directive lines inside a blanked body that stay (continuation lines included), because the index keeps
   * what they declare: C and C++ `#define`s, which are file-wide wherever they are written.
   */
  keepDirective?: RegExp;
}

/** What the scanner saw of a statement head, from the last `;`, `{` or `}` to a `{`. */
export interface Head {
  /** A `(` at the head's top level (not inside brackets). */
  paren: boolean;
  /** One of the rules' type words at the head's top level. */
  typeWord: boolean;
  /** The head's first identifier. */
  firstWord: string | null;
  /** Identifiers at the head's top level before its `(`, annotations (`@Override`) aside. */
  words: number;
  /** The first identifier that is `fn` or one of the type words (Rust). */
  firstKeyword: string | null;
  /** The identifier right before the brace, when nothing else stands between them. */
  lastWord: string | null;
  /** lastWord follows a `:` or `,` after the parameters: a member initializer's name. */
  initializes: boolean;
  /** lastWord is an annotation's name: a `(` after it holds the annotation's arguments. */
  annotation: boolean;
  /** A `,` at the head's top level: declarators before the last (`int a, b = {1};`: a's signature runs to the `;`). */
  comma: boolean;
}

interface Frame {
  /** Offset of the `{`. */
  open: number;
  body: boolean;
  /** Ranges to blank found inside, passed up when this frame is not blanked whole. */
  inner: BlankRange[];
  /** The head to go on with after the `}` (a brace inside parentheses or a Go type literal); null starts a new head. */
  resume: HeadState | null;
}

interface HeadState extends Head {
  parens: number;
  brackets: number;
  /** Depth inside a C++ `template <...>` parameter list, whose words (`class T`) are not the head's. */
  angles: number;
  afterTemplate: boolean;
}

function freshHead(): HeadState {
  return { paren: false, typeWord: false, firstWord: null, words: 0, firstKeyword: null, lastWord: null, initializes: false, annotation: false, comma: false, parens: 0, brackets: 0, angles: 0, afterTemplate: false };
}

/** A space, tab or line break. */
const isSpace = (c: number): boolean => c === 32 || c === 9 || c === 10 || c === 13;

/** The code before the brace at `open` ends with a lone `=` (not `==`, `<=`, `+=` or the like). */
function followsAssign(source: string, open: number): boolean {
  let j = open - 1;
  while (j >= 0 && isSpace(source.charCodeAt(j))) j--;
  if (source.charCodeAt(j) !== 61) return false;
  const before = source.charCodeAt(j - 1);
  // = ! < > + - * / % & | ^ before it make another operator.
  return !(before === 61 || before === 33 || before === 60 || before === 62 || before === 43 || before === 45 || before === 42
    || before === 47 || before === 37 || before === 38 || before === 124 || before === 94);
}

/** The code from `at` starts with a `;`, blanks aside. */
function endsStatement(source: string, at: number): boolean {
  let j = at;
  while (j < source.length && isSpace(source.charCodeAt(j))) j++;
  return source.charCodeAt(j) === 59;
}

/** The code before `start` ends with `,` or a single `:` (not `::`). */
function followsSeparator(source: string, start: number): boolean {
  let j = start - 1;
  while (j >= 0 && isSpace(source.charCodeAt(j))) j--;
  const c = source.charCodeAt(j);
  return c === 44 || (c === 58 && source.charCodeAt(j - 1) !== 58);
}

/** A range to blank, inside a body's braces: from, to, and whether it is an initializer's (BodyRules.initializers). */
export type BlankRange = [number, number] | [number, number, 'initializer'];

/** The ranges (inside the braces) of the bodies to blank, in document order. */
export function blankableBodies(source: string, rules: BodyRules): BlankRange[] {
  const out: BlankRange[] = [];
  const stack: Frame[] = [];
  let head = freshHead();
  const n = source.length;
  /** The last token could end a statement (a word, literal or closing bracket): Go puts a `;` after it at a line break. */
  let ends = false;
  /**
   * What the quick brace count may still read, in all: a few times the file, then every body takes the stack's way
   * (the same ranges, read once). Without it, n unclosed bodies cost n reads of the rest of the file.
   */
  let quickBudget = 4 * n + 65_536;

  /** The `}` closing the brace at `open` by a plain count, while the quick budget lasts; -1 otherwise. */
  const quickClose = (open: number): number => {
    const close = quickBudget > 0 ? matchingBrace(source, open, rules, open + quickBudget) : -1;
    quickBudget -= (close > 0 ? close : Math.min(n, open + quickBudget)) - open;
    return close;
  };

  const emit = (ranges: BlankRange[]): void => {
    const target = stack.length ? stack[stack.length - 1].inner : out;
    for (const range of ranges) target.push(range);
  };

  for (let i = 0; i < n; i++) {
    const c = source.charCodeAt(i);
    if (c === 10) {
      if (ends && rules.newlineEnds && head.parens === 0 && head.brackets === 0) head = freshHead();
      ends = false;
      continue;
    }
    if (c === 32 || c === 9 || c === 13 || c === 12 || c === 11) continue;
    if (mayStartLiteral(c)) {
      const end = literalEnd(source, i, rules);
      if (end > i) {
        i = end - 1;
        // A comment between a word and a brace changes nothing; a string does.
        if (c !== 47) {
          head.lastWord = null;
          ends = true;
        }
        continue;
      }
    }
    ends = isIdentPart(c) || c === 41 || c === 93 || c === 125;
    if (isIdentStart(c)) {
      let j = i + 1;
      while (j < n && isIdentPart(source.charCodeAt(j))) j++;
      const word = source.slice(i, j);
      const annotation = source.charCodeAt(i - 1) === 64;
      i = j - 1;
      if (head.parens === 0 && head.brackets === 0 && head.angles === 0) {
        head.firstWord ??= word;
        if (!head.paren && !annotation) head.words++;
        if (rules.typeWords.has(word)) head.typeWord = true;
        if (head.firstKeyword === null && (word === 'fn' || rules.typeWords.has(word))) head.firstKeyword = word;
        head.afterTemplate = word === 'template';
      }
      head.lastWord = word;
      head.annotation = annotation;
      head.initializes = !!rules.memberInitializers && head.paren && head.parens === 0 && followsSeparator(source, i + 1 - word.length);
      continue;
    }
    if (c >= 48 && c <= 57) {
      // A number, with its suffixes and separators: no brace or quote inside.
      let j = i + 1;
      while (j < n && (isIdentPart(source.charCodeAt(j)) || source.charCodeAt(j) === 46 || source.charCodeAt(j) === 39)) j++;
      i = j - 1;
      head.lastWord = null;
      continue;
    }

    switch (c) {
      case 40: // (
        if (head.parens === 0 && head.brackets === 0 && head.angles === 0 && !(head.annotation && head.lastWord !== null)) head.paren = true;
        head.parens++;
        break;
      case 41: // )
        if (head.parens > 0) head.parens--;
        break;
      case 91: // [
        head.brackets++;
        break;
      case 93: // ]
        if (head.brackets > 0) head.brackets--;
        break;
      case 60: // <
        if (head.afterTemplate || head.angles > 0) head.angles++;
        break;
      case 62: // >
        if (head.angles > 0) head.angles--;
        break;
      case 44: // ,
        if (head.parens === 0 && head.brackets === 0 && head.angles === 0) head.comma = true;
        break;
      case 59: // ;
        if (head.parens === 0 && head.brackets === 0) head = freshHead();
        break;
      case 123: { // {
        const nested = head.parens > 0 || head.brackets > 0 || (head.initializes && head.lastWord !== null);
        if (rules.initializers && !nested && head.angles === 0 && !head.comma && followsAssign(source, i)) {
          // An initializer's values: blanked when clean and its declaration's only declarator (a signature runs from the
          // declaration's start: in `int a = {1}, b;` b's holds a's value, in `int a, b = {1};` a's holds b's); else
          // searched like any other brace.
          const close = quickClose(i);
          if (close > 0 && endsStatement(source, close + 1) && !holdsWord(source, i + 1, close, rules)) {
            if (close > i + 1) emit([[i + 1, close, 'initializer']]);
            i = close;
            head.lastWord = null;
            ends = true;
            continue;
          }
        }
        const body = !nested && head.angles === 0 && rules.isBody(head);
        if (body) {
          // Most bodies are clean: find the end with a plain brace count and blank at once.
          const close = quickClose(i);
          if (close > 0 && !holdsWord(source, i + 1, close, rules)) {
            if (close > i + 1) emit([[i + 1, close]]);
            i = close;
            head = freshHead();
            continue;
          }
        }
        // A type literal in a function head (`func f() struct{ x int } {`): the head goes on after it.
        const literal = !body && head.paren && head.lastWord !== null && !!rules.literalTypes?.has(head.lastWord);
        stack.push({ open: i, body, inner: [], resume: nested || literal ? head : null });
        head = freshHead();
        continue;
      }
      case 125: { // }
        const frame = stack.pop();
        if (!frame) {
          head = freshHead();
          continue;
        }
        if (frame.body && !holdsWord(source, frame.open + 1, i, rules)) {
          if (i > frame.open + 1) emit([[frame.open + 1, i]]);
        } else {
          emit(frame.inner);
        }
        head = frame.resume ?? freshHead();
        head.lastWord = null;
        continue;
      }
      default:
        break;
    }
    head.afterTemplate &&= c === 60;
    head.lastWord = null;
  }
  // Braces never closed: their bodies' ends are unknown, but the closed ones inside are sound.
  while (stack.length) emit(stack.pop()!.inner);
  return out;
}

/** `source` with the insides of blankable bodies turned to spaces (line breaks kept). */
export function blankBodies(source: string, rules: BodyRules): string {
  const ranges = blankableBodies(source, rules);
  if (!ranges.length) return source;
  const parts: string[] = [];
  const filler = rules.filler ?? '';
  let at = 0;
  for (const [from, to, initializer] of ranges) {
    parts.push(source.slice(at, from));
    // Line by line: each line's characters become spaces, its break stays.
    let line = from;
    let filled = !filler || initializer !== undefined;
    const keep = initializer ? undefined : rules.keepDirective;
    let keeping = false;
    while (line < to) {
      let end = source.indexOf('\n', line);
      if (end < 0 || end > to) end = to;
      const width = end - line;
      if (keep && (keeping || keptDirective(source, line, end, keep))) {
        parts.push(source.slice(line, end));
        // A line ending in a backslash goes on to the next.
        keeping = source.charCodeAt(end - 1 - (source.charCodeAt(end - 1) === 13 ? 1 : 0)) === 92;
      } else if (!filled && width >= filler.length) {
        parts.push(filler, spaces(width - filler.length));
        filled = true;
      } else {
        parts.push(spaces(width));
      }
      if (end < to) parts.push('\n');
      line = end + 1;
    }
    at = to;
  }
  parts.push(source.slice(at));
  return parts.join('');
}

/** The line from `start` to `end` is a directive `keep` matches (from its `#`). */
function keptDirective(source: string, start: number, end: number, keep: RegExp): boolean {
  let i = start;
  while (i < end && (source.charCodeAt(i) === 32 || source.charCodeAt(i) === 9)) i++;
  return source.charCodeAt(i) === 35 && keep.test(source.slice(i, end));
}

const SPACES = ' '.repeat(256);

function spaces(width: number): string {
  return width <= SPACES.length ? SPACES.slice(0, width) : ' '.repeat(width);
}

function holdsWord(source: string, from: number, to: number, rules: BodyRules): boolean {
  return containsWord(source, from, to, rules.keepWords) || (rules.keepPattern?.test(source.slice(from, to)) ?? false);
}
