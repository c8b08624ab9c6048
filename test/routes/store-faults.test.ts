/**
 * A shared PostgreSQL store that goes away or stops answering, on a real cluster (test/postgres.ts), with a
 * writer (watching its workspace) and a replica of a small workspace:
 * - the database down: an edit made meanwhile is held (/status counts it as pending) and indexed once the database
 *   is back, on the writer and the replica, without restarting anything;
 * - the database frozen (SIGSTOP, as a host that hangs or a network partition): reads answer 503 store_unavailable
 *   with Retry-After within the configured deadline, /status answers promptly saying the store is unreachable, a
 *   write gives up within its deadline; after SIGCONT everything answers again, edits made meanwhile included.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import t from 'tap';
import { buildApp, type PlumbApp } from '../../src/app.js';
import { PlumbError } from '../../src/errors.js';
import { PostgresSymbolStore } from '../../src/index/postgres/store.js';
import { MATCH_TIERS, type FileUpdate } from '../../src/index/store.js';
import { getJson, tempDir, testConfig } from '../helpers.js';
import { eventually, indexReady } from '../index/helpers.js';
import { startPostgres } from '../postgres.js';

/** The read deadline the apps here are configured with (storeTimeoutMs). */
const DEADLINE_MS = 1500;
/** What a loaded test machine may add to a deadline. */
const SLACK_MS = 1500;

/** `work`'s result and how long it took, or a failure after `limitMs` (a hang must fail the test, not stall it). */
async function timed<T>(work: Promise<T>, limitMs = 20_000): Promise<{ value: T; ms: number }> {
  const started = Date.now();
  let timer: NodeJS.Timeout | undefined;
  const hung = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${limitMs} ms`)), limitMs);
  });
  try {
    const value = await Promise.race([work, hung]);
    return { value, ms: Date.now() - started };
  } finally {
    clearTimeout(timer);
  }
}

async function found(app: PlumbApp, name: string): Promise<boolean> {
  const { status, body } = await getJson(app, `/symbols?query=${name}&match=exact`);
  return status === 200 && body.results?.[0]?.name === name;
}

t.test('a shared store that goes away or stops answering', async (t) => {
  const pg = await startPostgres(t);
  const root = path.join(tempDir(t, 'plumb-faults-'), 'ws');
  mkdirSync(path.join(root, 'pkg'), { recursive: true });
  writeFileSync(path.join(root, 'pkg', '__init__.py'), '');
  writeFileSync(path.join(root, 'pkg', 'engine.py'), 'class Engine:\n    def start(self) -> None:\n        pass\n');
  const start = async (extra: Record<string, unknown>): Promise<PlumbApp> => {
    const app = await buildApp({ root, config: testConfig(tempDir(t, 'plumb-cache-'), { store: pg.url, workspace: 'faults', storeTimeoutMs: DEADLINE_MS, ...extra }), logger: false });
    t.teardown(() => app.close());
    return app;
  };
  const writer = await start({ index: { watch: true, workers: 1 } });
  await indexReady(writer, 60_000);
  const replica = await start({ readOnly: true });
  await indexReady(replica, 60_000);
  t.ok(await found(writer, 'Engine') && await found(replica, 'Engine'), 'both answer from the store');

  t.test('an edit made while the database is down is indexed when it returns', async (t) => {
    await pg.stop();
    let restarted = false;
    t.teardown(async () => {
      if (!restarted) await pg.start();
    });
    writeFileSync(path.join(root, 'pkg', 'offline.py'), 'class WrittenWhileDown:\n    pass\n');
    let status: { index: Record<string, unknown>; store: Record<string, unknown> } | undefined;
    await eventually(async () => {
      status = (await getJson(writer, '/status')).body;
      // Counted as soon as the watcher queues it; the error once the first try has failed.
      return Number(status?.index.pendingChanges) > 0 && status?.index.pendingError !== undefined;
    }, 20_000).catch(() => undefined);
    t.ok(Number(status?.index.pendingChanges) >= 1, `/status counts the pending change (${JSON.stringify(status?.index)})`);
    t.match(status?.index.pendingError, pg.url, 'and says why it waits');
    t.match(status?.store, { reachable: false });
    const markdown = await writer.inject({ url: '/status?format=markdown' });
    t.match(markdown.body, /change\(s\) not indexed yet \(retrying: /, 'the markdown too');

    await pg.start();
    restarted = true;
    const onWriter = await eventually(() => found(writer, 'WrittenWhileDown'), 45_000).catch(() => -1);
    t.ok(onWriter >= 0, `the writer indexes it after the database returns (${onWriter} ms)`);
    const onReplica = await eventually(() => found(replica, 'WrittenWhileDown'), 20_000).catch(() => -1);
    t.ok(onReplica >= 0, 'the replica answers it too');
    const after = (await getJson(writer, '/status')).body;
    t.equal(after.index.pendingChanges, 0, 'nothing pending any more');
    t.notOk('pendingError' in after.index);
    t.match(after.store, { reachable: true, behind: 0 });
    const heard = await eventually(async () => {
      const { store } = (await getJson(replica, '/status')).body;
      return store.version === after.store.version && store.behind === 0;
    }, 20_000).catch(() => -1);
    t.ok(heard >= 0, `the replica heard of the writer's commit: ${JSON.stringify((await getJson(replica, '/status')).body.store)}`);
  });

  t.test('a frozen database: 503 within the deadline, /status promptly, all well after it thaws', async (t) => {
    // Connections in the pools that the freeze will leave hanging, not only new ones.
    for (const app of [writer, replica]) t.ok(await found(app, 'Engine'));
    const direct = await PostgresSymbolStore.open({ url: pg.url, workspace: 'faults-direct', readOnly: false, timeoutMs: 1000 });
    t.teardown(() => direct.close());
    const update = (file: string, name: string): FileUpdate => ({
      file, size: 1, mtimeMs: 1, hash: file, language: 'python', package: { name: 'direct', path: '', manifest: null, external: false }, external: false,
      symbols: [{ name, kind: 'class', containers: [], qualifiedName: name, containingType: null, range: { start: { line: 1, column: 1 }, end: { line: 1, column: 9 } }, selectionRange: { start: { line: 1, column: 7 }, end: { line: 1, column: 9 } }, signature: `class ${name}`, parameters: [], returnType: null, doc: null, definition: true, forwardDeclaration: false, bases: [], language: 'python' }],
    });
    await direct.write([update('a.py', 'BeforeFreeze')], []);
    // A replica with an idle pooled connection and a LISTEN connection: closed during the freeze.
    const closing = await PostgresSymbolStore.open({ url: pg.url, workspace: 'faults-direct', readOnly: true, timeoutMs: 1000 });
    await closing.listeningReady();
    t.equal((await closing.counts()).files, 1);

    pg.freeze();
    t.teardown(() => pg.thaw());
    try {
      // An edit meanwhile: held, indexed after the thaw.
      writeFileSync(path.join(root, 'pkg', 'frozen.py'), 'class WrittenWhileFrozen:\n    pass\n');
      // A write (a transaction) gives up within its deadline (four times the read deadline), a read within its own.
      const write = timed(direct.write([update('b.py', 'DuringFreeze')], []).then(() => undefined, (error: unknown) => error));
      const read = timed(direct.search({ name: 'BeforeFreeze', tiers: MATCH_TIERS, offset: 0, limit: 10, includeForwardDeclarations: false }).then(() => undefined, (error: unknown) => error));
      const closingDone = timed(closing.close());
      const apps = [['the writer', writer], ['the replica', replica]] as const;
      const answers = await Promise.all(apps.map(async ([who, app]) => {
        // The first finds a pooled connection that hangs; the second needs a new one, which does not connect.
        const searches = [await timed(getJson(app, '/symbols?query=Engine')), await timed(getJson(app, '/symbols?query=Engine'))];
        return { who, searches, status: await timed(getJson(app, '/status')) };
      }));
      for (const { who, searches, status } of answers) {
        for (const [i, { value: down, ms }] of searches.entries()) {
          t.equal(down.status, 503, `${who}, search ${i + 1}: 503`);
          t.equal(down.body.error?.code, 'store_unavailable');
          t.match(down.body.error?.message, `Index store ${pg.url} is unavailable`);
          t.ok(Number(down.headers['retry-after']) >= 1, 'with Retry-After');
          t.ok(ms < DEADLINE_MS + SLACK_MS, `within the deadline (${ms} ms)`);
        }
        t.equal(status.value.status, 200, `${who}: /status answers`);
        t.ok(status.ms < 2000 + SLACK_MS, `promptly (${status.ms} ms)`);
        t.match(status.value.body.store, { reachable: false, error: /./ }, 'saying the store is unreachable');
      }
      const written = await write;
      t.ok(written.value instanceof PlumbError && written.value.code === 'store_unavailable', `a write: store_unavailable (${String(written.value)})`);
      t.ok(written.ms < 4 * 1000 + SLACK_MS, `within its deadline (${written.ms} ms)`);
      const { value: failed, ms } = await read;
      t.ok(failed instanceof PlumbError && failed.code === 'store_unavailable' && ms < 1000 + SLACK_MS, `a read on the same pool: store_unavailable in ${ms} ms`);
      const closed = await closingDone;
      t.ok(closed.ms < 1000 + SLACK_MS, `a store closes within its deadline (${closed.ms} ms)`);
      const pending = (await getJson(writer, '/status')).body.index;
      t.ok(pending.pendingChanges > 0, `the edit is pending (${JSON.stringify(pending)})`);
    } finally {
      pg.thaw();
    }

    // Everything answers again, with the right answers, without a restart.
    for (const [who, app] of [['the writer', writer], ['the replica', replica]] as const) {
      const back = await eventually(() => found(app, 'Engine'), 20_000).catch(() => -1);
      t.ok(back >= 0, `${who} answers again after the thaw`);
      const status = await getJson(app, '/status');
      t.match(status.body.store, { reachable: true });
    }
    const indexed = await eventually(async () => await found(writer, 'WrittenWhileFrozen') && found(replica, 'WrittenWhileFrozen'), 30_000).catch(() => -1);
    t.ok(indexed >= 0, 'the edit made during the freeze is indexed and seen by the replica');
    const writerStatus = (await getJson(writer, '/status')).body;
    t.equal(writerStatus.index.pendingChanges, 0);
    const heard = await eventually(async () => {
      const { store } = (await getJson(replica, '/status')).body;
      return store.version === writerStatus.store.version && store.behind === 0;
    }, 20_000).catch(() => -1);
    t.ok(heard >= 0, `the replica heard of it (LISTEN works): ${JSON.stringify((await getJson(replica, '/status')).body.store)} after ${heard} ms`);
    // The pool that timed out works, reads and writes.
    await direct.write([update('c.py', 'AfterThaw')], []);
    const spec = { tiers: MATCH_TIERS, offset: 0, limit: 10, includeForwardDeclarations: false };
    const names = await Promise.all(['BeforeFreeze', 'AfterThaw', 'DuringFreeze'].map(async (name) => (await direct.search({ ...spec, name })).results.map((hit) => hit.symbol.name)));
    t.same(names, [['BeforeFreeze'], ['AfterThaw'], []], 'the timed-out write left nothing; later ones commit');
  });
});
