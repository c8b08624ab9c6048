/**
 * Headers of nothing but preprocessor lines, read without tree-sitter. Such a header's symbols are its `#define`s,
 * and reading them from the lines gives what the tree gives (the same names, ranges, signatures, parameters and
 * docs; test/syntax/c-directives.test.ts compares the two on real headers) for a fraction of the time: the kernel's
 * 5,069 such headers are 425 MB, a third of its text, and hold 4M of its 7.2M symbols (register maps).
 *
 * The reader follows tree-sitter's C grammar where it matters: a `#define`'s node runs from its `#` to the line
 * break ending it (after `\` continuations and block comments), its value starts at the first character that is
 * not blank, a continuation or a comment, and a comment documents it when it stands alone on its line right above,
 * at the same depth of conditionals. Comments are not hidden by quotes in a directive, as in the grammar. Anything it
 * does not know for certain (a line of code, an unbalanced `#endif`, a `#include` of another form, a line break
 * inside a comment after code, CRLF) makes it give the file back to the parser, whole.
 */
import type { LanguageId, Parameter } from '../../syntax/types.js';
import { adjacent, cleanComment, oneLine } from '../../syntax/extract.js';
import { emptyMacroRows, NO_PARAMETERS, type MacroRows } from '../../syntax/macro-rows.js';

/** A comment standing where a doc could: its offsets (end before its line break), and whether only blanks precede it on its line. */
interface Comment {
  start: number;
  end: number;
  startsLine: boolean;
}

/** A conditional's depth: the comments since its last item that was not one (a doc is read from them). */
interface Level {
  comments: Comment[];
}

/** Directives tree-sitter reads as a call (a name and an argument to the end of the line). */
const CALLS = new Set(['undef', 'pragma', 'error', 'warning', 'line', 'ident', 'sccs', 'assert', 'unassert', 'include_next']);
const OPENS = new Set(['if', 'ifdef', 'ifndef']);
const BRANCHES = new Set(['elif', 'else', 'elifdef', 'elifndef']);
/** Words tree-sitter's C and C++ grammars take as keywords: no parameter of a macro it reads as an identifier. */
const KEYWORDS = new Set(('auto break case char const continue default do double else enum extern float for goto if inline int long register ' +
  'restrict return short signed sizeof static struct switch typedef union unsigned void volatile while class namespace template typename ' +
  'public private protected virtual operator new delete this throw try catch friend using bool true false nullptr constexpr decltype ' +
  'noexcept static_assert explicit mutable thread_local alignas alignof co_await co_return co_yield concept requires final override').split(' '));

class GiveUp extends Error {}

const DEFINE_LINE = /^[ \t]*#[ \t]*define[ \t]+/gm;

/**
 * The `#define`s of a file as tree-sitter's extraction gives them (as rows: macroSymbols makes them symbols), when the file holds only preprocessor lines,
 * comments and blank lines; undefined otherwise (parse it). `source` is the text as prepared for the parser
 * (LanguageSpec.prepare: blanked where the parser would be misled, offsets kept), `original` as written (docs).
 */
export function definesOfDirectives(source: string, original: string, language: LanguageId): MacroRows | undefined {
  if (source.length !== original.length || source.includes('\r') || source.length === 0 || source.charCodeAt(source.length - 1) !== 10) return undefined;
  try {
    const rows = new DirectiveReader(source, original, language).read();
    // A `#define` line the preparation blanked is read from the text as written (macrosFromText): the parser's way.
    let lines = 0;
    for (DEFINE_LINE.lastIndex = 0; DEFINE_LINE.exec(original); ) lines++;
    return lines === rows.names.length ? rows : undefined;
  } catch (error) {
    if (error instanceof GiveUp) return undefined;
    throw error;
  }
}

class DirectiveReader {
  private at = 0;
  private line = 1;
  private readonly levels: Level[] = [{ comments: [] }];
  private readonly rows: MacroRows;

  constructor(private readonly source: string, private readonly original: string, language: LanguageId) {
    this.rows = emptyMacroRows(language);
  }

  read(): MacroRows {
    const source = this.source;
    while (this.at < source.length) {
      const lineStart = this.at;
      const first = blanksFrom(source, this.at);
      const ch = source[first];
      if (ch === '\n') {
        this.nextLine(first);
      } else if (ch === '#') {
        this.directive(lineStart);
      } else if (ch === '/' && (source[first + 1] === '*' || source[first + 1] === '/')) {
        this.commentLines(first);
      } else {
        throw new GiveUp();
      }
    }
    if (this.levels.length !== 1) throw new GiveUp();
    return this.rows;
  }

  private get level(): Level {
    return this.levels[this.levels.length - 1];
  }

  /** The comments since the last item of this level are no doc of what comes next (a new array only when some were). */
  private clearComments(): void {
    const level = this.level;
    if (level.comments.length > 0) level.comments = [];
  }

  /** Comments from `from` (at a comment's start, alone on its line so far) to the end of their line. */
  private commentLines(from: number): void {
    let at = from;
    let startsLine = true;
    for (;;) {
      const end = this.comment(at);
      this.level.comments.push({ start: at, end, startsLine });
      startsLine = false;
      at = blanksFrom(this.source, end);
      if (this.source[at] === '\n') {
        this.nextLine(at);
        return;
      }
      if (this.source[at] !== '/' || (this.source[at + 1] !== '*' && this.source[at + 1] !== '/')) throw new GiveUp();
    }
  }

  /** A comment at `at`: where it ends (a line comment before its line break), counting the lines it crosses. */
  private comment(at: number): number {
    const source = this.source;
    if (source[at + 1] === '/') {
      const end = source.indexOf('\n', at);
      // `// ... \` continues onto the next line in the grammar.
      if (source[end - 1] === '\\') throw new GiveUp();
      return end;
    }
    const close = source.indexOf('*/', at + 2);
    if (close < 0) throw new GiveUp();
    this.countLines(at, close);
    return close + 2;
  }

  private directive(lineStart: number): void {
    const source = this.source;
    // [ \t]*#[ \t]*([A-Za-z0-9_]\w*), read by hand: once a line of the file.
    const hash = blanksFrom(source, lineStart);
    if (source.charCodeAt(hash) !== 35) throw new GiveUp();
    const wordStart = blanksFrom(source, hash + 1);
    let after = wordStart;
    while (isWordCode(source.charCodeAt(after))) after++;
    if (after === wordStart) throw new GiveUp();
    const word = source.slice(wordStart, after);
    if (word === 'define') {
      this.define(hash, after);
      return;
    }
    if (OPENS.has(word)) {
      if (word !== 'if') this.identifierTail(after);
      else this.argument(after, true);
      this.clearComments();
      this.levels.push({ comments: [] });
      return;
    }
    if (BRANCHES.has(word)) {
      if (this.levels.length === 1) throw new GiveUp();
      if (word === 'else') this.emptyTail(after);
      else if (word === 'elif') this.argument(after, true);
      else this.identifierTail(after);
      this.clearComments();
      return;
    }
    if (word === 'endif') {
      if (this.levels.length === 1) throw new GiveUp();
      this.emptyTail(after);
      this.levels.pop();
      this.clearComments();
      return;
    }
    if (word === 'include') {
      this.includeTail(after);
      this.clearComments();
      return;
    }
    if (!CALLS.has(word)) throw new GiveUp();
    this.argument(after, false);
    this.clearComments();
  }

  /** `#define NAME`, `#define NAME value`, `#define NAME(a, b, ...) value`. */
  private define(hash: number, after: number): void {
    const source = this.source;
    const startLine = this.line;
    if (source[after] !== ' ' && source[after] !== '\t') throw new GiveUp();
    const nameStart = blanksFrom(source, after);
    const nameEnd = nameEndFrom(source, nameStart);
    if (nameEnd < 0) throw new GiveUp();
    const name = source.slice(nameStart, nameEnd);
    let headEnd = nameEnd;
    const parameters: Parameter[] = [];
    let at = nameEnd;
    if (source[at] === '(') {
      at = this.parameters(at + 1, parameters);
      headEnd = at;
    } else if (source[at] !== ' ' && source[at] !== '\t' && source[at] !== '\n' && source[at] !== '/') {
      throw new GiveUp();
    }
    // The value starts at the first character that is not a blank, a continuation or a comment.
    const value = this.valueStart(at);
    if (value !== undefined) {
      if (source[nameEnd] !== '(') headEnd = value;
      this.toLineEnd(value, true);
    }
    const doc = this.docAbove(hash);
    this.clearComments();
    const column = hash - source.lastIndexOf('\n', hash - 1);
    const nameColumn = nameStart - source.lastIndexOf('\n', nameStart - 1);
    const rows = this.rows;
    rows.names.push(name);
    rows.signatures.push(oneLine(source.slice(hash, headEnd)));
    rows.docs.push(doc);
    rows.parameters.push(parameters.length > 0 ? parameters : NO_PARAMETERS);
    rows.positions.push(startLine, column, this.line, nameColumn);
  }

  /** The parameter list after `(`: identifiers and `...`, separated by commas; where it ends (after `)`). */
  private parameters(from: number, out: Parameter[]): number {
    const source = this.source;
    let at = from;
    let items = 0;
    let expecting = true;
    for (;;) {
      at = this.blanksAndContinuations(at);
      const ch = source[at];
      if (ch === ')' && (!expecting || items === 0)) return at + 1;
      if (expecting) {
        if (source.startsWith('...', at)) {
          at += 3;
        } else {
          const nameEnd = nameEndFrom(source, at);
          if (nameEnd < 0) throw new GiveUp();
          const name = source.slice(at, nameEnd);
          if (KEYWORDS.has(name)) throw new GiveUp();
          out.push({ name, type: '' });
          at = nameEnd;
        }
        items++;
        expecting = false;
      } else if (ch === ',') {
        at++;
        expecting = true;
      } else {
        throw new GiveUp();
      }
    }
  }

  /** Blanks and `\` line continuations from `at`; where they end (never past an unescaped line break). */
  private blanksAndContinuations(from: number): number {
    let at = from;
    for (;;) {
      at = blanksFrom(this.source, at);
      if (this.source[at] === '\\' && this.source[at + 1] === '\n') {
        at += 2;
        this.line++;
        continue;
      }
      return at;
    }
  }

  /**
   * After a define's name or parameters: where its value starts, or undefined when none follows (the directive's
   * line break is then consumed). Comments before the value are skipped, as tree-sitter skips them. Blanks ending
   * a line without a value make the grammar read on into the next line: such a file goes to the parser.
   */
  private valueStart(from: number): number | undefined {
    const source = this.source;
    let at = from;
    for (;;) {
      at = this.blanksAndContinuations(at);
      const ch = source[at];
      if (ch === '\n') {
        if (isBlank(source[at - 1])) throw new GiveUp();
        this.nextLine(at);
        return undefined;
      }
      if (ch === '/' && source[at + 1] === '*') {
        at = this.comment(at);
        continue;
      }
      if (ch === '/' && source[at + 1] === '/') {
        this.comment(at);
        at = source.indexOf('\n', at);
        continue;
      }
      return at;
    }
  }

  /**
   * From inside a directive to past the line break ending it: `\` continues it onto the next line, a block comment
   * may cross lines, and after such a comment only blanks and comments may follow on its last line. In an `argument`
   * (a define's value, a `#pragma`'s text: the grammar's preproc_arg) `//` is text of the argument, elsewhere a comment.
   */
  private toLineEnd(from: number, argument: boolean): void {
    const source = this.source;
    let at = from;
    /** Where the last comment ended: a `/` just before is the comment's. */
    let commentEnd = -1;
    /** A line comment was part of the argument. */
    let lineComment = false;
    for (;;) {
      const code = source.charCodeAt(at);
      // Most characters of a value are neither a line break nor a `/`.
      if (code !== 10 && code !== 47) {
        at++;
        continue;
      }
      const ch = source[at];
      if (ch === '\n') {
        const before = source[at - 1];
        if (before === '\\') {
          this.line++;
          at++;
          continue;
        }
        // `/` before the break: the grammar's argument takes `/` and the break together and runs on.
        if (before === '/' && at !== commentEnd) throw new GiveUp();
        if (isBlank(before)) {
          let last = at - 1;
          while (isBlank(source[last])) last--;
          // `\` before trailing blanks: a continuation to the preprocessor, not to the grammar.
          if (source[last] === '\\') throw new GiveUp();
          // After an argument's block comment, the grammar ends the node at the comment or runs on over the lines
          // after, depending on what follows; after a line comment in it, at the line's end.
          if (argument && (last + 1 === commentEnd || lineComment)) throw new GiveUp();
        }
        this.nextLine(at);
        return;
      }
      if (ch === '/' && source[at + 1] === '*') {
        const end = this.comment(at);
        commentEnd = end;
        const rest = blanksFrom(this.source, end);
        if (source[rest] !== '\n' && !(source[rest] === '/' && source[rest + 1] === '*' && !argument)) throw new GiveUp();
        at = rest;
        continue;
      }
      if (ch === '/' && source[at + 1] === '/') {
        const end = source.indexOf('\n', at);
        // A line comment ending in `\` runs on; let the parser have such a file.
        if (source[end - 1] === '\\') throw new GiveUp();
        if (argument) lineComment = true;
        else commentEnd = end;
        at = end;
        continue;
      }
      at++;
    }
  }

  /** A directive's argument to its end (`#if`'s condition, `#pragma`'s text); a condition must not be empty. */
  private argument(from: number, required: boolean): void {
    const at = this.blanksAndContinuations(from);
    if (this.source[at] === '\n' && required) throw new GiveUp();
    this.toLineEnd(at, !required);
  }

  /** `#ifdef NAME`, `#elifdef NAME`: one name, then nothing but blanks or a comment. */
  private identifierTail(from: number): void {
    const at = this.blanksAndContinuations(from);
    if (at === from) throw new GiveUp();
    const nameEnd = nameEndFrom(this.source, at);
    if (nameEnd < 0) throw new GiveUp();
    this.emptyTail(nameEnd);
  }

  /** Nothing but blanks and comments to the end of the directive. */
  private emptyTail(from: number): void {
    const source = this.source;
    const at = this.blanksAndContinuations(from);
    if (source[at] === '\n') {
      this.nextLine(at);
      return;
    }
    if (source[at] === '/' && (source[at + 1] === '/' || source[at + 1] === '*')) {
      this.toLineEnd(at, false);
      return;
    }
    throw new GiveUp();
  }

  /** `#include <path>` or `#include "path"`, then nothing but blanks and comments. */
  private includeTail(from: number): void {
    const source = this.source;
    const at = blanksFrom(this.source, from);
    const close = source[at] === '<' ? '>' : source[at] === '"' ? '"' : undefined;
    if (!close || at === from) throw new GiveUp();
    const end = source.indexOf(close, at + 1);
    const lineEnd = source.indexOf('\n', at);
    if (end < 0 || end > lineEnd || /[\\"<>]/.test(source.slice(at + 1, end))) throw new GiveUp();
    this.emptyTail(end + 1);
  }

  /** The comments right above a directive starting at `hash` that document it: tree-sitter's docAbove, in lines. */
  private docAbove(hash: number): string | null {
    const comments = this.level.comments;
    const parts: string[] = [];
    let below = hash;
    for (let i = comments.length - 1; i >= 0; i--) {
      const comment = comments[i];
      if (!comment.startsLine || !adjacent(this.original, comment.end, below)) break;
      parts.unshift(this.original.slice(comment.start, comment.end));
      below = comment.start;
    }
    if (parts.length === 0) return null;
    return parts.map(cleanComment).join('\n').trim() || null;
  }

  /** Past the line break at `at`. */
  private nextLine(at: number): void {
    this.at = at + 1;
    this.line++;
  }

  private countLines(from: number, to: number): void {
    for (let i = this.source.indexOf('\n', from); i >= 0 && i < to; i = this.source.indexOf('\n', i + 1)) this.line++;
  }
}

/** Past the spaces and tabs from `at` (/[ \t]*\/y's lastIndex). */
function blanksFrom(source: string, at: number): number {
  let end = at;
  for (let code = source.charCodeAt(end); code === 32 || code === 9; code = source.charCodeAt(end)) end++;
  return end;
}

/** A character (its code) of \w: [A-Za-z0-9_]. */
function isWordCode(code: number): boolean {
  return (code >= 97 && code <= 122) || (code >= 65 && code <= 90) || (code >= 48 && code <= 57) || code === 95;
}

/** Where the name (/[A-Za-z_]\w*\/y) at `at` ends; -1 when none starts there. */
function nameEndFrom(source: string, at: number): number {
  const first = source.charCodeAt(at);
  if (!isWordCode(first) || (first >= 48 && first <= 57)) return -1;
  let end = at + 1;
  while (isWordCode(source.charCodeAt(end))) end++;
  return end;
}

function isBlank(ch: string | undefined): boolean {
  return ch === ' ' || ch === '\t';
}
