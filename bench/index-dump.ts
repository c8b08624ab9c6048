/**
 * Builds an index of ROOT cold and writes what it stores as sorted text, free of row ids (which
 * follow the order parses finish in): files, symbols by sid with every column, names, symbol_bases,
 * and the terms of both full-text tables (name_text by name, sig_text by symbol sid). Two dumps
 * taken before and after a change to the build compare with `cmp`: the same bytes mean the same index.
 * Usage: tsx bench/index-dump.ts ROOT OUT [--workers N] [--db COPY] (COPY keeps the database, for bench/query.ts)
 */
import { copyFileSync, createWriteStream, mkdtempSync, rmSync } from 'node:fs';
import { once } from 'node:events';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { validateConfig } from '../src/config.js';
import { SymbolIndex } from '../src/index/symbol-index.js';

const [root, out] = process.argv.slice(2);
const workersAt = process.argv.indexOf('--workers');
const workers = workersAt > 0 ? Number(process.argv[workersAt + 1]) : os.availableParallelism();
const cacheDir = mkdtempSync(path.join(os.tmpdir(), 'plumb-dump-'));
const index = await SymbolIndex.open({ root, config: validateConfig({ cacheDir, logLevel: 'silent', index: { watch: false, workers } }), cacheDir });
const summary = await index.build();
await index.close();

const dbAt = process.argv.indexOf('--db');
if (dbAt > 0) copyFileSync(index.databaseFile, process.argv[dbAt + 1]);
const db = new Database(index.databaseFile, { readonly: false });
const stream = createWriteStream(out);
// Lines are gathered into chunks of about 1 MB, and a chunk the stream cannot take at once is
// waited for ('drain'): millions of symbols written without waiting held every line in memory.
let chunk = '';
const flush = async (): Promise<void> => {
  if (!stream.write(chunk)) await once(stream, 'drain');
  chunk = '';
};
const write = async (line: string): Promise<void> => {
  chunk += `${line}\n`;
  if (chunk.length >= 1 << 20) await flush();
};
const dump = async (title: string, sql: string): Promise<void> => {
  await write(`## ${title}`);
  for (const row of db.prepare(sql).raw().iterate()) await write(JSON.stringify(row));
};
await dump('files', 'SELECT f.path, f.size, f.hash, f.language, p.name, p.path, f.external, f.symbol_count, f.id FROM files f JOIN packages p ON p.id = f.package_id ORDER BY f.path');
await dump('packages', 'SELECT name, path, manifest, external FROM packages ORDER BY name, path');
await dump('symbols', `SELECT s.sid, f.path, s.name, s.name_lower, s.humps, s.kind, s.qualified_name, s.module, s.containing_type, s.sl, s.sc, s.el, s.ec, s.nl, s.nc, s.nel, s.nec,
  s.signature, s.parameters, s.return_type, s.doc, s.definition, s.fwd, s.external, s.rank, s.bases, s.language, p.name, p.path
  FROM symbols s JOIN files f ON f.id = s.file_id JOIN packages p ON p.id = s.package_id ORDER BY s.sid`);
await dump('names', 'SELECT name, name_lower, first, humps FROM names ORDER BY name');
await dump('symbol_bases', 'SELECT s.sid, b.base FROM symbol_bases b JOIN symbols s ON s.id = b.symbol_id ORDER BY s.sid, b.base');
db.exec("CREATE VIRTUAL TABLE temp.nv USING fts5vocab(main, name_text, 'instance'); CREATE VIRTUAL TABLE temp.sv USING fts5vocab(main, sig_text, 'instance');");
await dump('name_text', 'SELECT n.name, v.term, v.offset FROM temp.nv v JOIN names n ON n.id = v.doc ORDER BY n.name, v.offset, v.term');
await dump('sig_text', 'SELECT s.sid, v.term, v.offset FROM temp.sv v JOIN symbols s ON s.id = v.doc ORDER BY s.sid, v.offset, v.term');
await dump('indexes', "SELECT type, name, tbl_name, sql FROM sqlite_master WHERE type IN ('index', 'table') ORDER BY name");
await dump('counts', "SELECT (SELECT count(*) FROM symbols), (SELECT count(*) FROM names), (SELECT count(*) FROM symbol_bases), (SELECT count(*) FROM temp.nv), (SELECT count(*) FROM temp.sv), (SELECT count(*) FROM meta WHERE key <> 'version')");
await flush();
db.close();
await new Promise((resolve) => stream.end(resolve));
rmSync(cacheDir, { recursive: true, force: true });
console.log(`${root}: ${summary.filesTotal} files, ${summary.symbols} symbols → ${out}`);
