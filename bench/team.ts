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
 * A PostgreSQL cluster of its own (test/postgres.ts) runs on a free port and is removed afterwards. The builds, served
 * plumbs and one-at-a-time searches are bench/stores.ts's (bench/team-kernel.ts: the same on the Linux tree).
 */
import os from 'node:os';
import autocannon from 'autocannon';
import { startPostgres, startStandby } from '../test/postgres.js';
import { PostgresSymbolStore } from '../src/index/postgres/store.js';
import { SqliteSymbolStore } from '../src/index/sqlite/store.js';
import { databaseFileFor } from '../src/index/symbol-index.js';
import { compareStores } from './golden-queries.js';
import { clusterCpuMs as clusterCpu, postgresCpuMs as postgresCpu, processCpuMs as cpuOf } from './measure.js';
import { GENERIC, MILLION_EXTRA, MILLION_ROOT, QUERIES } from './million.js';
import { atCleanup, cleanup, coldBuild, fmt, rounds, sequential as sequentialRun, sequentialLine, serve as serveRoots, stop, type Roots, type Served } from './stores.js';

const small = process.argv.includes('--small');
const ROOTS: Roots = small ? { root: '/usr/src/googletest', extraRoots: ['/usr/lib/python3/dist-packages/flask'] } : { root: MILLION_ROOT, extraRoots: MILLION_EXTRA };
const WORKSPACE = 'bench';

const serve = (cacheDir: string, extra: Record<string, unknown>): Promise<Served> => serveRoots(ROOTS, cacheDir, extra);

/** `port`: the database server to count PostgreSQL's CPU on (default: every postgres process). */
async function sequential(label: string, server: Served, queries: readonly string[], count: number, port?: number): Promise<void> {
  const { warmup, paths } = rounds(queries, count);
  console.log(sequentialLine(label, await sequentialRun(server, warmup, paths, port)));
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
  console.log(`roots: ${ROOTS.root} + ${ROOTS.extraRoots.join(', ')}; ${os.availableParallelism()} cores`);
  const pg = await startPostgres({ teardown: atCleanup, fail: (message) => console.error(message) });
  const store = { store: pg.url, workspace: WORKSPACE };
  const { cacheDir: sqliteCache } = await coldBuild('SQLite (embedded)', ROOTS, {});
  const { cacheDir: pgCache } = await coldBuild('PostgreSQL', ROOTS, store, () => clusterCpu(pg.port));

  const sqlite = SqliteSymbolStore.open({ file: databaseFileFor(sqliteCache, ROOTS.root) });
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
    await sequential(`/symbols ${label}, embedded SQLite`, embedded, queries, rounds, pg.port);
    await sequential(`/symbols ${label}, PostgreSQL replica`, replica, queries, rounds, pg.port);
  }
  const primary = { name: 'primary', port: pg.port };
  await load('load, embedded SQLite', [embedded], 16);
  const one = await load('load, one replica on the primary', [replica], 16, [primary]);
  const second = await serve(pgCache, { ...store, readOnly: true });
  const two = await load('load, two replicas on the primary (8 connections each)', [replica, second], 16, [primary]);
  await Promise.all([replica, second].map((s) => stop(s)));

  // PostgreSQL's own replication: hot standbys of the primary, a replica on each.
  const backup = performance.now();
  const standbys = [await startStandby({ teardown: atCleanup, fail: (message) => console.error(message) }, pg)];
  console.log(`standby: pg_basebackup -R of the primary and start in ${fmt((performance.now() - backup) / 1000, 1)} s`);
  standbys.push(await startStandby({ teardown: atCleanup, fail: (message) => console.error(message) }, pg));
  const onStandby = (i: number): Promise<Served> => serve(pgCache, { store: standbys[i].url, workspace: WORKSPACE, readOnly: true });
  const first = await onStandby(0);
  for (const [label, queries, rounds] of [['agent queries', QUERIES, 20], ['generic names', GENERIC, 5]] as const) {
    await sequential(`/symbols ${label}, replica on a standby`, first, queries, rounds, standbys[0].port);
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
