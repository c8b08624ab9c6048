/**
 * Rust recall against universal-ctags on crate sources Debian ships.
 * Needs (apt): universal-ctags librust-regex-dev librust-anyhow-dev (crates under /usr/share/cargo/registry)
 */
import t from 'tap';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describeMisses, hasCtags, listFiles, recallOf, summary } from './recall.js';

const REGISTRY = '/usr/share/cargo/registry';

function crate(prefix: RegExp): string | undefined {
  try {
    const dir = readdirSync(REGISTRY).filter((name) => prefix.test(name)).sort().pop();
    return dir ? join(REGISTRY, dir, 'src') : undefined;
  } catch {
    return undefined;
  }
}

const CRATES: Array<[string, RegExp, string]> = [
  ['regex', /^regex-\d/, 'librust-regex-dev'],
  ['regex-syntax', /^regex-syntax-\d/, 'librust-regex-dev'],
  ['anyhow', /^anyhow-\d/, 'librust-anyhow-dev'],
];

for (const [name, pattern, pkg] of CRATES) {
  const root = crate(pattern);
  const missing = !hasCtags() ? 'needs universal-ctags (apt-get install -y universal-ctags)' : !root ? `needs ${pkg} (apt-get install -y ${pkg})` : false;
  t.test(`finds at least 99% of the structs, enums, traits, functions and methods ctags finds in ${name}`, async (t) => {
  // The README's test set-up installs every corpus: a missing one fails rather than skips.
  const missingCorpus = missing;
  if (missingCorpus) return void t.fail(`missing test corpus: ${missingCorpus}`);
    const result = await recallOf({ root: root!, files: listFiles(root!, ['.rs']), ctagsArgs: ['--languages=Rust'], kinds: ['struct', 'enum', 'interface', 'union', 'function', 'method'] });
    t.comment(summary(result));
    if (result.misses.length) t.comment(`misses:\n${describeMisses(result)}`);
    t.ok(result.recall >= 0.99, summary(result));
  });
}
