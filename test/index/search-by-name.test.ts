/**
 * A large CamelCase tier's page walked in name order (SQLite's pageIdsByName): the same page as sorting the whole tier,
 * for names whose first hump comes after other characters, in either case, of every rank, and past the first page.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import t from 'tap';
import { SqliteSymbolStore } from '../../src/index/sqlite/store.js';
import { firstHumpRanges, SearchPlanner } from '../../src/index/sqlite/search.js';
import { firstHump, fuzzyMatches } from '../../src/index/ranking.js';
import { MATCH_TIERS, type SearchSpec } from '../../src/index/store.js';
import type { ExtractedSymbol } from '../../src/syntax/types.js';

function symbol(name: string, line: number, how: 'definition' | 'declaration' | 'forward'): ExtractedSymbol {
  const range = { start: { line, column: 1 }, end: { line, column: 1 + name.length } };
  return {
    name, kind: 'function', containers: [], qualifiedName: name, containingType: null, range, selectionRange: range,
    signature: `void ${name}(void)`, parameters: [], returnType: 'void', doc: null, definition: how === 'definition', forwardDeclaration: how === 'forward', bases: [], language: 'c',
  };
}

const pkg = { name: 'ws', path: '.', manifest: null, external: false };

t.test('firstHumpRanges holds every name whose first hump starts with the prefix, in BINARY order', async (t) => {
  const ranges = firstHumpRanges('ds2');
  const inRange = (name: string): boolean => ranges.some(([from, to]) => name >= from && (to === undefined || name < to));
  for (const name of ['DS2x', 'DS2_y', 'Ds2', 'ds2abc', '_ds2', '__DS2_Q', '$ds2', '~ds2', 'éds2', ' ds2', 'dS2']) {
    t.ok(firstHump(name).startsWith('ds2') || name === 'dS2', `${name}: its first hump starts with ds2`);
    t.ok(inRange(name), `${name} is in a range`);
  }
  for (const name of ['Dt2', 'a_ds2', 'Zds2', 'ds3', '9_ds2']) t.notOk(inRange(name), `${name} is in none`);
  const starts = ranges.map(([from]) => from);
  t.same(starts, [...starts].sort(), 'sorted by where they start');
  for (let i = 1; i < ranges.length; i++) t.ok(ranges[i - 1][1] !== undefined && ranges[i - 1][1]! <= ranges[i][0], 'disjoint');
});

t.test('a CamelCase tier past NARROW_MAX pages in ORDER_IN_TIER, walked by name or sorted', async (t) => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'plumb-by-name-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const store = SqliteSymbolStore.open({ file: path.join(dir, 'index.sqlite') });
  t.teardown(() => store.close());
  // `DSync` (humps d, sync): 1,800 definitions spread over the ranges a first hump `d` allows (upper and lower case, after `_`,
  // `__` and `$`), 300 declarations (rank 1), 100 forward declarations and 200 external definitions (rank 2) named
  // before all of them (`!`), and names that are not matches (first hump not `d`, no `sync` hump) in between.
  const leads = ['D', 'd', '_d', '__D', '$d', 'D0_', 'dx_'];
  const own: ExtractedSymbol[] = [];
  let line = 1;
  for (let i = 0; i < 1_800; i++) own.push(symbol(`${leads[i % leads.length]}${(i * 7919) % 1_800}_SYNC_${i % 3 ? 'X' : 'y'}`, line++, 'definition'));
  for (let i = 0; i < 300; i++) own.push(symbol(`!D${String(i).padStart(3, '0')}_sync_decl`, line++, 'declaration'));
  for (let i = 0; i < 100; i++) own.push(symbol(`!D${String(i).padStart(3, '0')}_sync_fwd`, line++, 'forward'));
  for (let i = 0; i < 600; i++) own.push(symbol(`${['C', 'E', '_e', 'd'][i % 4]}${i}_ASYNC_NOT`, line++, 'definition'));
  const external = Array.from({ length: 200 }, (_, i) => symbol(`!d${i}_sync_ext`, i + 1, 'definition'));
  await store.write([
    { file: 'a.c', size: 1, mtimeMs: 1, hash: 'a', language: 'c', package: pkg, external: false, symbols: own },
    { file: 'x.c', size: 1, mtimeMs: 1, hash: 'x', language: 'c', package: { ...pkg, external: true }, external: true, symbols: external },
  ], []);

  // The tier as documented: fuzzy matches not starting with the query, by rank (definitions, declarations, external), then
  // name by code point, then line (one file per rank here).
  const query = 'DSync';
  const rank = (s: ExtractedSymbol, ext: boolean): number => (ext ? 2 : 0) + (s.definition ? 0 : 1);
  const tier = [...own.map((s) => ({ s, r: rank(s, false) })), ...external.map((s) => ({ s, r: rank(s, true) }))]
    .filter(({ s }) => !s.forwardDeclaration && fuzzyMatches(s.name, query) && !s.name.toLowerCase().startsWith(query.toLowerCase()))
    .sort((a, b) => a.r - b.r || (a.s.name < b.s.name ? -1 : a.s.name > b.s.name ? 1 : 0) || a.s.range.start.line - b.s.range.start.line);
  t.ok(tier.filter(({ r }) => r === 0).length > 1_500, 'a tier past NARROW_MAX, most of it rank 0');

  const walk = SearchPlanner.prototype as unknown as { pageByName: (...args: unknown[]) => number[] | undefined };
  const original = walk.pageByName;
  t.teardown(() => {
    walk.pageByName = original;
  });
  for (const mode of ['walked', 'sorted'] as const) {
    let walked = 0;
    walk.pageByName = function (this: unknown, ...args: unknown[]) {
      if (mode === 'sorted') return undefined;
      const ids = original.apply(this, args);
      if (ids) walked++;
      return ids;
    };
    // Each page once per mode (a new limit each time: the answer cache holds pages by spec).
    for (const [offset, limit] of [[0, 50], [50, 60], [400, 45], [1_400, 70]] as const) {
      const spec: SearchSpec = { name: query, tiers: MATCH_TIERS, offset, limit: mode === 'walked' ? limit : limit + 1, includeForwardDeclarations: false };
      const page = await store.search(spec);
      t.same(page.results.slice(0, limit).map((hit) => `${hit.tier} ${hit.symbol.name} ${hit.symbol.line}`),
        tier.slice(offset, offset + limit).map(({ s }) => `fuzzy ${s.name} ${s.range.start.line}`), `${mode}: offset ${offset}`);
    }
    if (mode === 'walked') t.ok(walked >= 2, `pages walked in name order (${walked})`);
  }
});
