/**
 * Searches answered again from src/index/search-cache.ts: the same answer, never a stale one (a write
 * through the store or another connection to the same database empties it), and a copy the caller may change.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import t from 'tap';
import { SearchCache, keyOf } from '../../src/index/search-cache.js';
import { SqliteSymbolStore } from '../../src/index/sqlite/store.js';
import { MATCH_TIERS, type FileUpdate, type SearchPage, type SearchSpec } from '../../src/index/store.js';
import type { ExtractedSymbol } from '../../src/syntax/types.js';

function symbol(name: string, line: number): ExtractedSymbol {
  const range = { start: { line, column: 1 }, end: { line, column: 1 + name.length } };
  return {
    name, kind: 'function', containers: [], qualifiedName: name, containingType: null, range, selectionRange: range,
    signature: `void ${name}(int column)`, parameters: [{ name: 'column', type: 'int' }], returnType: 'void', doc: null, definition: true, forwardDeclaration: false, bases: ['Base'], language: 'cpp',
  };
}

function file(name: string, symbols: ExtractedSymbol[]): FileUpdate {
  return { file: name, size: 1, mtimeMs: 1, hash: name, language: 'cpp', package: { name: 'ws', path: '.', manifest: null, external: false }, external: false, symbols };
}

const spec: SearchSpec = { name: 'Column', tiers: MATCH_TIERS, offset: 0, limit: 50, includeForwardDeclarations: false };

t.test('a repeated search gives the same answer, and a write is seen at once', async (t) => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'plumb-search-cache-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const database = path.join(dir, 'index.sqlite');
  const store = SqliteSymbolStore.open({ file: database });
  t.teardown(() => store.close());
  await store.write([file('a.cpp', [symbol('Column', 1), symbol('ColumnClause', 2), symbol('add_column', 3), ...Array.from({ length: 150 }, (_, i) => symbol(`column${i}`, i + 10))])], []);

  const first = await store.search(spec);
  const kept = structuredClone(first);
  t.equal(first.totalMatches, 153);
  // The caller owns its answer: changing it changes nothing the next caller gets.
  first.results[0].symbol.range.start.line = 999;
  first.results[0].symbol.parameters.push({ name: 'x', type: 'y' });
  first.results[0].symbol.bases.length = 0;
  first.results.pop();
  const again = await store.search(spec);
  t.same(again, kept, 'the same answer again');
  again.results[1].symbol.selectionRange.end.column = 0;
  t.same(await store.search(spec), kept, 'a copy again');
  t.same(await store.search({ ...spec, offset: 10, limit: 5 }), { ...kept, results: kept.results.slice(10, 15) }, 'another page is its own search');

  // A write through the store: the next search reads afresh.
  await store.write([file('b.cpp', [symbol('Column', 1)])], []);
  const written = await store.search(spec);
  t.equal(written.totalMatches, 154, 'the new symbol is counted');
  t.equal(written.results.filter((hit) => hit.tier === 'exact').length, 2);
  await store.write([], ['b.cpp']);
  t.equal((await store.search(spec)).totalMatches, 153, 'a removed file is gone');

  // A write by another connection to the same database (plumb index while plumb serves): data_version changes.
  const other = SqliteSymbolStore.open({ file: database });
  await other.write([file('c.cpp', [symbol('Column', 1), symbol('Columns', 2)])], []);
  await other.close();
  const elsewhere = await store.search(spec);
  t.equal(elsewhere.totalMatches, 155, 'what another connection committed is counted');
  t.same(elsewhere.results.map((hit) => hit.symbol.file).filter((f) => f === 'c.cpp').length, 2);
});

t.test('the cache keeps at most its pages and symbols, least recently used out first', async (t) => {
  const page = (n: number): SearchPage => ({
    results: Array.from({ length: n }, (_, i) => ({
      tier: 'exact' as const,
      symbol: {
        id: `id${i}`, name: 'f', kind: 'function' as const, file: 'a.cpp', line: i + 1, column: 1,
        range: { start: { line: i + 1, column: 1 }, end: { line: i + 1, column: 2 } }, selectionRange: { start: { line: i + 1, column: 1 }, end: { line: i + 1, column: 2 } },
        containingType: null, qualifiedName: 'f', signature: 'f()', parameters: [], returnType: null, package: 'ws', language: 'cpp' as const,
        definition: true, forwardDeclaration: false, external: false, doc: null, bases: [],
      },
    })),
    totalMatches: n,
    forwardDeclarations: 0,
  });
  const cache = new SearchCache(2, 100);
  let answered = 0;
  const ask = (name: string, n = 1, stamp = 1): SearchPage => cache.page({ ...spec, name }, stamp, () => {
    answered++;
    return page(n);
  });
  ask('a');
  ask('b');
  ask('a');
  t.equal(answered, 2, 'a repeat is not answered again');
  ask('c');
  t.equal(cache.size, 2);
  ask('a');
  t.equal(answered, 3, '`a` was used last, so `b` went out');
  ask('b');
  t.equal(answered, 4);
  ask('big', 101);
  ask('big', 101);
  t.equal(answered, 6, 'a page over the symbol bound is not kept');
  ask('d', 60);
  ask('e', 60);
  t.equal(cache.size, 1, 'two pages of 60 exceed 100 symbols: the older went out');
  ask('e', 60, 2);
  t.equal(answered, 9, 'another stamp answers afresh');
  t.equal(keyOf({ ...spec, kinds: ['class'] }) === keyOf(spec), false, 'filters are part of the key');

  // Asynchronous stores: an answer read while a change came in is given, not kept.
  const slow = new SearchCache();
  let release: () => void = () => undefined;
  const inFlight = slow.pageAsync(spec, 1, () => new Promise<SearchPage>((resolve) => {
    release = () => resolve(page(3));
  }));
  t.equal((await slow.pageAsync({ ...spec, name: 'other' }, 2, async () => page(1))).totalMatches, 1);
  release();
  t.equal((await inFlight).totalMatches, 3);
  t.equal(slow.size, 1, 'the answer begun before stamp 2 was not kept');
  let asked = 0;
  await slow.pageAsync(spec, 2, async () => { asked++; return page(4); });
  t.equal((await slow.pageAsync(spec, 2, async () => { asked++; return page(5); })).totalMatches, 4, 'kept under the stamp it was read at');
  t.equal(asked, 1);
  t.equal(keyOf({ includeForwardDeclarations: false, limit: 50, offset: 0, tiers: MATCH_TIERS, name: 'Column' }), keyOf(spec), 'the order a spec was written in is not');
  t.equal(keyOf({ ...spec, ...{ scope: 'team' } } as SearchSpec) === keyOf(spec), false, 'a field SearchSpec does not have yet is part of the key');
  t.equal(keyOf({ ...spec, kinds: ['class', 'struct'] }) === keyOf({ ...spec, kinds: ['class'] }), false, 'values in lists are');
});
