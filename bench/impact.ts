/**
 * Impact and changes latency, p50 and p99 of sequential runs, in process (the operations, and over HTTP through
 * fastify's inject):
 *   1. googletest with clangd (cmake's compile database), warm: find_impact of a function (two levels) and of an
 *      abstract class, next to the find_callers walk it starts from; detect_changes of a one-line edit of a
 *      function's body (sent as a diff not yet applied: the tree is read-only) and of an edit touching three functions.
 *   2. the whole Linux kernel (Debian's linux-source-6.1, extracted once into $PLUMB_BENCH_CACHE as bench/kernel.ts
 *      does, or --kernel ROOT), its index kept in --kernel-cache DIR (default $PLUMB_BENCH_CACHE/kernel-index; built
 *      when absent, a warm restart after): /symbols/impact of functions and types of every fan-in (kvmalloc_node,
 *      mutex_lock, kmalloc, time64_to_tm, struct tm, struct vm_area_struct) at depth 1 and 2, POST /changes of a
 *      one-function edit (mm/util.c, kernel/sched/core.c) and of a field added to a header's struct, /symbols/context
 *      and /symbols/path; each with its first (cold) answer, what it found and whether it was semantic or
 *      syntactic and complete. First from the index alone (the kernel has no compile database: clangd would index
 *      it for hours on a small machine); with --kernel-mode clangd (or both), a few of the cases with clangd on plumb's
 *      synthesized compile database, answering while it indexes. --kernel-runs N: timed runs after the first (3).
 *   npx tsx bench/impact.ts [--skip-googletest] [--skip-kernel] [--kernel ROOT] [--kernel-cache DIR] [--kernel-runs N] [--kernel-mode index|clangd|both]
 */
import { existsSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { buildApp, type PlumbApp } from '../src/app.js';
import { validateConfig } from '../src/config.js';
import { findCalls } from '../src/symbols/calls.js';
import { detectChanges } from '../src/symbols/changes.js';
import { findImpact } from '../src/symbols/impact.js';
import { corpusPath, linuxSource, missingReason } from '../test/corpora.js';
import { googletestApp, percentile, time } from './googletest.js';
import { option } from './measure.js';

const argv = process.argv.slice(2);
const BENCH_CACHE = process.env.PLUMB_BENCH_CACHE ?? path.join(os.tmpdir(), 'plumb-bench');

if (!argv.includes('--skip-googletest')) await googletest();
if (!argv.includes('--skip-kernel')) await kernel();

async function googletest(): Promise<void> {
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

  console.log(`googletest: impact of CodePointToUtf8 reaches ${impact.totalMatches} symbols, ${impact.testsTotal} tests (${impact.precision}); TestEventListener ${type.totalMatches}; a one-function edit changes ${changed.changedTotal} symbol and reaches ${changed.totalMatches}, a three-function edit ${changedThree.changedTotal} and ${changedThree.totalMatches}; first answer (clangd start) ${Math.round(firstMs)} ms; load ${loadavg()}`);
  console.log('| case | p50 ms | p99 ms | runs |');
  console.log('|---|---|---|---|');
  for (const [name, values] of rows) console.log(`| ${name} | ${percentile(values, 50)} | ${percentile(values, 99)} | ${values.length} |`);
  await close();
}

// ---- the kernel ----------------------------------------------------------------------------------

/** The kernel tree: --kernel ROOT, else the tarball's tree extracted once into the bench cache (bench/kernel.ts's). */
function kernelRoot(): string | undefined {
  const given = option('--kernel');
  if (given) {
    if (existsSync(path.join(given, 'mm/util.c'))) return given;
    console.log(`\nbench/impact.ts kernel: skipped (--kernel ${given} holds no kernel tree: no mm/util.c)`);
    return undefined;
  }
  const missing = missingReason('linux-source') ?? missingReason('xz');
  if (missing) {
    console.log(`\nbench/impact.ts kernel: skipped (${missing}; or pass --kernel ROOT)`);
    return undefined;
  }
  const version = path.basename(corpusPath('linux-source')).replace(/\.tar\.xz$/, '');
  return linuxSource([], path.join(BENCH_CACHE, version));
}

interface Body {
  totalMatches?: number;
  testsTotal?: number;
  filesTotal?: number;
  changedTotal?: number;
  precision?: string;
  partial?: boolean;
  reason?: string;
  omitted?: number;
  length?: number;
  callersTotal?: number;
  usagesTotal?: number;
  parts?: Array<{ precision: string; operation?: string; part?: string }>;
  error?: { code: string; message: string };
}

interface Case {
  name: string;
  runs: number;
  request: () => Promise<{ status: number; body: Body }>;
  /** What the answer found, in a few words. */
  found: (body: Body) => string;
}

async function kernel(): Promise<void> {
  const root = kernelRoot();
  if (!root) return;
  const cacheDir = option('--kernel-cache') ?? path.join(BENCH_CACHE, 'kernel-index');
  const cached = existsSync(cacheDir);
  console.log(`\n## The Linux kernel (${root}), index in ${cacheDir}${cached ? '' : ' (built now: a cold build of the whole tree)'}`);
  const mode = option('--kernel-mode') ?? 'index';
  if (!['index', 'clangd', 'both'].includes(mode)) throw new Error(`--kernel-mode: index, clangd or both, not '${mode}'`);
  const modes: Array<{ label: string; languages: Record<string, unknown>; only?: string[] }> = [];
  if (mode !== 'clangd') modes.push({ label: 'index only (no clangd)', languages: { cpp: { enabled: false } } });
  // clangd answers from its background index, which on the whole kernel takes hours: the cases of a few symbols, while it indexes.
  if (mode !== 'index') {
    modes.push({ label: 'clangd on the synthesized compile database, while it indexes', languages: {}, only: ['impact time64_to_tm', 'impact kvmalloc_node (mm/util.c), depth 1', 'changes: kvmalloc_node', 'context kvmalloc_node', 'path kvzalloc'] });
  }
  for (const run of modes) {
    const started = performance.now();
    const app = await buildApp({ root, config: validateConfig({ cacheDir, logLevel: 'silent', languages: run.languages, index: { watch: false } }), logger: false });
    try {
      while (app.plumb.index.status().state !== 'ready') await new Promise((resolve) => setTimeout(resolve, 200));
      const readyMs = performance.now() - started;
      const status = app.plumb.index.status();
      console.log(`\n### ${run.label}: index ready ${(readyMs / 1000).toFixed(1)} s after start (${status.filesIndexed} files, ${status.symbols} symbols), load ${loadavg()}`);
      await kernelCases(app, root, run.only);
    } finally {
      await app.close();
    }
  }
}

/** The cases on the kernel; `only` (names' beginnings) keeps some of them. */
async function kernelCases(app: PlumbApp, root: string, only?: string[]): Promise<void> {
  const get = async (url: string): Promise<{ status: number; body: Body }> => {
    const response = await app.inject({ method: 'GET', url });
    return { status: response.statusCode, body: response.json() as Body };
  };
  const post = async (url: string, payload: unknown): Promise<{ status: number; body: Body }> => {
    const response = await app.inject({ method: 'POST', url, payload: payload as Record<string, unknown> });
    return { status: response.statusCode, body: response.json() as Body };
  };
  /** The id of `name` defined in `file` (the kernel names many things twice: a macro and a function, tools/ copies). */
  const idOf = async (name: string, file: string): Promise<string> => {
    const { body } = await get(`/symbols?query=${encodeURIComponent(name)}&match=exact&limit=200`);
    const results = (body as { results?: Array<{ id: string; file: string; definition: boolean }> }).results ?? [];
    const found = results.find((r) => r.file === file && r.definition) ?? results.find((r) => r.file === file);
    if (!found) throw new Error(`${name} is not indexed in ${file} (${results.length} other places: ${results.slice(0, 5).map((r) => r.file).join(', ')})`);
    return found.id;
  };

  const ids = {
    kvmallocNode: await idOf('kvmalloc_node', 'mm/util.c'),
    mutexLock: await idOf('mutex_lock', 'kernel/locking/mutex.c'),
    kmalloc: await idOf('kmalloc', 'include/linux/slab.h'),
    time64ToTm: await idOf('time64_to_tm', 'kernel/time/timeconv.c'),
    tm: await idOf('tm', 'include/linux/time.h'),
    vma: await idOf('vm_area_struct', 'include/linux/mm_types.h'),
    doSysOpen: await idOf('do_sys_open', 'fs/open.c'),
    pathOpenat: await idOf('path_openat', 'fs/namei.c'),
    kvzalloc: await idOf('kvzalloc', 'include/linux/slab.h'),
  };

  // A syntactic answer on the kernel reads the whole tree (1.2 GB) once or more: a few runs each.
  const RUNS = Number(option('--kernel-runs') ?? 3);
  const impactFound = (body: Body): string => `${body.totalMatches} results, ${body.filesTotal} files, ${body.testsTotal} tests, ${body.omitted} omitted`;
  const cases: Case[] = [];
  const impact = (label: string, id: string, depth: number, runs: number): void => {
    cases.push({ name: `impact ${label}, depth ${depth}`, runs, request: () => get(`/symbols/impact?id=${id}&depth=${depth}`), found: impactFound });
  };
  impact('time64_to_tm (timeconv.c, a few callers and a KUnit case)', ids.time64ToTm, 1, RUNS);
  impact('time64_to_tm', ids.time64ToTm, 2, RUNS);
  impact('kvmalloc_node (mm/util.c)', ids.kvmallocNode, 1, RUNS);
  impact('kvmalloc_node', ids.kvmallocNode, 2, RUNS);
  impact('mutex_lock (kernel/locking/mutex.c, tens of thousands of calls)', ids.mutexLock, 1, RUNS);
  impact('mutex_lock', ids.mutexLock, 2, RUNS);
  impact('kmalloc (slab.h, static inline)', ids.kmalloc, 1, RUNS);
  impact('struct tm (include/linux/time.h)', ids.tm, 1, RUNS);
  impact('struct vm_area_struct (mm_types.h)', ids.vma, 1, RUNS);

  const changes = (label: string, diff: string, runs: number): void => {
    cases.push({ name: `changes: ${label}`, runs, request: () => post('/changes', { diff }), found: (body) => `${body.changedTotal} changed, ${impactFound(body)}` });
  };
  changes('kvmalloc_node body edited (mm/util.c)', bodyEdit(root, 'mm/util.c', 'kvmalloc_node'), RUNS);
  changes('set_user_nice body edited (kernel/sched/core.c)', bodyEdit(root, 'kernel/sched/core.c', 'set_user_nice'), RUNS);
  changes('a field added to struct tm (include/linux/time.h)', fieldAdded(root, 'include/linux/time.h', 'tm'), RUNS);
  changes('a field added to struct vm_area_struct (include/linux/mm_types.h)', fieldAdded(root, 'include/linux/mm_types.h', 'vm_area_struct'), RUNS);

  const contextFound = (body: Body): string => `${body.callersTotal} callers, ${body.usagesTotal} usages, ${body.testsTotal} tests`;
  cases.push({ name: 'context kvmalloc_node', runs: RUNS, request: () => get(`/symbols/context?id=${ids.kvmallocNode}`), found: contextFound });
  cases.push({ name: 'context struct tm', runs: RUNS, request: () => get(`/symbols/context?id=${ids.tm}`), found: contextFound });
  cases.push({ name: 'context mutex_lock', runs: RUNS, request: () => get(`/symbols/context?id=${ids.mutexLock}`), found: contextFound });
  const pathFound = (body: Body): string => (body.error ? `${body.error.code}: ${body.error.message.slice(0, 160)}` : `${body.length} calls`);
  cases.push({ name: 'path do_sys_open → path_openat (fs/open.c → fs/namei.c)', runs: RUNS, request: () => get(`/symbols/path?from_id=${ids.doSysOpen}&to_id=${ids.pathOpenat}`), found: pathFound });
  cases.push({ name: 'path kvzalloc → kvmalloc_node (slab.h inlines → mm/util.c)', runs: RUNS, request: () => get(`/symbols/path?from_id=${ids.kvzalloc}&to_id=${ids.kvmallocNode}`), found: pathFound });

  console.log('| case | first ms | p50 ms | p99 ms | runs | status | precision | found | partial: reason |');
  console.log('|---|---|---|---|---|---|---|---|---|');
  for (const item of cases.filter((c) => !only || only.some((prefix) => c.name.startsWith(prefix)))) {
    let answer: { status: number; body: Body } | undefined;
    const firstStart = performance.now();
    answer = await item.request();
    const firstMs = performance.now() - firstStart;
    const times = await time(item.runs, async () => {
      answer = await item.request();
    });
    const body = answer.body;
    const precision = body.precision ?? precisionOfParts(body.parts);
    const partial = body.partial ? `partial: ${clip(body.reason ?? '', 400)}` : body.reason ? `complete; ${clip(body.reason, 400)}` : 'complete';
    console.log(`| ${item.name} | ${Math.round(firstMs)} | ${percentile(times, 50)} | ${percentile(times, 99)} | ${times.length} | ${answer.status} | ${precision} | ${answer.status < 400 ? item.found(body) : pathFound(body)} | ${partial.replace(/\|/g, '\\|')} |`);
  }
  console.log(`load after: ${loadavg()}`);
}

/** symbol_context's precision: its parts'. */
function precisionOfParts(parts: Body['parts']): string {
  const kinds = new Set((parts ?? []).map((part) => part.precision));
  return kinds.size === 1 ? [...kinds][0] : kinds.size === 0 ? '-' : 'mixed';
}

/** A diff adding a line after the first line of `name`'s body in `file` (kernel style: the brace on its own line); not applied. */
function bodyEdit(root: string, file: string, name: string): string {
  const lines = readFileSync(path.join(root, file), 'utf8').split('\n');
  const head = lines.findIndex((line) => new RegExp(`^[^\\s#].*\\b${name}\\(`).test(line) && !line.trimEnd().endsWith(';'));
  const brace = lines.findIndex((line, i) => i > head && line === '{');
  if (head < 0 || brace < 0) throw new Error(`${name} not found in ${file}`);
  const body = brace + 2;
  return `--- a/${file}\n+++ b/${file}\n@@ -${body},1 +${body},2 @@\n ${lines[body - 1]}\n+\t/* edited */\n`;
}

/** A diff adding a field after the first member of `struct name` in `file`; not applied. */
function fieldAdded(root: string, file: string, name: string): string {
  const lines = readFileSync(path.join(root, file), 'utf8').split('\n');
  const open = lines.findIndex((line) => line.startsWith(`struct ${name} {`));
  if (open < 0) throw new Error(`struct ${name} not found in ${file}`);
  // After its first member (a comment may open the body).
  const first = lines.findIndex((line, i) => i > open && /^\t[A-Za-z_].*;$/.test(line)) + 1;
  if (first <= 0) throw new Error(`struct ${name} in ${file} has no member line`);
  return `--- a/${file}\n+++ b/${file}\n@@ -${first},1 +${first},2 @@\n ${lines[first - 1]}\n+\tint plumb_bench_field;\n`;
}

function clip(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

function loadavg(): string {
  return os.loadavg().map((l) => l.toFixed(1)).join(' ');
}
