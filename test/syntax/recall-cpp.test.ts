/**
 * C++ recall against universal-ctags on googletest (test/syntax/ctags-compare.ts) and libstdc++'s bits/.
 */
import t from 'tap';
import { corpusPath, GOOGLETEST as ROOT, requireCorpora } from '../corpora.js';
import { describeMisses, listFiles, recallOf, summary } from './recall.js';
import { assertRecall, compareWithCtags } from './ctags-compare.js';
import { languageOfPath } from '../../src/languages/index.js';

t.test('finds what ctags finds in googletest, file by file: every kind at 99% overall and 95% in every file', async (t) => {
  if (!requireCorpora(t, 'ctags', 'googletest')) return;
  const result = await compareWithCtags({
    root: ROOT,
    files: listFiles(ROOT, ['.h', '.cc', '.cpp']),
    ctagsArgs: ['--languages=C++'],
    languageOf: (file) => languageOfPath(file),
  });
  assertRecall(t, result);
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
