/**
 * The syntax layer: tree-sitter symbol extraction for the index. Knows nothing semantic.
 *
 * Conventions every language module keeps (tests in test/syntax/ pin them):
 * - `containers` are the enclosing namespaces/types/functions as written in this file; a C++
 *   out-of-line `void ns::A::f()` adds its qualifiers, and `A` becomes the containing type unless
 *   every qualifier is a namespace declared in the file. No module path is part of it: the index
 *   records Python, Go and Java module paths beside it (index/modules.ts) for qualified search.
 * - `definition` is false for anything without a body: prototypes, methods declared in a class,
 *   pure virtuals, abstract/interface/trait methods, TypeScript overload signatures and `declare`,
 *   Python `...` stubs and `@overload`s, extern blocks. `forwardDeclaration` is `class X;`-style only.
 * - `range` includes template heads, decorators, attributes and export/declare wrappers;
 *   `selectionRange` is the name. Columns are UTF-16 code units; a leading BOM is not counted.
 * - Locals are not symbols; local classes, nested functions and lambdas bound to names are.
 * - C, C++, Go, Java and Rust function bodies that can hold none of those are blanked before
 *   parsing (languages/bodies.ts): ranges and signatures are the same, the parse is cheaper.
 */
import type { ExtractedSymbol, LanguageId } from './types.js';
import { aliasedBaseNames, importAliases } from './bases.js';
import { extractFromTree } from './extract.js';
import { loadParser, parseWithin } from './grammars.js';
import type { LanguageSpec } from './spec.js';
import { macroSymbols, type MacroRows } from './macro-rows.js';

/** What extraction needs of a language (src/languages/<id>/): its id, stored with each symbol, and its spec. */
export interface SyntaxLanguage {
  id: string;
  syntax: LanguageSpec;
}

const PARSE_BUDGET_MS = 1500;

/** Where imports rename (`importsRename`), a base written through an alias also names what it stands for (inheritors find it). */
function addBaseAliases(spec: LanguageSpec, source: string, symbols: ExtractedSymbol[]): void {
  if (!symbols.some((symbol) => symbol.bases.length > 0)) return;
  const aliases = importAliases(spec, source);
  if (aliases.size === 0) return;
  for (const symbol of symbols) {
    const names = aliasedBaseNames(aliases, symbol.bases);
    if (names.length > 0) symbol.baseAliases = names;
  }
}
const PARSE_BUDGET_PER_MB_MS = 5000;

/** Milliseconds spent per step of extractSymbols, added to by each call that is given one (the build's profile). */
export interface ExtractTiming {
  prepare: number;
  parse: number;
  extract: number;
}

/** Every symbol tree-sitter sees in `source`, in document order. Never throws on bad input. */
export async function extractSymbols(language: SyntaxLanguage, source: string, timing?: ExtractTiming): Promise<ExtractedSymbol[]> {
  return (await extractFileSymbols(language, source, timing)).symbols;
}

/** What extractFileSymbols read: the symbols, and when tree-sitter gave up on the file, after how long (its budget). */
export interface Extraction {
  symbols: ExtractedSymbol[];
  /**
   * Set, with no `symbols`, for a caller that takes rows (`rows` option) when the language read the file without
   * parsing it (LanguageSpec.readWithoutParse): its macros, not made objects.
   */
  rows?: MacroRows;
  /** Set when the parse was halted at its deadline: the file's symbols are not known (never a silent empty file). */
  gaveUpAfterMs?: number;
  /** Set when the file nests brackets deeper than tree-sitter is asked to parse (MAX_NESTING): not parsed. */
  tooDeep?: true;
}

/** The milliseconds tree-sitter may spend on a source this long before plumb gives up on it. */
export function parseBudgetMs(length: number): number {
  return PARSE_BUDGET_MS + (length / 1_000_000) * PARSE_BUDGET_PER_MB_MS;
}

/**
 * extractSymbols, saying when the parse was given up (the index lists such a file rather than storing it empty).
 * `budgetMs` replaces parseBudgetMs(source.length); with `rows`, a file read without parsing is given as rows.
 */
export async function extractFileSymbols(language: SyntaxLanguage, source: string, timing?: ExtractTiming, budgetMs?: number, rows = false): Promise<Extraction> {
  const spec = language?.syntax;
  if (!spec || typeof source !== 'string') return { symbols: [] };
  const parser = await loadParser(spec.grammar);
  // Editors and language servers drop a byte-order mark, so columns on line 1 must not count it.
  if (source.charCodeAt(0) === 0xfeff) source = source.slice(1);
  let prepared = source;
  let clock = timing ? performance.now() : 0;
  try {
    if (spec.prepare) prepared = spec.prepare(source);
  } catch {
    // Preparing is a best effort; the unprepared source still parses.
    prepared = source;
  }
  if (timing) clock = lap(timing, 'prepare', clock);
  const read = spec.readWithoutParse?.(prepared, source, language.id as LanguageId);
  if (read) {
    const extraction = rows ? { symbols: [], rows: read } : { symbols: macroSymbols(read) };
    if (timing) lap(timing, 'extract', clock);
    return extraction;
  }
  // Error recovery on pathological input (thousands of unclosed brackets) can take seconds: give up instead.
  const budget = budgetMs ?? parseBudgetMs(source.length);
  const parsed = parseWithin(parser, prepared, budget, spec.blankRunsSkippable);
  if (timing) clock = lap(timing, 'parse', clock);
  if (!parsed.tree) {
    if (parsed.reason === 'halted') return { symbols: [], gaveUpAfterMs: Math.round(budget) };
    return parsed.reason === 'too_deep' ? { symbols: [], tooDeep: true } : { symbols: [] };
  }
  const tree = parsed.tree;
  try {
    // A language outside LANGUAGES (a test's withLanguages) stores its own id.
    const symbols = extractFromTree(tree, spec, language.id as LanguageId, prepared, source);
    if (spec.importsRename) addBaseAliases(spec, source, symbols);
    return { symbols };
  } catch {
    return { symbols: [] };
  } finally {
    tree.delete();
    if (timing) lap(timing, 'extract', clock);
  }
}

function lap(timing: ExtractTiming, step: keyof ExtractTiming, since: number): number {
  const now = performance.now();
  timing[step] += now - since;
  return now;
}
