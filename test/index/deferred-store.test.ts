import path from 'node:path';
import t from 'tap';
import { deferredStore } from '../../src/index/deferred-store.js';
import { SqliteSymbolStore } from '../../src/index/sqlite/store.js';
import { tempDir } from '../helpers.js';

t.test('a store that cannot open yet: each call is store_unavailable naming it, until it opens', async (t) => {
  const file = path.join(tempDir(t), 'index.sqlite');
  let attempts = 0;
  let up = false;
  let clock = 0;
  const store = deferredStore(async () => {
    attempts++;
    if (!up) throw new Error('connect ECONNREFUSED 127.0.0.1:5432');
    return SqliteSymbolStore.open({ file });
  }, 'postgres://plumb@db:5432/plumb', 2000, () => clock);
  const changes: number[] = [];
  const off = store.onChange((version) => changes.push(version));

  await t.rejects(store.counts(), { code: 'store_unavailable', status: 503, message: 'Index store postgres://plumb@db:5432/plumb is unavailable: connect ECONNREFUSED 127.0.0.1:5432', retryAfter: 2 });
  await t.rejects(store.search({ name: 'x', tiers: ['exact'], offset: 0, limit: 1, includeForwardDeclarations: false }), { code: 'store_unavailable' });
  clock += 1999;
  await t.rejects(store.counts(), { code: 'store_unavailable' });
  t.equal(attempts, 1, 'a second and a third call within the retry interval do not knock again');

  up = true;
  clock += 1;
  t.same(await store.counts(), { files: 0, symbols: 0 }, 'answers once it opens');
  t.equal(attempts, 2);
  await store.write([], []);
  t.equal((await store.storeInfo()).backend, 'sqlite', 'calls go to the opened store');
  t.same(changes, [0], 'listeners registered while waiting hear that the store is there');
  off();
  await store.close();
});
