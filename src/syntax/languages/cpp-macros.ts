/**
 * Blanks annotation macros (Unreal's UCLASS()/GENERATED_BODY(), export macros such as
 * MYGAME_API or GTEST_API_) that tree-sitter cannot know, keeping every offset.
 */
import { directiveEnd } from './bodies.js';

/** Unreal reflection macros: blanked wherever they stand. */
const ANNOTATION = /\b(?:UCLASS|USTRUCT|UENUM|UINTERFACE|UFUNCTION|UPROPERTY|UDELEGATE|UMETA|UPARAM|GENERATED_BODY|GENERATED_UCLASS_BODY|GENERATED_USTRUCT_BODY|GENERATED_UINTERFACE_BODY|GENERATED_IINTERFACE_BODY|UE_DEPRECATED)\s*\(/g;
/** An upper-case macro call alone on its line (`GENERATED_BODY()`, `DEPRECATED(4.2, "...")`). */
const STANDALONE = /^[ \t]*_?[A-Z][A-Z0-9_]+[ \t]*\(/gm;
/**
 * A lone upper-case macro word (with an underscore, as macros have and type names rarely do) on its
 * own line: QT_BEGIN_NAMESPACE, PRAGMA_DISABLE_DEPRECATION_WARNINGS, _GLIBCXX20_CONSTEXPR.
 */
const LONE_WORD = /^[ \t]*(_?[A-Z][A-Z0-9_]*)[ \t]*(?:\/\/.*)?\r?$/gm;
/** An upper-case macro word after a parameter list (`) const _GLIBCXX_NOEXCEPT;`). */
const TRAILING_WORD = /\)[ \t]*(?:const[ \t]*)?(?:&&?[ \t]*)?(_?[A-Z][A-Z0-9]*_[A-Z0-9_]*)(?=[ \t]*(?:[;{:=]|override\b|final\b|\r?$))/gm;
/** A visibility macro after a namespace name (`namespace std _GLIBCXX_VISIBILITY(default)`). */
const NAMESPACE_ATTRIBUTE = /\bnamespace\s+[\w:]+\s+(_?[A-Z][A-Z0-9_]*\s*\()/g;

/** An upper-case word between `class` and the class name: an export macro. */
const EXPORT_MACRO = /\b(?:class|struct|union)\s+([A-Z_][A-Z0-9_]*)\s+(?=(?:alignas\s*\([^)]*\)\s*)?[A-Za-z_]\w*\s*(?:final\b|:[^:]|\{|<))/g;

/** Export/visibility macros written before a return type or class name (`GTEST_API_ int f();`). */
const EXPORT_WORD = /\b[A-Z][A-Z0-9_]*_(?:API|EXPORT|EXPORTS|DLL|DLLEXPORT)_?\b/g;

/** Unreal's inlining and attribute words, written where a type or specifier goes. */
const DECORATION_WORD = /\b(?:FORCEINLINE|FORCENOINLINE|FORCEINLINE_DEBUGGABLE|UE_NODISCARD|UE_NODISCARD_CTOR|RESTRICT|CONSTEXPR|UE_CONSTEVAL)\b/g;

/** An attribute macro ending a line whose next line starts with the function name (`static void PRINTF_STYLE(1,2)` / `die(...)`). */
const LINE_END_CALL = /\b_?[A-Z][A-Z0-9_]*[ \t]*\((?=[^\n]*\)[ \t]*\r?\n[ \t]*[A-Za-z_]\w*[ \t]*\()/g;

/**
 * An export macro wrapping the return type before a declarator (`extern NCURSES_EXPORT(int) endwin (void);`,
 * `NCURSES_EXPORT_VAR(WINDOW *) stdscr;`): the macro's name and parentheses go, the type stays.
 */
const TYPE_WRAPPER = /\b_?[A-Z][A-Z0-9]*_[A-Z0-9_]*[ \t]*\((?=[ \t]*[A-Za-z_][^()\n;{}]*\)[ \t]*[*&]*[ \t]*[A-Za-z_]\w*[ \t]*[(;[=,])/g;

/** An annotation macro after a parameter list (`~X() GTEST_LOCK_EXCLUDED_(mu) {`). */
const TRAILING = /\)[ \t]*(?:const[ \t]*)?(?:noexcept[ \t]*)?([A-Z][A-Z0-9_]+[ \t]*\()/g;

const MAX_ARGUMENTS = 4000;
/** Cheap substring checks that let a file without these words skip a regex pass. */
const UNREAL_WORDS = ['UCLASS', 'USTRUCT', 'UENUM', 'UINTERFACE', 'UFUNCTION', 'UPROPERTY', 'UDELEGATE', 'UMETA', 'UPARAM', 'GENERATED_', 'UE_DEPRECATED'];
const DECORATION_WORDS = ['FORCEINLINE', 'FORCENOINLINE', 'UE_NODISCARD', 'RESTRICT', 'CONSTEXPR', 'UE_CONSTEVAL'];

function hasAny(source: string, words: string[]): boolean {
  return words.some((word) => source.includes(word));
}

export function blankCppMacros(source: string): string {
  if (!/[A-Z]{2}/.test(source)) return source;
  const cuts: Array<[number, number]> = [];

  for (const match of hasAny(source, UNREAL_WORDS) ? source.matchAll(ANNOTATION) : []) {
    const open = match.index + match[0].length - 1;
    const close = matchingParen(source, open);
    if (close > 0) cuts.push([match.index, close + 1]);
  }

  for (const match of source.matchAll(STANDALONE)) {
    const open = match.index + match[0].length - 1;
    const close = matchingParen(source, open);
    if (close < 0 || continuesMacro(source, match.index)) continue;
    // A statement-like call (`GTEST_DISALLOW_ASSIGN_(X);`) declares nothing tree-sitter could use.
    const after = restOfLine(source, close + 1).trim().replace(/^;/, '').trim();
    if (after && !after.startsWith('//')) continue;
    // `TEST(A, B) {` is a function-like macro with a body: keep it, unless it follows a declarator
    // (`X()` then `_GLIBCXX_NOEXCEPT_IF(...)` then `{`).
    if (nextCodeChar(source, close + 1) === '{' && !afterDeclarator(source, match.index)) continue;
    cuts.push([match.index, close + 1]);
  }

  for (const match of source.matchAll(EXPORT_MACRO)) {
    const start = match.index + match[0].indexOf(match[1], match[0].search(/\s/));
    cuts.push([start, start + match[1].length]);
  }

  for (const match of source.matchAll(NAMESPACE_ATTRIBUTE)) {
    const start = match.index + match[0].length - match[1].length;
    const close = matchingParen(source, match.index + match[0].length - 1);
    if (close > 0) cuts.push([start, close + 1]);
  }

  for (const match of source.matchAll(LONE_WORD)) {
    if (!match[1].includes('_', 1)) continue;
    // After `;`, `{`, `}`, a template head or a directive it annotates what follows; after `,` it is the last enumerator.
    if (continuesMacro(source, match.index) || !(endsStatement(source, match.index) || afterDeclarator(source, match.index))) continue;
    const start = match.index + match[0].indexOf(match[1]);
    cuts.push([start, start + match[1].length]);
  }

  for (const match of source.matchAll(TRAILING_WORD)) {
    if (isDirectiveLine(source, match.index)) continue;
    const start = match.index + match[0].length - match[1].length;
    cuts.push([start, start + match[1].length]);
  }

  for (const match of source.matchAll(LINE_END_CALL)) {
    const close = matchingParen(source, match.index + match[0].length - 1);
    if (close < 0 || restOfLine(source, close + 1).trim() || isDirectiveLine(source, match.index)) continue;
    // Only as part of a declaration head: something other than the macro stands before it on its line.
    const lineStart = source.lastIndexOf('\n', match.index) + 1;
    if (!source.slice(lineStart, match.index).trim()) continue;
    cuts.push([match.index, close + 1]);
  }

  for (const match of source.matchAll(TYPE_WRAPPER)) {
    const close = matchingParen(source, match.index + match[0].length - 1);
    if (close < 0 || isDirectiveLine(source, match.index)) continue;
    cuts.push([match.index, match.index + match[0].length], [close, close + 1]);
  }

  for (const match of source.matchAll(TRAILING)) {
    const start = match.index + match[0].length - match[1].length;
    const close = matchingParen(source, match.index + match[0].length - 1);
    if (close < 0) continue;
    const next = nextCodeChar(source, close + 1);
    if (next === '{' || next === ';' || next === ':' || next === '=') cuts.push([start, close + 1]);
  }

  for (const match of hasAny(source, DECORATION_WORDS) ? source.matchAll(DECORATION_WORD) : []) {
    if (!isDirectiveLine(source, match.index)) cuts.push([match.index, match.index + match[0].length]);
  }

  // `virtual int F() PURE_VIRTUAL(AClass::F, return 0;);` holds a statement in its arguments.
  for (const match of source.includes('PURE_VIRTUAL') ? source.matchAll(/\bPURE_VIRTUAL\s*\(/g) : []) {
    const close = matchingParen(source, match.index + match[0].length - 1, true);
    if (close > 0) cuts.push([match.index, close + 1]);
  }

  for (const match of source.matchAll(EXPORT_WORD)) {
    // On a preprocessor line the word is the macro being defined or tested: keep it.
    if (!isDirectiveLine(source, match.index)) cuts.push([match.index, match.index + match[0].length]);
  }

  cuts.push(...unbalancedBranches(source));
  if (!cuts.length) return source;
  return blankRanges(source, cuts);
}

/** Replaces every character of the ranges but line breaks with a space (ranges may overlap). */
function blankRanges(source: string, cuts: Array<[number, number]>): string {
  cuts.sort((a, b) => a[0] - b[0]);
  const parts: string[] = [];
  let at = 0;
  for (const [from, to] of cuts) {
    const start = Math.max(from, at);
    if (to <= start) continue;
    const cut = source.slice(start, to);
    parts.push(source.slice(at, start), cut.includes('\n') || cut.includes('\r') ? cut.replace(/[^\r\n]/g, ' ') : ' '.repeat(cut.length));
    at = to;
  }
  parts.push(source.slice(at));
  return parts.join('');
}

/** Index of the `)` closing the `(` at `open`, skipping strings and chars; -1 when none is near. */
function matchingParen(source: string, open: number, statements = false): number {
  let depth = 0;
  const limit = Math.min(source.length, open + MAX_ARGUMENTS);
  for (let i = open; i < limit; i++) {
    const c = source[i];
    if (c === '"' || c === '\'') {
      for (i++; i < limit && source[i] !== c; i++) if (source[i] === '\\') i++;
    } else if (c === '(') {
      depth++;
    } else if (c === ')') {
      depth--;
      if (depth === 0) return i;
    } else if (!statements && (c === ';' || c === '{' || c === '}')) {
      return -1;
    }
  }
  return -1;
}

/** The code before `index` ends a statement or block (or the file, or a directive line, starts there). */
function endsStatement(source: string, index: number): boolean {
  let i = index - 1;
  while (i >= 0) {
    const lineStart = source.lastIndexOf('\n', i) + 1;
    const line = source.slice(lineStart, i + 1).replace(/\/\/.*$/, '').trim();
    // A directive, or another lone macro word (`QT_BEGIN_NAMESPACE` above `PRAGMA_DISABLE_...`).
    if (line.startsWith('#') || /^_?[A-Z][A-Z0-9_]*$/.test(line)) return true;
    if (line && !line.startsWith('*') && !line.startsWith('/*')) {
      return /[;{}>)\]:]$/.test(line) || (line.endsWith('*/') && /[;{}]\s*\/\*.*\*\/$/.test(line));
    }
    i = lineStart - 2;
  }
  return true;
}

/** The previous code line ends a parameter list (`)`, `) const`, `) override`). */
function afterDeclarator(source: string, lineStart: number): boolean {
  const before = source.slice(Math.max(0, lineStart - 400), lineStart).replace(/\/\/[^\n]*$/gm, '').trimEnd();
  return /\)\s*(const|override|final|noexcept|&|&&)?$/.test(before);
}

function isDirectiveLine(source: string, index: number): boolean {
  const lineStart = source.lastIndexOf('\n', index) + 1;
  return /^\s*#/.test(source.slice(lineStart, index));
}

function restOfLine(source: string, from: number): string {
  const end = source.indexOf('\n', from);
  return source.slice(from, end < 0 ? source.length : end);
}

function nextCodeChar(source: string, from: number): string {
  const match = /\S/.exec(source.slice(from, from + 400));
  return match ? match[0] : '';
}

/** The line before ends with a backslash: this is the body of a #define. */
function continuesMacro(source: string, lineStart: number): boolean {
  let i = lineStart - 1;
  if (i < 0 || source[i] !== '\n') return false;
  i--;
  if (source[i] === '\r') i--;
  return source[i] === '\\';
}

const DIRECTIVE = /^[ \t]*#[ \t]*(if|ifdef|ifndef|elif|elifdef|elifndef|else|endif)\b(.*)$/gm;

interface Group {
  /** Start of each branch's directive line; the first is the `#if`. */
  branches: number[];
  deltas: number[];
  ifZero: boolean;
}

/**
 * `#if A` / `#else` branches that each open a brace or parenthesis (`TEST(X, Y) {` twice) leave tree-sitter
 * one brace short: keep the first branch, as ctags does, and blank the others. `#if 0` is dropped.
 */
function unbalancedBranches(source: string): Array<[number, number]> {
  if (!source.includes('#')) return [];
  const cuts: Array<[number, number]> = [];
  const stack: Group[] = [];
  let last = 0;
  const count = (to: number): void => {
    const group = stack[stack.length - 1];
    if (group) group.deltas[group.deltas.length - 1] += braceDelta(source, last, to);
    last = to;
  };
  for (const match of source.matchAll(DIRECTIVE)) {
    const start = match.index;
    const end = start + match[0].length;
    count(start);
    const directive = match[1];
    if (directive.startsWith('if')) {
      stack.push({ branches: [start], deltas: [0], ifZero: directive === 'if' && /^\s*0\s*(\/[/*].*)?$/.test(match[2]) });
    } else if (directive === 'endif') {
      const group = stack.pop();
      if (group) {
        const [first, second] = group.branches;
        if (group.ifZero) {
          // Drop the `#if 0` branch; what follows `#else` stays, without its directives.
          cuts.push([first, second ?? end]);
          if (second !== undefined) cuts.push([second, directiveEnd(source, second)], [start, end]);
        } else if ((second !== undefined && group.deltas.some((delta) => delta !== 0)) || endsMidDeclaration(source, group.branches, start)) {
          // Keep the first branch as plain code, so a `template<...>` or `TEST(A, B) {` in it joins what follows.
          cuts.push([first, directiveEnd(source, first)], [second ?? start, end]);
        }
        // What the enclosing branch sees is what is kept: the first branch, or the rest after `#if 0`.
        const kept = group.ifZero ? group.deltas.slice(1).reduce((a, b) => a + b, 0) : group.deltas[0];
        const parent = stack[stack.length - 1];
        if (parent) parent.deltas[parent.deltas.length - 1] += kept;
      }
    } else {
      const group = stack[stack.length - 1];
      if (group) {
        group.branches.push(start);
        group.deltas.push(0);
      }
    }
    last = end;
  }
  return cuts;
}

/** Some branch stops in the middle of a declaration (`class X<...> final` then `#else`): its last code line ends no statement. */
function endsMidDeclaration(source: string, branches: number[], endif: number): boolean {
  return branches.some((start, i) => {
    const from = source.indexOf('\n', start);
    const to = branches[i + 1] ?? endif;
    if (from < 0 || from >= to) return false;
    const lines = source.slice(from, to).split('\n').map((line) => line.replace(/\/\/.*$/, '').trim()).filter((line) => line && !line.startsWith('*') && !line.startsWith('/*'));
    const last = lines[lines.length - 1];
    return last !== undefined && !last.startsWith('#') && !/[;{},:\\)]$|\*\/$/.test(last);
  });
}

/** Braces and parentheses counted in one number (braces scaled past any real paren count), so sums keep both. */
const BRACE = 1 << 16;

/** `{` minus `}` (times BRACE) plus `(` minus `)` in code between two offsets, skipping comments, strings and char literals. */
function braceDelta(source: string, from: number, to: number): number {
  let delta = 0;
  for (let i = from; i < to; i++) {
    const c = source[i];
    if (c === '/' && source[i + 1] === '/') {
      const end = source.indexOf('\n', i);
      i = end < 0 || end > to ? to : end;
    } else if (c === '/' && source[i + 1] === '*') {
      const end = source.indexOf('*/', i + 2);
      i = end < 0 || end > to ? to : end + 1;
    } else if (c === '"' || c === '\'') {
      for (i++; i < to && source[i] !== c && source[i] !== '\n'; i++) if (source[i] === '\\') i++;
    } else if (c === '{') {
      delta += BRACE;
    } else if (c === '}') {
      delta -= BRACE;
    } else if (c === '(') {
      delta++;
    } else if (c === ')') {
      delta--;
    }
  }
  return delta;
}
