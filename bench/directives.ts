/**
 * tsx bench/directives.ts [--root DIR]: the kernel's headers of nothing but preprocessor lines (4,887 of them,
 * 425 MB, 4.0M #defines) read two ways, as C and as C++: by the reader that takes them without tree-sitter
 * (src/languages/cpp/defines.ts) and by the parse. Prints how many the reader takes, any file whose symbols differ
 * (exit 1 then), and the time of each way on one thread. Without --root, the kernel tree in the bench cache.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { corpusPath, linuxSource, requireCorpora } from '../test/corpora.js';
import { compareReadAndParse, onlyDirectives } from '../test/syntax/directives-compare.js';
import { listFiles } from '../test/syntax/recall.js';
import type { LanguageId } from '../src/syntax/types.js';
import { BENCH_CACHE } from './kernel-names.js';
import { markdownTable, option } from './measure.js';

let root = option('--root');
if (!root) {
  const missing: string[] = [];
  if (!requireCorpora({ fail: (message: string) => missing.push(message) }, 'linux-source', 'xz')) {
    console.log(`bench/directives.ts: skipped (${missing.join('; ')})`);
    process.exit(0);
  }
  root = linuxSource([], path.join(BENCH_CACHE, path.basename(corpusPath('linux-source')).replace(/\.tar\.xz$/, '')));
}
if (!existsSync(root)) {
  console.log(`bench/directives.ts: skipped (no kernel tree at ${root})`);
  process.exit(0);
}

const headers = listFiles(root, ['.h']).sort().filter((file) => onlyDirectives(root, file));
const rows: string[][] = [];
let differing = 0;
for (const id of ['c', 'cpp'] as LanguageId[]) {
  const result = await compareReadAndParse(root, headers, id);
  for (const difference of result.differing) console.log(`DIFFERS as ${id}: ${difference}`);
  differing += result.differing.length;
  rows.push([id, `${result.taken} of ${headers.length}`, `${(result.takenBytes / 1e6).toFixed(1)} of ${(result.bytes / 1e6).toFixed(1)} MB`, String(result.symbols), `${(result.readMs / 1000).toFixed(1)} s`, `${(result.parseMs / 1000).toFixed(1)} s`]);
}
console.log(`Headers of nothing but preprocessor lines under ${root}, read without tree-sitter and parsed (one thread):`);
console.log(markdownTable(['as', 'headers read', 'bytes read', 'symbols (each as the parse gives it)', 'prepare + read', 'prepare + parse + walk'], rows));
console.log(differing === 0 ? 'every header read gives the symbols the parse gives' : `${differing} headers differ`);
process.exit(differing === 0 ? 0 : 1);
