/**
 * Go recall against universal-ctags on part of the Go standard library.
 * Needs (apt): universal-ctags golang-src (puts the stdlib under /usr/share/go-1.*\/src)
 */
import t from 'tap';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describeMisses, hasCtags, listFiles, recallOf, summary } from './recall.js';

function goSource(): string | undefined {
  try {
    const version = readdirSync('/usr/share').filter((dir) => /^go-1\.\d+$/.test(dir)).sort().pop();
    return version ? join('/usr/share', version, 'src') : undefined;
  } catch {
    return undefined;
  }
}

const ROOT = goSource();
const PACKAGES = ['net/http', 'encoding/json', 'go/ast', 'go/parser', 'sort', 'strings', 'bufio', 'context', 'sync'];
const missing = !hasCtags() ? 'needs universal-ctags (apt-get install -y universal-ctags)' : !ROOT ? 'needs golang-src (apt-get install -y golang-src)' : false;

t.test('finds at least 99% of the structs, interfaces, types, functions and methods ctags finds in the Go stdlib', async (t) => {
  // The README's test set-up installs every corpus: a missing one fails rather than skips.
  const missingCorpus = missing;
  if (missingCorpus) return void t.fail(`missing test corpus: ${missingCorpus}`);
  const files = listFiles(ROOT!, ['.go']).filter((file) => PACKAGES.some((pkg) => file.startsWith(`${pkg}/`) && !file.slice(pkg.length + 1).includes('/')));
  const result = await recallOf({ root: ROOT!, files, ctagsArgs: ['--languages=Go'], kinds: ['struct', 'interface', 'type', 'func', 'methodSpec'] });
  t.comment(summary(result));
  if (result.misses.length) t.comment(`misses:\n${describeMisses(result)}`);
  t.ok(result.recall >= 0.99, summary(result));
});
