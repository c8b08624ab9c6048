/**
 * Recall of the syntax layer against universal-ctags on real code: which of ctags' tags
 * (class, function, method definitions) our extraction also finds, matched on name and line.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ExtractedSymbol, LanguageId } from '../../src/syntax/types.js';
import { extractSymbols } from '../../src/syntax/index.js';
import { languageById, languageOfPath } from '../../src/languages/index.js';

export interface Tag {
  name: string;
  path: string;
  line: number;
  kind: string;
  scope?: string;
  pattern?: string;
}

export interface RecallResult {
  files: number;
  expected: number;
  found: number;
  recall: number;
  misses: Tag[];
  symbols: number;
  extractMs: number;
}

/** ctags' tags for `files` (relative to `root`), as JSON lines. */
export function ctagsTags(root: string, files: string[], args: string[]): Tag[] {
  const result = spawnSync('ctags', ['--output-format=json', '--fields=+nKzS', ...args, '-f', '-', '-L', '-'], {
    cwd: root, input: files.join('\n'), encoding: 'utf8', maxBuffer: 1 << 30,
  });
  if (result.status !== 0) throw new Error(`ctags failed: ${result.stderr}`);
  const tags: Tag[] = [];
  for (const line of result.stdout.split('\n')) {
    if (!line.startsWith('{')) continue;
    const tag = JSON.parse(line) as Tag & { _type: string };
    if (tag._type === 'tag') tags.push(tag);
  }
  return tags;
}

/** Files under `root` (relative paths) that `find` lists with one of the extensions, minus `exclude` matches. */
export function listFiles(root: string, extensions: string[], exclude?: RegExp): string[] {
  const names = extensions.flatMap((ext, i) => (i ? ['-o', '-name', `*${ext}`] : ['-name', `*${ext}`]));
  const result = spawnSync('find', ['.', '-type', 'f', '(', ...names, ')'], { cwd: root, encoding: 'utf8', maxBuffer: 1 << 28 });
  return result.stdout.split('\n').filter(Boolean).map((path) => path.replace(/^\.\//, ''))
    .filter((path) => !exclude || !exclude.test(path)).sort();
}

const normalize = (name: string): string => name.replace(/\s+/g, '');

/** Extracts every file and checks each wanted ctags tag against our symbols of that file. */
export async function measureRecall(root: string, files: string[], tags: Tag[], language?: LanguageId): Promise<RecallResult> {
  const byFile = new Map<string, ExtractedSymbol[]>();
  let symbols = 0;
  let extractMs = 0;
  for (const file of files) {
    const lang = language ? languageById(language) : languageOfPath(file);
    if (!lang) continue;
    const source = readFileSync(join(root, file), 'utf8');
    const started = performance.now();
    const extracted = await extractSymbols(lang, source);
    extractMs += performance.now() - started;
    symbols += extracted.length;
    byFile.set(file, extracted);
  }
  const misses: Tag[] = [];
  let found = 0;
  for (const tag of tags) {
    const ours = byFile.get(tag.path) ?? [];
    const name = normalize(tag.name);
    const hit = ours.some((symbol) => normalize(symbol.name) === name
      && tag.line >= symbol.range.start.line && tag.line <= symbol.selectionRange.start.line);
    if (hit) found++;
    else misses.push(tag);
  }
  return { files: files.length, expected: tags.length, found, recall: tags.length ? found / tags.length : 1, misses, symbols, extractMs };
}

export function describeMisses(result: RecallResult, max = 60): string {
  return result.misses.slice(0, max).map((tag) => `${tag.path}:${tag.line} ${tag.kind} ${tag.name}${tag.scope ? ` (in ${tag.scope})` : ''}`).join('\n');
}

/** ctags reads a call of a macro (`GTEST_DECLARE_bool_(x);`, `TEST(A, B) {`) as a function or prototype named after the macro; those are no symbols. */
export function withoutMacroCalls(tags: Tag[]): Tag[] {
  const macros = new Set(tags.filter((tag) => tag.kind === 'macro').map((tag) => tag.name));
  return tags.filter((tag) => !((tag.kind === 'function' || tag.kind === 'prototype') && macros.has(tag.name)));
}

export interface RecallCase {
  root: string;
  files: string[];
  /** ctags options beyond the JSON output (`--languages=C++`, `--kinds-C++=+p`). */
  ctagsArgs: string[];
  /** ctags kinds that count (class, struct, function, method...). */
  kinds: string[];
  /** Drops tags ctags gets wrong for this language (documented at the call). */
  keep?: (tag: Tag) => boolean;
}

/** Runs ctags and our extraction over a corpus; tags ctags synthesizes (`__anon...`) and macro calls are left out. */
export async function recallOf(corpus: RecallCase): Promise<RecallResult> {
  const wanted = new Set(corpus.kinds);
  const tags = withoutMacroCalls(ctagsTags(corpus.root, corpus.files, corpus.ctagsArgs))
    .filter((tag) => wanted.has(tag.kind) && !tag.name.startsWith('__anon') && !tag.name.startsWith('AnonymousFunction'))
    .filter((tag) => !corpus.keep || corpus.keep(tag));
  return measureRecall(corpus.root, corpus.files, tags);
}

export function summary(result: RecallResult): string {
  const seconds = result.extractMs / 1000;
  return `recall ${(result.recall * 100).toFixed(2)}% (${result.found}/${result.expected}, ${result.misses.length} misses) over ${result.files} files; `
    + `${result.symbols} symbols in ${seconds.toFixed(2)} s (${Math.round(result.files / seconds)} files/s, ${Math.round(result.symbols / seconds)} symbols/s)`;
}
