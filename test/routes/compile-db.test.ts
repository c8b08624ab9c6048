import { cpSync, existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import t from 'tap';
import { GOOGLETEST, getJson, startApp, tempDir } from '../helpers.js';

t.test('C++ without a compile database: plumb synthesizes one and clangd answers', async (t) => {
  const root = tempDir(t, 'plumb-gtest-copy-');
  // googletest's sources without its CMake build: nothing tells clangd the flags.
  cpSync(path.join(GOOGLETEST, 'googletest'), path.join(root, 'googletest'), { recursive: true });
  const app = await startApp(t, root, { compileDatabase: { standard: 'c++14', defines: ['GTEST_HAS_PTHREAD=1'] } });
  const { status, body } = await getJson(app, '/outline?file=googletest/src/gtest-test-part.cc');
  t.equal(status, 200);
  const ns = body.results.find((n: { name: string }) => n.name === 'testing');
  t.ok(ns, 'namespace testing');
  t.ok(ns.children.some((n: { name: string }) => /ExtractSummary/.test(n.name)), 'out-of-line TestPartResult::ExtractSummary listed');

  const server = (await getJson(app, '/status')).body.servers.find((s: { language: string }) => s.language === 'cpp');
  t.equal(server.compileDatabase.synthesized, true, 'status says the database is synthesized');
  const dbPath: string = server.compileDatabase.path;
  t.ok(!dbPath.startsWith(root), 'written into plumb\'s cache, not the workspace');
  t.ok(existsSync(dbPath));
  const entries: { file: string; directory: string; arguments?: string[]; command?: string }[] = JSON.parse(readFileSync(dbPath, 'utf8'));
  const files = entries.map((e) => e.file);
  t.ok(files.some((f) => f.endsWith('googletest/src/gtest.cc')), 'every C/C++ source file is in it');
  t.ok(files.every((f) => path.isAbsolute(f)), 'absolute paths');
  const written = entries[0].arguments ?? entries[0].command!.split(' ');
  // The flags every source shares are in one response file the entries name (@flags.rsp), which clangd expands.
  const args = written.map((arg) => (arg.startsWith('@') ? readFileSync(arg.slice(1), 'utf8') : arg)).join(' ');
  t.match(args, /-std=c\+\+14/, 'the configured standard');
  t.match(args, /-DGTEST_HAS_PTHREAD=1/, 'the configured defines');
  t.match(args, new RegExp(`-I\\s?${path.join(root, 'googletest/include').replace(/[.+]/g, '\\$&')}`), '-I for directories holding headers');
});
