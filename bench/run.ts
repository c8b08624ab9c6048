/**
 * npm run bench: the index on real corpora, side by side in one run.
 *   1. cold build against universal-ctags on the same trees, stage by stage next to tree-sitter's parse
 *      alone of the same files on the same threads (bench/build-profile.ts), and a warm restart;
 *   2. a million-symbol index (the workspace plus extra roots: system headers, the Go standard
 *      library, Python packages, node_modules), its build and warm restart;
 *   3. /symbols over HTTP on it: p50/p99 latency and server time, req/s under load (autocannon);
 *   4. the language servers' own workspace/symbol latency for the same queries;
 *   5. the service's memory.
 *   6. the navigation operations, each next to the bare language-server request it wraps: declaration and
 *      members (bench/navigation.ts), usages and resolve (bench/usages.ts), inheritors (bench/hierarchy.ts), impact
 *      and changes on googletest and on the whole kernel, with context and call paths there (bench/impact.ts),
 *      and whatever else bench/NAVIGATION_BENCHES lists; each also runs alone with npx tsx.
 *   7. /symbols on common names (sqlalchemy, when installed) against /health in the same run (bench/names.ts), and the
 *      load figures: /symbols and a large C++ file's /outline under 32 connections on the million-symbol index (bench/load.ts).
 *   8. the whole Linux kernel (bench/kernel.ts): recall by kind against universal-ctags, and its cold build next to `ctags -R`;
 *      its headers of nothing but preprocessor lines read without tree-sitter and parsed, the same symbols (bench/directives.ts);
 *      searches on its index never asked before, warm and right after a restart, and 16 clients with /health meanwhile (bench/kernel-search.ts);
 *      declaration, members, inheritors, hierarchy, statements over a folder and usages' syntactic fallback on its index
 *      next to googletest's (bench/kernel-ops.ts);
 *      its build into PostgreSQL and the CPU per search of PostgreSQL next to the embedded plumb's (bench/team-kernel.ts; not with --skip-team).
 * Flags: --skip-cold, --skip-million, --skip-lsp, --skip-navigation, --skip-load, --skip-team, --skip-kernel, --fresh (rebuild the million-symbol index from scratch).
 * The million-symbol index is kept in $PLUMB_BENCH_CACHE (default <tmp>/plumb-bench) between runs.
 */
import { execFileSync, spawn } from 'node:child_process';
import { appendFileSync, cpSync, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import { WorkspaceSymbolRequest, type SymbolInformation, type WorkspaceSymbol } from 'vscode-languageserver-protocol';
import { validateConfig } from '../src/config.js';
import { SymbolIndex, type BuildSummary } from '../src/index/symbol-index.js';
import { MATCH_TIERS } from '../src/index/store.js';
import { parseQuery } from '../src/index/ranking.js';
import { LspPool } from '../src/lsp/pool.js';
import { indexedFiles, parseBaseline, profileRows } from './build-profile.js';
import { Workspace } from '../src/workspace.js';

const REPO = path.resolve(import.meta.dirname, '..');
const args = new Set(process.argv.slice(2));
const BENCH_CACHE = process.env.PLUMB_BENCH_CACHE ?? path.join(os.tmpdir(), 'plumb-bench');
const CORES = os.availableParallelism();

/** Real trees, each indexed on its own for the ctags comparison. */
const CORPORA = [
  { name: 'googletest (C++)', root: '/usr/src/googletest', ctagsLanguages: 'C,C++,Python' },
  { name: 'rxjs src (TypeScript)', root: path.join(REPO, 'node_modules/rxjs/src'), ctagsLanguages: 'TypeScript,JavaScript' },
  { name: 'flask (Python)', root: '/usr/lib/python3/dist-packages/flask', ctagsLanguages: 'Python' },
  { name: 'Go 1.19 std (Go)', root: '/usr/share/go-1.19/src', ctagsLanguages: 'Go,C,C++,Python,JavaScript' },
];

import { markdownTable, percentile } from './measure.js';
import { MILLION_EXTRA, MILLION_ROOT, QUERIES } from './million.js';

const rows: string[][] = [];
function row(section: string, metric: string, value: string, note = ''): void {
  rows.push([section, metric, value, note]);
  console.error(`  ${section} | ${metric}: ${value}${note ? ` (${note})` : ''}`);
}

const ms = (n: number): string => (n >= 1000 ? `${(n / 1000).toFixed(2)} s` : `${n.toFixed(n < 10 ? 2 : 0)} ms`);
const count = (n: number): string => new Intl.NumberFormat('en-US').format(n);

function config(cacheDir: string, extraRoots: string[] = []): ReturnType<typeof validateConfig> {
  return validateConfig({ cacheDir, logLevel: 'silent', index: { extraRoots, watch: false, workers: CORES } });
}

async function timedBuild(root: string, cacheDir: string, extraRoots: string[] = []): Promise<{ ms: number; cpuMs: number; files: number; parsed: number; symbols: number; index: SymbolIndex; summary: BuildSummary; load: number[] }> {
  const started = performance.now();
  // The parser threads share the process, so its CPU time covers them.
  const cpu = process.cpuUsage();
  const index = await SymbolIndex.open({ root, config: config(cacheDir, extraRoots), cacheDir });
  const summary = await index.build();
  const used = process.cpuUsage(cpu);
  return { ms: performance.now() - started, cpuMs: (used.user + used.system) / 1000, files: summary.filesTotal, parsed: summary.filesParsed, symbols: summary.symbols, index, summary, load: os.loadavg() };
}

function ctagsWall(root: string, languages: string): { ms: number; cpuMs: number; tags: number } {
  const out = path.join(mkdtempSync(path.join(os.tmpdir(), 'plumb-ctags-')), 'tags');
  const started = performance.now();
  // bash's `times` prints the children's user and system time.
  const report = execFileSync('bash', ['-c', 'ctags -R "--languages=$1" --exclude=node_modules --exclude=.git -f "$2" "$3" >/dev/null 2>&1; times', 'ctags', languages, out, root], { encoding: 'utf8' });
  const elapsed = performance.now() - started;
  const [user, system] = report.trim().split('\n')[1].split(/\s+/).map((t) => {
    const m = /(\d+)m([\d.]+)s/.exec(t);
    return m ? (Number(m[1]) * 60 + Number(m[2])) * 1000 : 0;
  });
  const tags = readFileSync(out, 'utf8').split('\n').filter((l) => l && !l.startsWith('!_')).length;
  rmSync(path.dirname(out), { recursive: true, force: true });
  return { ms: elapsed, cpuMs: user + system, tags };
}

/** Each round asks a page one longer (50, 51...): a search asked again would be answered from the search cache, not timed. */
async function storeQueryTimes(index: SymbolIndex, queries: string[]): Promise<number[]> {
  const times: number[] = [];
  for (let round = 0; round < 5; round++) {
    for (const query of queries) {
      const { name, qualifier } = parseQuery(query);
      const started = performance.now();
      await index.reader.search({ name, qualifier, tiers: MATCH_TIERS, offset: 0, limit: 50 + round, includeForwardDeclarations: false });
      if (round > 0) times.push(performance.now() - started);
    }
  }
  return times;
}

async function coldVersusCtags(): Promise<Map<string, SymbolIndex>> {
  console.error(`\n1. Cold build vs universal-ctags (${CORES} cores)`);
  const indexes = new Map<string, SymbolIndex>();
  for (const corpus of CORPORA) {
    if (!existsSync(corpus.root)) continue;
    const cacheDir = mkdtempSync(path.join(os.tmpdir(), 'plumb-bench-cold-'));
    const ctags = ctagsWall(corpus.root, corpus.ctagsLanguages);
    const cold = await timedBuild(corpus.root, cacheDir);
    await cold.index.close();
    const warm = await timedBuild(corpus.root, cacheDir);
    row(corpus.name, 'files / symbols (ctags tags)', `${count(cold.files)} / ${count(cold.symbols)}`, `ctags: ${count(ctags.tags)} tags`);
    row(corpus.name, 'cold build: plumb vs ctags -R', `${ms(cold.ms)} vs ${ms(ctags.ms)}`, `${(cold.ms / ctags.ms).toFixed(1)}x; CPU ${ms(cold.cpuMs)} vs ${ms(ctags.cpuMs)}; load ${cold.load.map((l) => l.toFixed(1)).join(' ')}`);
    // The cold build stage by stage, and tree-sitter's parse alone of the same files on the same threads (the target is 2x its wall).
    const files = await indexedFiles(warm.index.reader, corpus.root);
    const baselines = [await parseBaseline(files, CORES, 'prepared'), await parseBaseline(files, CORES, 'raw')];
    for (const [metric, value, note] of profileRows(cold.summary, { wallMs: cold.ms, cpuMs: cold.cpuMs, load: cold.load }, baselines)) row(`${corpus.name} stages`, metric, value, note);
    row(corpus.name, 'warm restart (unchanged)', ms(warm.ms), `${warm.parsed} files parsed`);
    const times = await storeQueryTimes(warm.index, QUERIES);
    row(corpus.name, 'search p50 / p99 (in process)', `${ms(percentile(times, 50))} / ${ms(percentile(times, 99))}`);
    indexes.set(corpus.root, warm.index);
  }
  return indexes;
}

/** An edit saved on disk, until search finds it (the watcher, a re-parse, a commit). */
async function editToSearch(): Promise<void> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'plumb-bench-edit-'));
  const root = path.join(dir, 'googletest');
  cpSync('/usr/src/googletest', root, { recursive: true });
  const cacheDir = path.join(dir, 'cache');
  const index = await SymbolIndex.open({ root, config: validateConfig({ cacheDir, logLevel: 'silent', index: { watch: true, workers: CORES } }), cacheDir });
  index.start();
  while (index.status().state !== 'ready') await new Promise((resolve) => setTimeout(resolve, 20));
  const times: number[] = [];
  for (let i = 0; i < 5; i++) {
    const name = `PlumbBenchEdit${i}`;
    const started = performance.now();
    appendFileSync(path.join(root, 'googletest/src/gtest.cc'), `\nint ${name}() { return ${i}; }\n`);
    while ((await index.reader.search({ name, tiers: ['exact'], offset: 0, limit: 1, includeForwardDeclarations: false })).totalMatches === 0) {
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    times.push(performance.now() - started);
  }
  row('googletest (C++)', 'edit on disk → visible in search', `${ms(percentile(times, 50))} p50, ${ms(Math.max(...times))} max`, 'gtest.cc (6,000+ lines), 5 edits');
  await index.close();
  rmSync(dir, { recursive: true, force: true });
}

async function millionIndex(): Promise<void> {
  console.error(`\n2. Million-symbol index: ${MILLION_ROOT} + ${MILLION_EXTRA.join(', ')}`);
  const cacheDir = path.join(BENCH_CACHE, 'million');
  if (args.has('--fresh')) rmSync(cacheDir, { recursive: true, force: true });
  const existed = existsSync(cacheDir);
  const first = await timedBuild(MILLION_ROOT, cacheDir, MILLION_EXTRA);
  await first.index.close();
  row('million', 'files / symbols', `${count(first.files)} / ${count(first.symbols)}`);
  row('million', existed ? 'build (resumed/updated from cache)' : 'cold build', ms(first.ms), `${count(first.parsed)} files parsed`);
  const warm = await timedBuild(MILLION_ROOT, cacheDir, MILLION_EXTRA);
  row('million', 'warm restart (walk + stat + diff)', ms(warm.ms), `${warm.parsed} files parsed`);
  const times = await storeQueryTimes(warm.index, QUERIES);
  row('million', 'search p50 / p99 (store, in process)', `${ms(percentile(times, 50))} / ${ms(percentile(times, 99))}`);
  await warm.index.close();

  console.error('\n3. /symbols over HTTP (service in its own process)');
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(REPO, 'bench/serve.ts'), MILLION_ROOT, cacheDir, JSON.stringify(MILLION_EXTRA)], { cwd: REPO, stdio: ['ignore', 'pipe', 'inherit'] });
  try {
    const line = await new Promise<string>((resolve, reject) => {
      child.stdout.once('data', (chunk: Buffer) => resolve(chunk.toString()));
      child.once('exit', (code) => reject(new Error(`bench server exited with ${code}`)));
    });
    const { url, readyMs } = JSON.parse(line) as { url: string; readyMs: number };
    row('service', 'start to index ready (warm)', ms(readyMs));
    const client: number[] = [];
    const server: number[] = [];
    for (let round = 0; round < 6; round++) {
      for (const query of QUERIES) {
        const started = performance.now();
        // limit=50, 51...: every request a first one (a repeat is answered from the search cache).
        const response = await fetch(`${url}/symbols?query=${encodeURIComponent(query)}&limit=${50 + round}`);
        const body = (await response.json()) as { elapsedMs: number };
        if (round === 0) continue;
        client.push(performance.now() - started);
        server.push(body.elapsedMs);
      }
    }
    row('service', '/symbols server time p50 / p99', `${ms(percentile(server, 50))} / ${ms(percentile(server, 99))}`, `${QUERIES.length} queries x 5`);
    row('service', '/symbols HTTP latency p50 / p99', `${ms(percentile(client, 50))} / ${ms(percentile(client, 99))}`, 'fetch over loopback');
    for (const [label, queries] of [['exact names', QUERIES.slice(0, 10)], ['all query shapes', QUERIES]] as const) {
      let next = 0;
      const result = await autocannon({
        url,
        connections: 16,
        duration: 8,
        requests: [{ method: 'GET', setupRequest: (request) => ({ ...request, path: `/symbols?query=${encodeURIComponent(queries[next++ % queries.length])}` }) }],
      });
      row('service', `req/s under load (${label}, repeated)`, count(Math.round(result.requests.average)), `16 connections, p50 ${result.latency.p50} ms, p99 ${result.latency.p99} ms, ${result.non2xx} non-2xx; answered from the search cache after the first`);
    }
    const status = readFileSync(`/proc/${child.pid}/status`, 'utf8');
    const kb = (key: string): number => Number(/(\d+) kB/.exec(status.split('\n').find((l) => l.startsWith(key)) ?? '')?.[1] ?? 0);
    row('service', 'memory RSS / peak', `${count(Math.round(kb('VmRSS:') / 1024))} MB / ${count(Math.round(kb('VmHWM:') / 1024))} MB`, 'serving the million-symbol index, after the load');
  } finally {
    child.kill('SIGTERM');
  }
}

async function languageServers(indexes: Map<string, SymbolIndex>): Promise<void> {
  console.error('\n4. Language servers\' workspace/symbol on the same trees and queries');
  const targets = [
    { name: 'tsc --lsp (rxjs src)', root: path.join(REPO, 'node_modules/rxjs/src'), file: 'internal/BehaviorSubject.ts', known: 'BehaviorSubject' },
    { name: 'pyright (flask)', root: '/usr/lib/python3/dist-packages/flask', file: 'app.py', known: 'Flask' },
    { name: 'clangd (googletest)', root: '/usr/src/googletest', file: 'googletest/src/gtest.cc', known: 'TestPartResult' },
  ];
  for (const target of targets) {
    const cacheDir = mkdtempSync(path.join(os.tmpdir(), 'plumb-bench-lsp-'));
    const workspace = new Workspace(target.root);
    const pool = new LspPool({ config: validateConfig({ cacheDir, logLevel: 'silent' }), workspace, cacheDir, logger: silentLogger() });
    try {
      const file = workspace.resolveFile('file', target.file);
      // The server starts on the first request; ask for a name the tree has until its index answers (at most 120 s).
      const warmStart = performance.now();
      for (;;) {
        const answer = (await pool.request(file, WorkspaceSymbolRequest.type, { query: target.known }, { timeoutMs: 180_000 })) as unknown[] | null;
        if ((answer?.length ?? 0) > 0 || performance.now() - warmStart > 120_000) break;
        await new Promise((resolve) => setTimeout(resolve, 1000));
      }
      const warmMs = performance.now() - warmStart;
      const times: number[] = [];
      let results = 0;
      for (let round = 0; round < 3; round++) {
        for (const query of QUERIES) {
          const started = performance.now();
          const answer = (await pool.request(file, WorkspaceSymbolRequest.type, { query }, { timeoutMs: 60_000 })) as SymbolInformation[] | WorkspaceSymbol[] | null;
          times.push(performance.now() - started);
          results += answer?.length ?? 0;
        }
      }
      row('lsp', `${target.name} workspace/symbol p50 / p99`, `${ms(percentile(times, 50))} / ${ms(percentile(times, 99))}`, `until '${target.known}' found: ${ms(warmMs)}; ${count(results)} results in all`);
      const index = indexes.get(target.root);
      if (index) {
        const own = await storeQueryTimes(index, QUERIES);
        row('lsp', `plumb index, same tree, p50 / p99`, `${ms(percentile(own, 50))} / ${ms(percentile(own, 99))}`);
      }
    } catch (error) {
      row('lsp', target.name, 'n/a', error instanceof Error ? error.message.split('\n')[0] : String(error));
    } finally {
      await pool.shutdown();
      rmSync(cacheDir, { recursive: true, force: true });
    }
  }
}

function silentLogger(): ConstructorParameters<typeof LspPool>[0]['logger'] {
  const noop = (): void => undefined;
  const logger = { info: noop, warn: noop, error: noop, debug: noop, trace: noop, fatal: noop, child: () => logger };
  return logger as unknown as ConstructorParameters<typeof LspPool>[0]['logger'];
}

function printTable(): void {
  const header = ['section', 'metric', 'value', 'note'];
  console.log(`\nplumb index bench — ${os.cpus()[0]?.model ?? 'cpu'}, ${CORES} cores, Node ${process.version}`);
  console.log(markdownTable(header, rows));
}

const indexes = args.has('--skip-cold') ? new Map<string, SymbolIndex>() : await coldVersusCtags();
if (!args.has('--skip-cold')) await editToSearch();
if (!args.has('--skip-million')) await millionIndex();
if (!args.has('--skip-lsp')) await languageServers(indexes);
for (const index of indexes.values()) await index.close();
printTable();
if (!args.has('--skip-navigation')) await navigationBenches();
if (!args.has('--skip-load')) {
  // Common names against /health, then the load figures on the million-symbol index (left out when there is none).
  await benchScripts([
    ['names.ts', []],
    ['load.ts', [MILLION_ROOT, '--cache', path.join(BENCH_CACHE, 'million'), ...MILLION_EXTRA.flatMap((root) => ['--extra', root])]],
  ]);
}
// The shared PostgreSQL store next to SQLite on the million-symbol roots: cold builds, /symbols from a replica, load with one and
// two replicas on the primary, then on one and two streaming standbys (req/s and CPU per request of each process).
if (!args.has('--skip-team')) await benchScripts([['team.ts', []]]);
// The whole kernel, extracted once into the bench cache: recall by kind against ctags and the cold build, then searches on its index.
if (!args.has('--skip-kernel')) await benchScripts([['kernel.ts', []], ['directives.ts', []], ['kernel-search.ts', []], ['kernel-ops.ts', []], ...(args.has('--skip-team') ? [] : [['team-kernel.ts', []] as [string, string[]]])]);

/** The navigation benches, one process each (they build their own indexes and servers), output as they print it. */
async function navigationBenches(): Promise<void> {
  await benchScripts([
    ['navigation.ts', ['/usr/src/googletest']],
    ['navigation.ts', [MILLION_ROOT, '--cache', path.join(BENCH_CACHE, 'million'), '--names', '100', ...MILLION_EXTRA.flatMap((root) => ['--extra', root])]],
    ['usages.ts', []],
    ['hierarchy.ts', []],
    // The kernel part reads its index from $PLUMB_BENCH_CACHE/kernel-index (built the first time).
    ['impact.ts', args.has('--skip-kernel') ? ['--skip-kernel'] : []],
  ]);
}

async function benchScripts(benches: Array<[string, string[]]>): Promise<void> {
  for (const [script, scriptArgs] of benches) {
    if (!existsSync(path.join(REPO, 'bench', script))) continue;
    console.log(`\n## npx tsx bench/${script} ${scriptArgs.join(' ')}`);
    await new Promise<void>((resolve) => {
      const child = spawn(process.execPath, ['--import', 'tsx', path.join(REPO, 'bench', script), ...scriptArgs], { cwd: REPO, stdio: ['ignore', 'inherit', 'inherit'] });
      child.on('exit', () => resolve());
      child.on('error', () => resolve());
    });
  }
}
