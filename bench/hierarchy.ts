/**
 * Inheritors latency on googletest with clangd: index-only, with the server's confirmation, and the bare
 * typeHierarchy prepare + subtypes requests for the same type, same run. In process.
 *   npx tsx bench/hierarchy.ts
 */
import { TypeHierarchyPrepareRequest, TypeHierarchySubtypesRequest } from 'vscode-languageserver-protocol';
import { findInheritors } from '../src/symbols/inheritors.js';
import { googletestApp, percentile, time } from './googletest.js';

const { app, close } = await googletestApp('hierarchy');
const services = app.plumb;

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
await close();
