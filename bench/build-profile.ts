/**
 * The cold build stage by stage, next to tree-sitter's parse alone over the same files on the same
 * number of threads (text as written, and prepared as the extractor prepares it: bodies blanked).
 * Wall time moves with whatever else the shared cores run; CPU time (per thread where Linux tells it)
 * much less, so both are shown, with the load average. Used by bench/run.ts and bench/cold.ts.
 */
import os from 'node:os';
import path from 'node:path';
import { ParsePool, type WorkerStats } from '../src/index/parse-pool.js';
import type { BuildSummary, StageTime } from '../src/index/symbol-index.js';
import type { SymbolReader } from '../src/index/store.js';
import { languageOfPath } from '../src/languages/index.js';

export interface Baseline {
  mode: 'raw' | 'prepared';
  wallMs: number;
  /** The whole process's CPU during the run (the threads and the main thread that feeds them). */
  cpuMs: number;
  workers: WorkerStats[];
}

/** tree-sitter's parse alone of `files` on `workers` threads (each reads, hashes and parses; no symbols leave it). */
export async function parseBaseline(files: string[], workers: number, mode: 'raw' | 'prepared'): Promise<Baseline> {
  const pool = new ParsePool(workers);
  const tasks = files.map((absolute) => ({ absolute, language: languageOfPath(absolute)?.id })).filter((t) => t.language !== undefined);
  // tree-sitter's own time, warm: the threads started, grammars loaded and every file parsed once before the clock starts.
  await Promise.all(tasks.map((t) => pool.parse({ absolute: t.absolute, language: t.language!, parseOnly: mode })));
  const before = await pool.stats();
  const cpu = process.cpuUsage();
  const started = performance.now();
  await Promise.all(tasks.map((t) => pool.parse({ absolute: t.absolute, language: t.language!, parseOnly: mode })));
  const wallMs = performance.now() - started;
  const used = process.cpuUsage(cpu);
  const after = await pool.stats();
  await pool.close();
  return { mode, wallMs, cpuMs: (used.user + used.system) / 1000, workers: after.map((stats, i) => minus(stats, before[i])) };
}

/** The files an index holds, as absolute paths under root. */
export async function indexedFiles(reader: SymbolReader, root: string): Promise<string[]> {
  return (await reader.indexedFiles()).map((file) => path.join(root, file));
}

function minus(a: WorkerStats, b: WorkerStats | undefined): WorkerStats {
  if (!b) return a;
  return {
    files: a.files - b.files, read: a.read - b.read, prepare: a.prepare - b.prepare, parse: a.parse - b.parse, extract: a.extract - b.extract, serialize: a.serialize - b.serialize,
    cpuMs: a.cpuMs === undefined || b.cpuMs === undefined ? undefined : a.cpuMs - b.cpuMs, startCpuMs: 0,
  };
}

const ms = (n: number | undefined): string => (n === undefined ? 'n/a' : n >= 1000 ? `${(n / 1000).toFixed(2)} s` : `${n.toFixed(0)} ms`);
const sum = (stats: WorkerStats[], key: keyof WorkerStats): number => stats.reduce((total, s) => total + (s[key] ?? 0), 0);
const cpuOf = (stats: WorkerStats[]): number | undefined => (stats.every((s) => s.cpuMs !== undefined) ? sum(stats, 'cpuMs') : undefined);

/**
 * Rows [metric, value, note] that read top to bottom as the build runs: main-thread stages with wall and
 * the main thread's own CPU; the parser threads' steps (wall summed over threads: on idle cores this is
 * their CPU) with their measured CPU; then the parse-only baselines and the ratio the target is set in.
 */
export function profileRows(summary: BuildSummary, build: { wallMs: number; cpuMs: number; load: number[] }, baselines: Baseline[]): Array<[string, string, string]> {
  const p = summary.profile;
  const stage = (t: StageTime): string => `wall ${ms(t.wallMs)}, main CPU ${ms(t.cpuMs)}`;
  const threads = p.workers.length;
  const rows: Array<[string, string, string]> = [];
  rows.push(['whole cold build', `wall ${ms(build.wallMs)}, process CPU ${ms(build.cpuMs)}`, `${summary.filesParsed} files parsed, ${summary.symbols} symbols; load ${build.load.map((l) => l.toFixed(1)).join(' ')}`]);
  rows.push(['1 walk (main)', stage(p.walk), 'readdir, stat, .gitignore and filters']);
  rows.push(['2 diff + packages (main)', stage(p.diff), 'stored states, manifests, packages registered']);
  rows.push(['3 parse + write phase', stage(p.parseAndWrite), `${threads} parser threads and the main thread's batch writes, overlapping`]);
  const w = p.workers;
  rows.push(...threadRows(w, '3', 'blanked text'));
  rows.push(['3g batch writes (main)', stage(p.writes), `${p.writes.batches} transactions: symbols, symbol_bases`]);
  rows.push(['4 end of bulk load (main + a thread)', stage(p.finishLoad), 'main: names, symbol indexes, copying in; a thread beside it: sig_text, then name_text, name_initials (main CPU is the main thread\'s)']);
  rows.push(['5 prune + optimize (main)', stage(p.optimize), 'ANALYZE (bounded)']);
  for (const b of baselines) {
    const label = b.mode === 'raw' ? 'bodies NOT blanked' : 'bodies blanked, as extracted';
    rows.push([`baseline: parse alone, ${label}`, `wall ${ms(b.wallMs)}, process CPU ${ms(b.cpuMs)}`, `same ${b.workers.length} threads, same files, read + hash included`]);
    rows.push(...threadRows(b.workers, '  ', label).filter((r) => !/extraction|packed/.test(r[0])));
  }
  const prepared = baselines.find((b) => b.mode === 'prepared');
  if (prepared) rows.push(['build / parse alone (blanked)', `${(build.wallMs / prepared.wallMs).toFixed(1)}x wall, ${(build.cpuMs / prepared.cpuMs).toFixed(1)}x CPU`, 'target: 2x wall']);
  return rows;
}

/**
 * The threads' steps: wall summed over threads and files, and the threads' measured CPU shared out in
 * proportion (a thread waiting for a core counts in its wall time, not in its CPU time).
 */
function threadRows(w: WorkerStats[], prefix: string, parsed: string): Array<[string, string, string]> {
  const steps: Array<[keyof WorkerStats, string, string]> = [
    ['read', 'read + hash', `${sum(w, 'files')} files`],
    ['prepare', 'prepare: blank bodies', 'syntax/bodies.ts, languages/cpp/macros.ts'],
    ['parse', 'tree-sitter parse', parsed],
    ['extract', 'extraction walk from JS', 'src/syntax/extract.ts + languages/*.ts'],
    ['serialize', 'symbols packed as row values', 'ids, humps, JSON columns, base keys: what the writer binds (symbol-codec.ts)'],
  ];
  const start = w.every((s) => s.startCpuMs !== undefined) ? sum(w, 'startCpuMs') : 0;
  const cpuAll = cpuOf(w);
  // The steps share the CPU spent on files; the start-up is shown apart.
  const cpu = cpuAll === undefined ? undefined : cpuAll - start;
  const wall = steps.reduce((total, [key]) => total + sum(w, key), 0);
  const rows: Array<[string, string, string]> = steps.map(([key, label, note], i) => [
    `${prefix}${String.fromCharCode(97 + i)} ${label} (threads)`,
    `wall ${ms(sum(w, key))} summed${cpu !== undefined && wall > 0 ? `, ≈ CPU ${ms((cpu * sum(w, key)) / wall)}` : ''}`,
    note,
  ]);
  rows.push([`${prefix} threads' CPU`, ms(cpuAll), `${w.length} threads: ${w.map((s) => ms(s.cpuMs)).join(' + ')}${start ? `; of it ${ms(start)} start-up before the first file (module loading; compiling TypeScript under tsx)` : ''}`]);
  return rows;
}

export function loadAverage(): number[] {
  return os.loadavg();
}
