/**
 * C recall against universal-ctags on the C files Debian's Go sources carry (runtime/cgo, misc/cgo).
 */
import t from 'tap';
import { corpusPath, requireCorpora } from '../corpora.js';
import { describeMisses, listFiles, recallOf, summary } from './recall.js';

const ROOT = corpusPath('go');
const DIRS = ['src/runtime/cgo', 'misc/cgo'];

t.test('finds at least 99% of the structs, unions, functions and prototypes ctags finds in C sources', async (t) => {
  if (!requireCorpora(t, 'ctags', 'go')) return;
  const files = listFiles(ROOT, ['.c']).filter((file) => DIRS.some((dir) => file.startsWith(`${dir}/`)));
  const result = await recallOf({ root: ROOT, files, ctagsArgs: ['--languages=C', '--kinds-C=+p'], kinds: ['struct', 'union', 'function', 'prototype'] });
  t.comment(summary(result));
  if (result.misses.length) t.comment(`misses:\n${describeMisses(result)}`);
  t.ok(result.recall >= 0.99, summary(result));
});
