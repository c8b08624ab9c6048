/**
 * Java recall against universal-ctags on part of the JDK's own sources (src.zip).
 */
import t from 'tap';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { corpusPath, requireCorpora } from '../corpora.js';
import { describeMisses, listFiles, recallOf, summary } from './recall.js';

const SRC_ZIP = corpusPath('jdk-src');
const PACKAGES = ['java.base/java/util/concurrent/*', 'java.base/java/util/stream/*', 'java.base/java/lang/*', 'java.base/java/io/*'];

t.test('finds at least 99% of the classes, interfaces, enums and methods ctags finds in the JDK sources', async (t) => {
  if (!requireCorpora(t, 'ctags', 'unzip', 'jdk-src')) return;
  const root = mkdtempSync(join(tmpdir(), 'plumb-jdk-'));
  t.teardown(() => rmSync(root, { recursive: true, force: true }));
  const unzip = spawnSync('unzip', ['-q', '-o', SRC_ZIP, ...PACKAGES, '-d', root], { encoding: 'utf8' });
  t.equal(unzip.status, 0, `unzip: ${unzip.stderr}`);
  const result = await recallOf({ root, files: listFiles(root, ['.java']), ctagsArgs: ['--languages=Java'], kinds: ['class', 'interface', 'enum', 'annotation', 'method'] });
  t.comment(summary(result));
  if (result.misses.length) t.comment(`misses:\n${describeMisses(result)}`);
  t.ok(result.recall >= 0.99, summary(result));
});
