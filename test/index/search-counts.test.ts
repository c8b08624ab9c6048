/**
 * Counting in SqliteSymbolStore.search: exact up to COUNT_CAP, then a flagged lower bound, with
 * the same page either way; exact again whenever forward declarations are listed.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import t from 'tap';
import { SqliteSymbolStore } from '../../src/index/sqlite/store.js';
import { fuzzyTrigrams, trigramMatch } from '../../src/index/sqlite/search.js';
import { fuzzyMatches } from '../../src/index/ranking.js';
import { qualifierMatches } from './helpers.js';
import { COUNT_CAP, MATCH_TIERS, type SearchSpec } from '../../src/index/store.js';
import type { ExtractedSymbol } from '../../src/syntax/types.js';
import { symbolSearchMarkdown } from '../../src/format/symbols.js';

function symbol(name: string, line: number, forwardDeclaration = false): ExtractedSymbol {
  const range = { start: { line, column: 1 }, end: { line, column: 1 + name.length } };
  return {
    name, kind: forwardDeclaration ? 'class' : 'function', containers: [], qualifiedName: name, containingType: null, range, selectionRange: range,
    signature: `void ${name}()`, parameters: [], returnType: 'void', doc: null, definition: !forwardDeclaration, forwardDeclaration, bases: [], language: 'cpp',
  };
}

t.test('a generic query counts up to the cap, flags it, and keeps the page', async (t) => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'plumb-counts-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const store = SqliteSymbolStore.open({ file: path.join(dir, 'index.sqlite') });
  t.teardown(() => store.close());
  // 60 exact matches fill the page; 12,000 prefix matches and 30 forward declarations lie past it.
  const symbols = [
    ...Array.from({ length: 60 }, (_, i) => symbol('get', i + 1)),
    ...Array.from({ length: COUNT_CAP + 2_000 }, (_, i) => symbol(`getValue${i}`, i + 100)),
    ...Array.from({ length: 30 }, (_, i) => symbol(`getThing${i}`, i + 20_000, true)),
  ];
  await store.write([{ file: 'a.cpp', size: 1, mtimeMs: 1, hash: 'h', language: 'cpp', package: { name: 'ws', path: '.', manifest: null, external: false }, external: false, symbols }], []);
  const spec: SearchSpec = { name: 'get', tiers: MATCH_TIERS, offset: 0, limit: 50, includeForwardDeclarations: false };

  const capped = await store.search(spec);
  t.equal(capped.countsCapped, true);
  t.ok(capped.totalMatches + capped.forwardDeclarations >= COUNT_CAP, 'counted up to the cap');
  t.ok(capped.totalMatches <= 60 + COUNT_CAP + 2_000, 'a lower bound');
  t.same(capped.results.map((hit) => hit.tier), Array(50).fill('exact'));

  const exact = await store.search({ ...spec, includeForwardDeclarations: true });
  t.equal(exact.countsCapped, undefined, 'listing forward declarations counts everything');
  t.equal(exact.totalMatches, 60 + COUNT_CAP + 2_000);
  t.equal(exact.forwardDeclarations, 30);
  t.same(exact.results.map((hit) => hit.symbol.id), capped.results.map((hit) => hit.symbol.id), 'the same page');

  // A page beyond the cap still counts up to its own end and lists the right symbols.
  const far = await store.search({ ...spec, offset: COUNT_CAP + 1_000, limit: 10 });
  const farExact = await store.search({ ...spec, offset: COUNT_CAP + 1_000, limit: 10, includeForwardDeclarations: true });
  t.same(far.results.map((hit) => hit.symbol.id), farExact.results.map((hit) => hit.symbol.id));
  t.equal(far.results.length, 10);

  const markdown = symbolSearchMarkdown({ query: 'get', results: [], limit: 50, offset: 0, totalMatches: 10_020, truncated: true, forwardDeclarations: 0, countsCapped: true, source: 'index', elapsedMs: 1 });
  t.match(markdown, 'of 10,020+ matches');
  t.match(markdown, `Counting stopped at ${COUNT_CAP.toLocaleString('en-US')} matches`);

  const narrow = await store.search({ ...spec, name: 'getValue1999' });
  t.equal(narrow.countsCapped, undefined, 'a specific query counts exactly');
});

t.test('a tier checked name by name that the page reaches, past NARROW_MAX: counted up to the cap, paged in order', async (t) => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'plumb-wide-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const store = SqliteSymbolStore.open({ file: path.join(dir, 'index.sqlite') });
  t.teardown(() => store.close());
  // Substring tiers: 700 definitions and 20 forward declarations holding `abcdef` (past NARROW_MAX, under the cap), 1,500 holding `ghijkl`.
  const few = Array.from({ length: 700 }, (_, i) => `q${i}_abcdef`);
  const fwd = Array.from({ length: 20 }, (_, i) => `f${i}_abcdef`);
  const many = Array.from({ length: 1_500 }, (_, i) => `r${i}_ghijkl`);
  const symbols = [...few.map((name, i) => symbol(name, i + 1)), ...fwd.map((name, i) => symbol(name, i + 1_000, true)), ...many.map((name, i) => symbol(name, i + 2_000))];
  await store.write([{ file: 'w.cpp', size: 1, mtimeMs: 1, hash: 'h', language: 'cpp', package: { name: 'ws', path: '.', manifest: null, external: false }, external: false, symbols }], []);
  // Within the tier: one rank, distinct names, so by name (code units: ASCII).
  const sorted = (names: string[]): string[] => [...names].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  const spec: SearchSpec = { name: 'abcdef', tiers: MATCH_TIERS, offset: 0, limit: 50, includeForwardDeclarations: false };

  // As documented: a tier the page reaches past NARROW_MAX counts its definitions up to the cap (or the page's end), then its
  // forward declarations up to what is left of it, and says countsCapped when either count reached its limit.
  const counts = (main: number, fwd: number, end: number): [number, number, true | undefined] => {
    const cap = Math.max(COUNT_CAP, end + 1);
    const counted = Math.min(main, cap);
    const fwdLimit = cap - counted;
    const fwdCounted = fwdLimit > 0 ? Math.min(fwd, fwdLimit) : 0;
    return [counted, fwdCounted, counted >= cap || fwdCounted >= fwdLimit ? true : undefined];
  };
  const first = await store.search(spec);
  t.same([first.totalMatches, first.forwardDeclarations, first.countsCapped], counts(700, 20, 50), 'counts as documented');
  t.same(first.results.map((hit) => hit.symbol.name), sorted(few).slice(0, 50));
  t.ok(first.results.every((hit) => hit.tier === 'substring'));
  const last = await store.search({ ...spec, offset: 680 });
  t.same(last.results.map((hit) => hit.symbol.name), sorted(few).slice(680));
  const withFwd = await store.search({ ...spec, offset: 690, includeForwardDeclarations: true });
  t.same(withFwd.results.map((hit) => hit.symbol.name), [...sorted(few).slice(690), ...sorted(fwd)], 'forward declarations after the rest');

  const capped = await store.search({ ...spec, name: 'ghijkl' });
  t.same([capped.totalMatches, capped.forwardDeclarations, capped.countsCapped], counts(1_500, 0, 50), 'counted up to the cap');
  t.same(capped.results.map((hit) => hit.symbol.name), sorted(many).slice(0, 50));
  const all = await store.search({ ...spec, name: 'ghijkl', includeForwardDeclarations: true });
  t.same([all.totalMatches, all.countsCapped], [1_500, undefined]);
  t.same(all.results.map((hit) => hit.symbol.id), capped.results.map((hit) => hit.symbol.id), 'the same page');
  const far = await store.search({ ...spec, name: 'ghijkl', offset: 1_200, limit: 10 });
  t.same([far.totalMatches, far.countsCapped], [1_211, true], 'a page past the cap counts one past its end');
  t.same(far.results.map((hit) => hit.symbol.name), sorted(many).slice(1_200, 1_210));
});

t.test('a qualified query keeps what qualifierMatches keeps', async (t) => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'plumb-qualified-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const store = SqliteSymbolStore.open({ file: path.join(dir, 'index.sqlite') });
  t.teardown(() => store.close());
  const qualifiedNames = ['leveldb::Iterator', 'ns::leveldb::Iterator', 'myleveldb::Iterator', 'leveldb.Iterator', 'x#leveldb::Iterator', 'Iterator', 'leveldb::sub::Iterator', 'a.b.leveldb.Iterator'];
  const symbols = qualifiedNames.map((qualifiedName, i) => ({ ...symbol('Iterator', i + 1), qualifiedName }));
  await store.write([{ file: 'q.cpp', size: 1, mtimeMs: 1, hash: 'h', language: 'cpp', package: { name: 'ws', path: '.', manifest: null, external: false }, external: false, symbols }], []);
  for (const qualifier of ['leveldb', 'ns.leveldb', 'b.leveldb', 'sub']) {
    const page = await store.search({ name: 'Iterator', qualifier, tiers: ['exact'], offset: 0, limit: 50, includeForwardDeclarations: false });
    t.same(page.results.map((hit) => hit.symbol.qualifiedName).sort(), qualifiedNames.filter((qn) => qualifierMatches(qn, 'Iterator', qualifier)).sort(), qualifier);
  }
});

t.test('the CamelCase tier finds the same names through a rare trigram as through a common first hump', async (t) => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'plumb-camel-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const store = SqliteSymbolStore.open({ file: path.join(dir, 'index.sqlite') });
  t.teardown(() => store.close());
  // 200 names start with `get`; a handful hold `json`, so `get_json` reads them through the trigram index.
  const names = [...Array.from({ length: 200 }, (_, i) => `getValue${i}`), 'getJson', 'get_json_body', 'getJSONObject', 'get_the_json', 'getjsonish', 'jsonGet', '_get_json', 'GetJs', 'fetch_json'];
  await store.write([{ file: 'j.cpp', size: 1, mtimeMs: 1, hash: 'h', language: 'cpp', package: { name: 'ws', path: '.', manifest: null, external: false }, external: false, symbols: names.map((name, i) => symbol(name, i + 1)) }], []);
  for (const query of ['get_json', 'getJson', 'GJ', 'getJSONObj', 'GJSONO']) {
    const page = await store.search({ name: query, tiers: ['fuzzy'], offset: 0, limit: 50, includeForwardDeclarations: false });
    const expected = names.filter((name) => fuzzyMatches(name, query) && !name.toLowerCase().startsWith(query.toLowerCase()));
    t.same(page.results.map((hit) => hit.symbol.name).sort(), expected.sort(), query);
  }
});

t.test('the CamelCase tier takes queries mixing words and initials (`UMyASC`), through every plan', async (t) => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'plumb-camel-mixed-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const store = SqliteSymbolStore.open({ file: path.join(dir, 'index.sqlite') });
  t.teardown(() => store.close());
  // Many names start with `u`: the trigram plan is taken for long humps, the first-hump scan otherwise.
  const names = [
    ...Array.from({ length: 300 }, (_, i) => `UValue${i}`), 'UMyAbilitySystemComponent', 'UMyASCProxy', 'UMyAbilityComponent', 'UMyAttributeSetComponent',
    'UMyAbilitySystemComponentBase', 'AbilitySystemComponentManager', 'ASCManager', 'UYourAbilitySystemComponent', 'umy_ability_system_component',
  ];
  await store.write([{ file: 'u.h', size: 1, mtimeMs: 1, hash: 'h', language: 'cpp', package: { name: 'ws', path: '.', manifest: null, external: false }, external: false, symbols: names.map((name, i) => symbol(name, i + 1)) }], []);
  for (const query of ['UMyASC', 'UMyASComponent', 'UASCBase', 'ASCMan', 'UMyAbilitySC']) {
    const page = await store.search({ name: query, tiers: ['fuzzy'], offset: 0, limit: 50, includeForwardDeclarations: false });
    const expected = names.filter((name) => fuzzyMatches(name, query) && !name.toLowerCase().startsWith(query.toLowerCase()));
    t.ok(expected.length > 0, `${query} matches something`);
    t.same(page.results.map((hit) => hit.symbol.name).sort(), expected.sort(), query);
  }
  const all = await store.search({ name: 'UMyASC', tiers: MATCH_TIERS, offset: 0, limit: 50, includeForwardDeclarations: false });
  t.same(all.results.filter((hit) => hit.tier === 'fuzzy').map((hit) => hit.symbol.name).sort(), ['UMyAbilitySystemComponent', 'UMyAbilitySystemComponentBase', 'UMyAttributeSetComponent'], 'UMyASC finds UMyAbilitySystemComponent (and UMyAttributeSetComponent) as fuzzy');
  t.same(all.results.filter((hit) => hit.tier === 'prefix').map((hit) => hit.symbol.name), ['UMyASCProxy'], 'a name starting with it is a prefix match');
});

t.test('trigramMatch: non-overlapping trigrams of an ASCII query, or given counts the rarest of each piece; the phrase otherwise', async (t) => {
  t.equal(trigramMatch('Matcher'), '"mat" AND "che" AND "her"');
  t.equal(trigramMatch('abcdef'), '"abc" AND "def"');
  t.equal(trigramMatch('get'), '"get"');
  t.equal(trigramMatch('Größe'), '"Größe"');
  t.equal(trigramMatch('a"bcd'), '"a""b" AND "bcd"');
  const docs: Record<string, number> = { mat: 50, atc: 9, tch: 70, che: 3, her: 90 };
  t.equal(trigramMatch('Matcher', (trigram) => docs[trigram]), '"atc" AND "her"', 'two pieces, matc and her: the rarest of each, given counts');
  t.equal(trigramMatch('Match', (trigram) => docs[trigram] ?? 0), '"atc" AND "mat" AND "tch"', 'under six characters: its three rarest');
  t.equal(trigramMatch('get', (trigram) => docs[trigram] ?? 0), '"get"');
  // The three rarest of `write_reg` all come from `write`; its pieces wri, te_ and reg give one each.
  const kernel: Record<string, number> = { wri: 34_701, rit: 35_120, ite: 36_002, te_: 51_230, e_r: 60_410, _re: 140_220, reg: 210_532 };
  t.equal(trigramMatch('write_reg', (trigram) => kernel[trigram] ?? 0), '"wri" AND "te_" AND "reg"', 'not wri, rit and ite');
  const looked: string[] = [];
  trigramMatch('abcdefghijklmn', (trigram) => (looked.push(trigram), 1));
  t.same(looked, ['abc', 'bcd', 'cde', 'fgh', 'ghi', 'jkl', 'klm', 'lmn'], 'a long query: the trigrams of its three pieces');
});

t.test('fuzzyTrigrams: the rarest trigram of each long hump, as many as lower the estimated cost', async (t) => {
  const docs: Record<string, number> = { tes: 17697, est: 36401, par: 15603, art: 5340, res: 23488, esu: 3072, sul: 2311, ult: 8173, get: 32080, jso: 636, son: 2006 };
  const count = (trigram: string): number => docs[trigram] ?? 0;
  const partResult = fuzzyTrigrams(['test', 'part', 'result'], count, 541_732);
  t.same(partResult?.trigrams, ['sul', 'art'], 'one per hump, rarest first; the common `tes` costs more than it spares');
  t.ok(partResult && partResult.cost < 7986 * 0.12, 'cheaper than scanning the 7,986 names whose first hump starts with `test`');
  t.same(fuzzyTrigrams(['get', 'json'], count, 541_732)?.trigrams, ['jso'], '`get` in 32,080 names spares less than its list costs');
  t.equal(fuzzyTrigrams(['f', 'p', 'c'], count, 541_732), undefined, 'initials alone have no trigram');
});
