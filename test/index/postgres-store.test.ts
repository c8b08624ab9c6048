/**
 * The PostgreSQL store against a real cluster (test/postgres.ts): one real tree (googletest with Flask as an
 * extra root) built into SQLite and into PostgreSQL answers every read identically (bench/golden-queries.ts);
 * workspaces stay apart; a replica (read-only store) refuses an empty database, sees a writer's update and
 * hears of it; the database going away is a 503 naming the store, and its return is answered again.
 */
import t from 'tap';
import { storeCases } from '../../bench/golden-queries.js';
import { PlumbError } from '../../src/errors.js';
import { PostgresSymbolStore } from '../../src/index/postgres/store.js';
import { SymbolIndex } from '../../src/index/symbol-index.js';
import type { FileUpdate, SearchSpec } from '../../src/index/store.js';
import { MATCH_TIERS } from '../../src/index/store.js';
import type { ExtractedSymbol } from '../../src/syntax/types.js';
import { requireCorpora, FLASK, GOOGLETEST } from '../corpora.js';
import { tempDir, testConfig } from '../helpers.js';
import { startPostgres } from '../postgres.js';
import { waitFor } from '../wait.js';

function symbol(name: string, line: number, extra: Partial<ExtractedSymbol> = {}): ExtractedSymbol {
  const range = { start: { line, column: 1 }, end: { line, column: 1 + name.length } };
  return {
    name, kind: 'class', containers: [], qualifiedName: name, containingType: null, range, selectionRange: range,
    signature: `class ${name}`, parameters: [], returnType: null, doc: null, definition: true, forwardDeclaration: false, bases: [], language: 'cpp', ...extra,
  };
}

function update(file: string, symbols: ExtractedSymbol[]): FileUpdate {
  return { file, size: 10, mtimeMs: 1, hash: file, language: 'cpp', package: { name: 'extra', path: 'extra', manifest: null, external: false }, external: false, symbols };
}

const spec = (name: string): SearchSpec => ({ name, tiers: MATCH_TIERS, offset: 0, limit: 50, includeForwardDeclarations: false });

async function rejection(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  return undefined;
}

t.test('PostgreSQL store', async (t) => {
  if (!requireCorpora(t, 'googletest', 'flask')) return;
  const db = await startPostgres(t);
  const cacheDir = tempDir(t, 'plumb-pg-cache-');
  const config = testConfig(cacheDir, { index: { extraRoots: [FLASK], watch: false } });

  // One tree into both stores.
  const sqlite = await SymbolIndex.open({ root: GOOGLETEST, config, cacheDir });
  t.teardown(() => sqlite.close());
  const writer = await PostgresSymbolStore.open({ url: db.url, workspace: 'googletest', readOnly: false });
  const postgres = await SymbolIndex.open({ root: GOOGLETEST, config, cacheDir: tempDir(t, 'plumb-pg-cache2-'), store: writer });
  t.teardown(() => postgres.close());
  const [built, builtPg] = [await sqlite.build(), await postgres.build()];
  t.ok(built.symbols > 10_000, `SQLite holds ${built.symbols} symbols`);
  t.equal(builtPg.symbols, built.symbols, 'PostgreSQL holds as many');

  // The word index (words.sqlite beside either store) covers every file at the stamps PostgreSQL gives back, extra root included.
  await Promise.all([sqlite.words.settled(), postgres.words.settled()]);
  const [infos, infosPg] = [await sqlite.reader.indexedFileInfos({}), await writer.indexedFileInfos({})];
  t.equal(sqlite.words.status().files, infos.length, `the word index covers SQLite's ${infos.length} files`);
  t.equal(postgres.words.status().files, infosPg.length, 'and PostgreSQL\'s');
  for (const name of ['FormatFileLocation', 'render_template']) {
    const [narrowed, narrowedPg] = [sqlite.words.narrow(infos, name), postgres.words.narrow(infosPg, name)];
    t.ok(narrowed.passedOver > infos.length / 2, `${name}: ${narrowed.files.length} files to read`);
    t.same(narrowedPg.files.map((f) => f.file).sort(), narrowed.files.map((f) => f.file).sort(), `${name}: the same files from either store`);
  }

  const replica = await PostgresSymbolStore.open({ url: db.url, workspace: 'googletest', readOnly: true });
  t.teardown(() => replica.close());

  await t.test('every read answers as the SQLite store does', async (t) => {
    const cases = await storeCases(sqlite.reader);
    t.ok(cases.length > 500, `${cases.length} reads`);
    let nonEmpty = 0;
    for (const c of cases) {
      const want = await c.run(sqlite.reader);
      t.same(await c.run(replica), want, c.label);
      if ((JSON.stringify(want) ?? '').length > 100) nonEmpty++;
    }
    // The comparison means something: most reads find things.
    t.ok(nonEmpty > cases.length / 2, `${nonEmpty} of ${cases.length} answers are not empty`);
  });

  await t.test('the store says what it is', async (t) => {
    const info = await replica.storeInfo();
    t.equal(info.backend, 'postgres');
    t.equal(info.location, db.url);
    t.equal(info.workspace, 'googletest');
    t.ok(info.version > 0);
    t.ok(info.lastUpdate && Date.parse(info.lastUpdate) > Date.now() - 600_000);
    t.equal(info.schemaVersion, (await writer.storeInfo()).schemaVersion);
  });

  await t.test('workspaces in one database do not see each other', async (t) => {
    const [a, b] = await Promise.all([
      PostgresSymbolStore.open({ url: db.url, workspace: 'ws-a', readOnly: false }),
      PostgresSymbolStore.open({ url: db.url, workspace: 'ws-b', readOnly: false }),
    ]);
    t.teardown(() => Promise.all([a.close(), b.close()]));
    await a.write([update('a.cc', [symbol('OnlyInA', 1), symbol('Test', 2)])], []);
    await b.write([update('b.cc', [symbol('OnlyInB', 1)])], []);
    t.same(await a.counts(), { files: 1, symbols: 2 });
    t.same(await b.counts(), { files: 1, symbols: 1 });
    t.equal((await a.search(spec('OnlyInB'))).totalMatches, 0);
    t.equal((await b.search(spec('OnlyInB'))).totalMatches, 1);
    t.equal((await replica.search(spec('OnlyInA'))).totalMatches, 0, 'the googletest workspace holds none of them');
    t.same(await a.indexedFiles(), ['a.cc']);
    const test = await a.search({ ...spec('Test'), tiers: ['exact'] });
    t.same(test.results.map((hit) => hit.symbol.file), ['a.cc'], "ws-a's Test only");
  });

  await t.test('a replica refuses a database without an index, naming the store', async (t) => {
    const empty = db.url.replace(/\/plumb$/, '/postgres');
    const error = await rejection(PostgresSymbolStore.open({ url: empty, workspace: 'googletest', readOnly: true }));
    t.ok(error instanceof PlumbError);
    t.equal((error as PlumbError).code, 'store_unavailable');
    t.match((error as PlumbError).message, empty);
    t.match((error as PlumbError).message, 'plumb index');
    const missing = await rejection(PostgresSymbolStore.open({ url: db.url, workspace: 'never-built', readOnly: true }));
    t.equal((missing as PlumbError).code, 'store_unavailable');
    t.match((missing as PlumbError).message, "'never-built'");
    const refused = await rejection(replica.write([], ['x']));
    t.match((refused as Error).message, /read-only/, 'a replica writes nothing');
    t.equal((refused as PlumbError).code, 'internal_error', 'a write on a replica is plumb\'s own bug, not bad input');
  });

  await t.test('a replica sees a writer\'s update and hears of it', async (t) => {
    await replica.listeningReady();
    const heard: number[] = [];
    const stop = replica.onChange((version) => heard.push(version));
    t.teardown(stop);
    await writer.write([update('extra/new_thing.cc', [symbol('BrandNewThing', 3, { bases: ['testing::Test'] })])], []);
    const version = (await writer.storeInfo()).version;
    const found = await replica.search(spec('BrandNewThing'));
    t.same(found.results.map((hit) => hit.symbol.file), ['extra/new_thing.cc']);
    t.ok((await replica.symbolsWithBase('Test', 1000)).some((s) => s.name === 'BrandNewThing'));
    await waitFor(`onChange to hear version ${version}`, () => heard, (h) => h.includes(version), { timeoutMs: 20_000 });
    t.ok(heard.includes(version), `onChange heard version ${version}`);
    t.equal((await replica.storeInfo()).version, version);
    await writer.write([], ['extra/new_thing.cc']);
    t.equal((await replica.search(spec('BrandNewThing'))).totalMatches, 0, 'and its removal');
  });

  await t.test('the database going away is store_unavailable; its return is answered again', async (t) => {
    const heard: number[] = [];
    const stop = replica.onChange((version) => heard.push(version));
    t.teardown(stop);
    await db.stop();
    const error = await rejection(replica.search(spec('Test')));
    t.ok(error instanceof PlumbError, 'a PlumbError');
    t.equal((error as PlumbError).code, 'store_unavailable');
    t.equal((error as PlumbError).status, 503);
    t.equal((error as PlumbError).retryAfter, 2);
    t.match((error as PlumbError).message, `Index store ${db.url} is unavailable`);
    t.same((error as PlumbError).details, { store: db.url });
    t.equal(((await rejection(writer.write([update('x.cc', [])], []))) as PlumbError).code, 'store_unavailable', 'a write too');
    await db.start();
    const page = await waitFor('the replica to answer again', () => replica.search(spec('Test')), (p) => p.totalMatches > 0, { timeoutMs: 20_000, intervalMs: 100, retryErrors: true });
    t.ok(page.totalMatches > 0, 'answers again');
    // LISTEN comes back too: a later write is heard.
    await waitFor('a write after the restart to be heard', async () => {
      await writer.write([update('extra/again.cc', [symbol('AgainThing', 1)])], []);
      return heard;
    }, (h) => h.length > 0, { timeoutMs: 30_000, intervalMs: 100, retryErrors: true });
    t.ok(heard.length > 0, 'a write after the restart is heard');
    await writer.write([], ['extra/again.cc']);
  });
});
