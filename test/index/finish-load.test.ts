/**
 * The end of a first build fills name_text, sig_text and name_trigram_counts in a thread of its own and copies them
 * in (finishLoadWithThread): the database it leaves is the one filling them on the build's connection leaves (a store
 * closed mid-load does that), row for row in every table, the full-text tables' own included, and it answers and
 * takes later writes as that one does.
 */
import { createHash } from 'node:crypto';
import { copyFileSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import t from 'tap';
import { SqliteSymbolStore } from '../../src/index/sqlite/store.js';
import type { FileUpdate } from '../../src/index/store.js';
import type { ExtractedSymbol } from '../../src/syntax/types.js';

function symbol(name: string, line: number, returnType: string): ExtractedSymbol {
  const range = { start: { line, column: 1 }, end: { line, column: 1 + name.length } };
  return {
    name, kind: 'function', containers: [], qualifiedName: name, containingType: null, range, selectionRange: range,
    signature: `${name}(struct page *p, int order)`, parameters: [], returnType, doc: null, definition: true, forwardDeclaration: false, bases: [], language: 'c',
  };
}

function file(name: string, names: string[]): FileUpdate {
  return {
    file: name, size: 1, mtimeMs: 1, hash: name, language: 'c', package: { name: 'ws', path: '.', manifest: null, external: false }, external: false,
    symbols: names.map((n, i) => symbol(n, i + 1, i % 2 ? 'void' : 'unsigned long')),
  };
}

/** Every table's rows (the full-text tables' shadow tables included), hashed. */
function digest(indexFile: string): Record<string, string> {
  const db = new Database(indexFile, { readonly: true });
  try {
    const tables = db.prepare("SELECT name FROM sqlite_schema WHERE type = 'table' AND sql NOT LIKE 'CREATE VIRTUAL%' AND name <> 'meta' ORDER BY name").pluck().all() as string[];
    return Object.fromEntries(tables.map((table) => {
      const hash = createHash('sha1');
      for (const row of db.prepare(`SELECT * FROM "${table}" ORDER BY 1, 2`).raw().iterate()) hash.update(JSON.stringify(row, (_key, value: unknown) => (Buffer.isBuffer(value) ? value.toString('base64') : value)));
      return [table, hash.digest('hex')];
    }));
  } finally {
    db.close();
  }
}

/** Each full-text table's terms with the rows (and, where kept, the places) holding them, hashed. */
function instances(indexFile: string): Record<string, string> {
  const db = new Database(indexFile);
  try {
    return Object.fromEntries([['name_text', 'instance'], ['sig_text', 'instance'], ['name_initials', 'row']].map(([table, kind]) => {
      db.exec(`CREATE VIRTUAL TABLE temp.v_${table} USING fts5vocab(main, '${table}', '${kind}')`);
      const hash = createHash('sha1');
      for (const row of db.prepare(`SELECT * FROM temp.v_${table} ORDER BY 1, 2, 3`).raw().iterate()) hash.update(JSON.stringify(row));
      return [`${table} terms`, hash.digest('hex')];
    }));
  } finally {
    db.close();
  }
}

const NAMES = Array.from({ length: 3000 }, (_, i) => `${['alloc', 'free', 'PageMap', 'zone_lock'][i % 4]}_${i % 7 === 0 ? 'msk' : 'val'}${i}`);

const msk = (names: string[]): number => names.filter((name) => name.includes('msk')).length;

t.test('a first build ends with the same tables whether a thread fills the full-text tables or not', async (t) => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'plumb-finish-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const open = (how: string): { store: SqliteSymbolStore; file: string } => {
    const indexFile = path.join(dir, how, 'index.sqlite');
    return { store: SqliteSymbolStore.open({ file: indexFile, searchThreads: 0 }), file: indexFile };
  };
  const search = (store: SqliteSymbolStore, name: string, tier: 'substring' | 'signature') => store.search({ name, tiers: [tier], offset: 0, limit: 5000, includeForwardDeclarations: true });
  const load = [file('a.c', NAMES.slice(0, 1700)), file('b.c', [...NAMES.slice(1700), 'alloc_val1'])];

  // Closing mid-load ends the load on the closing connection, without the thread.
  const here = open('here');
  await here.store.bulkLoad(true);
  await here.store.write(load, []);
  await here.store.close();

  const threaded = open('thread');
  const { store } = threaded;
  t.teardown(() => store.close());
  await store.bulkLoad(true);
  await store.write(load, []);
  // A search during the load reads the full-text tables while they are empty (FTS5 caches what it read).
  t.equal((await search(store, 'msk', 'substring')).results.length, 0, 'during the load the substring tier has no names yet');
  await store.bulkLoad(false);
  t.same(readdirSync(path.dirname(threaded.file)).filter((name) => name.includes('-text') || name.includes('-signatures')), [], 'the thread\'s scratch databases are gone');

  // The same connection reads the copied tables, not the empty ones it cached before the copy, and writes on from them.
  t.equal((await search(store, 'msk', 'substring')).results.length, msk(NAMES), 'the substring tier reads name_text');
  t.equal((await search(store, 'order', 'signature')).results.length, NAMES.length + 1, 'the signature tier reads sig_text');
  const before = digest(threaded.file);
  t.ok(before.name_text_data && before.sig_text_data && before.name_trigram_counts, 'the full-text tables are there');
  t.same(before, digest(here.file), 'every table row for row');

  await store.write([file('c.c', ['zone_lock_msk_new'])], ['a.c']);
  t.equal((await search(store, 'msk', 'substring')).results.length, msk(NAMES.slice(1700)) + 1, 'a later write, and a removed file, seen by the substring tier');
  t.equal((await search(store, 'order', 'signature')).results.length, NAMES.length - 1700 + 2, 'and by the signature tier');
});

const LEFT = { names: ['name_initials', 'name_text', 'sig_text'], 'names, signatures': ['name_initials', 'name_text'], text: ['name_text', 'sig_text'] };
for (const [state, left] of Object.entries(LEFT)) {
  t.test(`a build stopped once its names are in, before ${left.join(', ')} (state '${state}'), fills them when it is opened again`, async (t) => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'plumb-finish-'));
    t.teardown(() => rmSync(dir, { recursive: true, force: true }));
    const indexFile = path.join(dir, 'index.sqlite');
    const store = SqliteSymbolStore.open({ file: indexFile, searchThreads: 0 });
    await store.bulkLoad(true);
    await store.write([file('a.c', NAMES)], []);
    await store.bulkLoad(false);
    await store.close();
    const wholeCopy = path.join(dir, 'whole.sqlite');
    copyFileSync(indexFile, wholeCopy);
    // The states finishLoadWithThread commits before it copies the thread's tables in ('names', then 'names, signatures'), or committed in earlier versions ('text').
    const db = new Database(indexFile);
    const emptied = left.map((table) => `INSERT INTO ${table} (${table}) VALUES ('delete-all');`).join(' ');
    db.exec(`DELETE FROM name_trigram_counts; ${emptied} INSERT INTO meta (key, value) VALUES ('signatures_pending', '${state}')`);
    db.close();
    const [emptiedDigest, whole] = [digest(indexFile), digest(wholeCopy)];
    for (const table of ['name_initials', 'name_text', 'sig_text']) t.equal(emptiedDigest[`${table}_data`] !== whole[`${table}_data`], left.includes(table), `${table} ${left.includes(table) ? 'emptied' : 'kept'}`);
    const reopened = SqliteSymbolStore.open({ file: indexFile, searchThreads: 0 });
    const search = (name: string, tier: 'substring' | 'signature') => reopened.search({ name, tiers: [tier], offset: 0, limit: 5000, includeForwardDeclarations: true });
    t.equal((await search('msk', 'substring')).results.length, msk(NAMES), 'the substring tier answers');
    t.equal((await search('order', 'signature')).results.length, NAMES.length, 'the signature tier answers');
    await reopened.close();
    // Filled afresh, the segments are numbered otherwise: the same terms in the same rows at the same places.
    const content = (file: string): Record<string, string> => {
      const { name_text_data: _a, name_text_idx: _b, sig_text_data: _c, sig_text_idx: _d, name_initials_data: _e, name_initials_idx: _f, ...rest } = digest(file);
      return { ...rest, ...instances(file) };
    };
    const afresh = content(indexFile);
    t.same(afresh, content(wholeCopy), 'opening it again fills what was left, as the build would have');
  });
}
