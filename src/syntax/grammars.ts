/**
 * Loads web-tree-sitter and the prebuilt WASM grammars lazily, one parser per grammar.
 * Module state is per thread, so each worker_thread loads its own copy.
 */
import { createRequire } from 'node:module';
import { Language, Parser, type Range, type Tree } from 'web-tree-sitter';

const require = createRequire(import.meta.url);

let runtime: Promise<void> | undefined;
const parsers = new Map<string, Promise<Parser>>();

function initRuntime(): Promise<void> {
  runtime ??= Parser.init().catch((error: unknown) => {
    runtime = undefined;
    throw error;
  });
  return runtime;
}

/** Path of a grammar's wasm file, resolved through the package rather than a fixed node_modules path. */
export function grammarWasmPath(grammar: string): string {
  return require.resolve(`@repomix/tree-sitter-wasms/out/tree-sitter-${grammar}.wasm`);
}

export function loadParser(grammar: string): Promise<Parser> {
  let parser = parsers.get(grammar);
  if (!parser) {
    parser = (async () => {
      await initRuntime();
      const language = await Language.load(grammarWasmPath(grammar));
      const instance = new Parser();
      instance.setLanguage(language);
      return instance;
    })();
    // A failed load is retried on the next call rather than cached.
    parser.catch(() => parsers.delete(grammar));
    parsers.set(grammar, parser);
  }
  return parser;
}

/**
 * Brackets nested deeper than this are not parsed: tree-sitter's TypeScript and JavaScript grammars overflow their
 * stack on `(,` nested 2,500 deep, and a parse that overflows leaves the thread's tree-sitter broken for every parse
 * after it (the next file reads as nothing). No code people write nests a thousand brackets.
 */
export const MAX_NESTING = 1000;

/** Whether `source` opens more than MAX_NESTING brackets without closing them (strings and comments counted too). */
export function nestsTooDeep(source: string): boolean {
  let depth = 0;
  for (let i = 0; i < source.length; i++) {
    const c = source.charCodeAt(i);
    if (c === 40 || c === 91 || c === 123) {
      if (++depth > MAX_NESTING) return true;
    } else if ((c === 41 || c === 93 || c === 125) && depth > 0) {
      depth--;
    }
  }
  return false;
}

/** A parse's tree, or why there is none: given up at its deadline, nested too deep to try, or failed. */
export type ParseOutcome = { tree: Tree } | { tree: null; reason: 'halted' | 'too_deep' | 'failed' };

/**
 * `source` parsed by `parser` within `budgetMs`, never resuming a parse an earlier call left halted. With
 * `skipBlankRuns` (a grammar to which line breaks are whitespace like any other: LanguageSpec.blankRunsSkippable),
 * tree-sitter does not read the inside of long runs of blank lines (blankRunRanges): the same tree, less lexing.
 */
export function parseWithin(parser: Parser, source: string, budgetMs: number, skipBlankRuns = false): ParseOutcome {
  if (nestsTooDeep(source)) return { tree: null, reason: 'too_deep' };
  const deadline = performance.now() + budgetMs;
  try {
    // A parse halted by its deadline resumes on the parser's next parse unless it is reset: the next file would be read as the rest of this one.
    parser.reset();
    const includedRanges = skipBlankRuns ? blankRunRanges(source) : undefined;
    const progressCallback = (): boolean => performance.now() > deadline;
    const tree = includedRanges
      ? parser.parse(rangeReader(source, includedRanges), null, { progressCallback, includedRanges })
      : parser.parse(source, null, { progressCallback });
    return tree ? { tree } : { tree: null, reason: 'halted' };
  } catch {
    return { tree: null, reason: 'failed' };
  }
}

/** A blank run this many characters long between its first and last line break is worth leaving out of the parse. */
const BLANK_RUN_MIN = 32;
/**
 * At most this many runs are left out (the longest): tree-sitter's lexer looks for its position among the ranges
 * from the first one whenever it steps back (ts_lexer_goto), so its cost grows with the ranges. A 20,000-function
 * file with a range per body parsed 1.4x slower than whole; its 1,024 longest runs, 1.5x faster.
 */
const BLANK_RUNS_MAX = 512;
/** A run of blanks holding two line breaks or more: its first line break, then up to its last one (greedy). */
const BLANK_RUN = /\n[\t\n\r ]*\n/g;

/**
 * The text for tree-sitter from `index` to the end of the range holding it (to the next range from a gap): it
 * copies what it is given into its buffer, up to 5,119 characters, and reads a new buffer at each range's start, so
 * `source.slice(index)` had it copy thousands of characters of a gap for each range it then jumped over.
 */
function rangeReader(source: string, ranges: Range[]): (index: number) => string {
  return (index) => {
    let low = 0;
    let high = ranges.length - 1;
    // The first range ending after index.
    while (low < high) {
      const mid = (low + high) >> 1;
      if (ranges[mid].endIndex <= index) low = mid + 1;
      else high = mid;
    }
    const range = ranges[low];
    return source.slice(index, index < range.startIndex ? range.startIndex : range.endIndex);
  };
}

/** The first space or tab after `from`, before `end` (-1 if none). */
function blankAfter(source: string, from: number, end: number): number {
  for (let i = from + 1; i < end; i++) {
    const c = source.charCodeAt(i);
    if (c === 32 || c === 9) return i;
  }
  return -1;
}

/** The last space or tab before the last line break at or before `from` (the run's), after `after` (-1 if none). */
function blankBefore(source: string, from: number, after: number): number {
  let i = from;
  while (i > after && source.charCodeAt(i) !== 10) i--;
  for (i--; i > after; i--) {
    const c = source.charCodeAt(i);
    if (c === 32 || c === 9) return i;
  }
  return -1;
}

/** Whether the line break at `at` follows a backslash (blanks between allowed, as compilers allow them). */
function continued(source: string, at: number): boolean {
  let i = at - 1;
  while (i >= 0 && (source.charCodeAt(i) === 32 || source.charCodeAt(i) === 9 || source.charCodeAt(i) === 13)) i--;
  return i >= 0 && source.charCodeAt(i) === 92;
}

/**
 * The ranges of `source` a parse must read when the inside of its long runs of blank lines is left out (C and C++
 * bodies blanked by the prepare step are most of their text): each run keeps its first and last line break and a
 * blank next to each, so a preprocessor line still ends at its own line break and whatever the lexer reads on either
 * side of a gap is what the text has there, and positions in the tree are the text's own (each range says where it
 * starts). undefined when no run is worth it.
 * The tree is the same: dumped node by node (type, field, offsets, rows and columns, missing, error) on 11,113 files of
 * the kernel (every 20th file, four times over), and index dumps of googletest, /usr/include, the kernel's fs/ and
 * include/ and two register headers read in pieces byte-identical. What it saves is the lexing of blanks (0.06-0.1 µs
 * a character), a third of the parse time of kernel C.
 */
export function blankRunRanges(source: string): Range[] | undefined {
  let gaps: Array<[number, number]> = [];
  BLANK_RUN.lastIndex = 0;
  for (let m = BLANK_RUN.exec(source); m; m = BLANK_RUN.exec(source)) {
    // Between a blank after the first line break and a blank before the last one, both kept: a token at either side
    // (a directive's line break, which takes the line breaks right after it) meets the blank the text has there, never
    // a character from across the gap. A line break a backslash escapes (a directive or a // comment goes on) is not
    // the first: the blank line it joins ends them.
    const runEnd = m.index + m[0].length;
    const first = continued(source, m.index) ? source.indexOf('\n', m.index + 1) : m.index;
    const left = blankAfter(source, first, runEnd);
    const right = blankBefore(source, runEnd - 1, first);
    if (left >= 0 && right > left && right - left - 1 >= BLANK_RUN_MIN) gaps.push([left + 1, right]);
  }
  if (gaps.length === 0) return undefined;
  if (gaps.length > BLANK_RUNS_MAX) gaps = gaps.sort((a, b) => b[1] - b[0] - (a[1] - a[0]) || a[0] - b[0]).slice(0, BLANK_RUNS_MAX).sort((a, b) => a[0] - b[0]);
  const ranges: Range[] = [];
  // Rows counted line break by line break.
  let row = 0;
  let counted = 0;
  const rowAt = (offset: number): number => {
    for (let at = source.indexOf('\n', counted); at !== -1 && at < offset; at = source.indexOf('\n', at + 1)) row++;
    counted = offset;
    return row;
  };
  const columnAt = (offset: number): number => offset - (source.lastIndexOf('\n', offset - 1) + 1);
  let from = 0;
  let fromPosition = { row: 0, column: 0 };
  for (const [start, end] of gaps) {
    ranges.push({ startIndex: from, endIndex: start, startPosition: fromPosition, endPosition: { row: rowAt(start), column: columnAt(start) } });
    from = end;
    fromPosition = { row: rowAt(end), column: columnAt(end) };
  }
  ranges.push({ startIndex: from, endIndex: source.length, startPosition: fromPosition, endPosition: { row: rowAt(source.length), column: columnAt(source.length) } });
  return ranges;
}
