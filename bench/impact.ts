/**
 * Impact and changes latency on googletest with clangd (cmake's compile database), warm: find_impact of a
 * function (two levels) and of an abstract class, next to the find_callers walk it starts from; detect_changes
 * of a one-line edit of a function's body (sent as a diff not yet applied: the tree is read-only) and of an
 * edit touching three functions. In process, p50 and p99 of sequential runs.
 *   npx tsx bench/impact.ts
 */
import { readFileSync } from 'node:fs';
import { findCalls } from '../src/symbols/calls.js';
import { detectChanges } from '../src/symbols/changes.js';
import { findImpact } from '../src/symbols/impact.js';
import { googletestApp, percentile, time } from './googletest.js';

const { app, close } = await googletestApp('impact');
const services = app.plumb;

const first = performance.now();
await findImpact(services, { symbol: 'testing::internal::CodePointToUtf8' });
const firstMs = performance.now() - first;
// clangd's background index done, so the server side is measured warm.
for (let i = 0; i < 480 && services.lsp.status().some((s) => s.state === 'indexing' || s.state === 'starting'); i++) await new Promise((resolve) => setTimeout(resolve, 500));

/** A diff replacing the first body line of each named function in googletest/src/gtest.cc (the working tree keeps the old side). */
function editOf(functions: string[]): string {
  const file = 'googletest/src/gtest.cc';
  const lines = readFileSync(`/usr/src/googletest/${file}`, 'utf8').split('\n');
  const bodies = functions.map((name) => {
    const at = lines.findIndex((line) => new RegExp(`^\\S.*\\b${name}\\(.*\\{$`).test(line));
    if (at < 0) throw new Error(`${name} not found in ${file}`);
    return at + 1;
  }).sort((a, b) => a - b);
  // Each hunk adds a line: the new side's numbers move by one per hunk before it.
  const hunks = bodies.map((body, i) => `@@ -${body + 1},1 +${body + 1 + i},2 @@\n-${lines[body]}\n+  // edited\n+${lines[body]}\n`);
  return `--- a/${file}\n+++ b/${file}\n${hunks.join('')}`;
}

const one = editOf(['CodePointToUtf8']);
const three = editOf(['CodePointToUtf8', 'WideStringToUtf8', 'IsUtf16SurrogatePair']);
const impact = await findImpact(services, { symbol: 'testing::internal::CodePointToUtf8' });
const type = await findImpact(services, { symbol: 'testing::TestEventListener', depth: 1 });
const changed = await detectChanges(services, { diff: one });
const changedThree = await detectChanges(services, { diff: three });

const rows: Array<[string, number[]]> = [];
rows.push(['find_callers walk, depth 2 (CodePointToUtf8)', await time(30, () => findCalls(services, { symbol: 'testing::internal::CodePointToUtf8', depth: 2 }, 'incoming'))]);
rows.push(['find_impact, depth 2 (CodePointToUtf8)', await time(30, () => findImpact(services, { symbol: 'testing::internal::CodePointToUtf8' }))]);
rows.push(['find_impact, depth 1 (TestEventListener, a class)', await time(10, () => findImpact(services, { symbol: 'testing::TestEventListener', depth: 1 }))]);
rows.push(['GET /symbols/impact (HTTP in process)', await time(30, () => app.inject({ method: 'GET', url: '/symbols/impact?symbol=testing::internal::CodePointToUtf8' }))]);
rows.push(['detect_changes, one function edited', await time(20, () => detectChanges(services, { diff: one }))]);
rows.push(['detect_changes, three functions edited', await time(10, () => detectChanges(services, { diff: three }))]);
rows.push(['POST /changes (HTTP in process, one function)', await time(20, () => app.inject({ method: 'POST', url: '/changes', payload: { diff: one } }))]);

console.log(`googletest: impact of CodePointToUtf8 reaches ${impact.totalMatches} symbols, ${impact.testsTotal} tests (${impact.precision}); TestEventListener ${type.totalMatches}; a one-function edit changes ${changed.changedTotal} symbol and reaches ${changed.totalMatches}, a three-function edit ${changedThree.changedTotal} and ${changedThree.totalMatches}; first answer (clangd start) ${Math.round(firstMs)} ms`);
console.log('| case | p50 ms | p99 ms | runs |');
console.log('|---|---|---|---|');
for (const [name, values] of rows) console.log(`| ${name} | ${percentile(values, 50)} | ${percentile(values, 99)} | ${values.length} |`);
await close();
