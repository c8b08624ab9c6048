/**
 * The two stores side by side, as the team benches run them (bench/team.ts on the million-symbol roots,
 * bench/team-kernel.ts on the Linux tree): a cold build into each, a served plumb in its own process (bench/serve.ts)
 * on each, and /symbols asked one request at a time with the CPU each request cost plumb and PostgreSQL.
 * The processes and directories a bench starts are stopped and removed by cleanup().
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { validateConfig } from '../src/config.js';
import { SymbolIndex } from '../src/index/symbol-index.js';
import { clusterCpuMs, percentile, postgresCpuMs, processCpuMs } from './measure.js';

const REPO = path.resolve(import.meta.dirname, '..');

const cleanups: Array<() => unknown> = [];
/** Runs `fn` at cleanup(), after everything registered later. */
export const atCleanup = (fn: () => unknown): void => void cleanups.push(fn);
/** Stops and removes what the bench started, the latest first. */
export async function cleanup(): Promise<void> {
  for (const fn of cleanups.reverse()) await fn();
  cleanups.length = 0;
}

export const fmt = (n: number, digits = 2): string => n.toFixed(digits);
/** The 1, 5 and 15 minute load averages. */
export const loadavg = (): string => os.loadavg().map((n) => n.toFixed(1)).join(' ');

/** Where the roots are: a workspace and its extra roots. */
export interface Roots {
  root: string;
  extraRoots: string[];
}

export interface Build {
  cacheDir: string;
  files: number;
  symbols: number;
  wallMs: number;
  /** plumb's own CPU (this process and its threads). */
  plumbCpuMs: number;
  /** The database's CPU (a shared store only). */
  databaseCpuMs?: number;
}

/**
 * A cold build of `roots` into a new cache directory (removed at cleanup) with these settings (a shared store: `store`
 * and `workspace`); `databaseCpu` reads the database's CPU so far (default: every postgres process). Prints one line.
 */
export async function coldBuild(label: string, roots: Roots, extra: Record<string, unknown>, databaseCpu: () => number = postgresCpuMs): Promise<Build> {
  const cacheDir = mkdtempSync(path.join(os.tmpdir(), 'plumb-team-'));
  atCleanup(() => rmSync(cacheDir, { recursive: true, force: true }));
  const config = validateConfig({ ...extra, cacheDir, logLevel: 'silent', index: { extraRoots: roots.extraRoots, watch: false } });
  const cpu = process.cpuUsage();
  const db0 = databaseCpu();
  const started = performance.now();
  const index = await SymbolIndex.open({ root: roots.root, config, cacheDir });
  const summary = await index.build();
  const wallMs = performance.now() - started;
  const used = process.cpuUsage(cpu);
  await index.close();
  const build: Build = { cacheDir, files: summary.filesTotal, symbols: summary.symbols, wallMs, plumbCpuMs: (used.user + used.system) / 1000 };
  if (extra.store) build.databaseCpuMs = databaseCpu() - db0;
  console.log(`cold build, ${label}: ${build.files} files, ${build.symbols} symbols | wall ${fmt(wallMs / 1000, 1)} s | plumb CPU ${fmt(build.plumbCpuMs / 1000, 1)} s${build.databaseCpuMs === undefined ? '' : ` | PostgreSQL CPU ${fmt(build.databaseCpuMs / 1000, 1)} s`} | load ${loadavg()}`);
  return build;
}

export interface Served { url: string; child: ChildProcess; readyMs: number; spawnToReadyMs: number }

/** plumb serving `roots` from `cacheDir` in its own process (bench/serve.ts), with these settings; stopped at cleanup. */
export async function serve(roots: Roots, cacheDir: string, extra: Record<string, unknown>): Promise<Served> {
  const started = performance.now();
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(REPO, 'bench/serve.ts'), roots.root, cacheDir, JSON.stringify(roots.extraRoots), JSON.stringify(extra)], { cwd: REPO, stdio: ['ignore', 'pipe', 'inherit'] });
  atCleanup(() => child.kill('SIGTERM'));
  const line = await new Promise<string>((resolve, reject) => {
    child.stdout!.once('data', (chunk: Buffer) => resolve(chunk.toString()));
    child.once('exit', (code) => reject(new Error(`bench/serve.ts exited with ${code}`)));
  });
  const { url, readyMs } = JSON.parse(line) as { url: string; readyMs: number };
  return { url, child, readyMs, spawnToReadyMs: performance.now() - started };
}

/**
 * Waits until a served plumb is idle (under 2% of a core over a second: what it does after it says it is ready, such
 * as checking the tree against its index, done), at most `maxMs`; how long it took.
 */
export async function settle(server: Served, maxMs = 120_000): Promise<number> {
  const started = performance.now();
  for (;;) {
    const cpu0 = processCpuMs(server.child.pid!);
    await new Promise((resolve) => setTimeout(resolve, 1000));
    if (processCpuMs(server.child.pid!) - cpu0 <= 20 || performance.now() - started > maxMs) return performance.now() - started;
  }
}

/** Stops a served plumb (its CPU no longer counts). */
export async function stop(server: Served): Promise<void> {
  if (server.child.exitCode !== null) return;
  const exited = new Promise((resolve) => server.child.once('exit', resolve));
  server.child.kill('SIGTERM');
  await exited;
}

export interface Sequential {
  requests: number;
  /** The server's own time per request (elapsedMs) and the client's. */
  server: number[];
  client: number[];
  /** CPU per request: the served plumb's (its threads included) and the database's. */
  plumbCpuMs: number;
  databaseCpuMs: number;
  /** Each measured request's answer (its elapsedMs left out), by path. */
  answers: Map<string, string>;
}

/**
 * /symbols requests one at a time: `warmup` paths first, not counted, then `paths`, each request timed and its CPU
 * counted on the served plumb and on the database (`databaseCpu`, default every postgres process; `port`: that cluster).
 */
export async function sequential(server: Served, warmup: string[], paths: string[], port?: number): Promise<Sequential> {
  const databaseCpu = (): number => (port === undefined ? postgresCpuMs() : clusterCpuMs(port));
  const ask = async (target: string): Promise<{ body: Record<string, unknown>; ms: number }> => {
    const t0 = performance.now();
    const response = await fetch(`${server.url}${target}`);
    const body = (await response.json()) as Record<string, unknown>;
    if (response.status !== 200) throw new Error(`${target}: ${response.status} ${JSON.stringify(body).slice(0, 300)}`);
    return { body, ms: performance.now() - t0 };
  };
  for (const target of warmup) await ask(target);
  const client: number[] = [];
  const elapsed: number[] = [];
  const answers = new Map<string, string>();
  const cpu0 = processCpuMs(server.child.pid!);
  const db0 = databaseCpu();
  for (const target of paths) {
    const { body, ms } = await ask(target);
    client.push(ms);
    elapsed.push(body.elapsedMs as number);
    answers.set(target, JSON.stringify({ ...body, elapsedMs: undefined }));
  }
  const n = paths.length;
  return { requests: n, server: elapsed, client, plumbCpuMs: (processCpuMs(server.child.pid!) - cpu0) / n, databaseCpuMs: (databaseCpu() - db0) / n, answers };
}

/** team.ts's line for a sequential run: server and HTTP p50/p99, CPU per request. */
export function sequentialLine(label: string, r: Sequential): string {
  return `${label}: server p50 ${fmt(percentile(r.server, 50))} ms p99 ${fmt(percentile(r.server, 99))} ms | HTTP p50 ${fmt(percentile(r.client, 50))} ms p99 ${fmt(percentile(r.client, 99))} ms | CPU per request: plumb ${fmt(r.plumbCpuMs)} ms, PostgreSQL ${fmt(r.databaseCpuMs)} ms (${r.requests} requests)`;
}

/** /symbols for `query`, a page of `limit`. */
export const symbolsPath = (query: string, limit = 20, offset = 0): string => `/symbols?query=${encodeURIComponent(query)}&limit=${limit}${offset ? `&offset=${offset}` : ''}`;

/**
 * `queries` asked `rounds` times after a warm-up round, another page size each round: every request is a search, none an
 * answer the search cache kept.
 */
export function rounds(queries: readonly string[], count: number): { warmup: string[]; paths: string[] } {
  const warmup = queries.map((query) => symbolsPath(query, 20));
  const paths = Array.from({ length: count }, (_, round) => queries.map((query) => symbolsPath(query, 21 + round))).flat();
  return { warmup, paths };
}

/** The paths whose answers differ between two runs of the same paths. */
export function differentAnswers(a: Sequential, b: Sequential): string[] {
  return [...a.answers].filter(([target, answer]) => b.answers.get(target) !== answer).map(([target]) => target);
}
