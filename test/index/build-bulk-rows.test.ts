/**
 * A first build's bulk load binds several symbols rows to one insert (writer.ts BulkRows): the rows, their ids and
 * their symbol_bases keys are those written one row at a time, for files whose symbols are not a multiple of the
 * rows an insert takes, several files in one batch, a file without symbols and one split in several chunks.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import t from 'tap';
import { SqliteSymbolStore } from '../../src/index/sqlite/store.js';
import { packSymbols } from '../../src/index/symbol-codec.js';
import type { FileUpdate } from '../../src/index/store.js';
import type { ExtractedSymbol } from '../../src/syntax/types.js';

function symbol(name: string, line: number, bases: string[]): ExtractedSymbol {
  const range = { start: { line, column: 1 }, end: { line, column: 1 + name.length } };
  return {
    name, kind: bases.length > 0 ? 'class' : 'function', containers: [], qualifiedName: `ns::${name}`, containingType: null, range, selectionRange: range,
    signature: `${name}()`, parameters: [], returnType: null, doc: null, definition: line % 3 !== 0, forwardDeclaration: false, bases, language: 'cpp',
  };
}

function file(name: string, count: number, external = false): FileUpdate {
  const symbols = Array.from({ length: count }, (_, i) => symbol(`${name.replace('.', '_')}_${i}`, i + 1, i % 4 === 1 ? ['Base', `ns::Templ<T${i}>`] : i % 5 === 2 ? ['Other'] : []));
  return {
    file: name, size: 1, mtimeMs: 1, hash: name, language: 'cpp', package: { name: 'ws', path: '.', manifest: null, external }, external, symbols,
  };
}

/** The same symbols as `update`'s, packed in chunks of `size` (what a large file read in pieces sends). */
function inChunks(update: FileUpdate, size: number): FileUpdate {
  const symbols = update.symbols as ExtractedSymbol[];
  const seen = new Map<string, number>();
  const packed = [];
  for (let i = 0; i < symbols.length; i += size) packed.push(packSymbols(symbols.slice(i, i + size), update.file, seen));
  return { ...update, symbols: { packed, count: symbols.length } };
}

function rows(indexFile: string): { symbols: unknown[]; bases: unknown[] } {
  const db = new Database(indexFile, { readonly: true });
  try {
    return {
      symbols: db.prepare('SELECT * FROM symbols ORDER BY id').raw().all(),
      bases: db.prepare('SELECT b.symbol_id, s.sid, b.base FROM symbol_bases b JOIN symbols s ON s.id = b.symbol_id ORDER BY 1, 3').raw().all(),
    };
  } finally {
    db.close();
  }
}

t.test('a bulk load writes the rows, ids and base keys that row-by-row writes do', async (t) => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'plumb-bulk-rows-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const batches = [
    [file('a.cc', 13), file('b.cc', 8), file('empty.cc', 0), file('c.cc', 3, true)],
    [inChunks(file('big.cc', 45), 7), file('d.cc', 1)],
    [file('e.cc', 16)],
  ];
  const results = [];
  for (const bulk of [false, true]) {
    const indexFile = path.join(dir, bulk ? 'bulk' : 'rows', 'index.sqlite');
    const store = SqliteSymbolStore.open({ file: indexFile, searchThreads: 0 });
    if (bulk) await store.bulkLoad(true);
    for (const batch of batches) await store.write(batch, []);
    if (bulk) await store.bulkLoad(false);
    await store.close();
    results.push(rows(indexFile));
  }
  const [byRow, byBulk] = results;
  t.equal(byBulk.symbols.length, 13 + 8 + 3 + 45 + 1 + 16);
  t.ok(byBulk.bases.length > 20, 'base keys written');
  t.same(byBulk.symbols, byRow.symbols, 'symbols rows, ids included');
  t.same(byBulk.bases, byRow.bases, 'symbol_bases rows');
});
