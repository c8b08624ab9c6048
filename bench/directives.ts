/**
 * tsx bench/directives.ts [--root DIR]: the kernel's headers of nothing but preprocessor lines (4,887 of them,
 * 425 MB, 4.0M #defines) read two ways, as C and as C++: by the reader that takes them without tree-sitter
 * (src/languages/cpp/defines.ts) and by the parse. Prints how many the reader takes, any file whose symbols differ
 * (exit 1 then), and the time of each way on one thread. Without --root, the kernel tree in the bench cache.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { corpusPath, linuxSource, requireCorpora } from '../test/corpora.js';
import { listFiles } from '../test/syntax/recall.js';
import { languageById } from '../src/languages/index.js';
import { preprocessorPieces } from '../src/languages/cpp/large-headers.js';
import { extractSymbols } from '../src/syntax/index.js';
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

const headers = listFiles(root, ['.h']).sort().filter((file) => preprocessorPieces(readFileSync(path.join(root, file), 'utf8'), Number.MAX_SAFE_INTEGER) !== undefined);
const rows: string[][] = [];
let differing = 0;
for (const id of ['c', 'cpp'] as LanguageId[]) {
  const language = languageById(id);
  if (!language?.syntax.readWithoutParse || !language.syntax.prepare) throw new Error(`${id} reads no header without parsing`);
  const parsing = { id, syntax: { ...language.syntax, readWithoutParse: undefined } };
  let taken = 0;
  let bytes = 0;
  let takenBytes = 0;
  let symbols = 0;
  let readMs = 0;
  let parseMs = 0;
  for (const file of headers) {
    const source = readFileSync(path.join(root, file), 'utf8');
    bytes += source.length;
    let clock = performance.now();
    const read = language.syntax.readWithoutParse(language.syntax.prepare(source), source, id);
    readMs += performance.now() - clock;
    if (!read) continue;
    taken++;
    takenBytes += source.length;
    symbols += read.length;
    clock = performance.now();
    const parsed = await extractSymbols(parsing, source);
    parseMs += performance.now() - clock;
    if (JSON.stringify(read) !== JSON.stringify(parsed)) {
      differing++;
      const at = read.findIndex((symbol, i) => JSON.stringify(symbol) !== JSON.stringify(parsed[i]));
      console.log(`DIFFERS as ${id}: ${file}: ${read.length} read, ${parsed.length} parsed; first ${JSON.stringify(read[at])} against ${JSON.stringify(parsed[at])}`);
    }
  }
  rows.push([id, `${taken} of ${headers.length}`, `${(takenBytes / 1e6).toFixed(1)} of ${(bytes / 1e6).toFixed(1)} MB`, String(symbols), `${(readMs / 1000).toFixed(1)} s`, `${(parseMs / 1000).toFixed(1)} s`]);
}
console.log(`Headers of nothing but preprocessor lines under ${root}, read without tree-sitter and parsed (one thread):`);
console.log(markdownTable(['as', 'headers read', 'bytes read', 'symbols (each as the parse gives it)', 'prepare + read', 'prepare + parse + walk'], rows));
console.log(differing === 0 ? 'every header read gives the symbols the parse gives' : `${differing} headers differ`);
process.exit(differing === 0 ? 0 : 1);
