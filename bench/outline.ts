/**
 * /outline latency per language on real code: the first request (server start, indexing,
 * first didOpen) and warm requests on the same file, in process through app.inject().
 *   npm run bench:outline
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { buildApp } from '../src/app.js';
import { validateConfig } from '../src/config.js';

interface Case { language: string; root: string; file: string; extra?: Record<string, unknown> }

const repo = path.resolve(import.meta.dirname, '..');
const scratch = mkdtempSync(path.join(os.tmpdir(), 'plumb-bench-outline-'));
const gtestBuild = path.join(scratch, 'gtest-build');
execFileSync('cmake', ['-S', '/usr/src/googletest', '-B', gtestBuild, '-DCMAKE_EXPORT_COMPILE_COMMANDS=ON'], { stdio: 'ignore' });

const cases: Case[] = [
  { language: 'cpp', root: '/usr/src/googletest', file: 'googletest/src/gtest.cc', extra: { compileDatabase: { directory: gtestBuild } } },
  { language: 'typescript', root: path.join(repo, 'node_modules/rxjs/src'), file: 'internal/Observable.ts' },
  { language: 'python', root: '/usr/lib/python3/dist-packages/flask', file: 'app.py' },
];

const WARM_RUNS = 50;
const rows: string[][] = [];
for (const c of cases) {
  const app = await buildApp({ root: c.root, config: validateConfig({ cacheDir: path.join(scratch, 'cache'), logLevel: 'silent', ...c.extra }), logger: false });
  const url = `/outline?file=${encodeURIComponent(c.file)}`;
  let t0 = performance.now();
  const first = await app.inject({ url });
  const firstMs = performance.now() - t0;
  if (first.statusCode !== 200) throw new Error(`${c.language}: ${first.statusCode} ${first.body}`);
  const warm: number[] = [];
  for (let i = 0; i < WARM_RUNS; i++) {
    t0 = performance.now();
    await app.inject({ url });
    warm.push(performance.now() - t0);
  }
  warm.sort((a, b) => a - b);
  const symbols = countNodes((first.json() as { results: Node[] }).results);
  rows.push([c.language, `${path.basename(c.root)}/${c.file}`, String(symbols), firstMs.toFixed(0), warm[Math.floor(WARM_RUNS / 2)].toFixed(1), warm[Math.floor(WARM_RUNS * 0.99)].toFixed(1)]);
  await app.close();
}
rmSync(scratch, { recursive: true, force: true });

console.log('\n/outline latency (in process, app.inject; warm = same file again, %d runs)\n', WARM_RUNS);
console.log('| language | file | symbols | first request ms | warm p50 ms | warm p99 ms |');
console.log('|---|---|---|---|---|---|');
for (const row of rows) console.log(`| ${row.join(' | ')} |`);

interface Node { children: Node[] }
function countNodes(nodes: Node[]): number {
  return nodes.reduce((sum, node) => sum + 1 + countNodes(node.children), 0);
}
