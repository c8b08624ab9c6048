/**
 * C recall against universal-ctags on slices of the Linux kernel (Debian's linux-source-6.1, taken out of its
 * tarball once: test/corpora.ts linuxSource): every .c and .h read as C, file by file, every kind ctags finds
 * (functions with prototypes, structs, unions, enums and enumerators, typedefs, members, macros), at 99%
 * overall and 95% in every file. The generated register headers are recall-kernel-registers.test.ts.
 */
import t from 'tap';
import { linuxSource, requireCorpora } from '../corpora.js';
import { languageById } from '../../src/languages/index.js';
import { assertRecall, compareWithCtags } from './ctags-compare.js';
import { listFiles } from './recall.js';

const SLICES = ['mm', 'kernel', 'include/linux', 'fs/ext4', 'net/netfilter'];

t.setTimeout(600_000);

t.test('finds what ctags finds in the kernel slices, file by file', async (t) => {
  if (!requireCorpora(t, 'ctags', 'xz', 'linux-source')) return;
  const root = linuxSource();
  const files = listFiles(root, ['.c', '.h']);
  const c = languageById('c');
  for (const slice of SLICES) {
    await t.test(slice, async (t) => {
      const result = await compareWithCtags({ root, files: files.filter((file) => file.startsWith(`${slice}/`)), ctagsArgs: ['--language-force=C'], languageOf: () => c });
      assertRecall(t, result);
    });
  }
});
