/**
 * Searches answered by search threads (src/index/sqlite/search-threads.ts): the same answers as on the calling
 * thread, and while another connection writes, every answer is one snapshot of the index (its count and its
 * page agree), never half of a write.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import t from 'tap';
import { SqliteSymbolStore } from '../../src/index/sqlite/store.js';
import { MATCH_TIERS, type FileUpdate, type SearchSpec } from '../../src/index/store.js';
import type { ExtractedSymbol } from '../../src/syntax/types.js';
import { SEARCH_NICE } from '../../src/index/thread-priority.js';

/** A thread's nice value (Linux: the 19th field of /proc/self/task/TID/stat, after the command name in parentheses). */
function niceOf(tid: number): number {
  const stat = readFileSync(`/proc/self/task/${tid}/stat`, 'utf8');
  return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[16]);
}
const threadsAtNice = (nice: number): number => readdirSync('/proc/self/task').filter((tid) => niceOf(Number(tid)) === nice).length;

function symbol(name: string, line: number, forwardDeclaration = false): ExtractedSymbol {
  const range = { start: { line, column: 1 }, end: { line, column: 1 + name.length } };
  return {
    name, kind: forwardDeclaration ? 'class' : 'function', containers: [], qualifiedName: name, containingType: null, range, selectionRange: range,
    signature: `void ${name}(int count)`, parameters: [], returnType: 'void', doc: null, definition: !forwardDeclaration, forwardDeclaration, bases: [], language: 'cpp',
  };
}

const update = (file: string, symbols: ExtractedSymbol[]): FileUpdate => ({
  file, size: 1, mtimeMs: 1, hash: file, language: 'cpp', package: { name: 'ws', path: '.', manifest: null, external: false }, external: false, symbols,
});
const spec = (name: string, more: Partial<SearchSpec> = {}): SearchSpec => ({ name, tiers: MATCH_TIERS, offset: 0, limit: 50, includeForwardDeclarations: false, ...more });

t.test('a search thread answers as the calling thread does, and reads one snapshot while the writer writes', async (t) => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'plumb-search-threads-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const file = path.join(dir, 'index.sqlite');
  const writer = SqliteSymbolStore.open({ file, searchThreads: 0 });
  t.teardown(() => writer.close());
  const names = ['getValue', 'get_value', 'GetPlayerController', 'FPlayerCont', 'parseInt', 'parse_int_list', 'XMLHttpRequest', 'setValue', 'value'];
  await writer.write([update('a.cpp', names.flatMap((name, i) => [symbol(name, i * 10 + 1), symbol(name, i * 10 + 2, true)]))], []);

  const niceBefore = process.platform === 'linux' ? threadsAtNice(SEARCH_NICE) : 0;
  const threaded = SqliteSymbolStore.open({ file, searchThreads: 1 });
  t.teardown(() => threaded.close());
  // The thread starts at the first search (answered here meanwhile); the test waits until it takes searches.
  await threaded.search(spec('x'));
  const threads = (threaded as unknown as { threads?: { ready: boolean } }).threads;
  const started = Date.now();
  while (!threads?.ready && Date.now() - started < 30_000) await new Promise((resolve) => setTimeout(resolve, 50));
  t.ok(threads?.ready, 'the search thread started');
  if (process.platform === 'linux') {
    // The search thread runs below the main thread (SEARCH_NICE): one thread of this process more at that nice value.
    t.equal(threadsAtNice(SEARCH_NICE), niceBefore + 1, `the search thread runs at nice ${SEARCH_NICE}`);
    t.equal(niceOf(process.pid), 0, 'the main thread at its own');
  }

  for (const query of ['get', 'value', 'FPC', 'GPC', 'ParseInt', 'xhr', 'count', 'etVal']) {
    for (const more of [{}, { includeForwardDeclarations: true }, { offset: 2, limit: 3 }]) {
      t.same(await threaded.search(spec(query, more)), await writer.search(spec(query, more)), `${query} ${JSON.stringify(more)}`);
    }
  }

  // Writes of 200 symbols named `value` at a time, each one transaction; the answers read meanwhile are whole writes.
  let writing = true;
  const writes = (async () => {
    for (let round = 1; round <= 20; round++) {
      await writer.write([update(`w${round}.cpp`, Array.from({ length: 200 }, (_, i) => symbol('value', i + 1)))], []);
      // The searches waiting for the thread's answers run between writes.
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    writing = false;
  })();
  const seen: number[] = [];
  while (writing) {
    const page = await threaded.search(spec('value', { tiers: ['exact'], limit: 5_000, includeForwardDeclarations: true }));
    seen.push(page.totalMatches);
    // An answer kept by the search cache comes back at once: let the writer's timers run.
    await new Promise((resolve) => setImmediate(resolve));
    if (page.results.length !== page.totalMatches + 1 || (page.totalMatches - 1) % 200 !== 0) t.fail(`an answer of ${page.totalMatches} matches listing ${page.results.length}`);
  }
  await writes;
  t.ok(new Set(seen).size > 2, `${seen.length} answers read while writing`);
  t.equal((await threaded.search(spec('value', { tiers: ['exact'], includeForwardDeclarations: true }))).totalMatches, 1 + 20 * 200, 'the last write is seen');
});
