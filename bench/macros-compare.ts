/**
 * Extracts every C/C++ file under the given roots and writes one line per file (its path, a hash of
 * the macro-blanked text and the symbols as JSON), so two versions of languages/cpp/macros.ts / syntax/bodies.ts can be
 * compared byte for byte: `tsx bench/macros-compare.ts OUT ROOT...` then `cmp` the two OUT files.
 */
import { createHash } from 'node:crypto';
import { readFileSync, readdirSync, writeFileSync, type Dirent } from 'node:fs';
import path from 'node:path';
import { extractSymbols } from '../src/syntax/index.js';
import { languageOfPath } from '../src/languages/index.js';
import { blankCppMacros } from '../src/languages/cpp/macros.js';

function files(dir: string, out: string[]): string[] {
  let entries: Dirent[];
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch {
    return out;
  }
  for (const entry of entries) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) files(full, out);
    else if (entry.isFile() && ['c', 'cpp'].includes(languageOfPath(full)?.id ?? '')) out.push(full);
  }
  return out;
}

const [outFile, ...roots] = process.argv.slice(2);
const list = roots.flatMap((root) => files(root, [])).sort();
const lines: string[] = [];
const hashes: string[] = [];
let symbols = 0;
for (const file of list) {
  const buffer = readFileSync(file);
  if (buffer.length > 4 * 1024 * 1024 || buffer.subarray(0, 8192).includes(0)) continue;
  const source = buffer.toString('utf8');
  const result = await extractSymbols(languageOfPath(file)!, source);
  symbols += result.length;
  const blanked = createHash('sha1').update(blankCppMacros(source)).digest('hex');
  lines.push(JSON.stringify({ file, symbols: result }));
  hashes.push(`${file} ${blanked}`);
}
writeFileSync(outFile, lines.join('\n') + '\n');
writeFileSync(`${outFile}.blanked`, hashes.join('\n') + '\n');
console.log(`${lines.length} files, ${symbols} symbols -> ${outFile}`);
