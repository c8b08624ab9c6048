import { appendFileSync, cpSync } from 'node:fs';
import path from 'node:path';
import t from 'tap';
import { SymbolIndex, type IndexProgress } from '../../src/index/symbol-index.js';
import type { SearchSpec } from '../../src/index/store.js';
import { FLASK, tempDir, testConfig } from '../helpers.js';

const exact = (name: string): SearchSpec => ({ name, tiers: ['exact'], offset: 0, limit: 50, includeForwardDeclarations: false });

type Teardown = { teardown(fn: () => unknown): void };

async function openIndex(t: Teardown, root: string, cacheDir: string): Promise<SymbolIndex> {
  const index = await SymbolIndex.open({ root, config: testConfig(cacheDir, { index: { watch: false, workers: 2 } }), cacheDir });
  t.teardown(() => index.close());
  return index;
}

t.test('an index whose build finished is ready when reopened; its refresh keeps it ready and counts the changed files as pending', async (t) => {
  const root = path.join(tempDir(t), 'flask');
  cpSync(FLASK, root, { recursive: true });
  const cacheDir = tempDir(t, 'plumb-cache-');
  const first = await openIndex(t, root, cacheDir);
  t.equal(first.status().state, 'building', 'an empty store is building');
  const cold = await first.build();
  await first.close();

  appendFileSync(path.join(root, 'config.py'), '\n\ndef added_while_stopped():\n    return 1\n');
  const second = await openIndex(t, root, cacheDir);
  t.same(second.status(), { state: 'ready', filesIndexed: cold.filesTotal, filesTotal: cold.filesTotal, symbols: cold.symbols }, 'ready before any walk: the last build finished');
  const seen: IndexProgress[] = [];
  const pending: number[] = [];
  second.onProgress((progress) => {
    seen.push(progress);
    pending.push(second.pending().pendingChanges);
  });
  const warm = await second.build();
  t.equal(warm.filesParsed, 1, 'the edited file is parsed again');
  t.ok(seen.length > 0 && seen.every((progress) => progress.state === 'ready'), 'never back to building during the refresh');
  t.ok(pending.some((count) => count === 1), 'the edited file is a pending change while it is parsed');
  t.equal(second.pending().pendingChanges, 0, 'and none once it is done');
  t.equal((await second.reader.search(exact('added_while_stopped'))).totalMatches, 1, 'the edit is indexed');
  t.same(second.status(), { ...second.status(), state: 'ready', filesIndexed: cold.filesTotal, filesTotal: cold.filesTotal });
});

t.test('an index whose build did not finish is still building when reopened', async (t) => {
  const root = path.join(tempDir(t), 'flask');
  cpSync(FLASK, root, { recursive: true });
  const cacheDir = tempDir(t, 'plumb-cache-');
  const first = await openIndex(t, root, cacheDir);
  await first.build();
  await first.close();
  // A refresh that had work to do and was stopped before its end leaves 'building' behind, as a first build would.
  appendFileSync(path.join(root, 'app.py'), '\n\ndef also_added():\n    return 2\n');
  const second = await openIndex(t, root, cacheDir);
  const stopped = new Promise<void>((resolve) => {
    const stop = second.onProgress(() => {
      stop();
      resolve();
    });
  });
  const building = second.build().catch(() => undefined);
  await stopped;
  await second.close();
  await building;
  const third = await openIndex(t, root, cacheDir);
  t.equal(third.status().state, 'building', 'an unfinished build leaves the next start building');
  await third.build();
  t.equal(third.status().state, 'ready');
  t.equal((await third.reader.search(exact('also_added'))).totalMatches, 1);
});
