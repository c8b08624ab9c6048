/**
 * C# recall against universal-ctags: Debian ships little C# source, so this uses the one real
 * file npm's bundled node-gyp carries plus a hand-written fixture.
 */
import t from 'tap';
import { copyFileSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { corpusPath, requireCorpora } from '../corpora.js';
import { describeMisses, listFiles, recallOf, summary } from './recall.js';

const FIXTURES = join(dirname(fileURLToPath(import.meta.url)), '..', 'fixtures', 'syntax');

t.test('finds at least 99% of the classes, structs, interfaces, enums and methods ctags finds in C# sources', async (t) => {
  if (!requireCorpora(t, 'ctags')) return;
  const root = mkdtempSync(join(tmpdir(), 'plumb-cs-'));
  t.teardown(() => rmSync(root, { recursive: true, force: true }));
  for (const file of ['Shapes.cs', 'FileScoped.cs']) copyFileSync(join(FIXTURES, file), join(root, file));
  const real = corpusPath('node-gyp-cs');
  if (existsSync(real)) copyFileSync(real, join(root, 'Find-VisualStudio.cs'));
  const result = await recallOf({ root, files: listFiles(root, ['.cs']), ctagsArgs: ['--languages=C#'], kinds: ['class', 'struct', 'interface', 'enum', 'method'] });
  t.comment(summary(result));
  if (result.misses.length) t.comment(`misses:\n${describeMisses(result)}`);
  t.ok(result.recall >= 0.99, summary(result));
});
