/**
 * The shared PostgreSQL store next to the embedded SQLite one on the whole Linux tree (issue 21: database CPU per
 * search at most 2x the embedded plumb's):
 *   npx tsx bench/team-kernel.ts [--root DIR] [--sqlite-cache DIR] [--store URL --workspace KEY] [--names N] [--rounds N]
 *   1. the index in each store: SQLite's from --sqlite-cache (default $PLUMB_BENCH_CACHE/kernel-index, shared with
 *      bench/kernel-search.ts; built there first when absent), PostgreSQL's by a cold build into a cluster of the
 *      bench's own (test/postgres.ts, removed afterwards), or into --store's workspace unless it holds this plumb's
 *      index of the tree already (wall and CPU of plumb and of PostgreSQL); the size of each;
 *   2. /symbols one request at a time from the embedded plumb and from a read-only replica (bench/serve.ts each): the
 *      agent query mix and generic names (bench/million.ts, with the kernel's own `probe`, `ops`, `dev`, `data`),
 *      --rounds times after a warm-up round, another page size each round; rare and common kernel names
 *      (bench/kernel-names.ts), --names of each, every one asked once. Per search: the embedded plumb's CPU (its
 *      search threads included) against the PostgreSQL cluster's (and the replica plumb's own), and the answers of
 *      both compared request by request;
 *   3. the check: every golden query and every other read (bench/golden-queries.ts) on both stores.
 * The process exits 1 when any answer differs.
 *
 * Figures, 2 shared cores, Debian's linux-source-6.1 (55,583 files, 7,235,440 symbols), PostgreSQL 15 (test/postgres.ts's
 * settings: fsync off, shared_buffers 128 MB), both indexes built by the same commit (177de7d):
 *   cold builds: SQLite 808 s wall, plumb 460 s of CPU, 4,500 MB; PostgreSQL 926 s wall, plumb 493 s and PostgreSQL
 *   291 s of CPU, 7,078 MB (load 6-10, other sessions' tests running).
 *   CPU per search, embedded plumb / PostgreSQL (its ratio), the replica plumb's own after the slash:
 *                                  before (177de7d)              after (d7b0c38, 7908526, 8bce3c9)
 *     agent query mix (90)         2.44 / 2.89 (1.18x), 2.67     2.44 / 2.78 (1.14x), 1.89
 *     generic names (55)           2.36 / 2.55 (1.08x), 3.45     2.00 / 2.73 (1.36x), 4.18
 *     rare kernel names (300)      23.73 / 58.87 (2.48x), 2.83   21.00 / 33.10 (1.58x), 2.23
 *     common kernel names (300)    11.97 / 21.80 (1.82x), 4.00   10.33 / 16.47 (1.59x), 3.53
 *   (load 3-4; CPU from /proc in 10 ms ticks, so a class of 55 searches reads to about 0.2 ms.) Same answers in every
 *   class, and in the check's 8,821 reads (338 s). The rare names are mostly UPPER_SNAKE and snake_case: their cost in
 *   both stores is the CamelCase tier's scan of a first hump's range of names (`B_AX_A_UC_CAM_MATCH`: the 351,000 names
 *   starting with b), which PostgreSQL reads at about twice SQLite's CPU per name.
 *   npx tsx bench/team-kernel.ts --root /tmp/kern/linux-source-6.1 --sqlite-cache DIR --store postgres://postgres@127.0.0.1:PORT/plumb --workspace kernel
 */
import { existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { PostgresSymbolStore } from '../src/index/postgres/store.js';
import { SqliteSymbolStore } from '../src/index/sqlite/store.js';
import { startPostgres } from '../test/postgres.js';
import { compareStores } from './golden-queries.js';
import { BENCH_CACHE, kernelIndex, kernelIndexFile, kernelNames, kernelRoot } from './kernel-names.js';
import { clusterCpuMs, markdownTable, option, percentile, postgresCpuMs } from './measure.js';
import { GENERIC, QUERIES } from './million.js';
import { atCleanup, cleanup, coldBuild, differentAnswers, fmt, loadavg, rounds, sequential, serve, settle, stop, symbolsPath, type Roots, type Sequential } from './stores.js';

const NAMES = Number(option('--names') ?? 300);
const ROUNDS = Number(option('--rounds') ?? 5);
/** Generic names of any tree, and the kernel's own. */
const KERNEL_GENERIC = [...new Set([...GENERIC, 'probe', 'ops', 'dev', 'data'])];

const tree = kernelRoot(option('--root'));
if ('skipped' in tree) {
  console.log(`bench/team-kernel.ts: skipped (${tree.skipped})`);
  process.exit(0);
}
const roots: Roots = { root: tree.root, extraRoots: [] };
const sqliteCache = option('--sqlite-cache') ?? path.join(BENCH_CACHE, 'kernel-index');
const mb = (bytes: number): string => `${new Intl.NumberFormat('en-US').format(Math.round(bytes / 2 ** 20))} MB`;

/** PostgreSQL's size of the database, and how many workspaces it holds. */
async function databaseSize(url: string): Promise<string> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const size = (await client.query<{ size: string }>('SELECT pg_database_size(current_database()) AS size')).rows[0].size;
    const workspaces = (await client.query<{ n: string }>('SELECT count(*) AS n FROM workspaces')).rows[0].n;
    return `${mb(Number(size))} (the database, ${workspaces} workspace${workspaces === '1' ? '' : 's'})`;
  } finally {
    await client.end();
  }
}

/** Whether `workspace` at `url` holds this plumb's finished index already. */
async function built(url: string, workspace: string): Promise<boolean> {
  try {
    const store = await PostgresSymbolStore.open({ url, workspace, readOnly: true });
    const info = await store.storeInfo();
    await store.close();
    return info.build?.state === 'ready';
  } catch {
    return false;
  }
}

try {
  console.log(`kernel: ${roots.root}; ${os.availableParallelism()} cores, load ${loadavg()}`);
  // SQLite: the shared kernel index, built first when absent.
  const before = kernelIndexFile(roots.root, sqliteCache);
  const t0 = performance.now();
  const cpu0 = process.cpuUsage();
  const sqliteFile = await kernelIndex(roots.root, sqliteCache, 'team-kernel');
  if (!before) {
    const used = process.cpuUsage(cpu0);
    console.log(`cold build, SQLite (embedded): wall ${fmt((performance.now() - t0) / 1000, 1)} s | plumb CPU ${fmt((used.user + used.system) / 1e6, 1)} s | load ${loadavg()}`);
  } else {
    console.log(`SQLite (embedded): the index in ${sqliteFile}, built before`);
  }
  const sqliteBytes = ['', '-wal'].reduce((sum, suffix) => sum + (existsSync(sqliteFile + suffix) ? statSync(sqliteFile + suffix).size : 0), 0);

  // PostgreSQL: a cluster of the bench's own, or --store.
  let url = option('--store');
  const workspace = option('--workspace') ?? 'kernel';
  let port: number | undefined;
  if (!url) {
    const cluster = await startPostgres({ teardown: atCleanup, fail: (message) => console.error(message) });
    url = cluster.url;
    port = cluster.port;
  } else {
    port = Number(new URL(url).port || 5432);
  }
  const databaseCpu = (): number => (port === undefined ? postgresCpuMs() : clusterCpuMs(port));
  const store = { store: url, workspace };
  let pgCache: string;
  if (await built(url, workspace)) {
    console.log(`PostgreSQL: workspace '${workspace}' holds this plumb's index already (built before)`);
    pgCache = mkdtempSync(path.join(os.tmpdir(), 'plumb-team-'));
    atCleanup(() => rmSync(pgCache, { recursive: true, force: true }));
  } else {
    // The writer's batches get 4 x storeTimeoutMs: a batch of the kernel's headers took over 20 s (the default's) at load 13.
    pgCache = (await coldBuild('PostgreSQL', roots, { ...store, storeTimeoutMs: 30_000 }, databaseCpu)).cacheDir;
  }
  console.log(`index size: SQLite ${mb(sqliteBytes)}; PostgreSQL ${await databaseSize(url)}`);

  const { symbols, distinct, rare, common } = kernelNames(sqliteFile);
  console.log(`${new Intl.NumberFormat('en-US').format(symbols)} symbols, ${new Intl.NumberFormat('en-US').format(distinct)} distinct names: ${rare.length} rare (≤ 3 symbols), ${common.length} common (≥ 50)`);

  const embedded = await serve(roots, sqliteCache, {});
  const replica = await serve(roots, pgCache, { ...store, readOnly: true });
  // What each does once ready (the embedded one checks the tree against its index) is no search's CPU.
  console.log(`idle after ready: embedded in ${fmt((await settle(embedded)) / 1000, 1)} s, replica in ${fmt((await settle(replica)) / 1000, 1)} s`);
  const named = (names: string[]): { warmup: string[]; paths: string[] } => ({ warmup: names.slice(0, 20).map((name) => symbolsPath(name)), paths: names.slice(20, 20 + NAMES).map((name) => symbolsPath(name)) });
  const classes: Array<[string, { warmup: string[]; paths: string[] }]> = [
    ['agent query mix', rounds(QUERIES, ROUNDS)],
    [`generic names (${KERNEL_GENERIC.join(', ')})`, rounds(KERNEL_GENERIC, ROUNDS)],
    ['rare kernel names (≤ 3 symbols)', named(rare)],
    ['common kernel names (≥ 50 symbols)', named(common)],
  ];
  // Both warmed by the same kernel names, none of those measured: the first searches of a process are not the class's.
  const warm = [...rare.slice(20 + NAMES, 60 + NAMES), ...common.slice(20 + NAMES, 60 + NAMES)].map((name) => symbolsPath(name));
  for (const server of [embedded, replica]) await sequential(server, warm, []);
  const rows: string[][] = [];
  let differences = 0;
  const times = (r: Sequential): string => `${fmt(percentile(r.server, 50))} / ${fmt(percentile(r.server, 99))}`;
  for (const [label, { warmup, paths }] of classes) {
    if (paths.length === 0) continue;
    const a = await sequential(embedded, warmup, paths);
    const b = await sequential(replica, warmup, paths, port);
    const different = differentAnswers(a, b);
    differences += different.length;
    for (const target of different.slice(0, 3)) console.log(`  different: ${target}\n    SQLite:     ${a.answers.get(target)?.slice(0, 300)}\n    PostgreSQL: ${b.answers.get(target)?.slice(0, 300)}`);
    rows.push([label, String(a.requests), fmt(a.plumbCpuMs), fmt(b.databaseCpuMs), `${fmt(b.databaseCpuMs / a.plumbCpuMs)}x`, fmt(b.plumbCpuMs), times(a), times(b), different.length ? `${different.length} differ` : 'the same', loadavg()]);
  }
  console.log(`\n## Linux: CPU per search, embedded SQLite and PostgreSQL (${new Intl.NumberFormat('en-US').format(symbols)} symbols)\n`);
  console.log(markdownTable(['/symbols, one at a time', 'searches', 'embedded plumb CPU ms', 'PostgreSQL CPU ms', 'PostgreSQL ÷ embedded', 'replica plumb CPU ms', 'server p50 / p99 ms, embedded', 'server p50 / p99 ms, replica', 'answers', 'load (1, 5, 15 min)'], rows));

  // Every golden query and every other read on both stores.
  await Promise.all([stop(embedded), stop(replica)]);
  const sqlite = SqliteSymbolStore.open({ file: sqliteFile });
  // A read's deadline of 2 minutes: on the kernel, reading the one package's symbols took over the default 5 s.
  const postgres = await PostgresSymbolStore.open({ url, workspace, readOnly: true, timeoutMs: 120_000 });
  const started = performance.now();
  const check = await compareStores(sqlite, postgres);
  await Promise.all([sqlite.close(), postgres.close()]);
  console.log(`\ncheck: ${check.cases} reads on both stores in ${fmt((performance.now() - started) / 1000, 1)} s, ${check.differences.length === 0 ? 'the same answers' : `${check.differences.length} different`}`);
  for (const difference of check.differences) console.log(`  ${difference.label}\n    SQLite:     ${JSON.stringify(difference.a).slice(0, 300)}\n    PostgreSQL: ${JSON.stringify(difference.b).slice(0, 300)}`);
  if (check.differences.length > 0 || differences > 0) process.exitCode = 1;
} finally {
  await cleanup();
}
