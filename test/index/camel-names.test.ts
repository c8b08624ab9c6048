/**
 * The CamelCase tier's candidates from memory (src/index/camel-names.ts) on real names: the identifiers of the kernel's
 * user-space headers (SCREAMING_SNAKE macros, snake_case) and of googletest (CamelCase). Every name CamelCase matching
 * (fuzzyMatches) accepts is a candidate; a search thread holding them answers exactly as the main thread does, and finds
 * the names written after they were built.
 */
import { existsSync, readdirSync, readFileSync, statSync, truncateSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import t from 'tap';
import { CamelNames } from '../../src/index/camel-names.js';
import { camelHumps, fuzzyMatches, fuzzyPattern, humpSegments } from '../../src/index/ranking.js';
import { CAMEL_SUFFIX } from '../../src/index/sqlite/schema.js';
import { CAMEL_TAIL_MAX } from '../../src/index/sqlite/search.js';
import { SqliteSymbolStore } from '../../src/index/sqlite/store.js';
import { MATCH_TIERS, type FileUpdate, type SearchSpec } from '../../src/index/store.js';
import type { ExtractedSymbol } from '../../src/syntax/types.js';
import { GOOGLETEST, requireCorpora } from '../corpora.js';
import { tempDir } from '../helpers.js';

/** Every identifier of the files under these folders whose names end with one of `extensions`, once each, in the order met. */
function identifiers(folders: string[], extensions: string[]): string[] {
  const names = new Set<string>();
  for (const folder of folders) {
    for (const entry of readdirSync(folder, { recursive: true, withFileTypes: true })) {
      if (!entry.isFile() || !extensions.some((extension) => entry.name.endsWith(extension))) continue;
      for (const match of readFileSync(path.join(entry.parentPath, entry.name), 'latin1').matchAll(/[A-Za-z_][A-Za-z0-9_]*/g)) names.add(match[0]);
    }
  }
  return [...names];
}

/**
 * Queries as people write them for names of this list, every 97th name: its initials in capitals (`FPC`), its first and last
 * humps (`TestResult`, `V4L2_FLAGS`), each hump cut to two characters (`V4_CI_PO`), and a query none of them was written from.
 */
function queriesFor(names: string[]): string[] {
  const queries = new Set(['CT_RSP_ACCEPT', 'DMA_A_INTERRUPT', 'p_num', 'TestPartResult', 'FPC', 'ASSERT_EQ', 'EXPECT_NE', 'kmalloc_node', 'x86Cpu', 'UMyASC']);
  for (let i = 0; i < names.length; i += 97) {
    const humps = humpSegments(names[i]);
    if (humps.length < 2) continue;
    const capital = (hump: string): string => hump[0].toUpperCase() + hump.slice(1);
    queries.add(humps.map((hump) => hump[0]).join('').toUpperCase());
    queries.add(capital(humps[0]) + capital(humps[humps.length - 1]));
    queries.add(humps.map((hump) => hump.slice(0, 2).toUpperCase()).join('_'));
  }
  return [...queries].filter((query) => fuzzyPattern(query) !== undefined);
}

const KERNEL_HEADERS = ['/usr/include/linux', '/usr/include/asm-generic'];

t.test('every name CamelCase matching accepts is a candidate, and few others are', async (t) => {
  if (!requireCorpora(t, 'googletest')) return;
  const names = [...identifiers(KERNEL_HEADERS, ['.h']), ...identifiers([GOOGLETEST], ['.h', '.cc'])];
  t.ok(names.length > 20_000, `${names.length} distinct names`);
  const camel = CamelNames.build(names.map((name, i): [number, string] => [i + 1, name]));
  t.equal(camel.loaded, names.length, 'the highest id read');
  const byFirst = new Map<string, number[]>();
  names.forEach((name, i) => {
    const first = humpSegments(name)[0]?.[0];
    if (first) byFirst.set(first, [...(byFirst.get(first) ?? []), i + 1]);
  });
  const queries = queriesFor(names);
  t.ok(queries.length > 500, `${queries.length} queries`);
  let candidates = 0;
  let matches = 0;
  const missed: string[] = [];
  for (const query of queries) {
    const listed = new Set(camel.candidates(camelHumps(query), Infinity));
    // A match's first hump starts with the query's first letter: those names are all that can match.
    for (const id of byFirst.get(camelHumps(query)[0].text[0]) ?? []) {
      if (!fuzzyMatches(names[id - 1], query)) continue;
      matches++;
      if (!listed.has(id)) missed.push(`${query}: ${names[id - 1]}`);
    }
    candidates += listed.size;
  }
  t.same(missed.slice(0, 10), [], 'no match is left out');
  t.ok(matches > 1000, `${matches} matches`);
  t.ok(candidates < matches * 1.5, `${candidates} candidates for ${matches} matches`);
  t.equal(camel.candidates(camelHumps('ASSERT_EQ'), 0), undefined, 'more candidates than the limit: none listed');
  t.equal(camel.candidates(camelHumps('printf'), Infinity), undefined, 'one hump: no CamelCase query');

  // Saved beside an index and read back: the same candidates; not for another index, nor from a cut file.
  const file = path.join(tempDir(t, 'plumb-camel-file-'), 'index.sqlite-camel');
  camel.save(file, 'index-a');
  const read = CamelNames.load(file, 'index-a');
  t.equal(read?.size, camel.size, 'read back whole');
  t.equal(read?.loaded, camel.loaded);
  for (const query of queries.slice(0, 50)) t.same(read?.candidates(camelHumps(query), Infinity), camel.candidates(camelHumps(query), Infinity), `${query}: the same candidates`);
  t.equal(CamelNames.load(file, 'index-b'), undefined, 'not the file of another index');
  const whole = readFileSync(file);
  const spoiled = Buffer.from(whole);
  spoiled.writeUInt32LE(0xffffffff, spoiled.length - 4);
  writeFileSync(file, spoiled);
  t.equal(CamelNames.load(file, 'index-a'), undefined, 'not a file whose arrays disagree');
  writeFileSync(file, whole);
  t.equal(CamelNames.load(file, 'index-a')?.size, camel.size, 'the same file whole again');
  truncateSync(file, statSync(file).size - 1);
  t.equal(CamelNames.load(file, 'index-a'), undefined, 'not a file cut short');
  t.equal(CamelNames.load(`${file}-missing`, 'index-a'), undefined, 'no file');
  t.throws(() => camel.save(path.join(path.dirname(file), 'missing', 'index.sqlite-camel'), 'index-a'), 'a folder it cannot write: the save fails');
  t.same(readdirSync(path.dirname(file)), ['index.sqlite-camel'], 'and leaves nothing behind');
});

function symbol(name: string, line: number): ExtractedSymbol {
  const range = { start: { line, column: 1 }, end: { line, column: 1 + name.length } };
  return {
    name, kind: 'function', containers: [], qualifiedName: name, containingType: null, range, selectionRange: range,
    signature: `void ${name}(void)`, parameters: [], returnType: 'void', doc: null, definition: true, forwardDeclaration: false, bases: [], language: 'c',
  };
}

const update = (file: string, names: string[]): FileUpdate => ({
  file, size: 1, mtimeMs: 1, hash: file, language: 'c', package: { name: 'ws', path: '.', manifest: null, external: false }, external: false,
  symbols: names.map((name, i) => symbol(name, i + 1)),
});

t.test('a search thread with the names in memory answers as the main thread does, names written since included', async (t) => {
  const names = identifiers(KERNEL_HEADERS, ['.h']);
  const dir = tempDir(t, 'plumb-camel-');
  const file = path.join(dir, 'index.sqlite');
  const writer = SqliteSymbolStore.open({ file, searchThreads: 0 });
  t.teardown(() => writer.close());
  for (let i = 0; i < names.length; i += 5000) await writer.write([update(`f${i}.h`, names.slice(i, i + 5000))], []);

  const threaded = SqliteSymbolStore.open({ file, searchThreads: 1 });
  t.teardown(() => threaded.close());
  threaded.serveSearches();
  const threadsOf = (store: SqliteSymbolStore) => (store as unknown as { threads?: { ready: boolean; camelBuilds: number; camelLoads: number; answered: number } }).threads;
  const threads = threadsOf(threaded);
  const started = Date.now();
  while (!(threads?.ready && threads.camelBuilds > 0) && Date.now() - started < 60_000) await new Promise((resolve) => setTimeout(resolve, 50));
  t.ok(threads?.ready && threads.camelBuilds === 1 && threads.camelLoads === 0, 'the thread started and the names in memory were built');

  const spec = (name: string, more: Partial<SearchSpec> = {}): SearchSpec => ({ name, tiers: MATCH_TIERS, offset: 0, limit: 50, includeForwardDeclarations: false, ...more });
  const queries = queriesFor(names).slice(0, 150);
  let camelMatches = 0;
  for (const query of queries) {
    for (const more of [{}, { offset: 20, limit: 10 }, { tiers: ['fuzzy'] as const, limit: 500 }]) {
      const page = await threaded.search(spec(query, more));
      t.same(page, await writer.search(spec(query, more)), `${query} ${JSON.stringify(more)}`);
      if ('tiers' in more) camelMatches += page.totalMatches;
    }
  }
  t.ok(threads!.answered >= queries.length * 3, 'the thread answered');
  t.ok(camelMatches > 500, `the CamelCase tiers held ${camelMatches} matches`);

  // Names written after the build: beyond the arrays, read from SQLite (a few; up to CAMEL_TAIL_MAX are).
  const fresh = ['ZQX_FRESH_CAMEL_NAME', 'zqxFreshCamelName', 'ZqxFreshCamel_name'];
  await writer.write([update('fresh.h', fresh)], []);
  t.ok(fresh.length < CAMEL_TAIL_MAX);
  const page = await threaded.search(spec('ZQX_FC', { tiers: ['fuzzy'] }));
  t.same(page.results.map((hit) => hit.symbol.name).sort(), [...fresh].sort(), 'the names written since are found');
  t.same(page, await writer.search(spec('ZQX_FC', { tiers: ['fuzzy'] })));

  // A restart reads them from the file beside the index, and answers the same.
  await threaded.close();
  while (!existsSync(`${file}${CAMEL_SUFFIX}`) && Date.now() - started < 60_000) await new Promise((resolve) => setTimeout(resolve, 50));
  const restarted = SqliteSymbolStore.open({ file, searchThreads: 1 });
  t.teardown(() => restarted.close());
  restarted.serveSearches();
  const again = threadsOf(restarted);
  while (!(again?.ready && again.camelBuilds > 0) && Date.now() - started < 60_000) await new Promise((resolve) => setTimeout(resolve, 50));
  t.equal(again?.camelLoads, 1, 'read from the file beside the index');
  for (const query of [...queries.slice(0, 30), 'ZQX_FC']) t.same(await restarted.search(spec(query)), await writer.search(spec(query)), `after a restart: ${query}`);
});
