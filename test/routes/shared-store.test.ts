/**
 * A team's set-up on a real PostgreSQL: one writer and two read-only replicas of one workspace (a copy of
 * Flask) answer every index operation exactly as the embedded SQLite store does; a replica follows the
 * writer's live edits, survives the database restarting, and one started before any index says why it
 * cannot answer yet.
 */
import { cpSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import t from 'tap';
import { buildApp, type PlumbApp } from '../../src/app.js';
import { requireCorpora } from '../corpora.js';
import { FLASK, getJson, tempDir, testConfig } from '../helpers.js';
import { eventually, indexReady } from '../index/helpers.js';
import { startPostgres } from '../postgres.js';

requireCorpora(t, 'flask');

t.test('a writer and two replicas over one PostgreSQL', async (t) => {
  const pg = await startPostgres(t);
  // A copy the test may edit; every plumb here reads the same files, as replicas with their own checkout would.
  const root = path.join(tempDir(t, 'plumb-team-'), 'flask');
  cpSync(FLASK, root, { recursive: true });
  const start = async (extra: Record<string, unknown>): Promise<PlumbApp> => {
    const app = await buildApp({ root, config: testConfig(tempDir(t, 'plumb-cache-'), extra), logger: false });
    t.teardown(() => app.close());
    return app;
  };
  const shared = { store: pg.url, workspace: 'flask' };

  // Started before any writer: the database has no index of this workspace yet.
  const early = await start({ ...shared, readOnly: true });
  const none = await getJson(early, '/symbols?query=Flask');
  t.equal(none.status, 503, 'a replica with nothing to read answers 503');
  t.equal(none.body.error.code, 'store_unavailable');
  t.match(none.body.error.message, `Index store ${pg.url}`);

  const embedded = await start({});
  const writer = await start(shared);
  await Promise.all([indexReady(embedded), indexReady(writer)]);
  const replicas = [early, await start({ ...shared, readOnly: true })];
  for (const replica of replicas) await indexReady(replica, 60_000);

  t.test('every index operation answers as the embedded store does', async (t) => {
    const urls = [
      '/symbols?query=Flask',
      '/symbols?query=get&limit=50',
      '/symbols?query=get&limit=20&offset=990',
      '/symbols?query=app.Flask',
      '/symbols?query=flask.Flask.run',
      '/symbols?query=RR&kind=class',
      '/symbols?query=rendertemplate',
      '/symbols?query=request&match=exact&include_forward_declarations=true',
      '/symbols?query=json&scope=user&language=python',
      '/symbols?query=dispatch_request&format=markdown',
      '/symbols/declaration?symbol=Flask',
      '/symbols/declaration?symbol=Blueprint&include_body=true',
      '/symbols/members?symbol=Flask&limit=100&inherited=true',
      '/symbols/members?symbol=Config',
      '/symbols/declaration?symbol=flask.app.Flask.run&context_lines=2',
      '/packages',
      '/packages/flask/symbols?limit=100&offset=50',
      '/statements?query=def%20url_for&type=text&limit=20',
    ];
    const strip = (body: unknown): unknown => JSON.parse(JSON.stringify(body), (key, value) => (key === 'elapsedMs' || key === 'tookMs' ? undefined : value));
    for (const url of urls) {
      const expected = await embedded.inject({ url });
      t.equal(expected.statusCode, 200, `${url} answers on SQLite`);
      for (const [i, app] of [writer, ...replicas].entries()) {
        const got = await app.inject({ url });
        const who = i === 0 ? 'the writer' : `replica ${i}`;
        t.equal(got.statusCode, 200, `${url}: ${who} answers`);
        if (url.includes('format=markdown')) t.equal(got.body, expected.body, `${url}: ${who}, the same markdown`);
        else t.same(strip(got.json()), strip(expected.json()), `${url}: ${who}, the same answer`);
      }
    }
  });

  t.test('/status names the store, the workspace and the replica', async (t) => {
    const { body } = await getJson(replicas[1], '/status');
    t.match(body.store, { backend: 'postgres', location: pg.url, workspace: 'flask', readOnly: true, reachable: true, behind: 0 });
    t.ok(body.store.version > 0 && body.store.schemaVersion > 0);
    t.equal(body.index.state, 'ready', "the writer's build state");
    const embeddedStatus = (await getJson(embedded, '/status')).body;
    t.equal(body.index.symbols, embeddedStatus.index.symbols, 'the same symbols as the embedded index');
    t.equal(body.index.filesTotal, embeddedStatus.index.filesTotal);
    t.equal((await getJson(writer, '/status')).body.store.readOnly, false);
  });

  t.test("a replica sees the writer's live edits", async (t) => {
    const before = (await getJson(replicas[0], '/status')).body.store.version;
    writeFileSync(path.join(root, 'teamwork.py'), 'class SharedStoreProbe:\n    def ping(self) -> str:\n        return "pong"\n');
    let hit: unknown;
    await eventually(async () => {
      hit = (await getJson(replicas[0], '/symbols?query=SharedStoreProbe&match=exact')).body.results?.[0];
      return hit !== undefined;
    }, 60_000);
    t.match(hit, { name: 'SharedStoreProbe', kind: 'class', file: 'teamwork.py' });
    let status = (await getJson(replicas[0], '/status')).body;
    await eventually(async () => {
      status = (await getJson(replicas[0], '/status')).body;
      return status.store.version > before;
    }, 60_000);
    t.ok(status.index.symbols > 0);
    t.equal(status.store.behind, 0, 'the replica caught up with the announcement');
  });

  t.test('the database going away: 503 naming the store, then answers again', async (t) => {
    await pg.stop();
    const down = await getJson(replicas[1], '/symbols?query=Flask');
    t.equal(down.status, 503);
    t.equal(down.body.error.code, 'store_unavailable');
    t.match(down.body.error.message, pg.url);
    t.ok(Number(down.headers['retry-after']) >= 1, 'with Retry-After');
    const status = await getJson(replicas[1], '/status');
    t.equal(status.status, 200, '/status still answers');
    t.match(status.body.store, { reachable: false, error: /./ });
    await pg.start();
    let back = await getJson(replicas[1], '/symbols?query=Flask');
    await eventually(async () => {
      back = await getJson(replicas[1], '/symbols?query=Flask');
      return back.status === 200;
    }, 60_000);
    t.equal(back.body.results[0].name, 'Flask');
    await eventually(async () => (await getJson(writer, '/symbols?query=Flask')).status === 200, 60_000);
    t.pass('the writer answers after the restart too');
  });
});
