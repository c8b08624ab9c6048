/**
 * Search threads start when serving begins (createServices, as `plumb serve` and `plumb mcp` do), not at the first
 * search, and not for `plumb index`: on an index past THREADS_FROM_SYMBOLS, a served plumb's threads are running
 * before anyone searches, and the first searches are answered by them.
 * The workspace is 200,004 `#define`s in four headers (read without tree-sitter: the build takes a few seconds).
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FastifyBaseLogger } from 'fastify';
import { pino } from 'pino';
import t from 'tap';
import { validateConfig } from '../../src/config.js';
import { THREADS_FROM_SYMBOLS } from '../../src/index/sqlite/search-threads.js';
import { MATCH_TIERS } from '../../src/index/store.js';
import { SymbolIndex } from '../../src/index/symbol-index.js';
import { createServices } from '../../src/services.js';

/** The store's search threads as SqliteSymbolStore keeps them (undefined until started). */
type Threads = { ready: boolean; answered: number } | undefined;
const threadsOf = (index: SymbolIndex): Threads => (index as unknown as { store: { threads?: Threads } }).store.threads;

t.test('serving starts the search threads before the first search; building an index does not', async (t) => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'plumb-search-serve-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const root = path.join(dir, 'ws');
  mkdirSync(root);
  const perFile = THREADS_FROM_SYMBOLS / 4 + 1;
  for (let f = 0; f < 4; f++) {
    writeFileSync(path.join(root, `regs${f}.h`), Array.from({ length: perFile }, (_, i) => `#define REG${f}_FIELD_${i}_MASK 0x${i.toString(16)}`).join('\n') + '\n');
  }
  const cacheDir = path.join(dir, 'cache');
  const config = validateConfig({ cacheDir, logLevel: 'silent', index: { watch: false } });

  // What `plumb index` does: build and close, no search threads.
  const built = await SymbolIndex.open({ root, config, cacheDir });
  const summary = await built.build();
  t.equal(summary.symbols, 4 * perFile, 'every #define indexed');
  t.equal(threadsOf(built), undefined, 'a build starts no search threads');
  await built.close();

  // What `plumb serve` does: the threads are started with the services, before any search.
  const services = await createServices({ root, config, logger: pino({ level: 'silent' }) as unknown as FastifyBaseLogger });
  t.teardown(() => services.close());
  const threads = threadsOf(services.index);
  t.ok(threads, 'search threads started when serving began');
  const started = Date.now();
  while (!threads?.ready && Date.now() - started < 30_000) await new Promise((resolve) => setTimeout(resolve, 50));
  t.ok(threads?.ready, 'a search thread is ready before the first search');
  const page = await services.index.reader.search({ name: 'REG2_FIELD_777_MASK', tiers: MATCH_TIERS, offset: 0, limit: 10, includeForwardDeclarations: false });
  t.same(page.results.filter((hit) => hit.tier === 'exact').map(({ symbol }) => `${symbol.file}:${symbol.name}`), ['regs2.h:REG2_FIELD_777_MASK'], 'the first search finds its name');
  t.equal(threads?.answered, 1, 'the first search was answered by a search thread');
});
