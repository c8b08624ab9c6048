/** Inheritors, hierarchy and implementations on googletest with clangd and cmake's compile database. */
import t from 'tap';
import { GOOGLETEST, getJson, googletestCompileDb, startApp } from '../helpers.js';
import { indexReady } from '../index/helpers.js';

interface Result { id: string; name: string; qualifiedName: string; file: string; source: string; depth: number; via?: { name: string }; confidence?: string; containingType: string }

t.test('googletest: listeners, environments and their overrides', async (t) => {
  const build = googletestCompileDb(t, { shared: true });
  const app = await startApp(t, GOOGLETEST, { compileDatabase: { directory: build }, index: { watch: false } });
  await indexReady(app);
  const names = (results: Result[]): string[] => results.map((r) => r.name);

  t.test('TestEventListener: direct inheritors across headers and sources, then every level', async (t) => {
    const { status, body } = await getJson(app, '/symbols/inheritors?symbol=testing::TestEventListener');
    t.equal(status, 200);
    t.match(body.symbol, { qualifiedName: 'testing::TestEventListener', file: 'googletest/include/gtest/gtest.h' });
    for (const name of ['EmptyTestEventListener', 'PrettyUnitTestResultPrinter', 'BriefUnitTestResultPrinter', 'TestEventRepeater']) t.ok(names(body.results).includes(name), name);
    t.ok(body.results.every((r: Result) => r.depth === 1));
    t.equal(body.server.request, 'typeHierarchy/subtypes');
    t.match(body.results.find((r: Result) => r.name === 'EmptyTestEventListener'), { file: 'googletest/include/gtest/gtest.h', line: 975 });

    const all = await getJson(app, '/symbols/inheritors?symbol=testing::TestEventListener&depth=all');
    t.ok(all.body.totalMatches >= 15, `${all.body.totalMatches} at every depth`);
    const terse = all.body.results.find((r: Result) => r.name === 'TersePrinter');
    t.match(terse, { depth: 2, via: { name: 'EmptyTestEventListener' }, file: 'googletest/samples/sample9_unittest.cc' });
    t.ok(all.body.results.some((r: Result) => r.name === 'XmlUnitTestResultPrinter' && r.depth === 2));
  });

  t.test('testing::Environment: subclasses written `Environment` and `::testing::Environment`, confirmed by using-declarations', async (t) => {
    const { body } = await getJson(app, '/symbols/inheritors?symbol=testing::Environment&scope=user');
    for (const name of ['FooEnvironment', 'BarEnvironment', 'UnitTestRecordPropertyTestEnvironment']) t.ok(names(body.results).includes(name), name);
    t.equal(body.results.find((r: Result) => r.name === 'UnitTestRecordPropertyTestEnvironment').confidence, undefined, '`using testing::Environment;` confirms it despite a type alias of that name elsewhere');
  });

  t.test('hierarchy up through two levels and down', async (t) => {
    const up = await getJson(app, '/symbols/hierarchy?symbol=TersePrinter&direction=up');
    t.match(up.body.supertypes, [{ name: 'EmptyTestEventListener', supertypes: [{ name: 'TestEventListener', qualifiedName: 'testing::TestEventListener' }] }]);
    const down = await getJson(app, '/symbols/hierarchy?symbol=testing::TestEventListener&direction=down&depth=2');
    const empty = down.body.subtypes.find((n: { name: string }) => n.name === 'EmptyTestEventListener');
    t.ok(empty.subtypes.some((n: { name: string }) => n.name === 'TersePrinter'), 'TersePrinter under EmptyTestEventListener');
    const markdown = await app.inject({ method: 'GET', url: '/symbols/hierarchy?symbol=TersePrinter&direction=up&format=markdown' });
    t.match(markdown.body, /- \*\*testing::EmptyTestEventListener\*\*[^\n]*\n {2}- \*\*testing::TestEventListener\*\*/);
  });

  t.test('implementations of a virtual method', async (t) => {
    const { status, body } = await getJson(app, '/symbols/implementations?symbol=OnTestStart&containingType=TestEventListener');
    t.equal(status, 200);
    const owners = body.results.map((r: Result) => r.containingType);
    for (const owner of ['EmptyTestEventListener', 'PrettyUnitTestResultPrinter', 'BriefUnitTestResultPrinter', 'TestEventRepeater']) t.ok(owners.includes(owner), owner);
    t.equal(new Set(body.results.map((r: Result) => r.id)).size, body.results.length);
    const markdown = await app.inject({ method: 'GET', url: '/symbols/implementations?symbol=OnTestStart&containingType=TestEventListener&format=markdown' });
    t.match(markdown.body, /# Implementations of `testing::TestEventListener::OnTestStart`/);
  });
});
