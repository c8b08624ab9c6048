/**
 * Rust recall against universal-ctags on crate sources Debian ships.
 */
import t from 'tap';
import { corpusPath, requireCorpora } from '../corpora.js';
import { describeMisses, listFiles, recallOf, summary } from './recall.js';

const CRATES = [['regex', 'crate-regex'], ['regex-syntax', 'crate-regex-syntax'], ['anyhow', 'crate-anyhow']] as const;

for (const [name, corpus] of CRATES) {
  const root = corpusPath(corpus);
  t.test(`finds at least 99% of the structs, enums, traits, functions and methods ctags finds in ${name}`, async (t) => {
    if (!requireCorpora(t, 'ctags', corpus)) return;
    const result = await recallOf({ root, files: listFiles(root, ['.rs']), ctagsArgs: ['--languages=Rust'], kinds: ['struct', 'enum', 'interface', 'union', 'function', 'method'] });
    t.comment(summary(result));
    if (result.misses.length) t.comment(`misses:\n${describeMisses(result)}`);
    t.ok(result.recall >= 0.99, summary(result));
  });
}
