/**
 * tsx bench/kernel-search.ts [--root DIR] [--cache DIR] [--names N] [--duration S] [--connections N] [--answers FILE]: searches on the
 * whole Linux tree's index (issue 22), through a listening service in its own process (bench/serve.ts):
 *   - /symbols for names never asked before (no answer cache can help), one at a time: the server's own time
 *     (elapsedMs) p50/p99 and its CPU per request (the process's, threads included: steadier than times on a shared
 *     machine; in brackets its main thread's, which parses requests and writes answers while search threads run the SQL),
 *     for rare names (at most 3 symbols of that name, forward declarations aside) and common ones (50 or
 *     more), with the index file in the page cache, once the server is idle (its refresh of the tree at start done);
 *   - the same right after a restart with the index file dropped from the page cache (`dd iflag=nocache`): the
 *     first N names;
 *   - 16 clients asking never-repeated names (autocannon), rare and common: req/s, latency, errors, and /health's
 *     latency asked meanwhile once every 20 ms from a thread of its own (how long a search holds up a cheap request).
 * It prints a digest of the answers it was given one at a time (elapsedMs aside): the same digest before and after
 * a change of the search code says the answers did not change.
 * The other operations on the kernel (declaration, members, inheritors, hierarchy, statements, usages' fallback)
 * are timed by bench/kernel-ops.ts on the same index. The index is built once into --cache (default $PLUMB_BENCH_CACHE/kernel-index) with `plumb index`'s code when
 * it is not there; the tree is Debian's linux-source-6.1 (`apt-get install linux-source-6.1`), extracted as
 * bench/kernel.ts does. Without it: skipped, saying so.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import { appendFileSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import autocannon from 'autocannon';
import { BENCH_CACHE, kernelIndex, kernelNames, kernelRoot } from './kernel-names.js';
import { markdownTable, option, percentile, processCpuMs } from './measure.js';
import { settle } from './stores.js';

if (process.argv.includes('--help')) {
  console.log('tsx bench/kernel-search.ts [--root DIR] [--cache DIR] [--names N] [--duration S] [--connections N] [--answers FILE]: /symbols on the kernel\'s index (see the comment at the top of this file)');
  process.exit(0);
}

const REPO = path.resolve(import.meta.dirname, '..');
const NAMES = Number(option('--names') ?? 300);
const DURATION = Number(option('--duration') ?? 10);
const CONNECTIONS = Number(option('--connections') ?? 16);
/** --answers FILE: the answers given one at a time written there too (to compare two runs whose digests differ). */
const ANSWERS = option('--answers');
if (ANSWERS) writeFileSync(ANSWERS, '');

const tree = kernelRoot(option('--root'));
if ('skipped' in tree) {
  console.log(`bench/kernel-search.ts: skipped (${tree.skipped})`);
  process.exit(0);
}
const { root } = tree;
const cacheDir = option('--cache') ?? path.join(BENCH_CACHE, 'kernel-index');
const file = await kernelIndex(root, cacheDir, 'kernel-search');

const ms = (n: number): string => `${n < 10 ? n.toFixed(2) : n.toFixed(1)} ms`;
const count = (n: number): string => new Intl.NumberFormat('en-US').format(Math.round(n));
const load = (): string => os.loadavg().map((n) => n.toFixed(1)).join(' ');

// The names, read once from the index: every distinct name with its count of symbols (forward declarations aside), in a fixed shuffled order.
const { symbols, distinct, rare, common } = kernelNames(file);
console.log(`\nKernel search: ${root}, ${count(symbols)} symbols, ${count(distinct)} distinct names: ${count(rare.length)} rare (≤ 3 symbols), ${count(common.length)} common (≥ 50); ${os.availableParallelism()} cores, load ${load()}`);

const rows: string[][] = [];
const bursts: string[][] = [];
let server: { child: ChildProcess; url: string; readyMs: number } | undefined;

async function start(): Promise<void> {
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(REPO, 'bench/serve.ts'), root, cacheDir], { cwd: REPO, stdio: ['ignore', 'pipe', 'inherit'] });
  const line = await new Promise<string>((resolve, reject) => {
    child.stdout?.once('data', (chunk: Buffer) => resolve(chunk.toString()));
    child.once('exit', (code) => reject(new Error(`bench server exited with ${code}`)));
  });
  const { url, readyMs } = JSON.parse(line) as { url: string; readyMs: number };
  server = { child, url, readyMs };
}

async function stop(): Promise<void> {
  if (!server) return;
  const { child } = server;
  server = undefined;
  child.kill('SIGTERM');
  await new Promise((resolve) => child.once('exit', resolve));
}

/** The index's files out of the page cache (POSIX_FADV_DONTNEED through dd), as after a reboot or a long idle time. */
function dropFromPageCache(): void {
  for (const suffix of ['', '-wal', '-shm']) {
    if (existsSync(file + suffix)) spawnSync('dd', [`if=${file}${suffix}`, 'iflag=nocache', 'count=0', 'status=none']);
  }
}

/** The whole index file read once: its pages in the page cache, as on a machine that served it a while. */
function readIntoPageCache(): void {
  spawnSync('sh', ['-c', `cat '${file}' > /dev/null`]);
}

/** CPU of the server's main thread (its pid's own task), in ms: what parsing requests and writing answers cost, beside the search threads'. */
function mainThreadCpuMs(pid: number): number {
  try {
    const fields = readFileSync(`/proc/${pid}/task/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return 0;
  }
}

/** The /symbols answers given one at a time, their elapsedMs aside, in the order asked. */
const answers = createHash('sha256');
let answered = 0;

/** One request at a time: the server's time (elapsedMs) and the client's, per request, and the server's CPU per request. */
async function sequential(paths: string[]): Promise<{ server: number[]; client: number[]; cpuMs: number; mainMs: number }> {
  const server_: number[] = [];
  const client: number[] = [];
  const cpu0 = processCpuMs(server?.child.pid ?? 0);
  const main0 = mainThreadCpuMs(server?.child.pid ?? 0);
  for (const target of paths) {
    const t0 = performance.now();
    const response = await fetch(`${server?.url}${target}`);
    const body = (await response.json()) as { elapsedMs?: number };
    client.push(performance.now() - t0);
    if (response.status !== 200) throw new Error(`${target}: ${response.status} ${JSON.stringify(body).slice(0, 200)}`);
    server_.push(body.elapsedMs ?? NaN);
    if (!target.startsWith('/symbols')) continue;
    const answer = `${target}\n${JSON.stringify({ ...body, elapsedMs: undefined })}\n`;
    answers.update(answer);
    if (ANSWERS) appendFileSync(ANSWERS, answer);
    answered++;
  }
  return { server: server_, client, cpuMs: (processCpuMs(server?.child.pid ?? 0) - cpu0) / paths.length, mainMs: (mainThreadCpuMs(server?.child.pid ?? 0) - main0) / paths.length };
}

const symbolsPath = (name: string, offset = 0): string => `/symbols?query=${encodeURIComponent(name)}${offset ? `&offset=${offset}` : ''}`;
const row = (label: string, times: { server: number[]; client: number[]; cpuMs: number; mainMs: number }, target: string): void => {
  rows.push([label, `${ms(percentile(times.server, 50))} / ${ms(percentile(times.server, 99))}`, `${ms(percentile(times.client, 50))} / ${ms(percentile(times.client, 99))}`, `${ms(times.cpuMs)} (${ms(times.mainMs)})`, target, load()]);
};

/**
 * /health asked once every 20 ms from a thread of its own until told to stop, then its latencies. Not from this
 * thread: autocannon's 16 clients keep its event loop busy, and a probe waiting for it measured the bench, not the
 * server (maxima of 700-800 ms in some runs).
 */
const PROBER = `
const { parentPort, workerData } = require('node:worker_threads');
let running = true;
const times = [];
parentPort.once('message', () => { running = false; });
(async () => {
  while (running) {
    const t0 = performance.now();
    await (await fetch(workerData.url + '/health')).arrayBuffer();
    times.push(performance.now() - t0);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  parentPort.postMessage(times);
})();
`;

/** 16 clients over distinct paths, with /health asked once every 20 ms meanwhile (PROBER). */
async function burst(label: string, paths: string[], target: string): Promise<void> {
  let next = 0;
  const probe = new Worker(PROBER, { eval: true, workerData: { url: server?.url } });
  const probed = new Promise<number[]>((resolve, reject) => {
    probe.once('message', resolve);
    probe.once('error', reject);
  });
  const cpu0 = processCpuMs(server?.child.pid ?? 0);
  const main0 = mainThreadCpuMs(server?.child.pid ?? 0);
  const result = await autocannon({
    url: server?.url as string,
    connections: CONNECTIONS,
    duration: DURATION,
    requests: [{ method: 'GET', setupRequest: (request) => ({ ...request, path: paths[next++ % paths.length] }) }],
  });
  const cpuMs = (processCpuMs(server?.child.pid ?? 0) - cpu0) / Math.max(1, result.requests.total);
  const mainMs = (mainThreadCpuMs(server?.child.pid ?? 0) - main0) / Math.max(1, result.requests.total);
  probe.postMessage('stop');
  const health = await probed;
  await probe.terminate();
  const errors = result.non2xx + result.errors + result.timeouts;
  const repeated = next > paths.length ? ` (${count(next - paths.length)} repeats)` : '';
  bursts.push([label, count(result.requests.average), `${errors}${repeated}`, `${result.latency.p50} ms / ${result.latency.p99} ms`, `${ms(cpuMs)} (${ms(mainMs)})`,
    `${ms(percentile(health, 50))} / ${ms(percentile(health, 99))} / ${ms(Math.max(...health))}`, target, load()]);
}

try {
  // Warm: the index file in the page cache, then each name asked once.
  readIntoPageCache();
  await start();
  // Warm means steady: the server's own work after it says it is ready (its refresh of the tree against the index) done first.
  if (server) await settle({ ...server, spawnToReadyMs: 0 });
  await sequential(['/health', symbolsPath('zz_not_a_name_warmup')]);
  let used = 0;
  const take = (names: string[], n: number): string[] => names.slice(used, (used += n));
  const rareWarm = take(rare, NAMES);
  const commonWarm = common.slice(0, Math.min(NAMES, common.length));
  row('/symbols, never asked, warm: rare names', await sequential(rareWarm.map((name) => symbolsPath(name))), 'p50 ≤ 2 ms, p99 ≤ 10 ms');
  row('/symbols, never asked, warm: common names', await sequential(commonWarm.map((name) => symbolsPath(name))), 'p50 ≤ 2 ms, p99 ≤ 10 ms');

  // 16 clients: every request a name (and page) not asked before.
  await burst(`${CONNECTIONS} clients, rare names`, take(rare, 40_000).map((name) => symbolsPath(name)), '≥ 1,000 req/s');
  const commonPages = Array.from({ length: 8 }, (_, page) => common.map((name) => symbolsPath(name, page + 1))).flat();
  await burst(`${CONNECTIONS} clients, common names`, commonPages, '≥ 400 req/s');

  // Right after a restart, the index file out of the page cache.
  await stop();
  dropFromPageCache();
  await start();
  const restartRare = take(rare, NAMES);
  const restartCommon = common.slice(NAMES, NAMES * 2).length >= NAMES / 2 ? common.slice(NAMES, NAMES * 2) : common.map((name) => name);
  const firsts = restartRare.flatMap((name, i) => (i % 2 === 0 ? [symbolsPath(name)] : [symbolsPath(restartCommon[i % restartCommon.length], 9)]));
  row(`/symbols after a restart, page cache dropped: first ${firsts.length} (rare and common in turn; ready in ${((server?.readyMs ?? 0) / 1000).toFixed(1)} s)`, await sequential(firsts), 'p50 ≤ 3 ms');
  row('/symbols after a restart: the next ones, rare', await sequential(take(rare, NAMES).map((name) => symbolsPath(name))), '');
} finally {
  await stop();
}

console.log(`\n## Linux: searches on the index (${count(symbols)} symbols)\n`);
console.log(markdownTable(['request (one at a time)', 'server time p50 / p99', 'client p50 / p99', 'server CPU per request (main thread)', 'target', 'load (1, 5, 15 min)'], rows));
console.log('');
console.log(`\n/symbols answers given one at a time: ${count(answered)}, digest ${answers.digest('hex').slice(0, 16)} (elapsedMs aside)\n`);
console.log(markdownTable([`${CONNECTIONS} clients, ${DURATION} s`, 'req/s', 'errors', 'latency p50 / p99', 'server CPU per request (main thread)', '/health meanwhile p50 / p99 / max', 'target', 'load (1, 5, 15 min)'], bursts));
