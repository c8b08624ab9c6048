/**
 * TypeScript recall against universal-ctags on the sources npm's rxjs@7 and zod@3 ship, and on @types/node.
 */
import t from 'tap';
import { join } from 'node:path';
import { corpusPath, requireCorpora, type CorpusName } from '../corpora.js';
import { describeMisses, listFiles, recallOf, summary } from './recall.js';

/** rxjs and zod sources, and @types/node's declaration files (ambient modules, overloads, namespaces). */
const CORPORA: Array<[CorpusName, string, (file: string) => boolean]> = [
  ['rxjs', 'src', (file) => !file.endsWith('.d.ts')],
  ['zod', 'src', (file) => !file.endsWith('.d.ts')],
  ['@types/node', '', (file) => file.endsWith('.d.ts')],
];

for (const [name, sub, wanted] of CORPORA) {
  const root = join(corpusPath(name), sub);
  t.test(`finds at least 99% of the classes, interfaces, enums, functions and methods ctags finds in ${name}/${sub}`, async (t) => {
    if (!requireCorpora(t, 'ctags', name)) return;
    const result = await recallOf({
      root,
      files: listFiles(root, ['.ts']).filter(wanted),
      ctagsArgs: ['--languages=TypeScript'],
      kinds: ['class', 'interface', 'enum', 'function', 'generator', 'method'],
    });
    t.comment(summary(result));
    if (result.misses.length) t.comment(`misses:\n${describeMisses(result)}`);
    t.ok(result.recall >= 0.99, summary(result));
  });
}
