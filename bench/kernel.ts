/**
 * tsx bench/kernel.ts [--skip-build] [--skip-recall] [--root DIR] [--out FILE]: the whole Linux tree (Debian's
 * linux-source-6.1, extracted once into $PLUMB_BENCH_CACHE/linux-source-6.1, or the tree at DIR):
 *   1. plumb's definitions against universal-ctags', per ctags kind, every .c and .h read as C (a .h the index reads
 *      as C++, beside a C++ source of its name or of C++ text, as C++) (test/syntax/ctags-compare.ts compareCTree, the
 *      comparison the C recall tests make on slices of the same tree);
 *      the files below 95% and below 100% counted, each with what it misses written to FILE
 *      (default $PLUMB_BENCH_CACHE/kernel-recall.txt);
 *   2. the index's cold build of the tree (bench/cold.ts in a process of its own, so its peak RSS is the build's),
 *      next to `ctags -R` on it: wall, CPU, peak RSS, the index's bytes per symbol, the build's stages.
 * The build runs first, on a machine this bench has not loaded yet; the load average is printed with it.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { corpusPath, linuxSource, requireCorpora } from '../test/corpora.js';
import { compareCTree, describeComparison, describeFiles, describeKinds, filesBelow } from '../test/syntax/ctags-compare.js';
import { listFiles } from '../test/syntax/recall.js';
import { markdownTable } from './measure.js';

const argv = process.argv.slice(2);
const BENCH_CACHE = process.env.PLUMB_BENCH_CACHE ?? path.join(os.tmpdir(), 'plumb-bench');
const out = argv.includes('--out') ? argv[argv.indexOf('--out') + 1] : path.join(BENCH_CACHE, 'kernel-recall.txt');
const CORES = os.availableParallelism();

const missing: string[] = [];
if (!requireCorpora({ fail: (message: string) => missing.push(message) }, 'linux-source', 'xz', 'ctags')) {
  console.log(`bench/kernel.ts: skipped (${missing.join('; ')})`);
  process.exit(0);
}

const ms = (n: number): string => (n >= 1000 ? `${(n / 1000).toFixed(1)} s` : `${n.toFixed(0)} ms`);
const count = (n: number): string => new Intl.NumberFormat('en-US').format(n);
const rows: string[][] = [];

const extractStart = performance.now();
const version = path.basename(corpusPath('linux-source')).replace(/\.tar\.xz$/, '');
const root = argv.includes('--root') ? path.resolve(argv[argv.indexOf('--root') + 1]) : linuxSource([], path.join(BENCH_CACHE, version));
console.error(`kernel tree at ${root} (${ms(performance.now() - extractStart)} to make sure it is there)`);
const load = (): string => os.loadavg().map((n) => n.toFixed(1)).join(' ');

if (!argv.includes('--skip-build')) {
  const json = path.join(mkdtempSync(path.join(os.tmpdir(), 'plumb-bench-kernel-')), 'build.json');
  try {
    const loadBefore = load();
    console.error(`cold build of ${root} (load ${loadBefore})...`);
    execFileSync(process.execPath, ['--import', 'tsx', path.join(import.meta.dirname, 'cold.ts'), '--root', root, '--workers', String(CORES), '--stages', '--no-baseline', '--no-ctags', '--json', json], { stdio: ['ignore', 'ignore', 'inherit'] });
    const build = JSON.parse(readFileSync(json, 'utf8')) as { files: number; filesParsed: number; symbols: number; wallMs: number; cpuMs: number; peakRssKb: number; dbBytes: number; load: number[]; stages: string[][] };
    const loadAfterBuild = load();
    const tags = path.join(path.dirname(json), 'tags');
    const ctagsStart = performance.now();
    const times = execFileSync('bash', ['-c', `ctags -R --languages=C,C++ -f ${tags} ${root} >/dev/null 2>&1; times`], { encoding: 'utf8' });
    const ctagsMs = performance.now() - ctagsStart;
    const child = times.trim().split('\n')[1].split(/\s+/).map((t) => { const m = /(\d+)m([\d.]+)s/.exec(t); return m ? Number(m[1]) * 60 + Number(m[2]) : 0; });
    const ctagsTags = Number(execFileSync('grep', ['-c', '-v', '^!_', tags], { encoding: 'utf8' }).trim());
    rows.push(['build', 'files / symbols', `${count(build.files)} / ${count(build.symbols)}`, `${count(build.filesParsed)} parsed; ctags -R: ${count(ctagsTags)} tags`]);
    rows.push(['build', 'cold build: plumb vs ctags -R (wall)', `${ms(build.wallMs)} vs ${ms(ctagsMs)}`, `${(build.wallMs / ctagsMs).toFixed(2)}x (target 2.5x); ${CORES} cores; load ${loadBefore} before, ${loadAfterBuild} after the build`]);
    rows.push(['build', 'CPU: plumb vs ctags -R', `${ms(build.cpuMs)} vs ${ms((child[0] + child[1]) * 1000)}`, 'plumb: the whole process, its parser threads included']);
    rows.push(['build', 'peak RSS', `${(build.peakRssKb / 1024).toFixed(0)} MB`, 'the build\'s process (target under 1 GB)']);
    rows.push(['build', 'index size', `${(build.dbBytes / 1e6).toFixed(0)} MB`, `${(build.dbBytes / Math.max(1, build.symbols)).toFixed(0)} bytes per symbol`]);
    for (const [metric, value, note] of build.stages) rows.push(['stage', metric.trim(), value, note]);
    // Said at once: the recall comparison after it takes a while.
    console.error(markdownTable(['section', 'metric', 'value', 'note'], rows));
  } finally {
    rmSync(path.dirname(json), { recursive: true, force: true });
  }
}

let result: Awaited<ReturnType<typeof compareCTree>> | undefined;
if (!argv.includes('--skip-recall')) {
  const files = listFiles(root, ['.c', '.h']);
  // A header the index reads as C++ (a C++ source of its name beside it, scripts/kconfig/qconf.h beside qconf.cc; or
  // text that is unmistakably C++, scripts/gcc-plugins/*.h: src/languages/cpp/header-language.ts) is compared as C++,
  // ctags reading it as C++ too.
  const started = performance.now();
  result = await compareCTree(root, files, (_file, done) => {
    if (done % 5000 === 0) console.error(`  ${count(done)} files compared`);
  });
  const cppHeaders = result.cppHeaders;
  const wall = performance.now() - started;
  console.error(describeComparison(result));
  for (const [kind, recall] of result.byKind) {
    if (recall.expected) rows.push(['recall', kind, `${((recall.found / recall.expected) * 100).toFixed(2)}%`, `${count(recall.found)} of ${count(recall.expected)}`]);
  }
  rows.push(['recall', 'all kinds', `${((result.found / result.expected) * 100).toFixed(2)}%`, `${count(result.found)} of ${count(result.expected)} ctags tags, ${count(files.length)} files (${count(cppHeaders.length)} headers read as C++, as the index reads them)`]);
  rows.push(['recall', 'files below 95% / below 100%', `${count(filesBelow(result, 0.95).length)} / ${count(filesBelow(result, 1).length)}`, `each with its misses in ${out}`]);
  rows.push(['recall', 'set aside as ctags misreadings', count([...result.setAside.values()].reduce((a, b) => a + b, 0)), [...result.setAside].map(([name, n]) => `${name} ${count(n)}`).join(', ')]);
  rows.push(['recall', 'extraction (one thread) / whole comparison', `${ms(result.extractMs)} / ${ms(wall)}`, `${count(result.symbols)} symbols`]);
  mkdirSync(path.dirname(out), { recursive: true });
  writeFileSync(out, `${describeComparison(result)}\n\n${describeKinds(result)}\n\nfiles below 100%:\n${describeFiles(result, 1000)}\n`);
}

console.log(`\n## Linux ${version}: recall against universal-ctags, and the cold build\n`);
console.log(markdownTable(['section', 'metric', 'value', 'note'], rows));
if (result) console.log(`\n${describeKinds(result)}`);
console.log(`\nload average at the end: ${load()}`);
