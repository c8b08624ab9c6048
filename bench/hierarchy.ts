/**
 * Inheritors latency on googletest with clangd: index-only, with the server's confirmation, and the bare
 * typeHierarchy prepare + subtypes requests for the same type, same run. In process.
 *   npx tsx bench/hierarchy.ts
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { TypeHierarchyPrepareRequest, TypeHierarchySubtypesRequest } from 'vscode-languageserver-protocol';
import { buildApp } from '../src/app.js';
import { validateConfig } from '../src/config.js';
import { findInheritors } from '../src/symbols/inheritors.js';

const scratch = mkdtempSync(path.join(os.tmpdir(), 'plumb-bench-hierarchy-'));
const build = path.join(scratch, 'gtest-build');
execFileSync('cmake', ['-S', '/usr/src/googletest', '-B', build, '-DCMAKE_EXPORT_COMPILE_COMMANDS=ON'], { stdio: 'ignore' });
const app = await buildApp({ root: '/usr/src/googletest', config: validateConfig({ cacheDir: path.join(scratch, 'cache'), logLevel: 'silent', compileDatabase: { directory: build }, index: { watch: false } }), logger: false });
const services = app.plumb;
while (services.index.status().state !== 'ready') await new Promise((resolve) => setTimeout(resolve, 100));

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return Math.round(sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] * 10) / 10;
}

async function time(runs: number, work: () => Promise<unknown>): Promise<number[]> {
  const out: number[] = [];
  for (let i = 0; i < runs; i++) {
    const started = performance.now();
    await work();
    out.push(performance.now() - started);
  }
  return out;
}

const symbol = 'testing::TestEventListener';
const first = performance.now();
const warm = await findInheritors(services, { symbol });
const firstMs = performance.now() - first;
// Let clangd finish its background index so the server side is measured warm.
for (let i = 0; i < 240 && services.lsp.status().some((s) => s.state === 'indexing'); i++) await new Promise((resolve) => setTimeout(resolve, 500));

const file = services.workspace.resolveFile('file', warm.symbol.file);
const uri = services.workspace.uriOf(file.absolute);
const position = { line: warm.symbol.line - 1, character: warm.symbol.column - 1 };
const rows: Array<[string, number[]]> = [];
rows.push(['inheritors, index only (depth 1)', await time(200, () => findInheritors(services, { symbol }, undefined, { useServer: false }))]);
rows.push(['inheritors, index only (depth all)', await time(100, () => findInheritors(services, { symbol, depth: 'all' }, undefined, { useServer: false }))]);
rows.push(['inheritors with clangd (depth 1)', await time(50, () => findInheritors(services, { symbol }))]);
rows.push(['bare prepare + subtypes (clangd)', await time(50, async () => {
  const items = await services.lsp.request(file, TypeHierarchyPrepareRequest.type, { textDocument: { uri }, position });
  await services.lsp.request(file, TypeHierarchySubtypesRequest.type, { item: items![0] });
})]);
const http = await time(50, () => app.inject({ method: 'GET', url: `/symbols/inheritors?symbol=${encodeURIComponent(symbol)}` }));
rows.push(['GET /symbols/inheritors (depth 1, HTTP in process)', http]);

console.log(`googletest, ${symbol}: ${warm.totalMatches} direct inheritors; first answer (clangd start) ${Math.round(firstMs)} ms`);
console.log('| case | p50 ms | p99 ms | runs |');
console.log('|---|---|---|---|');
for (const [name, values] of rows) console.log(`| ${name} | ${percentile(values, 50)} | ${percentile(values, 99)} | ${values.length} |`);
await app.close();
rmSync(scratch, { recursive: true, force: true });
