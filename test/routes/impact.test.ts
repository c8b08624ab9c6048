/**
 * /symbols/impact on real code with real servers: googletest with clangd (a function two callers deep and the
 * gtest TESTs that reach it; an abstract class through its inheritors and their overrides; a virtual method
 * through its overrides), Go's container/list with gopls (TestX functions two callers deep), zod's sources
 * (describe/test blocks in *.test.ts), each over HTTP and one over MCP.
 */
import { cpSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import t from 'tap';
import type { ImpactResponse, ImpactResult } from '../../schemas/impact.js';
import { corpusPath, requireCorpora, ZOD } from '../corpora.js';
import { GOOGLETEST, getJson, googletestCompileDb, startApp, tempDir } from '../helpers.js';
import { call, connectHttp, structured, textOf } from '../mcp/helpers.js';
import { indexReady, serverState } from '../wait.js';

function named(results: ImpactResult[], name: string, relation?: string): ImpactResult | undefined {
  return results.find((r) => ('qualifiedName' in r.symbol ? r.symbol.qualifiedName === name || r.symbol.name === name : r.symbol.name === name) && (!relation || r.relation === relation));
}

t.test('googletest with clangd', async (t) => {
  const build = googletestCompileDb(t, { shared: true });
  const app = await startApp(t, GOOGLETEST, { compileDatabase: { directory: build }, index: { watch: false } });
  await indexReady(app);
  await getJson(app, '/symbols/callers?symbol=testing::internal::CodePointToUtf8');
  await serverState(app, 'cpp', ['ready'], 300_000);

  t.test('a function two callers deep, with the tests that reach it', async (t) => {
    const { status, body } = await getJson<ImpactResponse>(app, '/symbols/impact?symbol=testing::internal::CodePointToUtf8&depth=2&limit=200');
    t.equal(status, 200);
    t.match(body, { depth: 2, symbol: { qualifiedName: 'testing::internal::CodePointToUtf8' } });
    const wide = named(body.results, 'testing::internal::WideStringToUtf8', 'call');
    t.match(wide, { distance: 1, precision: 'semantic', sites: [{ file: 'googletest/src/gtest.cc', text: /CodePointToUtf8\(/ }] }, 'its caller, from clangd');
    const stream = named(body.results, 'testing::internal::StreamWideCharsToMessage', 'call');
    t.match(stream, { distance: 2, via: { name: 'testing::internal::WideStringToUtf8' }, precision: 'semantic' }, 'the caller of its caller, through it');
    t.match(named(body.results, 'testing::internal::String::ShowWideCString', 'call'), { distance: 2 });
    const testNames = body.tests.map((test) => test.name);
    t.ok(testNames.includes('CodePointToUtf8Test.CanEncodeNul'), 'a gtest TEST calling it directly');
    t.match(body.tests.find((test) => test.name === 'CodePointToUtf8Test.CanEncodeNul'), { file: 'googletest/test/gtest_unittest.cc', distance: 1, line: 580 });
    const deeper = body.tests.filter((test) => test.name?.startsWith('WideStringToUtf8Test.'));
    t.ok(deeper.length >= 3, `the TESTs of its caller WideStringToUtf8 at distance 2 (${deeper.map((d) => d.name).join(', ')})`);
    t.ok(deeper.every((test) => test.distance === 2));
    const test = body.results.find((r) => r.test === 'CodePointToUtf8Test.CanEncodeAscii');
    t.match(test, { relation: 'call', distance: 1, precision: 'syntactic', symbol: { name: 'TEST', file: 'googletest/test/gtest_unittest.cc' } }, 'the test files clangd does not cover (outside the compile database) are read by name, and say so');
    t.equal(body.precision, 'mixed');
    t.ok(body.parts.some((part) => part.operation === 'find_callers' && part.precision === 'semantic'));
    t.ok(body.parts.some((part) => part.precision === 'syntactic' && /compile database/.test(part.reason ?? '')));
    t.match(body.files.find((f) => f.file === 'googletest/test/gtest_unittest.cc'), { distance: 1, test: true });
    t.match(body.files.find((f) => f.file === 'googletest/src/gtest.cc'), { distance: 1, test: false });
    t.equal(body.totalMatches, body.results.length);
    t.same(body.results.map((r) => r.distance), [...body.results.map((r) => r.distance)].sort((a, b) => a - b), 'nearest first');

    const page = await getJson<ImpactResponse>(app, '/symbols/impact?symbol=testing::internal::CodePointToUtf8&depth=2&limit=2&offset=1');
    t.match(page.body, { limit: 2, offset: 1, totalMatches: body.totalMatches, truncated: true });
    t.same(page.body.results.map((r) => r.symbol), body.results.slice(1, 3).map((r) => r.symbol), 'pages of the same list');
    const one = await getJson<ImpactResponse>(app, '/symbols/impact?symbol=testing::internal::CodePointToUtf8&depth=1');
    t.notOk(one.body.results.some((r) => r.distance > 1), 'depth 1 stops at the direct dependents');
  });

  t.test('an abstract class through its inheritors and their overrides', async (t) => {
    const { status, body } = await getJson<ImpactResponse>(app, '/symbols/impact?symbol=testing::TestEventListener&depth=1&limit=200');
    t.equal(status, 200);
    t.match(named(body.results, 'testing::EmptyTestEventListener', 'inherits'), { distance: 1, sites: [] }, 'a class deriving from it');
    t.match(named(body.results, 'testing::EmptyTestEventListener::OnTestStart', 'overrides'), { distance: 1, via: { name: 'testing::EmptyTestEventListener' } }, 'its override of a pure virtual method');
    t.ok(body.results.some((r) => r.relation === 'usage'), 'and its usages (types of parameters and fields)');
    t.ok(body.parts.some((part) => part.operation === 'find_inheritors' && part.relation === 'inherits'));
    t.notOk(body.results.some((r) => r.relation === 'usage' && 'id' in r.symbol && named(body.results, r.symbol.qualifiedName, 'inherits') && r.sites.every((s) => /:\s*public\s/.test(s.text ?? ''))), 'a base clause is the inheritor, not a usage besides');
  });

  t.test('a virtual method through its overrides, its callers and the tests calling it', async (t) => {
    const { body } = await getJson<ImpactResponse>(app, '/symbols/impact?symbol=OnTestStart&containingType=TestEventListener&depth=1&limit=200');
    t.match(named(body.results, 'testing::internal::StreamingListener::OnTestStart', 'overrides'), { distance: 1 });
    t.match(named(body.results, 'testing::TestInfo::Run', 'call'), { distance: 1, precision: 'semantic', sites: [{ text: /OnTestStart\(/ }] });
    t.ok(body.tests.some((test) => test.name === 'StreamingListenerTest.OnTestStart'), 'the TEST_F calling it');

    const md = await app.inject({ url: '/symbols/impact?symbol=OnTestStart&containingType=TestEventListener&depth=1&format=markdown' });
    t.match(md.body, /^# Impact of `testing::TestEventListener::OnTestStart`/);
    t.match(md.body, /\| 1 \| overrides \| testing::EmptyTestEventListener::OnTestStart \|/);
    t.match(md.body, /## Tests \(\d+\)[\s\S]*`StreamingListenerTest\.OnTestStart`/);
  });

  t.test('errors as every symbol operation gives them', async (t) => {
    t.equal((await getJson(app, '/symbols/impact?symbol=NoSuchSymbolAnywhere')).status, 404);
    t.equal((await getJson(app, '/symbols/impact?symbol=CodePointToUtf8&depth=6')).status, 400);
    t.equal((await getJson(app, '/symbols/impact?symbol=CodePointToUtf8&limit=201')).status, 400);
    const ambiguous = await getJson(app, '/symbols/impact?symbol=CmpHelperSTREQ');
    t.equal(ambiguous.status, 409, 'overloads are several symbols');
  });
});

t.test('Go (container/list with gopls): TestX functions two callers deep', async (t) => {
  if (!requireCorpora(t, 'go')) return;
  const root = tempDir(t, 'plumb-go-list-');
  cpSync(path.join(corpusPath('go'), 'src', 'container', 'list'), root, { recursive: true });
  writeFileSync(path.join(root, 'go.mod'), 'module example.com/list\n\ngo 1.19\n');
  for (const name of readdirSync(root).filter((n) => n.endsWith('.go'))) {
    const file = path.join(root, name);
    writeFileSync(file, readFileSync(file, 'utf8').replace(/"container\/list"/g, '"example.com/list"'));
  }
  const app = await startApp(t, root, { index: { watch: false } });
  await indexReady(app);
  const { status, body } = await getJson<ImpactResponse>(app, '/symbols/impact?symbol=insertValue&depth=2&limit=200');
  t.equal(status, 200);
  t.match(named(body.results, 'List.PushBack', 'call'), { distance: 1, precision: 'semantic' }, 'gopls\'s callers');
  t.match(named(body.results, 'List.PushBackList', 'call'), { distance: 1 });
  const tests = body.tests.map((test) => test.name);
  for (const name of ['TestList', 'TestExtending', 'TestRemove']) t.ok(tests.includes(name), `${name} calls PushBack or PushFront, which call it`);
  t.match(body.tests.find((test) => test.name === 'TestList'), { file: 'list_test.go', distance: 2 });
  t.ok(body.results.some((r) => r.test === 'TestList' && r.via !== undefined), 'the test names what it reaches it through');
  t.equal(body.precision, 'semantic');

  const { client } = await connectHttp(t, app);
  const result = await call(client, 'find_impact', { symbol: 'insertValue', depth: 2 });
  t.notOk(result.isError);
  t.match(textOf(result), /^# Impact of `List\.insertValue`/);
  t.match(textOf(result), /`TestList` — list_test\.go:\d+, distance 2/);
  t.equal((structured(result) as ImpactResponse).totalMatches, body.totalMatches, 'the same answer as the route');
});

t.test('TypeScript (zod): tests named by their describe/test blocks', async (t) => {
  const app = await startApp(t, path.join(ZOD, 'src', 'v4'), { index: { watch: false } });
  await indexReady(app);
  const { status, body } = await getJson<ImpactResponse>(app, '/symbols/impact?symbol=toDotPath&depth=2&limit=200');
  t.equal(status, 200);
  t.match(named(body.results, 'prettifyError', 'call'), { distance: 1 });
  const direct = body.tests.find((test) => test.name === 'z.toDotPath');
  t.match(direct, { file: 'classic/tests/error-utils.test.ts', distance: 1 }, 'the test block calling it');
  const through = body.tests.find((test) => test.name === 'z.prettifyError');
  t.match(through, { file: 'classic/tests/error-utils.test.ts', distance: 2 }, 'a test block calling its caller');
  t.ok(body.files.find((f) => f.file === 'classic/tests/error-utils.test.ts')?.test);
});
