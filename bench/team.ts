/**
 * The shared PostgreSQL store next to the embedded SQLite one, in one run (npm run bench runs it; alone:
 * npx tsx bench/team.ts [--small]):
 *   1. a cold build of the same roots into each (wall and CPU of plumb; PostgreSQL's own CPU too);
 *   2. /symbols one request at a time: server time (elapsedMs) and loopback latency p50/p99, from the
 *      embedded store and from a read-only replica, with CPU per request of plumb and of PostgreSQL;
 *   3. requests per second at 16 connections: embedded, one replica, two replicas (8 connections each) on the
 *      primary, then on PostgreSQL's streaming replication: one replica on a hot standby, two replicas on two
 *      standbys (pg_basebackup -R of the primary); req/s and CPU per request of each plumb and each database
 *      server, and on paper what N standbys give; no request repeats, so every one is a search (not an answer the
 *      search cache kept);
 *   4. a replica's start to ready;
 *   5. the check: every golden query and every other read (bench/golden-queries.ts) on both stores, the
 *      first differences printed; the process exits 1 when there is any.
 * --small: googletest and Flask instead of the million-symbol roots (a minute instead of ten).
 * A PostgreSQL cluster of its own (test/postgres.ts) runs on a free port and is removed afterwards.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import { validateConfig } from '../src/config.js';
import { SymbolIndex } from '../src/index/symbol-index.js';
import { startPostgres, startStandby } from '../test/postgres.js';
import { PostgresSymbolStore } from '../src/index/postgres/store.js';
import { SqliteSymbolStore } from '../src/index/sqlite/store.js';
import { databaseFileFor } from '../src/index/symbol-index.js';
import { compareStores } from './golden-queries.js';
import { percentile as pct, processCpuMs as cpuOf } from './measure.js';
import { GENERIC, MILLION_EXTRA, MILLION_ROOT, QUERIES } from './million.js';

const REPO = path.resolve(import.meta.dirname, '..');
const small = process.argv.includes('--small');
const ROOT = small ? '/usr/src/googletest' : MILLION_ROOT;
const EXTRA = small ? ['/usr/lib/python3/dist-packages/flask'] : MILLION_EXTRA;
const WORKSPACE = 'bench';

const cleanups: Array<() => unknown> = [];
const cleanup = async (): Promise<void> => {
  for (const fn of cleanups.reverse()) await fn();
};
const fmt = (n: number, digits = 2): string => n.toFixed(digits);
/** One cluster's postgres processes: the postmaster listening on `port` and its children (backends, WAL sender...). */
function clusterCpu(port: number): number {
  const all = new Map<number, { ppid: number; cpu: number; cmdline: string }>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (readFileSync(`/proc/${entry}/comm`, 'utf8').trim() !== 'postgres') continue;
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      all.set(Number(entry), { ppid, cpu: cpuOf(Number(entry)), cmdline: readFileSync(`/proc/${entry}/cmdline`, 'utf8') });
    } catch {
      // Gone meanwhile.
    }
  }
  const postmaster = [...all].find(([, p]) => p.cmdline.split('\0').join(' ').includes(`-p ${port} `))?.[0];
  if (postmaster === undefined) return 0;
  let total = 0;
  for (const [pid, p] of all) if (pid === postmaster || p.ppid === postmaster) total += p.cpu;
  return total;
}

/** The postgres processes (postmaster and its backends): their CPU is the store's cost per request. */
function postgresCpu(): number {
  let total = 0;
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (readFileSync(`/proc/${entry}/comm`, 'utf8').trim() === 'postgres') total += cpuOf(Number(entry));
    } catch {
      // Gone meanwhile.
    }
  }
  return total;
}

async function coldBuild(label: string, extra: Record<string, unknown>): Promise<string> {
  const cacheDir = mkdtempSync(path.join(os.tmpdir(), 'plumb-team-'));
  cleanups.push(() => rmSync(cacheDir, { recursive: true, force: true }));
  const config = validateConfig({ ...extra, cacheDir, logLevel: 'silent', index: { extraRoots: EXTRA, watch: false } });
  const cpu = process.cpuUsage();
  const pg0 = postgresCpu();
  const started = performance.now();
  const index = await SymbolIndex.open({ root: ROOT, config, cacheDir });
  const summary = await index.build();
  const wall = performance.now() - started;
  const used = process.cpuUsage(cpu);
  await index.close();
  const pg = postgresCpu() - pg0;
  console.log(`cold build, ${label}: ${summary.filesTotal} files, ${summary.symbols} symbols | wall ${fmt(wall / 1000, 1)} s | plumb CPU ${fmt((used.user + used.system) / 1e6, 1)} s${extra.store ? ` | PostgreSQL CPU ${fmt(pg / 1000, 1)} s` : ''} | load ${fmt(os.loadavg()[0], 1)}`);
  return cacheDir;
}

interface Served { url: string; child: ChildProcess; readyMs: number; spawnToReadyMs: number }

async function serve(cacheDir: string, extra: Record<string, unknown>): Promise<Served> {
  const started = performance.now();
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(REPO, 'bench/serve.ts'), ROOT, cacheDir, JSON.stringify(EXTRA), JSON.stringify(extra)], { cwd: REPO, stdio: ['ignore', 'pipe', 'inherit'] });
  cleanups.push(() => child.kill('SIGTERM'));
  const line = await new Promise<string>((resolve, reject) => {
    child.stdout!.once('data', (chunk: Buffer) => resolve(chunk.toString()));
    child.once('exit', (code) => reject(new Error(`bench/serve.ts exited with ${code}`)));
  });
  const { url, readyMs } = JSON.parse(line) as { url: string; readyMs: number };
  return { url, child, readyMs, spawnToReadyMs: performance.now() - started };
}

/** Stops a served plumb (its CPU no longer counts). */
async function stop(server: Served): Promise<void> {
  if (server.child.exitCode !== null) return;
  const exited = new Promise((resolve) => server.child.once('exit', resolve));
  server.child.kill('SIGTERM');
  await exited;
}

/** `port`: the database server to count PostgreSQL's CPU on (default: every postgres process). */
async function sequential(label: string, server: Served, queries: string[], rounds: number, port?: number): Promise<void> {
  const dbCpu = (): number => (port === undefined ? postgresCpu() : clusterCpu(port));
  const client: number[] = [];
  const elapsed: number[] = [];
  let cpu0 = 0;
  let pg0 = 0;
  let n = 0;
  for (let round = 0; round <= rounds; round++) {
    if (round === 1) {
      cpu0 = cpuOf(server.child.pid!);
      pg0 = dbCpu();
    }
    for (const query of queries) {
      const t0 = performance.now();
      // Another page size each round: every request is a search, none an answer the search cache kept.
      const response = await fetch(`${server.url}/symbols?query=${encodeURIComponent(query)}&limit=${20 + round}`);
      const body = (await response.json()) as { elapsedMs: number };
      if (round === 0) continue;
      n++;
      client.push(performance.now() - t0);
      elapsed.push(body.elapsedMs);
    }
  }
  const plumbCpu = (cpuOf(server.child.pid!) - cpu0) / n;
  const pgCpu = (dbCpu() - pg0) / n;
  console.log(`${label}: server p50 ${fmt(pct(elapsed, 50))} ms p99 ${fmt(pct(elapsed, 99))} ms | HTTP p50 ${fmt(pct(client, 50))} ms p99 ${fmt(pct(client, 99))} ms | CPU per request: plumb ${fmt(plumbCpu)} ms, PostgreSQL ${fmt(pgCpu)} ms (${n} requests)`);
}

interface Load { rps: number; cpuPerRequest: number; pgPerRequest: number; perServer: number[]; perCluster: number[] }

/** Load on `servers`; `clusters` (ports) are the database servers whose CPU per request is reported one by one. */
async function load(label: string, servers: Served[], connections: number, clusters: Array<{ name: string; port: number }> = []): Promise<Load> {
  const cpu0 = servers.map((s) => cpuOf(s.child.pid!));
  const pg0 = postgresCpu();
  const cluster0 = clusters.map((c) => clusterCpu(c.port));
  const queries = [...QUERIES, ...GENERIC];
  const results = await Promise.all(servers.map((server) => {
    let next = 0;
    return autocannon({
      url: server.url,
      connections: connections / servers.length,
      duration: 10,
      // Never the same request twice (the next page each time round the queries): searches, not the search cache.
      requests: [{ method: 'GET', setupRequest: (request) => {
        const n = next++;
        return { ...request, path: `/symbols?query=${encodeURIComponent(queries[n % queries.length])}&limit=20&offset=${Math.floor(n / queries.length)}` };
      } }],
    });
  }));
  const requests = results.reduce((sum, r) => sum + r.requests.total, 0);
  const rps = results.reduce((sum, r) => sum + r.requests.average, 0);
  // Each plumb's CPU over the requests it answered; each database server's over all of them.
  const perServer = servers.map((s, i) => (cpuOf(s.child.pid!) - cpu0[i]) / Math.max(1, results[i].requests.total));
  const plumbCpu = servers.reduce((sum, s, i) => sum + cpuOf(s.child.pid!) - cpu0[i], 0) / requests;
  const pgCpu = (postgresCpu() - pg0) / requests;
  const perCluster = clusters.map((c, i) => (clusterCpu(c.port) - cluster0[i]) / requests);
  const errors = results.reduce((sum, r) => sum + r.errors + r.non2xx, 0);
  const each = servers.length > 1 ? ` (${perServer.map((ms) => fmt(ms)).join(' / ')} each)` : '';
  const byCluster = clusters.length ? ` (${clusters.map((c, i) => `${c.name} ${fmt(perCluster[i])}`).join(', ')})` : '';
  console.log(`${label}: ${fmt(rps, 0)} req/s at ${connections} connections | p50 ${results.map((r) => r.latency.p50).join('/')} ms p99 ${results.map((r) => r.latency.p99).join('/')} ms | ${errors} errors | CPU per request: plumb ${fmt(plumbCpu)} ms${each}, PostgreSQL ${fmt(pgCpu)} ms${byCluster}`);
  return { rps, cpuPerRequest: plumbCpu, pgPerRequest: pgCpu, perServer, perCluster };
}

try {
  console.log(`roots: ${ROOT} + ${EXTRA.join(', ')}; ${os.availableParallelism()} cores`);
  const pg = await startPostgres({ teardown: (fn) => cleanups.push(fn), fail: (message) => console.error(message) });
  const store = { store: pg.url, workspace: WORKSPACE };
  const sqliteCache = await coldBuild('SQLite (embedded)', {});
  const pgCache = await coldBuild('PostgreSQL', store);

  const sqlite = SqliteSymbolStore.open({ file: databaseFileFor(sqliteCache, ROOT) });
  const postgres = await PostgresSymbolStore.open({ url: pg.url, workspace: WORKSPACE, readOnly: true });
  const started = performance.now();
  const check = await compareStores(sqlite, postgres);
  await Promise.all([sqlite.close(), postgres.close()]);
  console.log(`check: ${check.cases} reads on both stores in ${fmt((performance.now() - started) / 1000, 1)} s, ${check.differences.length === 0 ? 'the same answers' : `${check.differences.length} different`}`);
  for (const difference of check.differences) console.log(`  ${difference.label}\n    SQLite:     ${JSON.stringify(difference.a).slice(0, 300)}\n    PostgreSQL: ${JSON.stringify(difference.b).slice(0, 300)}`);
  if (check.differences.length > 0) process.exitCode = 1;

  const embedded = await serve(sqliteCache, {});
  const replica = await serve(pgCache, { ...store, readOnly: true });
  console.log(`replica start to ready: ${fmt(replica.spawnToReadyMs, 0)} ms from spawn (${fmt(replica.readyMs, 0)} ms inside the process); embedded: ${fmt(embedded.spawnToReadyMs, 0)} ms`);
  for (const [label, queries, rounds] of [['agent queries', QUERIES, 20], ['generic names', GENERIC, 5]] as const) {
    await sequential(`/symbols ${label}, embedded SQLite`, embedded, [...queries], rounds);
    await sequential(`/symbols ${label}, PostgreSQL replica`, replica, [...queries], rounds);
  }
  const primary = { name: 'primary', port: pg.port };
  await load('load, embedded SQLite', [embedded], 16);
  const one = await load('load, one replica on the primary', [replica], 16, [primary]);
  const second = await serve(pgCache, { ...store, readOnly: true });
  const two = await load('load, two replicas on the primary (8 connections each)', [replica, second], 16, [primary]);
  await Promise.all([replica, second].map((s) => stop(s)));

  // PostgreSQL's own replication: hot standbys of the primary, a replica on each.
  const backup = performance.now();
  const standbys = [await startStandby({ teardown: (fn) => cleanups.push(fn), fail: (message) => console.error(message) }, pg)];
  console.log(`standby: pg_basebackup -R of the primary and start in ${fmt((performance.now() - backup) / 1000, 1)} s`);
  standbys.push(await startStandby({ teardown: (fn) => cleanups.push(fn), fail: (message) => console.error(message) }, pg));
  const onStandby = (i: number): Promise<Served> => serve(pgCache, { store: standbys[i].url, workspace: WORKSPACE, readOnly: true });
  const first = await onStandby(0);
  for (const [label, queries, rounds] of [['agent queries', QUERIES, 20], ['generic names', GENERIC, 5]] as const) {
    await sequential(`/symbols ${label}, replica on a standby`, first, [...queries], rounds, standbys[0].port);
  }
  const clusters = [primary, { name: 'standby 1', port: standbys[0].port }, { name: 'standby 2', port: standbys[1].port }];
  const oneStandby = await load('load, one replica on standby 1', [first], 16, clusters);
  const other = await onStandby(1);
  const twoStandbys = await load('load, two replicas on standbys 1 and 2 (8 connections each)', [first, other], 16, clusters);

  // On paper. On the primary: every replica's searches cost the primary's CPU, so it is the limit whatever the
  // replicas. On standbys: a machine holding a standby and its replica serves its cores over (plumb + standby CPU per
  // request), and the primary only ships WAL (its CPU per request read on standbys: next to nothing); N such machines
  // serve N times that. Here all of it shares this machine's cores, so req/s cannot grow with N: the CPU per request can
  // be compared.
  const perMachineCore = 1000 / (oneStandby.perServer[0] + oneStandby.perCluster[1]);
  console.log(`on paper, on the primary: one replica core serves ~${fmt(1000 / one.cpuPerRequest, 0)} req/s, and PostgreSQL's ${fmt(one.pgPerRequest)} ms per request saturates the primary at ~${fmt(1000 / Math.max(one.pgPerRequest, 0.001), 0)} req/s per database core whatever the replicas (two replicas here: ${fmt(two.rps, 0)} req/s)`);
  console.log(`on paper, on standbys: a replica and its standby on a machine serve ~${fmt(perMachineCore, 0)} req/s per core (plumb ${fmt(oneStandby.perServer[0])} + standby ${fmt(oneStandby.perCluster[1])} ms per request), the primary spends ${fmt(twoStandbys.perCluster[0])} ms per request read on standbys: N standbys with a replica each serve ~N x ${fmt(perMachineCore, 0)} req/s per core (here: ${fmt(oneStandby.rps, 0)} req/s on one standby, ${fmt(twoStandbys.rps, 0)} on two, all on ${os.availableParallelism()} shared cores)`);
} finally {
  await cleanup();
}
