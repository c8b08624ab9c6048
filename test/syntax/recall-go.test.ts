/**
 * Go recall against universal-ctags on part of the Go standard library.
 */
import t from 'tap';
import { join } from 'node:path';
import { corpusPath, requireCorpora } from '../corpora.js';
import { describeMisses, listFiles, recallOf, summary } from './recall.js';

const ROOT = join(corpusPath('go'), 'src');
const PACKAGES = ['net/http', 'encoding/json', 'go/ast', 'go/parser', 'sort', 'strings', 'bufio', 'context', 'sync'];

t.test('finds at least 99% of the structs, interfaces, types, functions and methods ctags finds in the Go stdlib', async (t) => {
  if (!requireCorpora(t, 'ctags', 'go')) return;
  const files = listFiles(ROOT, ['.go']).filter((file) => PACKAGES.some((pkg) => file.startsWith(`${pkg}/`) && !file.slice(pkg.length + 1).includes('/')));
  const result = await recallOf({ root: ROOT, files, ctagsArgs: ['--languages=Go'], kinds: ['struct', 'interface', 'type', 'func', 'methodSpec'] });
  t.comment(summary(result));
  if (result.misses.length) t.comment(`misses:\n${describeMisses(result)}`);
  t.ok(result.recall >= 0.99, summary(result));
});
