/**
 * The embedded store's re-index failing for a while: another process holds the SQLite database's write lock
 * past its busy timeout (SQLITE_BUSY). The watcher's change is kept, counted as pending, and indexed once the
 * lock is gone, without a restart. (The PostgreSQL store's faults: test/routes/store-faults.test.ts.)
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import t from 'tap';
import { SymbolIndex } from '../../src/index/symbol-index.js';
import { tempDir, testConfig } from '../helpers.js';
import { eventually, indexReady } from './helpers.js';

t.test('a change that meets a locked SQLite database is kept and indexed once the lock is gone', async (t) => {
  const root = tempDir(t, 'plumb-pending-');
  writeFileSync(path.join(root, 'first.py'), 'class First:\n    pass\n');
  const cacheDir = tempDir(t, 'plumb-cache-');
  const index = await SymbolIndex.open({ root, config: testConfig(cacheDir, { index: { watch: true, workers: 1 } }), cacheDir });
  t.teardown(() => index.close());
  index.start();
  await indexReady(index, 60_000);
  const found = async (name: string): Promise<boolean> => (await index.reader.search({ name, tiers: ['exact'], offset: 0, limit: 5, includeForwardDeclarations: false })).totalMatches > 0;
  t.ok(await found('First'));
  t.same(index.pending(), { pendingChanges: 0 });

  // Another process's write transaction: plumb's writes wait their busy timeout (5 s), then fail with SQLITE_BUSY.
  const other = new Database(index.databaseFile);
  t.teardown(() => other.close());
  other.exec('BEGIN IMMEDIATE');
  let locked = true;
  t.teardown(() => {
    if (locked) other.exec('ROLLBACK');
  });
  writeFileSync(path.join(root, 'second.py'), 'class WrittenWhileLocked:\n    pass\n');
  await eventually(async () => index.pending().pendingError !== undefined, 30_000);
  const pending = index.pending();
  t.equal(pending.pendingChanges, 1, 'the change is pending');
  t.match(pending.pendingError, /locked|busy/i, `and says why (${pending.pendingError})`);
  t.notOk(await found('WrittenWhileLocked'), 'not indexed yet');

  other.exec('ROLLBACK');
  locked = false;
  await eventually(() => found('WrittenWhileLocked'), 30_000);
  t.pass('indexed once the lock is gone');
  t.same(index.pending(), { pendingChanges: 0 });
});
