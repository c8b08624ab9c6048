/**
 * C recall against universal-ctags on the C files Debian's Go sources carry (runtime/cgo, misc/cgo).
 * Needs (apt): universal-ctags golang-src
 */
import t from 'tap';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describeMisses, hasCtags, listFiles, recallOf, summary } from './recall.js';

function goRoot(): string | undefined {
  try {
    const version = readdirSync('/usr/share').filter((dir) => /^go-1\.\d+$/.test(dir)).sort().pop();
    return version ? join('/usr/share', version) : undefined;
  } catch {
    return undefined;
  }
}

const ROOT = goRoot();
const DIRS = ['src/runtime/cgo', 'misc/cgo'];
const missing = !hasCtags() ? 'needs universal-ctags (apt-get install -y universal-ctags)' : !ROOT ? 'needs golang-src (apt-get install -y golang-src)' : false;

t.test('finds at least 99% of the structs, unions, functions and prototypes ctags finds in C sources', async (t) => {
  // The README's test set-up installs every corpus: a missing one fails rather than skips.
  const missingCorpus = missing;
  if (missingCorpus) return void t.fail(`missing test corpus: ${missingCorpus}`);
  const files = listFiles(ROOT!, ['.c']).filter((file) => DIRS.some((dir) => file.startsWith(`${dir}/`)));
  const result = await recallOf({ root: ROOT!, files, ctagsArgs: ['--languages=C', '--kinds-C=+p'], kinds: ['struct', 'union', 'function', 'prototype'] });
  t.comment(summary(result));
  if (result.misses.length) t.comment(`misses:\n${describeMisses(result)}`);
  t.ok(result.recall >= 0.99, summary(result));
});
