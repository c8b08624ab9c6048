/**
 * tsx bench/postgres.ts postgres://USER@HOST:PORT/DB ROOT [--extra DIR]... [--rounds N] [--keep]: the PostgreSQL
 * store beside the embedded SQLite one on the same tree: a cold build into each (wall time), then the golden
 * queries (bench/golden-queries.ts, as /symbols asks them) on each: wall p50/p99 and this process's CPU per query
 * (for PostgreSQL the server's CPU comes on top: see pg_stat_statements or top) and round trips per search. Finally the comparison of every
 * read (exit 1 on a difference). The PostgreSQL workspace is a fresh one, dropped at the end unless --keep.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { validateConfig } from '../src/config.js';
import { PostgresSymbolStore } from '../src/index/postgres/store.js';
import { WORKSPACE_TABLES } from '../src/index/postgres/schema.js';
import type { SymbolReader } from '../src/index/store.js';
import { SymbolIndex } from '../src/index/symbol-index.js';
import { compareStores, goldenSpec, QUERIES } from './golden-queries.js';

const argv = process.argv.slice(2);
const [url, root] = argv;
if (!url || !root) {
  console.error('usage: tsx bench/postgres.ts postgres://USER@HOST:PORT/DB ROOT [--extra DIR]... [--rounds N] [--keep]');
  process.exit(2);
}
const extraRoots = argv.flatMap((arg, i) => (arg === '--extra' ? [argv[i + 1]] : []));
const rounds = Number(argv[argv.indexOf('--rounds') + 1] || 20) || 20;
const workspace = `bench-${path.basename(root)}-${process.pid}`;
const cacheDir = mkdtempSync(path.join(os.tmpdir(), 'plumb-bench-pg-'));
const config = validateConfig({ cacheDir, logLevel: 'silent', index: { extraRoots, watch: false } });

async function build(label: string, open: () => Promise<SymbolIndex>): Promise<SymbolIndex> {
  const t0 = performance.now();
  const index = await open();
  const summary = await index.build();
  console.log(`${label.padEnd(10)} cold build ${((performance.now() - t0) / 1000).toFixed(1)} s: ${summary.filesTotal} files, ${summary.symbols} symbols`);
  return index;
}

function pct(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

async function time(label: string, reader: SymbolReader): Promise<void> {
  const wall: number[] = [];
  const cpu: number[] = [];
  for (const query of QUERIES) await reader.search(goldenSpec(query, {}, true));
  const sent = reader instanceof PostgresSymbolStore ? reader.statementsSent : 0;
  for (let round = 0; round < rounds; round++) {
    for (const query of QUERIES) {
      const spec = goldenSpec(query, { limit: 50 + round }, true); // a page one longer each round: searched, not the search cache
      const c0 = process.cpuUsage();
      const t0 = performance.now();
      await reader.search(spec);
      wall.push(performance.now() - t0);
      const c = process.cpuUsage(c0);
      cpu.push((c.user + c.system) / 1000);
    }
  }
  const trips = reader instanceof PostgresSymbolStore ? `; ${((reader.statementsSent - sent) / wall.length).toFixed(2)} round trips per search` : '';
  console.log(`${label.padEnd(10)} search p50 ${pct(wall, 50).toFixed(2)} ms, p99 ${pct(wall, 99).toFixed(2)} ms; client CPU p50 ${pct(cpu, 50).toFixed(2)} ms${trips} (${wall.length} searches)`);
}

const sqlite = await build('sqlite', () => SymbolIndex.open({ root, config, cacheDir }));
const writer = await PostgresSymbolStore.open({ url, workspace, readOnly: false });
const postgres = await build('postgres', () => SymbolIndex.open({ root, config, cacheDir: path.join(cacheDir, 'pg'), store: writer }));
const replica = await PostgresSymbolStore.open({ url, workspace, readOnly: true });
await time('sqlite', sqlite.reader);
await time('postgres', replica);
const { cases, differences } = await compareStores(sqlite.reader, replica, 5);
console.log(differences.length === 0 ? `same answers on both stores (${cases} reads)` : `ANSWERS DIFFER: ${differences.map((d) => d.label).join('; ')}`);
await replica.close();
await postgres.close();
await sqlite.close();
if (!argv.includes('--keep')) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  const rows = await client.query<{ id: number }>('SELECT id FROM workspaces WHERE name = $1', [workspace]);
  for (const table of WORKSPACE_TABLES) await client.query(`DELETE FROM ${table} WHERE workspace_id = $1`, [rows.rows[0]?.id]);
  await client.query('DELETE FROM workspaces WHERE name = $1', [workspace]);
  await client.end();
}
rmSync(cacheDir, { recursive: true, force: true });
process.exit(differences.length === 0 ? 0 : 1);
