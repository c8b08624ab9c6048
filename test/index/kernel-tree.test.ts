/**
 * A slice of the Linux kernel as it is: source folders named target and build (drivers/target,
 * drivers/nvme/target, include/target, tools/build) are indexed, not skipped as build output; its headers are C
 * (a prototype in include/target merges with its definition in drivers/target, and language=c finds it) except
 * where C++ code is theirs (scripts/kconfig's qconf.h beside qconf.cc); its largest generated register header
 * (24 MB of #defines) is indexed whole, and nothing is left out.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import t from 'tap';
import { SymbolIndex } from '../../src/index/symbol-index.js';
import { linuxSource, requireCorpora } from '../corpora.js';
import { getJson, startApp, tempDir, testConfig } from '../helpers.js';
import { indexReady } from '../wait.js';

const REGISTERS = 'drivers/gpu/drm/amd/include/asic_reg/dcn/dcn_3_2_0_sh_mask.h';
const SLICE = ['drivers/target', 'drivers/nvme/target', 'include/target', 'tools/build', 'scripts/kconfig', REGISTERS];

/** Every file below `directory` (tree-relative) whose name ends with one of `extensions`. */
function filesUnder(root: string, directory: string, extensions: string[]): string[] {
  return readdirSync(path.join(root, directory), { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && extensions.some((extension) => entry.name.endsWith(extension)))
    .map((entry) => path.relative(root, path.join(entry.parentPath, entry.name)).split(path.sep).join('/'))
    .sort();
}

t.test('the kernel: folders named target and build are sources, its headers are C', async (t) => {
  if (!requireCorpora(t, 'linux-source', 'xz')) return;
  const root = linuxSource(SLICE);
  const cacheDir = tempDir(t, 'plumb-cache-');
  const index = await SymbolIndex.open({ root, config: testConfig(cacheDir, { index: { watch: false, workers: 2 } }), cacheDir });
  t.teardown(() => index.close());
  await index.build();
  const files = await index.reader.indexedFileInfos({});
  const indexed = new Set(files.map((file) => file.file));
  for (const folder of ['drivers/target', 'drivers/nvme/target', 'include/target', 'tools/build']) {
    const sources = filesUnder(root, folder, ['.c', '.h']);
    t.ok(sources.length > 5, `${folder} holds ${sources.length} C files`);
    t.same(sources.filter((file) => !indexed.has(file)), [], `every one of them is indexed (${folder})`);
  }
  const languageOf = new Map(files.map((file) => [file.file, file.language]));
  const headers = files.filter((file) => file.file.endsWith('.h'));
  t.same(headers.filter((file) => file.language !== 'c').map((file) => file.file), ['scripts/kconfig/qconf.h'], 'every header is C but the one beside qconf.cc');
  t.equal(languageOf.get('scripts/kconfig/qconf.cc'), 'cpp');
  t.equal(languageOf.get('scripts/kconfig/lkc.h'), 'c', 'kconfig is C with one C++ file among 19');
  t.equal(languageOf.get('tools/build/feature/test-cxx.cpp'), 'cpp');

  const defines = readFileSync(path.join(root, REGISTERS), 'utf8').match(/^#define\s/gm)?.length ?? 0;
  t.ok(defines > 190_000, `${REGISTERS} holds ${defines} #defines`);
  t.equal((await index.reader.symbolsInFile(REGISTERS)).length, defines, 'every one of them is indexed');
  t.same(await index.reader.leftOut(50), { total: 0, byReason: {}, paths: [] }, 'nothing is left out');

  const app = await startApp(t, root);
  await indexReady(app);
  const declaration = await getJson(app, '/symbols/declaration?symbol=target_submit_cmd');
  t.equal(declaration.status, 200, 'a prototype in a header and its definition are one symbol, not a 409');
  t.same(declaration.body.results.map((r: { file: string; definition: boolean }) => `${r.file} ${r.definition}`).sort(), [
    'drivers/target/target_core_transport.c true',
    'include/target/target_core_fabric.h false',
  ]);
  const inC = await getJson(app, '/symbols?query=se_cmd&kind=struct&language=c');
  t.same(inC.body.results.filter((r: { name: string }) => r.name === 'se_cmd').map((r: { file: string }) => r.file), ['include/target/target_core_base.h'], 'language=c finds what the headers declare');
});
