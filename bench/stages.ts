/**
 * A cold build taken apart, each stage alone on the main thread, measured in CPU time (which other
 * people's work on shared cores changes far less than wall time): the walk, read + hash, the prepare
 * step (bodies blanked), tree-sitter's parse, the extraction walk, the message to the main thread
 * (JSON text both ways), the store's batch writes and the end of the bulk load.
 * Usage: tsx bench/stages.ts ROOT [--files N]
 */
import { readFileSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { contentHash } from '../src/index/ids.js';
import { storedPath, walkRoots, RootFilter } from '../src/index/walker.js';
import { SqliteSymbolStore } from '../src/index/sqlite/store.js';
import type { FileUpdate } from '../src/index/store.js';
import { languageById } from '../src/languages/index.js';
import { extractFromTree } from '../src/syntax/extract.js';
import { loadParser } from '../src/syntax/grammars.js';
import { extractSymbols } from '../src/syntax/index.js';
import type { ExtractedSymbol, LanguageId } from '../src/syntax/types.js';

const root = path.resolve(process.argv[2] ?? '/usr/share/go-1.19/src');
const argv = process.argv.slice(3);
const limit = argv.includes('--files') ? Number(argv[argv.indexOf('--files') + 1]) : Infinity;

const cpuNow = (): number => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};
const rows: Array<[string, number, number, string]> = [];
async function stage<T>(name: string, work: () => Promise<T> | T, note = ''): Promise<T> {
  const cpu = cpuNow();
  const started = performance.now();
  const result = await work();
  rows.push([name, performance.now() - started, cpuNow() - cpu, note]);
  return result;
}

const filter = new RootFilter({ path: root, external: false }, { include: [], exclude: [], skip: [] });
const walk = await stage('walk (readdir, stat, filters)', () => walkRoots([filter]));
const files = walk.files.slice(0, limit);

// Warm the grammars so no stage pays for loading them.
for (const id of new Set(files.map((f) => f.language))) await loadParser(languageById(id)!.syntax.grammar);

const contents = await stage('read + hash', () => files.map((f) => {
  const buffer = readFileSync(f.absolute);
  contentHash(buffer);
  return buffer;
}));
const texts = contents.map((b) => (b.length > 4 * 1024 * 1024 || b.subarray(0, 8192).includes(0) ? '' : b.toString('utf8')));
let blankedChars = 0;
let totalChars = 0;
const prepared = await stage('prepare (blank bodies, macros)', () => texts.map((text, i) => {
  const spec = languageById(files[i].language)!.syntax;
  const out = spec.prepare ? spec.prepare(text) : text;
  totalChars += text.length;
  for (let c = 0; c < out.length; c++) if (out.charCodeAt(c) === 32 && text.charCodeAt(c) !== 32) blankedChars++;
  return out;
}));
const parsers = new Map<LanguageId, Awaited<ReturnType<typeof loadParser>>>();
for (const f of files) if (!parsers.has(f.language)) parsers.set(f.language, await loadParser(languageById(f.language)!.syntax.grammar));
await stage('tree-sitter parse, bodies NOT blanked', () => texts.forEach((text, i) => parsers.get(files[i].language)!.parse(text)?.delete()));
const trees = await stage('tree-sitter parse, as extracted (blanked)', () => prepared.map((text, i) => parsers.get(files[i].language)!.parse(text)));
const extracted = await stage('extraction walk over the tree (JS)', () => trees.map((tree, i) => {
  if (!tree) return [];
  const language = languageById(files[i].language)!;
  const symbols = extractFromTree(tree, language.syntax, language.id as LanguageId, prepared[i], texts[i]);
  tree.delete();
  return symbols;
}));
const symbolCount = extracted.reduce((n, s) => n + s.length, 0);
await stage('extractSymbols() whole (prepare+parse+walk)', async () => {
  for (let i = 0; i < texts.length; i++) await extractSymbols(languageById(files[i].language)!, texts[i]);
});
const json = await stage('JSON.stringify (worker side)', () => extracted.map((s) => JSON.stringify(s)));
await stage('JSON.parse (main side)', () => json.map((s) => JSON.parse(s) as ExtractedSymbol[]));
await stage('structured clone of the same objects', () => extracted.map((s) => structuredClone(s)));

const cacheDir = mkdtempSync(path.join(os.tmpdir(), 'plumb-stages-'));
const store = SqliteSymbolStore.open({ file: path.join(cacheDir, 'index.sqlite') });
const updates: FileUpdate[] = files.map((f, i) => ({
  file: storedPath(f.root, f.absolute), size: f.size, mtimeMs: f.mtimeMs, ctimeMs: f.ctimeMs, ino: f.ino, hash: 'h', language: f.language,
  package: { name: '', path: '.', manifest: null, external: false }, external: false, module: null,
  symbols: extracted[i].filter((s) => s.name !== '' && !s.name.includes('\n')),
}));
await store.registerPackages([{ name: '', path: '.', manifest: null, external: false }]);
await store.bulkLoad(true);
await stage('store.write batches (symbols, names, name_text, bases)', async () => {
  for (let i = 0; i < updates.length; i += 200) await store.write(updates.slice(i, i + 200), []);
}, 'batches of 200 files');
await stage('end of bulk load (symbols_sid, sig_text, FTS optimize)', () => store.bulkLoad(false));
await stage('optimize (ANALYZE)', () => store.optimize());
await store.close();
rmSync(cacheDir, { recursive: true, force: true });

const width = Math.max(...rows.map((r) => r[0].length));
console.log(`${root}: ${files.length} files, ${symbolCount} symbols, ${(totalChars / 1e6).toFixed(1)} M chars (${(100 * blankedChars / Math.max(1, totalChars)).toFixed(0)}% blanked); one thread; load ${os.loadavg().map((l) => l.toFixed(1)).join(' ')}`);
console.log(`${'stage'.padEnd(width)} | wall ms | cpu ms`);
for (const [name, wall, cpu, note] of rows) console.log(`${name.padEnd(width)} | ${wall.toFixed(0).padStart(7)} | ${cpu.toFixed(0).padStart(6)}${note ? `  ${note}` : ''}`);
