/**
 * The substring and CamelCase tiers choose their plan from how many names hold each trigram: a common trigram's
 * count is read from name_trigram_counts (filled at the end of a first build, kept by later writes) instead of being
 * counted from its rowid list the first time a search thread sees it. The counts held there are fts5vocab's exactly,
 * after the build and after later writes, and the answers are those of matching the names themselves.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import t from 'tap';
import { COMMON_TRIGRAM } from '../../src/index/sqlite/schema.js';
import { SqliteSymbolStore } from '../../src/index/sqlite/store.js';
import type { FileUpdate } from '../../src/index/store.js';
import type { ExtractedSymbol } from '../../src/syntax/types.js';

function symbol(name: string, line: number): ExtractedSymbol {
  const range = { start: { line, column: 1 }, end: { line, column: 1 + name.length } };
  return {
    name, kind: 'function', containers: [], qualifiedName: name, containingType: null, range, selectionRange: range,
    signature: `void ${name}()`, parameters: [], returnType: 'void', doc: null, definition: true, forwardDeclaration: false, bases: [], language: 'cpp',
  };
}

function file(name: string, names: string[]): FileUpdate {
  return { file: name, size: 1, mtimeMs: 1, hash: name, language: 'cpp', package: { name: 'ws', path: '.', manifest: null, external: false }, external: false, symbols: names.map((n, i) => symbol(n, i + 1)) };
}

/** name_trigram_counts and fts5vocab's count of every trigram, read from the file. */
function counts(file: string): { held: Map<string, number>; exact: Map<string, number> } {
  const db = new Database(file, { readonly: true });
  try {
    db.exec("CREATE VIRTUAL TABLE temp.v USING fts5vocab(main, 'name_text', 'row')");
    return {
      held: new Map(db.prepare('SELECT trigram, names FROM name_trigram_counts').raw().all() as Array<[string, number]>),
      exact: new Map(db.prepare('SELECT term, doc FROM temp.v').raw().all() as Array<[string, number]>),
    };
  } finally {
    db.close();
  }
}

t.test('common trigram counts after a first build and after later writes', async (t) => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'plumb-trigrams-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const indexFile = path.join(dir, 'index.sqlite');
  const store = SqliteSymbolStore.open({ file: indexFile, searchThreads: 0 });
  t.teardown(() => store.close());
  // `reg` and `ctl` in every name, `msk` in one in three, `wxq` in a few: common and rare trigrams.
  const first = Array.from({ length: 1500 }, (_, i) => `reg_ctl_${i % 3 === 0 ? 'msk' : 'val'}_${i}${i % 500 === 0 ? '_wxq' : ''}`);
  await store.bulkLoad(true);
  await store.write([file('a.c', first.slice(0, 800)), file('b.c', first.slice(800))], []);
  await store.bulkLoad(false);

  const afterBuild = counts(indexFile);
  t.equal(afterBuild.held.get('reg'), 1500, 'a trigram of every name');
  t.equal(afterBuild.held.get('msk'), 500, 'a trigram of one name in three');
  t.notOk(afterBuild.held.has('wxq'), 'a rare trigram is left to fts5vocab');
  for (const [trigram, n] of afterBuild.exact) {
    if (n >= COMMON_TRIGRAM) t.equal(afterBuild.held.get(trigram), n, `${trigram}: ${n} names`);
  }

  // Later writes: new names (and one already known) count once each.
  await store.write([file('c.c', ['reg_ctl_msk_new', 'REG_CTL_MSK_NEW2', 'reg_ctl_msk_3'])], []);
  const afterWrite = counts(indexFile);
  t.equal(afterWrite.held.get('reg'), 1502, 'two new names hold reg');
  for (const [trigram, n] of afterWrite.held) t.equal(n, afterWrite.exact.get(trigram), `${trigram}: as fts5vocab counts it`);

  // The answers: every name holding the substring, past the name's start.
  const page = await store.search({ name: 'msk', tiers: ['substring'], offset: 0, limit: 1000, includeForwardDeclarations: true });
  t.equal(page.results.length, 503, 'the substring tier holds every symbol whose name contains msk (reg_ctl_msk_3 twice)');
  const rare = await store.search({ name: 'ctl_msk_1', tiers: ['substring'], offset: 0, limit: 1000, includeForwardDeclarations: true });
  t.same(rare.results.map((hit) => hit.symbol.name).sort(), first.filter((name) => name.includes('ctl_msk_1')).sort(), 'a rarer substring');
});
