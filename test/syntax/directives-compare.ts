/**
 * Headers of nothing but preprocessor lines read both ways: by the language's reader without tree-sitter
 * (LanguageSpec.readWithoutParse, src/languages/cpp/defines.ts) and by the parse. Shared by
 * test/syntax/c-directives.test.ts and bench/directives.ts.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { languageById } from '../../src/languages/index.js';
import { preprocessorPieces } from '../../src/languages/cpp/large-headers.js';
import { extractSymbols, type SyntaxLanguage } from '../../src/syntax/index.js';
import type { LanguageId } from '../../src/syntax/types.js';

export interface DirectivesComparison {
  /** Files the reader took, of all given, and their bytes. */
  taken: number;
  bytes: number;
  takenBytes: number;
  /** Symbols of the files taken. */
  symbols: number;
  /** One thread's time: prepare + read of every file; prepare + parse + walk of those taken. */
  readMs: number;
  parseMs: number;
  /** Each file taken whose symbols differ from the parse's, with the first difference. */
  differing: string[];
}

/** The language `id` as the index has it, and the same without its reader (every file parsed). */
export function readingAndParsing(id: LanguageId): { reading: SyntaxLanguage; parsing: SyntaxLanguage } {
  const language = languageById(id);
  if (!language?.syntax.readWithoutParse || !language.syntax.prepare) throw new Error(`${id} reads no file without parsing`);
  return { reading: language, parsing: { id: language.id, syntax: { ...language.syntax, readWithoutParse: undefined } } };
}

/** Whether the file holds only preprocessor lines, comments and blank lines (large-headers.ts' test of it). */
export function onlyDirectives(root: string, file: string): boolean {
  return preprocessorPieces(readFileSync(path.join(root, file), 'utf8'), Number.MAX_SAFE_INTEGER) !== undefined;
}

/** Reads every file as `id` both ways. */
export async function compareReadAndParse(root: string, files: string[], id: LanguageId): Promise<DirectivesComparison> {
  const { reading, parsing } = readingAndParsing(id);
  const { prepare, readWithoutParse } = reading.syntax;
  const out: DirectivesComparison = { taken: 0, bytes: 0, takenBytes: 0, symbols: 0, readMs: 0, parseMs: 0, differing: [] };
  for (const file of files) {
    const source = readFileSync(path.join(root, file), 'utf8');
    out.bytes += source.length;
    let clock = performance.now();
    const taken = readWithoutParse?.(prepare?.(source) ?? source, source, id) !== undefined;
    out.readMs += performance.now() - clock;
    if (!taken) continue;
    out.taken++;
    out.takenBytes += source.length;
    clock = performance.now();
    const parsed = await extractSymbols(parsing, source);
    out.parseMs += performance.now() - clock;
    // What the index gets: extraction as it runs, which takes the reader's way here.
    const read = await extractSymbols(reading, source);
    out.symbols += read.length;
    if (JSON.stringify(read) !== JSON.stringify(parsed)) {
      const at = read.findIndex((symbol, i) => JSON.stringify(symbol) !== JSON.stringify(parsed[i]));
      out.differing.push(`${file}: ${read.length} read, ${parsed.length} parsed; first difference ${JSON.stringify(read[at])} against ${JSON.stringify(parsed[at])}`);
    }
  }
  return out;
}
