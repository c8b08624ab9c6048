import { cpSync, mkdirSync, readdirSync } from 'node:fs';
import path from 'node:path';
import t from 'tap';
import { FLASK, GOOGLETEST, REPO, RXJS_SRC, getJson, startApp, tempDir } from '../helpers.js';
import { indexReady } from '../index/helpers.js';
import { call, connectHttp, structured, textOf } from '../mcp/helpers.js';

interface Member {
  id: string; name: string; kind: string; file: string; line: number; qualifiedName: string; signature: string; definition: boolean;
  static?: boolean; visibility?: string; inheritedFrom?: string; overrides?: { id: string; qualifiedName: string; inheritedFrom: string };
  definitionAt?: { id: string; file: string; line: number };
}
interface Base { name: string; resolved: boolean; id?: string; qualifiedName?: string; depth: number; via?: string }
interface Answer { symbol: { id: string; qualifiedName: string; kind: string; file: string }; bases: Base[]; results: Member[]; totalMatches: number; truncated: boolean }

const GO_HTTP = '/usr/share/go-1.19/src/net/http';

/** rxjs, flask, Go's net/http (top-level files) and the Unreal-style fixture; googletest as an extra root. */
function workspace(dir: string): string {
  const root = path.join(dir, 'ws');
  cpSync(RXJS_SRC, path.join(root, 'rxjs/src'), { recursive: true });
  cpSync(path.join(RXJS_SRC, '../package.json'), path.join(root, 'rxjs/package.json'));
  cpSync(FLASK, path.join(root, 'flask'), { recursive: true, filter: (src) => !src.includes('__pycache__') });
  mkdirSync(path.join(root, 'go/net/http'), { recursive: true });
  for (const file of readdirSync(GO_HTTP)) if (file.endsWith('.go')) cpSync(path.join(GO_HTTP, file), path.join(root, 'go/net/http', file));
  mkdirSync(path.join(root, 'unreal'), { recursive: true });
  cpSync(path.join(REPO, 'test/fixtures/syntax/MyCharacter.h'), path.join(root, 'unreal/MyCharacter.h'));
  return root;
}

const names = (members: Member[]): string[] => members.map((m) => m.name);

t.test('/symbols/members over rxjs, flask, net/http, an Unreal header and googletest', async (t) => {
  const app = await startApp(t, workspace(tempDir(t)), { index: { watch: false, extraRoots: [GOOGLETEST] } });
  await indexReady(app);

  t.test('C++: an ambiguous type is a 409 listing ids; by id, its members once each, in declaration order', async (t) => {
    const ambiguous = await getJson(app, '/symbols/members?symbol=testing::Test');
    t.equal(ambiguous.status, 409);
    t.equal(ambiguous.body.error.code, 'ambiguous_symbol');
    const candidates: Array<{ id: string; qualifiedName: string }> = ambiguous.body.error.candidates;
    t.same(candidates.map((c) => c.qualifiedName).sort(), ['my_namespace::testing::Test', 'testing::Test']);
    const id = candidates.find((c) => c.qualifiedName === 'testing::Test')!.id;
    const { status, body } = await getJson(app, `/symbols/members?id=${id}&limit=200`);
    t.equal(status, 200);
    const answer = body as Answer;
    t.equal(answer.symbol.qualifiedName, 'testing::Test');
    const members = answer.results;
    t.equal(members.filter((m) => m.name === 'Run').length, 1, 'Run declared in gtest.h and defined in gtest.cc is one member');
    const setUp = members.find((m) => m.name === 'SetUp')!;
    t.match(setUp, { kind: 'method', definition: false, visibility: 'protected', static: false });
    t.match(setUp.file, /googletest\/include\/gtest\/gtest\.h$/, 'the entry is the in-class declaration');
    t.match(setUp.definitionAt?.file, /googletest\/src\/gtest\.cc$/, 'pointing at its out-of-line definition');
    t.match(members.find((m) => m.name === 'HasFailure'), { visibility: 'public', static: true });
    t.match(members.find((m) => m.name === 'TestBody'), { visibility: 'private' });
    const lines = members.filter((m) => m.file === setUp.file).map((m) => m.line);
    t.same(lines, [...lines].sort((a, b) => a - b), 'declaration order');
    t.ok(members.every((m) => m.qualifiedName.startsWith('testing::Test::')), 'nothing of my_namespace::testing::Test');
  });

  t.test('C++ with a base: overrides always, inherited members on request', async (t) => {
    const own = (await getJson(app, '/symbols/members?symbol=QueueTest')).body as Answer;
    t.same(own.bases.map((b) => [b.qualifiedName, b.depth]), [['QuickTest', 1], ['testing::Test', 2]], 'bases resolved transitively');
    t.equal(own.bases[1].via, 'QuickTest');
    t.same(names(own.results), ['SetUp', 'q0_', 'q1_', 'q2_']);
    t.match(own.results[0].overrides, { qualifiedName: 'QuickTest::SetUp', inheritedFrom: 'QuickTest' });
    t.ok(own.results.every((m) => m.inheritedFrom === undefined));

    const all = (await getJson(app, '/symbols/members?symbol=QueueTest&inherited=true&limit=200')).body as Answer;
    t.equal(all.results.filter((m) => m.name === 'SetUp').length, 1, 'an overridden member appears once');
    t.equal(all.results.find((m) => m.name === 'SetUp')!.inheritedFrom, undefined, 'as the override');
    t.match(all.results.find((m) => m.name === 'TearDown'), { inheritedFrom: 'QuickTest' }, 'QuickTest\'s override hides testing::Test\'s');
    t.match(all.results.find((m) => m.name === 'HasFailure'), { inheritedFrom: 'testing::Test', static: true });
    t.notOk(all.results.some((m) => m.kind === 'constructor' || m.name.startsWith('~')), 'constructors and destructors are not inherited');
    const methods = (await getJson(app, '/symbols/members?symbol=QueueTest&inherited=true&kind=method&limit=200')).body as Answer;
    t.ok(methods.results.length > 5 && methods.results.every((m) => m.kind === 'method'), 'kind filters the members');
  });

  t.test('C++ under annotation macros: the members, not the macros', async (t) => {
    const { body } = await getJson(app, '/symbols/members?symbol=AMyCharacter');
    const answer = body as Answer;
    t.same(names(answer.results), ['CameraBoom', 'OnHealthChanged', 'SpawnClasses', 'GetHealth', 'GetLifetimeReplicatedProps', 'GetHP', 'SetupPlayerInputComponent', 'Health', 'ServerFire']);
    t.match(answer.results.find((m) => m.name === 'CameraBoom'), { kind: 'field', visibility: 'public' });
    t.match(answer.results.find((m) => m.name === 'SetupPlayerInputComponent'), { visibility: 'protected' });
    t.match(answer.results.find((m) => m.name === 'ServerFire'), { visibility: 'private' });
    t.same(answer.bases.map((b) => [b.name, b.resolved]), [['ACharacter', false], ['IDamageable', true]], 'an engine base outside the index is named, unresolved');
  });

  t.test('TypeScript: rxjs Subject extends Observable', async (t) => {
    const own = (await getJson(app, '/symbols/members?symbol=Subject&package=rxjs')).body as Answer;
    t.match(own.symbol, { qualifiedName: 'Subject', kind: 'class', file: 'rxjs/src/internal/Subject.ts' });
    t.match(own.bases[0], { name: 'Observable', resolved: true, qualifiedName: 'Observable', depth: 1 });
    const own_ = names(own.results);
    for (const name of ['observers', 'next', 'error', 'complete', 'lift', 'asObservable']) t.ok(own_.includes(name), `Subject.${name}`);
    t.notOk(own_.includes('pipe'), 'no inherited member without inherited=true');
    t.match(own.results.find((m) => m.name === 'lift')!.overrides, { qualifiedName: 'Observable.lift', inheritedFrom: 'Observable' });
    t.match(own.results.find((m) => m.name === 'create'), { static: true });
    t.match(own.results.find((m) => m.name === '_throwIfClosed'), { visibility: 'protected' });
    t.match(own.results.find((m) => m.name === 'currentObservers'), { visibility: 'private' });

    const all = (await getJson(app, '/symbols/members?symbol=Subject&package=rxjs&inherited=true&limit=200')).body as Answer;
    t.match(all.results.find((m) => m.name === 'pipe'), { inheritedFrom: 'Observable', file: 'rxjs/src/internal/Observable.ts' });
    t.equal(all.results.filter((m) => m.name === 'lift').length, 1, 'lift once: Subject\'s');
    t.equal(all.results.find((m) => m.name === 'lift')!.inheritedFrom, undefined);
    t.ok(all.totalMatches > own.totalMatches);
    t.ok(names(all.results).indexOf('asObservable') < names(all.results).indexOf('pipe'), 'own members before inherited ones');
  });

  t.test('Python: methods, class attributes and self.x fields of __init__', async (t) => {
    const config = (await getJson(app, '/symbols/members?symbol=flask.config.Config')).body as Answer;
    t.match(config.results.find((m) => m.name === 'root_path'), { kind: 'field', file: 'flask/config.py' }, 'self.root_path = ... in __init__');
    t.ok(names(config.results).includes('from_pyfile'));
    t.same(config.bases, [{ name: 'dict', resolved: false, depth: 1 }], 'a builtin base is named, unresolved');
    const flask = (await getJson(app, '/symbols/members?symbol=Flask&language=python&inherited=true&limit=200')).body as Answer;
    t.match(flask.results.find((m) => m.name === 'request_class'), { kind: 'field' }, 'a class attribute');
    t.match(flask.results.find((m) => m.name === 'route'), { inheritedFrom: 'Scaffold' });
    t.equal(flask.results.filter((m) => m.name === '__init__').length, 1, 'Flask.__init__ overrides Scaffold.__init__');
    t.match(flask.results.find((m) => m.name === '__init__')!.overrides, { inheritedFrom: 'Scaffold' });
  });

  t.test('Go: a struct\'s receiver methods from every file of its package', async (t) => {
    const transport = (await getJson(app, '/symbols/members?symbol=Transport&language=go&limit=200')).body as Answer;
    t.match(transport.symbol, { kind: 'struct', file: 'go/net/http/transport.go' });
    const roundTrip = transport.results.find((m) => m.name === 'RoundTrip');
    t.ok(roundTrip && /roundtrip(_js)?\.go$/.test(roundTrip.file), 'RoundTrip from roundtrip.go');
    t.match(transport.results.find((m) => m.name === 'roundTrip'), { file: 'go/net/http/transport.go', visibility: 'package' });
    t.match(transport.results.find((m) => m.name === 'Proxy'), { kind: 'field', visibility: 'public' });
    const fields = transport.results.filter((m) => m.kind === 'field').length;
    t.ok(transport.results.slice(0, fields).every((m) => m.kind === 'field'), 'the struct\'s fields first, then its methods');
  });

  t.test('errors and markdown', async (t) => {
    const notAType = await getJson(app, '/symbols/members?symbol=testing::Test::SetUp');
    t.equal(notAType.status, 404);
    t.match(notAType.body.error.message, /needs a type/);
    const missing = await getJson(app, '/symbols/members?symbol=NoSuchType');
    t.equal(missing.status, 404);
    t.equal(missing.body.error.message, "Symbol 'NoSuchType' not found");
    t.equal((await getJson(app, '/symbols/members')).status, 400);
    t.equal((await getJson(app, '/symbols/members?symbol=Subject&kind=klass')).status, 400);
    const alias = await getJson(app, '/members?symbol=QueueTest');
    t.equal(alias.status, 200, '/members answers too');
    const markdown = (await app.inject({ method: 'GET', url: '/symbols/members?symbol=QueueTest&inherited=true&format=markdown' })).body;
    t.match(markdown, /^# Members of `QueueTest` \(Class, .*sample5_unittest\.cc:\d+, id `[\w-]+`\)/);
    t.match(markdown, /Bases: QuickTest, id `[\w-]+`; testing::Test, id `[\w-]+` via QuickTest/);
    t.match(markdown, /\| Name \| Kind \| Line \| Signature \| Inherited from \| Id \|/);
    t.match(markdown, /\| SetUp \| Method \(protected\) \| \d+ \| void SetUp\(\) override \| overrides QuickTest::SetUp \| [\w-]+ \|/);
    t.match(markdown, /\| HasFailure \| Method \(public, static\) \| .* \| testing::Test \| [\w-]+ \|/);
  });

  t.test('MCP: list_members', async (t) => {
    const { client } = await connectHttp(t, app);
    const result = await call(client, 'list_members', { symbol: 'Subject', package: 'rxjs', inherited: true, kind: 'method' });
    t.notOk(result.isError, result.isError ? textOf(result) : 'answered');
    const answer = structured<Answer>(result);
    t.ok(answer.results.every((m) => m.kind === 'method'));
    t.ok(answer.results.some((m) => m.name === 'pipe' && m.inheritedFrom === 'Observable'));
    t.match(textOf(result), /# Members of `Subject`/);
    const ambiguous = await call(client, 'list_members', { symbol: 'testing::Test' });
    t.equal(ambiguous.isError, true);
    t.match(textOf(ambiguous), /ambiguous/);
  });
});
