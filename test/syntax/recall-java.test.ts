/**
 * Java recall against universal-ctags on part of the JDK's own sources (src.zip).
 * Needs (apt): universal-ctags openjdk-17-source unzip
 */
import t from 'tap';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describeMisses, existingDir, hasCtags, listFiles, recallOf, summary } from './recall.js';

const JDK = existingDir('/usr/lib/jvm/java-17-openjdk-amd64', '/usr/lib/jvm/openjdk-17', '/usr/lib/jvm/java-17-openjdk-arm64');
const SRC_ZIP = JDK ? join(JDK, 'lib', 'src.zip') : undefined;
const PACKAGES = ['java.base/java/util/concurrent/*', 'java.base/java/util/stream/*', 'java.base/java/lang/*', 'java.base/java/io/*'];
const missing = !hasCtags() ? 'needs universal-ctags (apt-get install -y universal-ctags)'
  : !SRC_ZIP || !existsSync(SRC_ZIP) ? 'needs openjdk-17-source (apt-get install -y openjdk-17-source)' : false;

t.test('finds at least 99% of the classes, interfaces, enums and methods ctags finds in the JDK sources', async (t) => {
  // The README's test set-up installs every corpus: a missing one fails rather than skips.
  const missingCorpus = missing;
  if (missingCorpus) return void t.fail(`missing test corpus: ${missingCorpus}`);
  const root = mkdtempSync(join(tmpdir(), 'plumb-jdk-'));
  t.teardown(() => rmSync(root, { recursive: true, force: true }));
  const unzip = spawnSync('unzip', ['-q', '-o', SRC_ZIP!, ...PACKAGES, '-d', root], { encoding: 'utf8' });
  t.equal(unzip.status, 0, `unzip: ${unzip.stderr}`);
  const result = await recallOf({ root, files: listFiles(root, ['.java']), ctagsArgs: ['--languages=Java'], kinds: ['class', 'interface', 'enum', 'annotation', 'method'] });
  t.comment(summary(result));
  if (result.misses.length) t.comment(`misses:\n${describeMisses(result)}`);
  t.ok(result.recall >= 0.99, summary(result));
});
