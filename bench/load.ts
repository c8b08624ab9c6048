/**
 * npx tsx bench/load.ts ROOT [--cache DIR] [--extra ROOT...] [--outline FILE] [--connections N] [--duration S]:
 * load figures (issue 13) on a listening service in its own process (bench/serve.ts): /symbols under 32
 * connections (autocannon), the bench queries in turn (repeats, which the search cache answers after the
 * first) and then searches never asked before (other pages of them), then /outline of a large C++ file (clangd, with
 * googletest's cmake compile database) the same way. For each: requests per second, latency p50/p99,
 * errors (non-2xx, socket errors, timeouts) and the service's RSS (peak during the run, sampled every
 * 100 ms). npm run bench runs it on the million-symbol index (its cache, as bench/navigation.ts does).
 */
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import { markdownTable, option } from './measure.js';

const REPO = path.resolve(import.meta.dirname, '..');
const argv = process.argv.slice(2);
const root = argv[0];
if (!root || root.startsWith('--')) {
  console.error('usage: npx tsx bench/load.ts ROOT [--cache DIR] [--extra ROOT...] [--outline FILE] [--connections N] [--duration S]');
  process.exit(2);
}
const extraRoots = argv.flatMap((arg, i) => (arg === '--extra' && argv[i + 1] ? [argv[i + 1]] : []));
const connections = Number(option('--connections') ?? 32);
const duration = Number(option('--duration') ?? 10);
const outlineFile = option('--outline') ?? 'googletest/src/gtest.cc';
const scratch = mkdtempSync(path.join(os.tmpdir(), 'plumb-bench-load-'));
const cacheDir = option('--cache') ?? path.join(scratch, 'cache');
if (option('--cache') && !existsSync(cacheDir)) {
  console.log(`load bench: no index at ${cacheDir} (npm run bench builds the million-symbol one): skipped`);
  rmSync(scratch, { recursive: true, force: true });
  process.exit(0);
}

/** The queries of npm run bench: exact names, lower case, initials, prefixes, substrings, signature words. */
const QUERIES = ['TestPartResult', 'Matcher', 'Observable', 'BehaviorSubject', 'Flask', 'NewRequest', 'HandlerFunc', 'printf', 'ZodString', 'testing::Test', 'behaviorsubject', 'BS', 'FPC', 'Subscri', 'get_json', 'ParseInt', 'Receipt', 'SchedulerLike'];

// clangd reads googletest's compile commands, as a user's cmake build would give them.
const settings: Record<string, unknown> = {};
if (path.resolve(root) === '/usr/src/googletest') {
  const build = path.join(scratch, 'gtest-build');
  execFileSync('cmake', ['-S', root, '-B', build, '-DCMAKE_EXPORT_COMPILE_COMMANDS=ON'], { stdio: 'ignore' });
  settings.compileDatabase = { directory: build };
}

const child = spawn(process.execPath, ['--import', 'tsx', path.join(REPO, 'bench/serve.ts'), root, cacheDir, JSON.stringify(extraRoots), JSON.stringify(settings)], { cwd: REPO, stdio: ['ignore', 'pipe', 'inherit'] });
const memory = (): { rss: number; peak: number } => {
  const status = readFileSync(`/proc/${child.pid}/status`, 'utf8');
  const kb = (key: string): number => Number(/(\d+) kB/.exec(status.split('\n').find((l) => l.startsWith(key)) ?? '')?.[1] ?? 0);
  return { rss: kb('VmRSS:') / 1024, peak: kb('VmHWM:') / 1024 };
};
const mb = (n: number): string => `${Math.round(n).toLocaleString('en-US')} MB`;
try {
  const line = await new Promise<string>((resolve, reject) => {
    child.stdout.once('data', (chunk: Buffer) => resolve(chunk.toString()));
    child.once('exit', (code) => reject(new Error(`bench server exited with ${code}`)));
  });
  const { url, readyMs, status } = JSON.parse(line) as { url: string; readyMs: number; status: { symbols: number; filesIndexed: number } };
  console.log(`\nLoad: ${root}${extraRoots.length ? ` + ${extraRoots.length} extra roots` : ''} (${status.filesIndexed.toLocaleString('en-US')} files, ${status.symbols.toLocaleString('en-US')} symbols; ready in ${(readyMs / 1000).toFixed(1)} s), ${connections} connections, ${duration} s each, ${os.availableParallelism()} cores`);

  // Warm: page cache and statements for the queries; clangd started and the file parsed (its first answer).
  for (const query of QUERIES) await (await fetch(`${url}/symbols?query=${encodeURIComponent(query)}`)).arrayBuffer();
  const outlinePath = `/outline?file=${encodeURIComponent(outlineFile)}`;
  let outlineReady = false;
  let outlineBytes = 0;
  for (let attempt = 0; attempt < 60 && existsSync(path.join(root, outlineFile)); attempt++) {
    const response = await fetch(url + outlinePath);
    const body = await response.arrayBuffer();
    if (response.status === 200) {
      outlineReady = true;
      outlineBytes = body.byteLength;
      break;
    }
    await new Promise((resolve) => setTimeout(resolve, 2000));
  }

  const rows: string[][] = [];
  const load = async (label: string, paths: string[]): Promise<void> => {
    let next = 0;
    let peak = memory().rss;
    const sampler = setInterval(() => {
      peak = Math.max(peak, memory().rss);
    }, 100);
    const result = await autocannon({
      url,
      connections,
      duration,
      requests: [{ method: 'GET', setupRequest: (request) => ({ ...request, path: paths[next++ % paths.length] }) }],
    });
    clearInterval(sampler);
    const after = memory();
    const errors = result.non2xx + result.errors + result.timeouts;
    rows.push([label, Math.round(result.requests.average).toLocaleString('en-US'), `${result.latency.p50} ms`, `${result.latency.p99} ms`,
      `${errors}${errors ? ` (${result.non2xx} non-2xx, ${result.errors} errors, ${result.timeouts} timeouts)` : ''}`, `${mb(peak)} (after: ${mb(after.rss)})`]);
  };
  await load(`/symbols (${QUERIES.length} queries in turn: repeats)`, QUERIES.map((query) => `/symbols?query=${encodeURIComponent(query)}`));
  // Each request a search not asked before (the same queries, pages starting one further on): none is answered from the search cache.
  const firsts = Array.from({ length: 200 }, (_, offset) => QUERIES.map((query) => `/symbols?query=${encodeURIComponent(query)}&offset=${offset + 1}`)).flat();
  await load(`/symbols (${firsts.length} distinct: no repeat)`, firsts);
  if (outlineReady) await load(`/outline ${outlineFile} (${Math.round(outlineBytes / 1024)} KB answer)`, [outlinePath]);
  else rows.push([`/outline ${outlineFile}`, 'n/a', '', '', 'clangd gave no outline in 120 s', '']);

  const header = ['request', 'req/s', 'p50', 'p99', 'errors', 'RSS during the run (peak)'];
  console.log(markdownTable(header, rows));
  console.log(`service memory at the end: RSS ${mb(memory().rss)}, peak over its life ${mb(memory().peak)}`);
} finally {
  child.kill('SIGTERM');
  await new Promise((resolve) => child.once('exit', resolve));
  rmSync(scratch, { recursive: true, force: true });
}
