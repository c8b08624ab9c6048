/**
 * tsx bench/kernel.ts [--skip-build] [--out FILE]: the whole Linux tree (Debian's linux-source-6.1, extracted
 * once into $PLUMB_BENCH_CACHE/linux-source-6.1):
 *   1. plumb's definitions against universal-ctags', per ctags kind, every .c and .h read as C
 *      (test/syntax/ctags-compare.ts, the comparison the C recall tests make on slices of the same tree);
 *      the files below 95% and below 100% counted, each with what it misses written to FILE
 *      (default $PLUMB_BENCH_CACHE/kernel-recall.txt);
 *   2. the index's cold build of the tree, next to `ctags -R` on it.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { validateConfig } from '../src/config.js';
import { SymbolIndex } from '../src/index/symbol-index.js';
import { languageById } from '../src/languages/index.js';
import { corpusPath, linuxSource, requireCorpora } from '../test/corpora.js';
import { compareWithCtags, describeComparison, describeFiles, describeKinds, filesBelow } from '../test/syntax/ctags-compare.js';
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
const root = linuxSource([], path.join(BENCH_CACHE, version));
console.error(`kernel tree at ${root} (${ms(performance.now() - extractStart)} to make sure it is there)`);

const files = listFiles(root, ['.c', '.h']);
const c = languageById('c');
const started = performance.now();
const result = await compareWithCtags({
  root,
  files,
  ctagsArgs: ['--language-force=C'],
  languageOf: () => c,
  onFile: (_file, done) => {
    if (done % 5000 === 0) console.error(`  ${count(done)} of ${count(files.length)} files compared`);
  },
});
const wall = performance.now() - started;
console.error(describeComparison(result));
for (const [kind, recall] of result.byKind) {
  if (recall.expected) rows.push(['recall', kind, `${((recall.found / recall.expected) * 100).toFixed(2)}%`, `${count(recall.found)} of ${count(recall.expected)}`]);
}
rows.push(['recall', 'all kinds', `${((result.found / result.expected) * 100).toFixed(2)}%`, `${count(result.found)} of ${count(result.expected)} ctags tags, ${count(files.length)} files`]);
rows.push(['recall', 'files below 95% / below 100%', `${count(filesBelow(result, 0.95).length)} / ${count(filesBelow(result, 1).length)}`, `each with its misses in ${out}`]);
rows.push(['recall', 'set aside as ctags misreadings', count([...result.setAside.values()].reduce((a, b) => a + b, 0)), [...result.setAside].map(([name, n]) => `${name} ${count(n)}`).join(', ')]);
rows.push(['recall', 'extraction (one thread) / whole comparison', `${ms(result.extractMs)} / ${ms(wall)}`, `${count(result.symbols)} symbols`]);
writeFileSync(out, `${describeComparison(result)}\n\n${describeKinds(result)}\n\nfiles below 100%:\n${describeFiles(result, 1000)}\n`);

if (!argv.includes('--skip-build')) {
  const cacheDir = mkdtempSync(path.join(os.tmpdir(), 'plumb-bench-kernel-'));
  try {
    const buildStart = performance.now();
    const cpu = process.cpuUsage();
    const index = await SymbolIndex.open({ root, config: validateConfig({ cacheDir, logLevel: 'silent', index: { watch: false, workers: CORES } }), cacheDir });
    const summary = await index.build();
    const used = process.cpuUsage(cpu);
    const buildMs = performance.now() - buildStart;
    await index.close();
    const ctagsStart = performance.now();
    const tags = path.join(cacheDir, 'tags');
    execFileSync('ctags', ['-R', '--languages=C,C++', '-f', tags, root], { stdio: 'ignore' });
    const ctagsMs = performance.now() - ctagsStart;
    rows.push(['build', 'files / symbols', `${count(summary.filesTotal)} / ${count(summary.symbols)}`, `${count(summary.filesParsed)} parsed`]);
    rows.push(['build', 'cold build: plumb vs ctags -R', `${ms(buildMs)} vs ${ms(ctagsMs)}`, `${CORES} cores; plumb CPU ${ms((used.user + used.system) / 1000)}`]);
  } finally {
    rmSync(cacheDir, { recursive: true, force: true });
  }
}

console.log(`\n## Linux ${version}: recall against universal-ctags, and the cold build\n`);
console.log(markdownTable(['section', 'metric', 'value', 'note'], rows));
console.log(`\n${describeKinds(result)}`);
