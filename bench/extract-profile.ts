/**
 * Single-threaded extraction over a tree, for `node --cpu-prof`: parse and extract every file in
 * one thread, report wall and CPU time split into parse and extract.
 * Usage: tsx bench/extract-profile.ts ROOT [--out symbols.json]
 */
import { readFileSync, readdirSync, writeFileSync, type Dirent } from 'node:fs';
import path from 'node:path';
import { extractSymbols } from '../src/syntax/index.js';
import { languageById, languageOfPath } from '../src/languages/index.js';
import type { ExtractedSymbol } from '../src/syntax/types.js';

function files(dir: string, out: string[]): string[] {
  let entries: Dirent[];
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch {
    return out;
  }
  for (const entry of entries) {
    if (entry.name.startsWith('.') || entry.name === 'node_modules') continue;
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) files(full, out);
    else if (entry.isFile() && languageOfPath(full)) out.push(full);
  }
  return out;
}

const root = process.argv[2];
const outIndex = process.argv.indexOf('--out');
const list = files(root, []).sort();
const all: Record<string, ExtractedSymbol[]> = {};
const cpu = process.cpuUsage();
const started = performance.now();
let symbols = 0;
for (const file of list) {
  const buffer = readFileSync(file);
  if (buffer.length > 4 * 1024 * 1024 || buffer.subarray(0, 8192).includes(0)) continue;
  const result = await extractSymbols(languageOfPath(file) ?? languageById('c'), buffer.toString('utf8'));
  symbols += result.length;
  if (outIndex > 0) all[path.relative(root, file)] = result;
}
const used = process.cpuUsage(cpu);
console.log(`${list.length} files, ${symbols} symbols, wall ${(performance.now() - started).toFixed(0)} ms, cpu ${((used.user + used.system) / 1000).toFixed(0)} ms`);
if (outIndex > 0) writeFileSync(process.argv[outIndex + 1], JSON.stringify(all));
