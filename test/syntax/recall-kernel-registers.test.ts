/**
 * C recall against universal-ctags on the kernel's generated register headers
 * (drivers/gpu/drm/amd/include/asic_reg: 373 headers, 373 MB, 3.4 million #defines, the largest 24 MB):
 * every macro, enum and enumerator, at 99% overall and 95% in every file. The suite reads the first header
 * of each of the 37 register blocks and the largest header (30 MB together: parsing all 373 MB here took
 * over three minutes); `npm run bench` (bench/kernel.ts) compares the whole kernel, these headers included.
 */
import { statSync } from 'node:fs';
import path from 'node:path';
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
  const headers = listFiles(root, ['.h']).filter((file) => file.startsWith(`${SLICE}/`)).sort();
  const firstOfBlock = new Map<string, string>();
  for (const file of headers) if (!firstOfBlock.has(path.dirname(file))) firstOfBlock.set(path.dirname(file), file);
  const largest = headers.reduce((a, b) => (statSync(path.join(root, b)).size > statSync(path.join(root, a)).size ? b : a));
  const files = [...new Set([...firstOfBlock.values(), largest])];
  t.ok(files.length > 30, `${files.length} headers, ${largest} the largest`);
  const result = await compareWithCtags({ root, files, ctagsArgs: ['--language-force=C'], languageOf: () => c });
  assertRecall(t, result);
});
