import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import t, { type Test } from 'tap';
import {
  compileDatabaseCacheDir,
  findCompileDatabase,
  parseCompileCommands,
  prepareCompileDatabase,
  rewriteCompileCommands,
  responseFileText,
  synthesizeCompileCommands,
  type CompileCommand,
} from '../../src/lsp/compile-db.js';
import { GOOGLETEST } from './helpers.js';

const DEFAULTS = { standard: 'c++17', cStandard: 'c11', defines: [] as string[] };

/** The arguments as clang sees them: each `@file` replaced by the response file's lines (unquoted). */
function expanded(args: readonly string[]): string[] {
  return args.flatMap((arg) => (arg.startsWith('@')
    ? readFileSync(arg.slice(1), 'utf8').split('\n').filter(Boolean).map((line) => (line.startsWith('"') ? line.slice(1, -1).replace(/\\(["\\])/g, '$1') : line))
    : [arg]));
}

function tempDir(t: Test): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'plumb-cdb-test-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

t.test('relative directory and file become absolute, as clang reads them', async (t) => {
  const entries: CompileCommand[] = [
    { directory: 'build', file: '../src/a.cc', arguments: ['c++', '-Iinclude', '-c', '../src/a.cc'], output: 'a.o' },
    { directory: '/abs/dir', file: '/abs/dir/b.cc', command: 'c++ -c b.cc' },
  ];
  const { entries: rewritten, changed } = rewriteCompileCommands(entries, '/work/proj');
  t.ok(changed);
  t.same(rewritten[0], { directory: '/work/proj/build', file: '/work/proj/src/a.cc', arguments: ['c++', '-Iinclude', '-c', '../src/a.cc'], output: '/work/proj/build/a.o' });
  t.same(rewritten[1], entries[1], 'absolute entries are kept as they are');
  t.notOk(rewriteCompileCommands([entries[1]], '/x').changed, 'nothing to rewrite when every path is absolute');
});

t.test('a broken database is a server_unavailable naming the file, and bad entries are dropped', async (t) => {
  t.throws(() => parseCompileCommands('{', '/p/compile_commands.json'), { code: 'server_unavailable', message: /compile_commands\.json.*not valid JSON/ });
  t.throws(() => parseCompileCommands('{}', '/p/compile_commands.json'), { code: 'server_unavailable' });
  t.equal(parseCompileCommands('[{"directory":"/d","file":"a.c","command":"cc a.c"},{"file":"b.c"}]', 'x').length, 1);
});

t.test('the database is looked for at the configured directory, ROOT, ROOT/build, ROOT/out', async (t) => {
  const root = tempDir(t);
  t.equal(findCompileDatabase(root), undefined);
  mkdirSync(path.join(root, 'out'));
  writeFileSync(path.join(root, 'out', 'compile_commands.json'), '[]');
  t.equal(findCompileDatabase(root), path.join(root, 'out', 'compile_commands.json'));
  mkdirSync(path.join(root, 'build'));
  writeFileSync(path.join(root, 'build', 'compile_commands.json'), '[]');
  t.equal(findCompileDatabase(root), path.join(root, 'build', 'compile_commands.json'));
  mkdirSync(path.join(root, 'cmake-out'));
  writeFileSync(path.join(root, 'cmake-out', 'compile_commands.json'), '[]');
  t.equal(findCompileDatabase(root, 'cmake-out'), path.join(root, 'cmake-out', 'compile_commands.json'));
});

t.test('a workspace database with relative paths is rewritten into the cache', async (t) => {
  const root = tempDir(t);
  const cacheDir = tempDir(t);
  mkdirSync(path.join(root, 'build'));
  writeFileSync(path.join(root, 'build', 'compile_commands.json'), JSON.stringify([{ directory: '.', file: '../main.cc', arguments: ['c++', '-c', '../main.cc'] }]));
  const database = await prepareCompileDatabase({ root, cacheDir, config: DEFAULTS });
  const expected = path.join(compileDatabaseCacheDir(cacheDir, root), 'compile_commands.json');
  t.match(database, { path: expected, synthesized: false, rewritten: true, source: path.join(root, 'build', 'compile_commands.json'), entries: 1 });
  t.same(database.clangdArgs, [`--compile-commands-dir=${path.dirname(expected)}`]);
  const written = JSON.parse(readFileSync(expected, 'utf8'));
  t.same(written[0], { directory: path.join(root, 'build'), file: path.join(root, 'main.cc'), arguments: ['c++', '-c', '../main.cc'] });
});

t.test('an absolute workspace database is used where it is', async (t) => {
  const root = tempDir(t);
  const cacheDir = tempDir(t);
  writeFileSync(path.join(root, 'compile_commands.json'), JSON.stringify([{ directory: root, file: path.join(root, 'a.c'), command: 'cc -c a.c' }]));
  const database = await prepareCompileDatabase({ root, cacheDir, config: DEFAULTS });
  t.match(database, { path: path.join(root, 'compile_commands.json'), synthesized: false, rewritten: false });
  t.same(database.clangdArgs, [`--compile-commands-dir=${root}`]);
});

t.test('without a database, one is synthesized from googletest with every source and -I for header directories', async (t) => {
  const cacheDir = tempDir(t);
  const config = { standard: 'c++20', cStandard: 'c17', defines: ['GTEST_HAS_PTHREAD=1', 'PLUMB'] };
  const database = await prepareCompileDatabase({ root: GOOGLETEST, cacheDir, config });
  t.equal(database.synthesized, true);
  t.equal(database.path, path.join(compileDatabaseCacheDir(cacheDir, GOOGLETEST), 'compile_commands.json'));
  const entries: CompileCommand[] = JSON.parse(readFileSync(database.path, 'utf8'));
  t.equal(entries.length, database.entries);
  const files = entries.map((entry) => entry.file);
  t.ok(files.includes(path.join(GOOGLETEST, 'googletest/src/gtest.cc')), 'gtest.cc is there');
  t.ok(files.includes(path.join(GOOGLETEST, 'googlemock/src/gmock.cc')), 'gmock.cc is there');
  t.ok(files.every((file) => /\.(cc|cpp|c)$/.test(file)), 'only sources, no headers');
  const written = entries.find((entry) => entry.file.endsWith('gtest.cc'))!.arguments!;
  t.equal(written.length, 5, 'the flags every source shares are in one response file, not in each entry');
  t.match(written[2], /^@.*flags\.rsp$/);
  const args = expanded(written);
  t.equal(args[0], 'clang++');
  t.ok(args.includes('-std=c++20'));
  t.ok(args.includes('-DGTEST_HAS_PTHREAD=1') && args.includes('-DPLUMB'));
  t.ok(args.includes(`-I${path.join(GOOGLETEST, 'googletest/include/gtest')}`), 'a directory holding headers');
  t.ok(args.includes(`-I${path.join(GOOGLETEST, 'googletest/include')}`), 'the include/ directory code includes "gtest/gtest.h" through');
  t.ok(args.includes(`-I${path.join(GOOGLETEST, 'googlemock/include')}`));
  t.ok(args.includes(`-I${path.join(GOOGLETEST, 'googletest')}`), 'a CMake project root, which gtest.cc includes "src/gtest-internal-inl.h" from');
  t.notOk(args.some((arg) => arg.includes('/docs')), 'directories without headers are not on the include path');
});

t.test('synthesis skips node_modules, .git and build directories and uses the C standard for .c files', async (t) => {
  const root = tempDir(t);
  for (const dir of ['src', 'node_modules/dep', '.git', 'build', 'include/lib']) mkdirSync(path.join(root, dir), { recursive: true });
  writeFileSync(path.join(root, 'build/build.ninja'), '');
  writeFileSync(path.join(root, 'src/a.c'), 'int a;');
  writeFileSync(path.join(root, 'src/b.cpp'), 'int b;');
  writeFileSync(path.join(root, 'node_modules/dep/c.cc'), '');
  writeFileSync(path.join(root, 'build/d.cc'), '');
  writeFileSync(path.join(root, 'include/lib/x.h'), '');
  const { entries, flags } = await synthesizeCompileCommands(root, DEFAULTS, path.join(root, 'flags.rsp'));
  t.same(entries.map((entry) => path.relative(root, entry.file)), ['src/a.c', 'src/b.cpp']);
  t.same(entries[0].arguments!.slice(0, 3), ['clang', '-std=c11', `@${path.join(root, 'flags.rsp')}`]);
  t.ok(flags.includes(`-I${path.join(root, 'include/lib')}`));
  t.ok(flags.includes(`-I${path.join(root, 'include')}`));
});

t.test('synthesis tells build output as the index does: a source folder named target, build or out is walked, a build tree is not', async (t) => {
  const root = tempDir(t);
  const dirs = ['drivers/target', 'tools/build', 'out', 'cmake-build-debug', 'build', 'rust/target/debug', 'include/target'];
  for (const dir of dirs) mkdirSync(path.join(root, dir), { recursive: true });
  writeFileSync(path.join(root, 'drivers/target/core.c'), 'int core;');
  writeFileSync(path.join(root, 'tools/build/fixdep.c'), 'int fixdep;');
  writeFileSync(path.join(root, 'out/gen.cc'), 'int gen;');
  writeFileSync(path.join(root, 'include/target/core.h'), '');
  // CMake's build trees (any name, CLion's cmake-build-debug too), and Cargo's target/ beside Cargo.toml.
  writeFileSync(path.join(root, 'cmake-build-debug/CMakeCache.txt'), '');
  writeFileSync(path.join(root, 'cmake-build-debug/x.cc'), '');
  writeFileSync(path.join(root, 'build/CMakeCache.txt'), '');
  writeFileSync(path.join(root, 'build/y.cc'), '');
  writeFileSync(path.join(root, 'rust/Cargo.toml'), '[package]');
  writeFileSync(path.join(root, 'rust/target/debug/z.c'), '');
  const { entries, flags } = await synthesizeCompileCommands(root, DEFAULTS, path.join(root, 'flags.rsp'));
  t.same(entries.map((entry) => path.relative(root, entry.file)), ['drivers/target/core.c', 'out/gen.cc', 'tools/build/fixdep.c']);
  t.ok(flags.includes(`-I${path.join(root, 'include/target')}`), 'a header folder named target is on the include path');
});

t.test('response files quote what needs it, as clang reads them', async (t) => {
  t.equal(responseFileText(['-Iplain', '-I/a dir/with space', '-DQ="x"', '-Dback\\slash']), '-Iplain\n"-I/a dir/with space"\n"-DQ=\\"x\\""\n"-Dback\\\\slash"\n');
});

t.test('a tree of many sources and header directories gives a database whose size does not grow with both', async (t) => {
  const root = tempDir(t);
  for (let d = 0; d < 300; d++) {
    mkdirSync(path.join(root, `dir${d}`));
    writeFileSync(path.join(root, `dir${d}`, `h${d}.h`), '');
    for (let f = 0; f < 10; f++) writeFileSync(path.join(root, `dir${d}`, `s${f}.c`), '');
  }
  const cacheDir = tempDir(t);
  const database = await prepareCompileDatabase({ root, cacheDir, config: { ...DEFAULTS, directory: undefined } as never });
  t.equal(database.entries, 3000);
  const size = readFileSync(database.path).length;
  t.ok(size < 3000 * 400, `${size} bytes for 3,000 sources and 300 header directories (inline -I flags would take ${3000 * 300 * 20} or more)`);
  const rsp = readFileSync(path.join(compileDatabaseCacheDir(cacheDir, root), 'flags.rsp'), 'utf8');
  t.equal(rsp.split('\n').filter((line) => line.startsWith('-I')).length, 301, 'each header directory once, and the root');
});
