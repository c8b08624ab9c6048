/**
 * Reads on PostgreSQL's own replication: a writer builds a copy of Flask into a primary, a hot standby streams from
 * it (`pg_basebackup -R`), and a read-only plumb serves from the standby:
 * - every index operation answers as the embedded store does;
 * - /status says it reads a standby, with its replay lag in time and in versions;
 * - an edit on the writer is answered by the standby's replica within two seconds of the writer answering it;
 * - a replica on a multi-host URL that moves to a standby further behind never answers from an older version than
 *   one it answered from: 503 saying so until that standby has caught up;
 * - the standby stopped: 503 naming the store, then answers once it is back;
 * - the primary stopped: the standby keeps answering.
 */
import { cpSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import t from 'tap';
import { buildApp, type PlumbApp } from '../../src/app.js';
import { requireCorpora } from '../corpora.js';
import { FLASK, getJson, tempDir, testConfig } from '../helpers.js';
import { startPostgres, startStandby } from '../postgres.js';
import { indexReady, waitFor } from '../wait.js';

requireCorpora(t, 'flask');

/** The limit on an edit's way from the writer's answer to the standby replica's. */
const VISIBLE_WITHIN_MS = 2000;

async function has(app: PlumbApp, name: string): Promise<{ status: number; found: boolean; body: Record<string, any> }> {
  const { status, body } = await getJson(app, `/symbols?query=${name}&match=exact`);
  return { status, found: status === 200 && body.results?.[0]?.name === name, body };
}

t.test('a replica reading a hot standby', async (t) => {
  const primary = await startPostgres(t);
  const standby = await startStandby(t, primary);
  const root = path.join(tempDir(t, 'plumb-standby-'), 'flask');
  cpSync(FLASK, root, { recursive: true, filter: (src) => !src.includes('__pycache__') });
  const start = async (extra: Record<string, unknown>): Promise<PlumbApp> => {
    const app = await buildApp({ root, config: testConfig(tempDir(t, 'plumb-cache-'), extra), logger: false });
    t.teardown(() => app.close());
    return app;
  };
  const embedded = await start({});
  const writer = await start({ store: primary.url, workspace: 'flask' });
  // Started while the writer builds (the standby may not even hold the schema yet): it learns that the build is done
  // from the standby alone, by polling, as NOTIFY does not reach it.
  const replica = await start({ store: standby.url, workspace: 'flask', readOnly: true, storeTimeoutMs: 2000 });
  await Promise.all([indexReady(embedded), indexReady(writer), indexReady(replica, 60_000)]);

  t.test('answers as the embedded store does', async (t) => {
    const urls = [
      '/symbols?query=Flask',
      '/symbols?query=get&limit=50',
      '/symbols?query=RR&kind=class',
      '/symbols?query=app.Flask',
      '/symbols?query=dispatch_request&format=markdown',
      '/symbols/declaration?symbol=Blueprint&include_body=true',
      '/symbols/members?symbol=Flask&limit=100&inherited=true',
      '/packages/flask/symbols?limit=100&offset=50',
    ];
    const strip = (body: unknown): unknown => JSON.parse(JSON.stringify(body), (key, value) => (key === 'elapsedMs' || key === 'tookMs' ? undefined : value));
    for (const url of urls) {
      const expected = await embedded.inject({ url });
      const got = await replica.inject({ url });
      t.equal(got.statusCode, 200, `${url} answers`);
      if (url.includes('format=markdown')) t.equal(got.body, expected.body, `${url}: the same markdown`);
      else t.same(strip(got.json()), strip(expected.json()), `${url}: the same answer`);
    }
  });

  t.test('/status: a hot standby, its replay lag in time and in versions', async (t) => {
    const primaryVersion = Number(primary.sql("SELECT version FROM workspaces WHERE name = 'flask'"));
    const status = await waitFor('the standby replica to report its primary caught up', async () => (await getJson(replica, '/status')).body,
      (body) => body.store.replication?.primaryVersion === primaryVersion && body.store.behind === 0);
    t.match(status.store, { backend: 'postgres', readOnly: true, reachable: true, version: primaryVersion, behind: 0 });
    t.match(status.store.replication, { streaming: true, primary: `127.0.0.1:${primary.port}`, primaryVersion });
    t.ok(status.store.replication.replayLagMs >= 0 && status.store.replication.replayLagMs < 5000, `replay lag ${status.store.replication.replayLagMs} ms`);
    t.equal((await getJson(writer, '/status')).body.store.replication, undefined, 'the writer reads the primary');
    const markdown = await replica.inject({ url: '/status?format=markdown' });
    t.match(markdown.body, new RegExp(`Replication: hot standby, streaming from 127\\.0\\.0\\.1:${primary.port}, replay lag \\d+ ms, primary at version ${primaryVersion}`));
  });

  t.test("an edit on the writer is answered by the standby's replica within two seconds", async (t) => {
    const before = (await getJson(replica, '/status')).body.store.version;
    writeFileSync(path.join(root, 'standby_probe.py'), 'class StandbyProbe:\n    def ping(self) -> str:\n        return "pong"\n');
    await waitFor('the writer to answer StandbyProbe', () => has(writer, 'StandbyProbe'), (r) => r.found, { timeoutMs: 30_000, intervalMs: 20 });
    const committed = Date.now();
    const seen = await waitFor('the standby replica to answer StandbyProbe', () => has(replica, 'StandbyProbe'), (r) => r.found, { timeoutMs: 30_000, intervalMs: 20 });
    const ms = Date.now() - committed;
    t.ok(ms <= VISIBLE_WITHIN_MS, `on the standby ${ms} ms after the writer answered it`);
    t.match(seen.body.results[0], { name: 'StandbyProbe', kind: 'class', file: 'standby_probe.py' });
    // /status learns of it by polling (NOTIFY does not reach a standby).
    const status = await waitFor('/status to show the new version', async () => (await getJson(replica, '/status')).body, (body) => body.store.version > before, { timeoutMs: 5000 });
    t.ok(status.index.symbols > 0);
  });

  t.test('never an older version than one answered, also on another standby', async (t) => {
    const behind = await startStandby(t, primary);
    // Both standbys in one URL: the replica reads the first while it answers.
    const multi = await start({ store: `postgres://postgres@127.0.0.1:${standby.port},127.0.0.1:${behind.port}/plumb?target_session_attrs=standby`, workspace: 'flask', readOnly: true, storeTimeoutMs: 1000 });
    t.ok((await has(multi, 'StandbyProbe')).found, 'it answers from the first standby');
    behind.pauseReplay();
    writeFileSync(path.join(root, 'later_probe.py'), 'class LaterProbe:\n    pass\n');
    await waitFor('the multi-host replica to answer LaterProbe', () => has(multi, 'LaterProbe'), (r) => r.found, { timeoutMs: 30_000, intervalMs: 20 });
    // The first standby goes away: the replica moves to the second, which has not replayed LaterProbe.
    await standby.stop();
    let behindSaid: string | undefined;
    const answers: string[] = [];
    await waitFor('the replica to say the second standby is behind', async () => {
      const got = await has(multi, 'LaterProbe');
      answers.push(got.status === 200 ? (got.found ? 'found' : 'NOT FOUND') : `${got.status} ${got.body.error?.message}`);
      if (got.status === 503 && /is behind/.test(got.body.error?.message)) behindSaid = got.body.error.message;
      return behindSaid;
    }, (said) => said !== undefined, { timeoutMs: 20_000, intervalMs: 100 });
    t.notOk(answers.includes('NOT FOUND'), `never an answer without LaterProbe (answers: ${[...new Set(answers)].join('; ')})`);
    t.match(behindSaid, `127.0.0.1:${behind.port} has replayed version`, 'the 503 names the standby that is behind');
    behind.resumeReplay();
    await waitFor('the replica to answer from the second standby once it caught up', () => has(multi, 'LaterProbe'), (r) => r.found, { timeoutMs: 20_000, intervalMs: 50 });
    t.pass('answers again from the second standby');
    await standby.start();
  });

  t.test('the standby stopped: 503 naming the store, then answers again', async (t) => {
    await waitFor('the replica to answer', () => has(replica, 'Flask'), (r) => r.found, { timeoutMs: 20_000 });
    await standby.stop();
    const down = await has(replica, 'Flask');
    t.equal(down.status, 503);
    t.equal(down.body.error?.code, 'store_unavailable');
    t.match(down.body.error?.message, standby.url);
    const status = await getJson(replica, '/status');
    t.match(status.body.store, { reachable: false });
    await standby.start();
    await waitFor('the replica to answer again', () => has(replica, 'Flask'), (r) => r.found, { timeoutMs: 30_000, intervalMs: 100 });
    t.pass('answers once the standby is back');
  });

  t.test('the primary stopped: the standby keeps answering', async (t) => {
    await primary.stop();
    const expected = (await getJson(embedded, '/symbols?query=Blueprint')).body;
    const got = await getJson(replica, '/symbols?query=Blueprint');
    t.equal(got.status, 200);
    t.same(got.body.results, expected.results, 'the same answer with the primary down');
    const status = await waitFor('/status to say the standby no longer streams', async () => (await getJson(replica, '/status')).body,
      (body) => body.store.replication?.streaming === false, { timeoutMs: 20_000, intervalMs: 200 });
    t.match(status.store, { reachable: true, replication: { streaming: false, primaryVersion: null, primaryError: /does not answer/ } });
  });
});
