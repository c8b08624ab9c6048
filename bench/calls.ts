/**
 * Callers latency on googletest with clangd: plumb's callers (depth 1 and 2) next to the bare
 * callHierarchy prepare + incomingCalls requests for the same function, same run; and the syntactic
 * callees (clangd 19 has no outgoingCalls). In process.
 *   npx tsx bench/calls.ts
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { CallHierarchyIncomingCallsRequest, CallHierarchyPrepareRequest } from 'vscode-languageserver-protocol';
import { buildApp } from '../src/app.js';
import { validateConfig } from '../src/config.js';
import { findCalls } from '../src/symbols/calls.js';

const scratch = mkdtempSync(path.join(os.tmpdir(), 'plumb-bench-calls-'));
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

const symbol = 'testing::internal::EqFailure';
const first = performance.now();
await findCalls(services, { symbol }, 'incoming');
const firstMs = performance.now() - first;
// Let clangd finish its background index so the server side is measured warm.
for (let i = 0; i < 480 && services.lsp.status().some((s) => s.state === 'indexing' || s.state === 'starting'); i++) await new Promise((resolve) => setTimeout(resolve, 500));
const warm = await findCalls(services, { symbol }, 'incoming');

const file = services.workspace.resolveFile('file', warm.symbol.file);
const uri = services.workspace.uriOf(file.absolute);
const position = { line: warm.symbol.line - 1, character: warm.symbol.column - 1 };
const rows: Array<[string, number[]]> = [];
rows.push(['bare prepare + incomingCalls (clangd)', await time(50, async () => {
  const items = await services.lsp.request(file, CallHierarchyPrepareRequest.type, { textDocument: { uri }, position });
  await services.lsp.request(file, CallHierarchyIncomingCallsRequest.type, { item: items![0] });
})]);
rows.push(['callers (depth 1)', await time(50, () => findCalls(services, { symbol }, 'incoming'))]);
rows.push(['callers (depth 2)', await time(20, () => findCalls(services, { symbol, depth: 2 }, 'incoming'))]);
rows.push(['GET /symbols/callers (depth 1, HTTP in process)', await time(50, () => app.inject({ method: 'GET', url: `/symbols/callers?symbol=${encodeURIComponent(symbol)}` }))]);
rows.push(['callees, syntactic (CmpHelperEQFailure)', await time(50, () => findCalls(services, { symbol: 'CmpHelperEQFailure' }, 'outgoing'))]);

console.log(`googletest, ${symbol}: ${warm.totalMatches} callers (${warm.precision}); first answer (clangd start, AST build) ${Math.round(firstMs)} ms`);
console.log('| case | p50 ms | p99 ms | runs |');
console.log('|---|---|---|---|');
for (const [name, values] of rows) console.log(`| ${name} | ${percentile(values, 50)} | ${percentile(values, 99)} | ${values.length} |`);
await app.close();
rmSync(scratch, { recursive: true, force: true });
