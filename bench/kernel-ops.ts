/**
 * tsx bench/kernel-ops.ts [--root DIR] [--cache DIR] [--names N] [--rounds N]: the operations other than search on
 * the whole Linux tree's index (issue 22, item 4), each beside the same operation on googletest: declaration by
 * name, members, inheritors and hierarchy (the index's), statements over one top-level folder (the kernel's mm/,
 * googletest's googlemock, package gmock), and the syntactic fallbacks of usages and callers (the files the word
 * index does not show without the name are read). Each question is one never asked before (--rounds N asks each N times, the later ones warm);
 * p50/p99 per operation on each tree and the kernel's p50 over googletest's; an operation more than 10x slower on
 * the kernel is marked.
 * Language servers are left out on both trees (a server command that does not exist), so every answer is the
 * index's own, as on a kernel checkout without a compile database: usages and callers are the fallbacks that read
 * the files of the symbol's language family holding its name, saying so.
 * The kernel's index is the one bench/kernel-search.ts keeps (--cache, default $PLUMB_BENCH_CACHE/kernel-index;
 * built there once when missing); googletest's is built in a scratch cache. Without the kernel tree: skipped.
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FastifyBaseLogger } from 'fastify';
import { pino } from 'pino';
import { validateConfig } from '../src/config.js';
import type { StoredSymbol } from '../src/index/store.js';
import { createServices, type Services } from '../src/services.js';
import { findCalls } from '../src/symbols/calls.js';
import { findDeclaration } from '../src/symbols/declaration.js';
import { typeHierarchy } from '../src/symbols/hierarchy.js';
import { findInheritors } from '../src/symbols/inheritors.js';
import { listMembers } from '../src/symbols/members.js';
import { searchStatements } from '../src/symbols/statements.js';
import { findUsages } from '../src/symbols/usages.js';
import { corpusPath, linuxSource, requireCorpora } from '../test/corpora.js';
import { markdownTable, option, percentile } from './measure.js';

const BENCH_CACHE = process.env.PLUMB_BENCH_CACHE ?? path.join(os.tmpdir(), 'plumb-bench');
const NAMES = Number(option('--names') ?? 100);
const ROUNDS = Number(option('--rounds') ?? 1);
/** Usages' fallback reads the whole tree each time: a few names, once each. */
const USAGE_NAMES = 5;

let kernelRoot = option('--root');
if (!kernelRoot) {
  const missing: string[] = [];
  if (!requireCorpora({ fail: (message: string) => missing.push(message) }, 'linux-source', 'xz')) {
    console.log(`bench/kernel-ops.ts: skipped (${missing.join('; ')})`);
    process.exit(0);
  }
  kernelRoot = linuxSource([], path.join(BENCH_CACHE, path.basename(corpusPath('linux-source')).replace(/\.tar\.xz$/, '')));
}
if (!existsSync(kernelRoot)) {
  console.log(`bench/kernel-ops.ts: skipped (no kernel tree at ${kernelRoot})`);
  process.exit(0);
}

/** A server command no machine has: the servers are missing, as plumb says when one is not installed. */
const NO_SERVER = { command: '/nonexistent/plumb-bench-no-server' };

async function open(root: string, cacheDir: string): Promise<Services> {
  const config = validateConfig({ cacheDir, logLevel: 'silent', index: { watch: false }, languages: { cpp: NO_SERVER, python: NO_SERVER, typescript: NO_SERVER, go: NO_SERVER } });
  const services = await createServices({ root, config, logger: pino({ level: 'silent' }) as unknown as FastifyBaseLogger, startIndex: false });
  const started = performance.now();
  await services.index.build();
  const counts = await services.index.reader.counts();
  console.error(`${root}: ${counts.files} files, ${counts.symbols} symbols (${((performance.now() - started) / 1000).toFixed(1)} s to build or check the index)`);
  // The word index (src/index/words.ts) follows the index in a thread of its own: the fallback reads every file until it is in.
  const words = performance.now();
  await services.index.words.settled();
  const update = services.index.words.lastUpdate();
  console.error(`${root}: word index ready, ${services.index.words.status().files} files covered, ${((performance.now() - words) / 1000).toFixed(1)} s to bring up to date${update ? ` (${update.read} files, ${(update.bytes / 1e6).toFixed(0)} MB read in ${(update.ms / 1000).toFixed(1)} s)` : ''}`);
  return services;
}

/** Evenly spread over every package: types (class, struct) and callables (function, method) with a body. */
async function sample(services: Services): Promise<{ types: StoredSymbol[]; callables: StoredSymbol[] }> {
  const types: StoredSymbol[] = [];
  const callables: StoredSymbol[] = [];
  for (const pkg of await services.index.reader.listPackages()) {
    const page = await services.index.reader.packageSymbols({ packageName: pkg.name, kinds: ['class', 'struct', 'method', 'function'], offset: 0, limit: 2000, includeForwardDeclarations: false });
    for (const symbol of page.results) (symbol.kind === 'method' || symbol.kind === 'function' ? callables : types).push(symbol);
  }
  const spread = <T>(items: T[], n: number): T[] => (items.length <= n ? items : Array.from({ length: n }, (_, i) => items[Math.floor((i * items.length) / n)]));
  return { types: spread(types, NAMES), callables: spread(callables, NAMES) };
}

interface Timing { p50: number; p99: number; n: number; failed: number; note: string; slowest: string }

/**
 * Each item asked `rounds` times, timed: the first time is a question never asked before (no answer cache helps);
 * later rounds are answered warm. A 4xx (ambiguous, not found) counts as answered and is counted.
 */
async function measure<T>(items: T[], rounds: number, run: (item: T) => Promise<unknown>, note: (answers: unknown[]) => string = () => ''): Promise<Timing> {
  const times: number[] = [];
  let slowest = { ms: -1, item: '' };
  const answers: unknown[] = [];
  let failed = 0;
  for (let round = 0; round < rounds; round++) {
    for (const item of items) {
      const started = performance.now();
      try {
        answers.push(await run(item));
      } catch {
        failed++;
      }
      const took = performance.now() - started;
      times.push(took);
      if (took > slowest.ms) slowest = { ms: took, item: typeof item === 'string' ? item : (item as StoredSymbol).qualifiedName || (item as StoredSymbol).name };
    }
  }
  return { p50: percentile(times, 50), p99: percentile(times, 99), n: times.length, failed, note: note(answers), slowest: `${slowest.item} ${ms(slowest.ms)}` };
}

function ms(n: number): string {
  return `${n < 10 ? n.toFixed(2) : n.toFixed(0)} ms`;
}

interface Tree { label: string; services: Services; statements: { package: string; queries: string[] } }

async function operations(tree: Tree): Promise<Map<string, Timing>> {
  const { services } = tree;
  const { types, callables } = await sample(services);
  const out = new Map<string, Timing>();
  out.set('declaration (by name)', await measure(callables.map((s) => s.qualifiedName), ROUNDS, (symbol) => findDeclaration(services, { symbol })));
  out.set('members (by id)', await measure(types, ROUNDS, (type) => listMembers(services, { id: type.id })));
  out.set('inheritors (index, depth all)', await measure(types, ROUNDS, (type) => findInheritors(services, { id: type.id, depth: 'all' }, undefined, { useServer: false })));
  out.set('hierarchy (both ways)', await measure(types, ROUNDS, (type) => typeHierarchy(services, { id: type.id })));
  out.set('statements (text, one top folder)', await measure(tree.statements.queries, ROUNDS, (query) => searchStatements(services, { query, package: tree.statements.package })));
  const usageNames = callables.slice(0, USAGE_NAMES);
  out.set('usages (syntactic fallback)', await measure(usageNames, 1, (symbol) => findUsages(services, { id: symbol.id }), (answers) => {
    const scanned = answers.map((a) => (a as { filesScanned?: number }).filesScanned ?? 0);
    return scanned.length ? `at most ${Math.max(...scanned).toLocaleString('en-US')} files read per answer` : '';
  }));
  out.set('callers (syntactic fallback, depth 1)', await measure(usageNames, 1, (symbol) => findCalls(services, { id: symbol.id }, 'incoming')));
  return out;
}

const scratch = mkdtempSync(path.join(os.tmpdir(), 'plumb-bench-kernel-ops-'));
const results: Array<{ tree: Tree; timings: Map<string, Timing> }> = [];
try {
  const trees: Array<() => Promise<Tree>> = [
    async () => ({ label: 'googletest', services: await open('/usr/src/googletest', path.join(scratch, 'googletest')), statements: { package: 'gmock', queries: ['EXPECT_CALL(', 'ASSERT_TRUE(', 'return true;', 'EXPECT_EQ(', 'Matcher<', 'const char*'] } }),
    async () => ({ label: 'kernel', services: await open(kernelRoot, option('--cache') ?? path.join(BENCH_CACHE, 'kernel-index')), statements: { package: 'mm', queries: ['spin_lock(', 'kfree(', 'return -ENOMEM;', 'WARN_ON(', 'mutex_lock(', 'struct page *'] } }),
  ];
  for (const make of trees) {
    const tree = await make();
    try {
      results.push({ tree, timings: await operations(tree) });
    } finally {
      await tree.services.close();
    }
  }
} finally {
  rmSync(scratch, { recursive: true, force: true });
}

const [small, kernel] = results;
const rows = [...kernel.timings].map(([operation, k]) => {
  const g = small.timings.get(operation);
  const ratio = g && g.p50 > 0 ? k.p50 / g.p50 : NaN;
  return [operation, g ? `${ms(g.p50)} / ${ms(g.p99)}${g.failed ? ` (${g.failed} 4xx)` : ''}` : '', `${ms(k.p50)} / ${ms(k.p99)}`, Number.isFinite(ratio) ? `${ratio.toFixed(1)}x${ratio > 10 ? ' (over 10x)' : ''}` : '', `${k.n} asked${k.failed ? `, ${k.failed} 4xx` : ''}${k.note ? `; ${k.note}` : ''}; slowest: ${k.slowest}`];
});
console.log(`\nOperations on the kernel's index next to googletest's (${os.availableParallelism()} cores, load ${os.loadavg().map((n) => n.toFixed(1)).join(' ')}), language servers left out:\n`);
console.log(markdownTable(['operation', 'googletest p50 / p99', 'kernel p50 / p99', 'kernel / googletest (p50)', 'kernel: asked'], rows));
