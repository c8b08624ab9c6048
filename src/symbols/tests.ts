/**
 * The tests among what an answer reached, by each language's conventions (`LanguageRules.tests`): a test
 * function the index holds (gtest's TEST, Go's TestX, pytest's test_x), a named block around a call site
 * (describe / it), else the test file itself. Shared by impact, changes and context.
 */
import type { ImpactTest } from '../../schemas/impact.js';
import type { StoredSymbol } from '../index/store.js';
import { languageOfPath } from '../languages/index.js';
import type { TestRules } from '../languages/types.js';
import type { Services } from '../services.js';
import { testBlocksAt } from '../syntax/test-blocks.js';

/** Something an answer reached: the symbol (when the index holds it), its file and where it depends on what it was reached from. */
export interface Reached {
  file: string;
  symbol?: StoredSymbol;
  sites: ReadonlyArray<{ file: string; line: number; column: number }>;
  distance: number;
}

/** The test rules of a file's language; undefined where it has none. */
export function testRulesOf(file: string): TestRules | undefined {
  return languageOfPath(file)?.rules.tests;
}

/** Whether a file is a test file by its language's conventions. */
export function isTestFile(file: string): boolean {
  return testRulesOf(file)?.file.test(file) === true;
}

/** The test a symbol is, named as its runner names it; undefined when it is none. */
export function testNameOf(symbol: StoredSymbol): string | undefined {
  const rules = testRulesOf(symbol.file);
  return rules?.testName?.(symbol, rules.file.test(symbol.file));
}

/** Files whose test blocks one answer reads at most (each parsed once). */
const BLOCK_FILES_MAX = 200;

/** The tests among `reached`, each once (its nearest distance), nearest first, then by file and line. */
export async function testsAmong(services: Services, reached: readonly Reached[]): Promise<ImpactTest[]> {
  const tests = new Map<string, ImpactTest>();
  const add = (test: ImpactTest): void => {
    const key = `${test.file}\u0000${test.name ?? ''}`;
    const known = tests.get(key);
    if (!known || test.distance < known.distance) tests.set(key, test);
  };
  // Sites in test files of languages that name tests by blocks, read per file.
  const blockSites = new Map<string, Array<{ line: number; column: number; distance: number }>>();
  const unnamed = new Map<string, number>();
  for (const entry of reached) {
    const named = entry.symbol ? testNameOf(entry.symbol) : undefined;
    if (named && entry.symbol) {
      add({ name: named, file: entry.symbol.file, line: entry.symbol.line, distance: entry.distance, id: entry.symbol.id });
      continue;
    }
    for (const file of new Set([entry.file, ...entry.sites.map((site) => site.file)])) {
      const rules = testRulesOf(file);
      if (!rules || !rules.file.test(file)) continue;
      const sites = entry.sites.filter((site) => site.file === file);
      if (rules.blockCalls && sites.length > 0) {
        const list = blockSites.get(file) ?? [];
        list.push(...sites.map((site) => ({ line: site.line, column: site.column, distance: entry.distance })));
        blockSites.set(file, list);
      } else {
        unnamed.set(file, Math.min(unnamed.get(file) ?? Infinity, entry.distance));
      }
    }
  }
  let read = 0;
  for (const [file, sites] of blockSites) {
    const rules = testRulesOf(file)!;
    const language = languageOfPath(file);
    const absolute = services.workspace.absolute(file);
    const text = read++ < BLOCK_FILES_MAX ? await services.workspace.files.text(absolute) : undefined;
    const blocks = text === undefined ? undefined : await testBlocksAt(language?.syntax, text, sites, rules.blockCalls ?? []);
    sites.forEach((site, i) => {
      const held = blocks?.[i] ?? [];
      if (held.length === 0) unnamed.set(file, Math.min(unnamed.get(file) ?? Infinity, site.distance));
      else add({ name: held.map((block) => block.name).join(' > '), file, line: held[held.length - 1].line, distance: site.distance });
    });
  }
  for (const [file, distance] of unnamed) {
    if (![...tests.values()].some((test) => test.file === file)) add({ name: null, file, line: null, distance });
  }
  return [...tests.values()].sort((a, b) => a.distance - b.distance || (a.file < b.file ? -1 : a.file > b.file ? 1 : (a.line ?? 0) - (b.line ?? 0)));
}
