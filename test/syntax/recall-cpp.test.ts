/**
 * C++ recall against universal-ctags on googletest.
 * Needs (apt): universal-ctags googletest
 */
import t from 'tap';
import { existsSync } from 'node:fs';
import { describeMisses, hasCtags, listFiles, recallOf, summary } from './recall.js';

const ROOT = '/usr/src/googletest';
const missing = !hasCtags() ? 'needs universal-ctags (apt-get install -y universal-ctags)'
  : !existsSync(ROOT) ? `needs ${ROOT} (apt-get install -y googletest)` : false;

t.test('finds at least 99% of the classes, structs, functions, methods and prototypes ctags finds in googletest', { skip: missing }, async (t) => {
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
