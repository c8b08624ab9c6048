/**
 * C recall against universal-ctags on the kernel's generated register headers
 * (drivers/gpu/drm/amd/include/asic_reg: 373 headers, 373 MB, 3.4 million #defines, the largest 24 MB):
 * every macro, enum and enumerator, at 99% overall and 95% in every file.
 */
import t from 'tap';
import { linuxSource, requireCorpora } from '../corpora.js';
import { languageById } from '../../src/languages/index.js';
import { assertRecall, compareWithCtags } from './ctags-compare.js';
import { listFiles } from './recall.js';

const SLICE = 'drivers/gpu/drm/amd/include/asic_reg';

t.setTimeout(600_000);

t.test('finds what ctags finds in the generated register headers', async (t) => {
  if (!requireCorpora(t, 'ctags', 'xz', 'linux-source')) return;
  const root = linuxSource();
  const c = languageById('c');
  const result = await compareWithCtags({ root, files: listFiles(root, ['.h']).filter((file) => file.startsWith(`${SLICE}/`)), ctagsArgs: ['--language-force=C'], languageOf: () => c });
  assertRecall(t, result);
});
