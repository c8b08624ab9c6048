/**
 * Cold build only, next to universal-ctags in the same minute: wall and CPU time (process.cpuUsage
 * covers the parser threads, which share the process). ctags' CPU comes from its child rusage.
 * With --stages, each build's stage-by-stage profile and tree-sitter's parse alone of the same files
 * (bench/build-profile.ts).
 * Usage: tsx bench/cold.ts [NAME_FILTER] [--root DIR] [--workers N] [--runs N] [--stages [--no-baseline]] [--no-ctags] [--threads] [--sched] [--json FILE]
 * (--root DIR: that tree alone, read as C and C++, instead of the corpora: a slice of the kernel, say; --sched: each
 * thread's time during the build on a core, waiting for one, and blocked, schedSampler below).
 */
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { validateConfig } from '../src/config.js';
import { SymbolIndex } from '../src/index/symbol-index.js';
import { indexedFiles, parseBaseline, profileRows } from './build-profile.js';

const REPO = path.resolve(import.meta.dirname, '..');
const CORPORA = [
  { name: 'googletest', root: '/usr/src/googletest', languages: 'C,C++,Python' },
  { name: 'rxjs', root: path.join(REPO, 'node_modules/rxjs/src'), languages: 'TypeScript,JavaScript' },
  { name: 'flask', root: '/usr/lib/python3/dist-packages/flask', languages: 'Python' },
  { name: 'gostd', root: '/usr/share/go-1.19/src', languages: 'Go,C,C++,Python,JavaScript' },
];
const argv = process.argv.slice(2);
const option = (name: string): number | undefined => {
  const i = argv.indexOf(name);
  return i >= 0 ? Number(argv[i + 1]) : undefined;
};
const filter = argv.find((a, i) => !a.startsWith('--') && !argv[i - 1]?.startsWith('--'));
/** --json FILE: the last run's figures (the kernel bench runs the build through this script, in a process of its own). */
const jsonOut = argv.includes('--json') ? argv[argv.indexOf('--json') + 1] : undefined;
const rootOption = argv.includes('--root') ? path.resolve(argv[argv.indexOf('--root') + 1]) : undefined;
const corpora = rootOption ? [{ name: path.basename(rootOption), root: rootOption, languages: 'C,C++' }] : CORPORA.filter((c) => !filter || c.name.includes(filter));
const workers = option('--workers') ?? os.availableParallelism();
const runs = option('--runs') ?? 1;

function ctags(root: string, languages: string): { wall: number; cpu: number; tags: number } {
  const out = path.join(mkdtempSync(path.join(os.tmpdir(), 'plumb-ctags-')), 'tags');
  // Child rusage through bash's `times`: user and system of the waited-for children.
  const started = performance.now();
  const report = execFileSync('bash', ['-c', `ctags -R --languages=${languages} --exclude=node_modules --exclude=.git -f ${out} ${root} >/dev/null 2>&1; times`], { encoding: 'utf8' });
  const wall = performance.now() - started;
  const child = report.trim().split('\n')[1].split(/\s+/).map((t) => { const m = /(\d+)m([\d.]+)s/.exec(t); return m ? Number(m[1]) * 60 + Number(m[2]) : 0; });
  // Counted by grep: a large tree's tags file (the kernel's: 1.2 GB) is longer than a JavaScript string may be.
  const tags = Number(execFileSync('grep', ['-c', '-v', '^!_', out], { encoding: 'utf8' }).trim());
  rmSync(path.dirname(out), { recursive: true, force: true });
  return { wall, cpu: (child[0] + child[1]) * 1000, tags };
}

for (const corpus of corpora) {
  for (let run = 0; run < runs; run++) {
    const tags = argv.includes('--no-ctags') ? { wall: NaN, cpu: NaN, tags: 0 } : ctags(corpus.root, corpus.languages);
    const cacheDir = mkdtempSync(path.join(os.tmpdir(), 'plumb-cold-'));
    const sched = argv.includes('--sched') ? schedSampler() : undefined;
    const cpu = process.cpuUsage();
    const started = performance.now();
    const index = await SymbolIndex.open({ root: corpus.root, config: validateConfig({ cacheDir, logLevel: 'silent', index: { watch: false, workers } }), cacheDir });
    const summary = await index.build();
    const wall = performance.now() - started;
    const used = process.cpuUsage(cpu);
    const load = os.loadavg();
    if (argv.includes('--threads')) console.log(threadTable());
    if (sched) console.log(sched.stop());
    const files = argv.includes('--stages') ? await indexedFiles(index.reader, corpus.root) : [];
    // The process's peak so far: the build's own on the first run (ctags runs in a child, the baselines after).
    const peakRssKb = process.resourceUsage().maxRSS;
    await index.close();
    // The index as a build leaves it (closed: the write-ahead log folded in).
    const dbBytes = ['', '-wal'].reduce((total, suffix) => total + (existsSync(index.databaseFile + suffix) ? statSync(index.databaseFile + suffix).size : 0), 0);
    rmSync(cacheDir, { recursive: true, force: true });
    console.log(`${corpus.name}: ${summary.filesTotal} files ${summary.symbols} symbols | plumb wall ${(wall / 1000).toFixed(2)} s cpu ${((used.user + used.system) / 1e6).toFixed(2)} s | ctags wall ${(tags.wall / 1000).toFixed(2)} s cpu ${(tags.cpu / 1000).toFixed(2)} s (${tags.tags} tags) | ${(wall / tags.wall).toFixed(2)}x wall, load ${load[0].toFixed(1)}`);
    console.log(`  peak RSS ${(peakRssKb / 1024).toFixed(0)} MB | index ${(dbBytes / 1e6).toFixed(1)} MB, ${(dbBytes / Math.max(1, summary.symbols)).toFixed(0)} bytes per symbol`);
    let rows: Array<[string, string, string]> = [];
    if (argv.includes('--stages')) {
      const baselines = argv.includes('--no-baseline') ? [] : [await parseBaseline(files, workers, 'prepared'), await parseBaseline(files, workers, 'raw')];
      rows = profileRows(summary, { wallMs: wall, cpuMs: (used.user + used.system) / 1000, load }, baselines);
      const width = Math.max(...rows.map((r) => r[0].length));
      const valueWidth = Math.max(...rows.map((r) => r[1].length));
      for (const [metric, value, note] of rows) console.log(`  ${metric.padEnd(width)} | ${value.padEnd(valueWidth)} | ${note}`);
    }
    if (jsonOut) {
      writeFileSync(jsonOut, JSON.stringify({
        corpus: corpus.name, root: corpus.root, files: summary.filesTotal, filesParsed: summary.filesParsed, symbols: summary.symbols,
        wallMs: wall, cpuMs: (used.user + used.system) / 1000, peakRssKb, dbBytes, load, ctags: tags, stages: rows,
      }));
    }
  }
}

/** CPU per thread of this process by thread name (Linux): parser threads, V8's GC helpers, libuv's pool. */
function threadTable(): string {
  const byName = new Map<string, { threads: number; ms: number }>();
  for (const task of readdirSync('/proc/self/task')) {
    try {
      const stat = readFileSync(`/proc/self/task/${task}/stat`, 'utf8');
      const name = `${stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'))}${task === String(process.pid) ? ' (main)' : ` ${task}`}`;
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      const entry = byName.get(name) ?? { threads: 0, ms: 0 };
      entry.threads++;
      entry.ms += (Number(fields[11]) + Number(fields[12])) * 10;
      byName.set(name, entry);
    } catch {
      // The thread ended meanwhile.
    }
  }
  return [...byName].sort((a, b) => b[1].ms - a[1].ms).map(([name, e]) => `  thread ${name} x${e.threads}: ${e.ms} ms`).join('\n');
}

/**
 * --sched (Linux): where each thread's wall time went during the build: on a core, runnable but waiting for one (the
 * machine's other work, or more runnable threads than cores: V8's GC helpers beside the parser threads and the main
 * thread), or blocked (a thread with nothing to do: a parser thread waiting for files, the main thread for results; or
 * waiting on I/O). Read from /proc/<pid>/task/<tid>/schedstat every 0.25 s by a child process: the main thread's
 * synchronous writes would hold a timer of its own. A thread is shown from its first sample to its last.
 */
function schedSampler(): { stop: () => string } {
  const out = path.join(mkdtempSync(path.join(os.tmpdir(), 'plumb-sched-')), 'samples');
  const script = `const fs = require('fs'); const [pid, out] = process.argv.slice(1); const t0 = Date.now();
    setInterval(() => { let tasks; try { tasks = fs.readdirSync('/proc/' + pid + '/task'); } catch { process.exit(0); }
      const row = [Date.now() - t0];
      for (const tid of tasks) { try { const [run, wait] = fs.readFileSync('/proc/' + pid + '/task/' + tid + '/schedstat', 'utf8').split(' '); row.push([Number(tid), Number(run), Number(wait)]); } catch {} }
      fs.appendFileSync(out, JSON.stringify(row) + '\\n'); }, 250);`;
  const child = spawn(process.execPath, ['-e', script, String(process.pid), out], { stdio: 'ignore' });
  return {
    stop: () => {
      child.kill();
      let lines: string[] = [];
      try {
        lines = readFileSync(out, 'utf8').trim().split('\n').filter((line) => line.length > 0);
      } catch {
        return '  --sched: no samples (not Linux?)';
      } finally {
        rmSync(path.dirname(out), { recursive: true, force: true });
      }
      /** Per thread: first and last sample (ms since the start, run ns, wait ns). */
      const seen = new Map<number, { first: [number, number, number]; last: [number, number, number] }>();
      for (const line of lines) {
        const [ms, ...tasks] = JSON.parse(line) as [number, ...Array<[number, number, number]>];
        for (const [tid, run, wait] of tasks) {
          const entry = seen.get(tid);
          if (entry) entry.last = [ms, run, wait];
          else seen.set(tid, { first: [ms, run, wait], last: [ms, run, wait] });
        }
      }
      const rows = [...seen].map(([tid, { first, last }]) => {
        const wall = (last[0] - first[0]) / 1000;
        const cpu = (last[1] - first[1]) / 1e9;
        const wait = (last[2] - first[2]) / 1e9;
        return { tid, from: first[0] / 1000, wall, cpu, wait, blocked: Math.max(0, wall - cpu - wait) };
      }).filter((row) => row.cpu >= 0.5).sort((a, b) => a.from - b.from || b.cpu - a.cpu);
      const total = rows.reduce((sum, row) => ({ cpu: sum.cpu + row.cpu, wait: sum.wait + row.wait }), { cpu: 0, wait: 0 });
      return [
        ...rows.map((row) => `  thread ${row.tid === process.pid ? 'main' : row.tid} from ${row.from.toFixed(1)} s for ${row.wall.toFixed(1)} s: on a core ${row.cpu.toFixed(1)} s, waiting for one ${row.wait.toFixed(1)} s, blocked ${row.blocked.toFixed(1)} s`),
        `  threads above: on a core ${total.cpu.toFixed(1)} s, waiting for one ${total.wait.toFixed(1)} s`,
      ].join('\n');
    },
  };
}
