/**
 * C recall against universal-ctags on slices of the Linux kernel (Debian's linux-source-6.1, taken out of its
 * tarball once: test/corpora.ts linuxSource): every .c and .h read as the index reads it (C; a header of C++ text, as
 * scripts/gcc-plugins' are, as C++: ctags-compare.ts compareCTree), file by file, every kind ctags finds (functions
 * with prototypes, structs, unions, enums and enumerators, typedefs, members, macros, and a C++ header's classes,
 * methods and namespaces), at 99% overall and 95% in every file. The generated register headers are
 * recall-kernel-registers.test.ts.
 */
import t from 'tap';
import { linuxSource, requireCorpora } from '../corpora.js';
import { assertRecall, compareCTree } from './ctags-compare.js';
import { listFiles } from './recall.js';

const SLICES = ['mm', 'kernel', 'include/linux', 'fs/ext4', 'net/netfilter'];

t.setTimeout(600_000);

t.test('finds what ctags finds in the kernel slices, file by file', async (t) => {
  if (!requireCorpora(t, 'ctags', 'xz', 'linux-source')) return;
  const root = linuxSource();
  const files = listFiles(root, ['.c', '.h']);
  for (const slice of SLICES) {
    await t.test(slice, async (t) => {
      const result = await compareCTree(root, files.filter((file) => file.startsWith(`${slice}/`)));
      assertRecall(t, result);
    });
  }
});

t.test('the GCC plugins\' headers are C++ in a C tree: their classes and methods are found', async (t) => {
  if (!requireCorpora(t, 'ctags', 'xz', 'linux-source')) return;
  // A tree of its own: the slices above are shared with other tests.
  const root = linuxSource(['scripts/gcc-plugins']);
  const result = await compareCTree(root, listFiles(root, ['.c', '.h']));
  t.same(result.cppHeaders.sort(), ['gcc-common.h', 'gcc-generate-gimple-pass.h', 'gcc-generate-ipa-pass.h', 'gcc-generate-rtl-pass.h', 'gcc-generate-simple_ipa-pass.h'].map((file) => `scripts/gcc-plugins/${file}`));
  t.ok((result.byKind.get('class')?.found ?? 0) >= 4, 'the passes\' classes');
  assertRecall(t, result);
});
