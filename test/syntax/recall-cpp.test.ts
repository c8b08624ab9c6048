/**
 * C++ recall against universal-ctags on googletest.
 */
import t from 'tap';
import { corpusPath, GOOGLETEST as ROOT, requireCorpora } from '../corpora.js';
import { describeMisses, listFiles, recallOf, summary } from './recall.js';

t.test('finds at least 99% of the classes, structs, functions, methods and prototypes ctags finds in googletest', async (t) => {
  if (!requireCorpora(t, 'ctags', 'googletest')) return;
  const result = await recallOf({
    root: ROOT,
    files: listFiles(ROOT, ['.h', '.cc', '.cpp']),
    ctagsArgs: ['--languages=C++', '--kinds-C++=+p'],
    kinds: ['class', 'struct', 'union', 'function', 'prototype'],
  });
  t.comment(summary(result));
  if (result.misses.length) t.comment(`misses:\n${describeMisses(result)}`);
  t.ok(result.recall >= 0.99, summary(result));
});

/** libstdc++ is about the hardest C++ for a parser without a preprocessor (_GLIBCXX_* macros and #if everywhere). */
const LIBSTDCXX = corpusPath('libstdcxx');

t.test('finds at least 99% of what ctags finds in libstdc++ headers', async (t) => {
  if (!requireCorpora(t, 'ctags', 'libstdcxx')) return;
  const result = await recallOf({
    root: LIBSTDCXX,
    files: listFiles(LIBSTDCXX, ['.h']),
    ctagsArgs: ['--languages=C++', '--kinds-C++=+p', '--language-force=C++'],
    kinds: ['class', 'struct', 'union', 'function', 'prototype'],
  });
  t.comment(summary(result));
  if (result.misses.length) t.comment(`misses:\n${describeMisses(result)}`);
  t.ok(result.recall >= 0.99, summary(result));
});
