/**
 * Callers latency on googletest with clangd: plumb's callers (depth 1 and 2) next to the bare
 * callHierarchy prepare + incomingCalls requests for the same function, same run; and the syntactic
 * callees (clangd 19 has no outgoingCalls). In process.
 *   npx tsx bench/calls.ts
 */
import { CallHierarchyIncomingCallsRequest, CallHierarchyPrepareRequest } from 'vscode-languageserver-protocol';
import { findCalls } from '../src/symbols/calls.js';
import { googletestApp, percentile, time } from './googletest.js';

const { app, close } = await googletestApp('calls');
const services = app.plumb;

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
await close();
