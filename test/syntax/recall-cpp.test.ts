/**
 * C++ recall against universal-ctags on googletest.
 * Needs (apt): universal-ctags googletest (and libstdc++-12-dev, usually there with g++)
 */
import t from 'tap';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describeMisses, hasCtags, listFiles, recallOf, summary } from './recall.js';

const ROOT = '/usr/src/googletest';
const missing = !hasCtags() ? 'needs universal-ctags (apt-get install -y universal-ctags)'
  : !existsSync(ROOT) ? `needs ${ROOT} (apt-get install -y googletest)` : false;

t.test('finds at least 99% of the classes, structs, functions, methods and prototypes ctags finds in googletest', async (t) => {
  // The README's test set-up installs every corpus: a missing one fails rather than skips.
  const missingCorpus = missing;
  if (missingCorpus) return void t.fail(`missing test corpus: ${missingCorpus}`);
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
const LIBSTDCXX = (() => {
  try {
    const version = readdirSync('/usr/include/c++').filter((dir) => /^\d+$/.test(dir)).sort((a, b) => Number(a) - Number(b)).pop();
    return version ? join('/usr/include/c++', version, 'bits') : undefined;
  } catch {
    return undefined;
  }
})();

t.test('finds at least 99% of what ctags finds in libstdc++ headers', async (t) => {
  // The README's test set-up installs every corpus: a missing one fails rather than skips.
  const missingCorpus = !hasCtags() ? 'needs universal-ctags' : !LIBSTDCXX && 'needs libstdc++ headers (apt-get install -y libstdc++-12-dev)';
  if (missingCorpus) return void t.fail(`missing test corpus: ${missingCorpus}`);
  const result = await recallOf({
    root: LIBSTDCXX!,
    files: listFiles(LIBSTDCXX!, ['.h']),
    ctagsArgs: ['--languages=C++', '--kinds-C++=+p', '--language-force=C++'],
    kinds: ['class', 'struct', 'union', 'function', 'prototype'],
  });
  t.comment(summary(result));
  if (result.misses.length) t.comment(`misses:\n${describeMisses(result)}`);
  t.ok(result.recall >= 0.99, summary(result));
});
