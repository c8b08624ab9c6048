/**
 * TypeScript recall against universal-ctags on the sources npm's rxjs@7 and zod@3 ship, and on @types/node.
 * Needs (apt): universal-ctags; (npm, devDependencies): rxjs@7 zod@3 @types/node
 */
import t from 'tap';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { describeMisses, hasCtags, listFiles, recallOf, summary } from './recall.js';

const require = createRequire(import.meta.url);

function packageDir(name: string, sub: string): string | undefined {
  try {
    return join(dirname(require.resolve(`${name}/package.json`)), sub);
  } catch {
    return undefined;
  }
}

/** rxjs and zod sources, and @types/node's declaration files (ambient modules, overloads, namespaces). */
const CORPORA: Array<[string, string, (file: string) => boolean]> = [
  ['rxjs', 'src', (file) => !file.endsWith('.d.ts')],
  ['zod', 'src', (file) => !file.endsWith('.d.ts')],
  ['@types/node', '', (file) => file.endsWith('.d.ts')],
];

for (const [name, sub, wanted] of CORPORA) {
  const root = packageDir(name, sub);
  const missing = !hasCtags() ? 'needs universal-ctags (apt-get install -y universal-ctags)'
    : !root ? `needs ${name} (npm install --save-dev ${name})` : false;
  t.test(`finds at least 99% of the classes, interfaces, enums, functions and methods ctags finds in ${name}/${sub}`, async (t) => {
  // The README's test set-up installs every corpus: a missing one fails rather than skips.
  const missingCorpus = missing;
  if (missingCorpus) return void t.fail(`missing test corpus: ${missingCorpus}`);
    const result = await recallOf({
      root: root!,
      files: listFiles(root!, ['.ts']).filter(wanted),
      ctagsArgs: ['--languages=TypeScript'],
      kinds: ['class', 'interface', 'enum', 'function', 'generator', 'method'],
    });
    t.comment(summary(result));
    if (result.misses.length) t.comment(`misses:\n${describeMisses(result)}`);
    t.ok(result.recall >= 0.99, summary(result));
  });
}
