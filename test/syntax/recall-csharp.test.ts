/**
 * C# recall against universal-ctags: Debian ships little C# source, so this uses the one real
 * file npm's bundled node-gyp carries plus a hand-written fixture.
 * Needs (apt): universal-ctags
 */
import t from 'tap';
import { copyFileSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describeMisses, hasCtags, listFiles, recallOf, summary } from './recall.js';

const FIXTURES = join(dirname(fileURLToPath(import.meta.url)), '..', 'fixtures', 'syntax');
const NODE_GYP = ['/usr/lib/node_modules/npm/node_modules/node-gyp/lib/Find-VisualStudio.cs', '/usr/local/lib/node_modules/npm/node_modules/node-gyp/lib/Find-VisualStudio.cs'];

t.test('finds at least 99% of the classes, structs, interfaces, enums and methods ctags finds in C# sources', async (t) => {
  // The README's test set-up installs every corpus: a missing one fails rather than skips.
  const missingCorpus = !hasCtags() && 'needs universal-ctags';
  if (missingCorpus) return void t.fail(`missing test corpus: ${missingCorpus}`);
  const root = mkdtempSync(join(tmpdir(), 'plumb-cs-'));
  t.teardown(() => rmSync(root, { recursive: true, force: true }));
  for (const file of ['Shapes.cs', 'FileScoped.cs']) copyFileSync(join(FIXTURES, file), join(root, file));
  const real = NODE_GYP.find((file) => existsSync(file));
  if (real) copyFileSync(real, join(root, 'Find-VisualStudio.cs'));
  const result = await recallOf({ root, files: listFiles(root, ['.cs']), ctagsArgs: ['--languages=C#'], kinds: ['class', 'struct', 'interface', 'enum', 'method'] });
  t.comment(summary(result));
  if (result.misses.length) t.comment(`misses:\n${describeMisses(result)}`);
  t.ok(result.recall >= 0.99, summary(result));
});
