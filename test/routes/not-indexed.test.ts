/**
 * Nothing dropped silently: /status lists what the index leaves out (a file over 64 MB, a binary one, build
 * output directories) with why, and the embedded store, a PostgreSQL writer and its read-only replica say the same;
 * a build tree made later joins the list, and leaves it when it goes.
 */
import { closeSync, ftruncateSync, mkdirSync, openSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import t from 'tap';
import { buildApp, type PlumbApp } from '../../src/app.js';
import { getJson, tempDir, testConfig } from '../helpers.js';
import { indexReady, waitFor } from '../wait.js';
import { startPostgres } from '../postgres.js';

function write(root: string, file: string, text: string | Buffer): void {
  mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
  writeFileSync(path.join(root, file), text);
}

t.test('/status lists what the index leaves out, the same from every store', async (t) => {
  const root = tempDir(t, 'plumb-left-out-');
  write(root, 'src/main.c', '#include "../gen/regs.h"\nint main(void) { return REG_1__SHIFT; }\n');
  // 5 MB of #defines: read in pieces, indexed.
  write(root, 'gen/regs.h', Array.from({ length: 100_000 }, (_, i) => `#define REG_${i}__SHIFT ${' '.repeat(20)}0x${i.toString(16)}`).join('\n') + '\n');
  const huge = openSync(path.join(root, 'gen/huge.h'), 'w');
  ftruncateSync(huge, 65 * 1024 * 1024);
  closeSync(huge);
  write(root, 'data/blob.c', Buffer.from([0x7f, 0x45, 0x4c, 0x46, 0, 0, 0, 1, 2, 3]));
  write(root, 'build/CMakeCache.txt', '# This is the CMakeCache file.\n');
  write(root, 'build/CMakeFiles/CompilerIdC/CMakeCCompilerId.c', 'int compiler_id;\n');
  write(root, 'rust/Cargo.toml', '[package]\nname = "r"\n');
  write(root, 'rust/src/lib.rs', 'pub fn lib() {}\n');
  write(root, 'rust/target/debug/build/gen.rs', 'pub fn generated() {}\n');
  // A source folder named build: indexed.
  write(root, 'tools/build/fixdep.c', 'int fixdep(void) { return 0; }\n');

  const pg = await startPostgres(t);
  const start = async (extra: Record<string, unknown>): Promise<PlumbApp> => {
    const app = await buildApp({ root, config: testConfig(tempDir(t, 'plumb-cache-'), extra), logger: false });
    t.teardown(() => app.close());
    return app;
  };
  const shared = { store: pg.url, workspace: 'left-out' };
  const embedded = await start({});
  const writer = await start(shared);
  await Promise.all([indexReady(embedded), indexReady(writer)]);
  const replica = await start({ ...shared, readOnly: true });
  await indexReady(replica, 60_000);

  const expected = {
    total: 4,
    byReason: { binary: 1, too_large: 1, build_output: 2 },
    paths: [
      { path: 'build', kind: 'directory', reason: 'build_output', detail: 'holds CMakeCache.txt: a CMake build tree' },
      { path: 'data/blob.c', kind: 'file', reason: 'binary', detail: 'holds NUL bytes in its first 8 KB: not text' },
      { path: 'gen/huge.h', kind: 'file', reason: 'too_large', detail: 'is 65.0 MB, more than the 64 MB plumb parses' },
      { path: 'rust/target', kind: 'directory', reason: 'build_output', detail: 'beside Cargo.toml: Cargo writes its output to target/' },
    ],
  };
  for (const [name, app] of [['embedded', embedded], ['writer', writer], ['replica', replica]] as const) {
    const status = await getJson(app, '/status');
    t.same(status.body.index.notIndexed, expected, `${name}: what is left out, with why`);
  }
  const markdown = await embedded.inject({ url: '/status?format=markdown' });
  t.match(markdown.body, /^Not indexed: 4 \(1 binary, 1 too_large, 2 build_output\)$/m);
  t.match(markdown.body, /^- `gen\/huge\.h` \(too_large\): is 65\.0 MB, more than the 64 MB plumb parses$/m);
  t.match(markdown.body, /^- `build\/` \(build_output\): holds CMakeCache\.txt: a CMake build tree$/m);

  const found = await getJson(embedded, '/symbols?query=REG_99999__SHIFT');
  t.same(found.body.results.map((r: { file: string; line: number }) => `${r.file}:${r.line}`), ['gen/regs.h:100000'], 'a 5 MB header of #defines is indexed');
  t.equal((await getJson(embedded, '/symbols?query=fixdep')).body.results[0]?.file, 'tools/build/fixdep.c');

  // The writer's watcher: a build tree made in tools/build, then gone again.
  write(root, 'tools/build/CMakeCache.txt', '# This is the CMakeCache file.\n');
  const added = await waitFor('the replica to list tools/build', async () => (await getJson(replica, '/status')).body.index.notIndexed, (n) => n?.byReason.build_output === 3, { timeoutMs: 20_000 });
  t.same(added.paths.map((p: { path: string }) => p.path), ['build', 'data/blob.c', 'gen/huge.h', 'rust/target', 'tools/build']);
  t.equal((await getJson(writer, '/symbols?query=fixdep')).body.results.length, 0, 'its files leave the index');
  rmSync(path.join(root, 'tools/build/CMakeCache.txt'));
  await waitFor('tools/build to leave the list', async () => (await getJson(writer, '/status')).body.index.notIndexed, (n) => n?.byReason.build_output === 2, { timeoutMs: 20_000 });
  await waitFor('tools/build/fixdep.c to come back', async () => (await getJson(writer, '/symbols?query=fixdep')).body.results.length, (n) => n === 1, { timeoutMs: 20_000 });
  t.pass('a build tree that goes is a source folder again');
});
