/**
 * The CamelCase tier over a first hump that may be initials, on an index large enough for it to read its candidates
 * from name_initials (each name's first initial paired with each later one) instead of scanning every name starting
 * with that letter: the tier holds exactly the names CamelCase matching (fuzzyMatches) accepts, as before; the same
 * in PostgreSQL, which reads them from the names' pairs through a GIN index.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import t, { type Test as TapTest } from 'tap';
import { camelHumps, camelPairs, fuzzyMatches, humpInitialsPairs, humpSegments, humpsOf, initialPairs } from '../../src/index/ranking.js';
import { PostgresSymbolStore } from '../../src/index/postgres/store.js';
import { SqliteSymbolStore } from '../../src/index/sqlite/store.js';
import type { SearchSpec, SymbolStore } from '../../src/index/store.js';
import type { ExtractedSymbol } from '../../src/syntax/types.js';
import { postgresBinaries, startPostgres } from '../postgres.js';

function symbol(name: string, line: number): ExtractedSymbol {
  const range = { start: { line, column: 1 }, end: { line, column: 1 + name.length } };
  return {
    name, kind: 'function', containers: [], qualifiedName: name, containingType: null, range, selectionRange: range,
    signature: `void ${name}()`, parameters: [], returnType: 'void', doc: null, definition: true, forwardDeclaration: false, bases: [], language: 'cpp',
  };
}

t.test('pairs of initials', async (t) => {
  t.equal(initialPairs('fmpc'), 'fm fp fc');
  t.equal(initialPairs('ssts'), 'ss st', 'each pair once');
  t.equal(initialPairs('f'), '');
  t.same(camelPairs(camelHumps('sttFunc')), { both: ['sf'] });
  t.same(camelPairs(camelHumps('STT_FUNC')), { both: ['sf'], initials: ['sf', 'st'] }, 'a first hump that may be initials: its letters too');
  t.same(camelPairs(camelHumps('FPC')), { both: ['fp', 'fc'] });
  t.same(camelPairs(camelHumps('SS_TT')), { both: ['st'], initials: ['st', 'ss'] });
  t.equal(camelPairs([{ text: 'über', initials: false }, { text: 'b', initials: false }]), undefined, 'a letter outside ASCII keeps the scan');
  t.same(humpInitialsPairs(camelHumps('CC_DSTINC'), 1), ['cd', 'cs', 'ct', 'ci', 'cn', 'cc'], 'a later hump read as initials: the first initial with each of its letters');
  t.same(humpInitialsPairs(camelHumps('mmNIC9_BASE'), 1), ['mn', 'mb', 'mi', 'mc', 'm9']);
  t.equal(humpInitialsPairs(camelHumps('CC_DSTINC'), 0), undefined, 'not the first hump');
  // Every name a query matches reading that hump as initials holds those pairs; reading it as a word, the name holds the word.
  for (const [name, query] of [['CC_DATA_STATUS_TIMER_INIT_NEXT_CTRL', 'CC_DSTINC'], ['cc_dstinc_x', 'CC_DSTINC'], ['CcDstincMask', 'CC_DSTINC_MASK']] as const) {
    t.ok(fuzzyMatches(name, query), `${query} finds ${name}`);
    const have = new Set(initialPairs(humpsOf(name)).split(' '));
    const pairs = humpInitialsPairs(camelHumps(query), 1) ?? [];
    t.ok(name.toLowerCase().includes('dstinc') || pairs.every((pair) => have.has(pair)), `${name} holds dstinc or ${pairs.join(' ')}`);
  }
  // Every name a query matches holds the pairs of both readings, and those of the initials reading unless its first hump starts with the query's.
  for (const [name, query] of [['FMyPlayerController', 'FPC'], ['STT_FUNC', 'STT_FUNC'], ['SysTimerTableFunc', 'STT_FUNC'], ['s_a_s_b', 'SS'], ['SYS1_INFRAC', 'SYS1_INFRAC'], ['sys_y_s_1_if', 'SYS1_IF']] as const) {
    t.ok(fuzzyMatches(name, query), `${query} finds ${name}`);
    const have = new Set(initialPairs(humpsOf(name)).split(' '));
    const pairs = camelPairs(camelHumps(query));
    const readAsWord = pairs?.initials && humpSegments(name)[0].startsWith(camelHumps(query)[0].text);
    for (const pair of readAsWord ? pairs.both : pairs?.initials ?? pairs?.both ?? []) t.ok(have.has(pair), `${name} holds ${pair}`);
  }
});

/** 30,600 distinct names, 24,000 or more of them starting with `s` (past the 20,000 from which SQLite reads the pairs), made of
 * words that make SCREAMING_SNAKE macros, snake_case and CamelCase names sharing initials. */
function generatedNames(): string[] {
  const words = ['stt', 'set', 'sys', 'func', 'table', 'type', 'reg', 'mask', 'ctrl', 'init', 'timer', 'flag'];
  // xorshift32: deterministic, and a long cycle.
  let seed = 2463534242;
  const random = (n: number): number => {
    seed ^= seed << 13;
    seed ^= seed >>> 17;
    seed ^= seed << 5;
    return (seed >>> 0) % n;
  };
  const names = new Set<string>();
  while (names.size < 30_000) {
    const parts = Array.from({ length: 2 + random(3) }, (_, i) => (i === 0 && names.size < 24_000 ? words[random(3)] : words[random(words.length)]));
    const style = random(3);
    const name = style === 0 ? parts.join('_').toUpperCase() : style === 1 ? parts.join('_') : parts.map((p) => p[0].toUpperCase() + p.slice(1)).join('');
    names.add(`${name}${random(50)}`);
  }
  // A rare word (dstinc) and names whose humps' initials hold its letters (dma set timer init next ctrl), or some of them:
  // SQLite reads a later hump such as DSTINC in SYS_DSTINC as both (names holding its trigrams, or the pairs of its letters).
  const spelled = ['dma', 'set', 'timer', 'init', 'next', 'ctrl'];
  for (let i = 0; i < 600; i++) {
    const middle = i % 3 === 0 ? ['dstinc'] : i % 3 === 1 ? spelled : spelled.filter(() => random(3) > 0);
    const parts = [words[random(3)], ...middle, ...(random(2) ? [words[random(words.length)]] : [])];
    const style = random(3);
    names.add(`${style === 0 ? parts.join('_').toUpperCase() : style === 1 ? parts.join('_') : parts.map((p) => p[0].toUpperCase() + p.slice(1)).join('')}${i}`);
  }
  return [...names];
}

// SYS_DSTINC, SYS_DSTI, S_DSTIN: more pairs than SQLite's MATCH reads (the rarest three; the tier tests the rest on the names).
const QUERIES = ['STT_FUNC', 'SFT', 'SysTM', 'sysTableFlag', 'STTF', 'SetRM', 'sc', 'ST_FT', 'SYS_TF', 'SST_Func', 'SYS_DSTINC', 'STT_DSTINC_MASK', 'SET_DSTINC_TIMER', 'SYS_DSTI', 'S_DSTIN', 'SET_DMA_STI'];

/** The store written with the names, 5,000 per file, then each query's CamelCase tier against fuzzyMatches. */
async function checkTier(t: TapTest, store: SymbolStore, all: string[]): Promise<void> {
  for (let i = 0; i < all.length; i += 5000) {
    await store.write([{ file: `f${i}.cpp`, size: 1, mtimeMs: 1, hash: `h${i}`, language: 'cpp', package: { name: 'ws', path: '.', manifest: null, external: false }, external: false,
      symbols: all.slice(i, i + 5000).map((name, k) => symbol(name, k + 1)) }], []);
  }
  for (const query of QUERIES) {
    const spec: SearchSpec = { name: query, tiers: ['fuzzy'], offset: 0, limit: 5000, includeForwardDeclarations: true };
    const page = await store.search(spec);
    const found = page.results.map((hit) => hit.symbol.name).sort();
    const expected = all.filter((name) => fuzzyMatches(name, query) && !name.toLowerCase().startsWith(query.toLowerCase())).sort();
    t.ok(expected.length > 0, `${query}: the index holds CamelCase matches (${expected.length})`);
    t.same(found, expected, `${query}: the CamelCase tier holds exactly the names CamelCase matching accepts`);
  }
}

t.test('the CamelCase tier reads name_initials on a large index and finds exactly what CamelCase matching finds', async (t) => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'plumb-initials-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const store = SqliteSymbolStore.open({ file: path.join(dir, 'index.sqlite'), searchThreads: 0 });
  t.teardown(() => store.close());
  await checkTier(t, store, generatedNames());
});

t.test('PostgreSQL: the CamelCase tier reads the pairs of initials and finds the same', async (t) => {
  if (!postgresBinaries()) {
    t.comment('skipped: no PostgreSQL binaries (apt-get install postgresql)');
    return;
  }
  const db = await startPostgres(t);
  const store = await PostgresSymbolStore.open({ url: db.url, workspace: 'initials', readOnly: false });
  t.teardown(() => store.close());
  await checkTier(t, store, generatedNames());
});
