/**
 * Inheritors, hierarchy and implementations over real TypeScript (zod, rxjs) and Python (flask), with the
 * native TypeScript server, plus small fixtures for what real trees rarely show in one place: a Python base
 * written `module.Base` and through an import alias, two classes of one name told apart by imports.
 */
import { cpSync } from 'node:fs';
import path from 'node:path';
import t from 'tap';
import { getJson, REPO, startApp, tempDir } from '../helpers.js';
import { indexReady, polyglotWorkspace } from '../index/helpers.js';
import { call, connectHttp, structured, textOf } from '../mcp/helpers.js';

interface Result { id: string; name: string; qualifiedName: string; file: string; source: string; depth: number; via?: { name: string }; confidence?: string; base?: string; kind: string }
interface Node { name: string; id?: string; external?: boolean; written?: string; supertypes?: Node[]; subtypes?: Node[]; cycle?: boolean }

const FIXTURES = path.join(REPO, 'test/fixtures/hierarchy');

t.test('inheritors, hierarchy and implementations over zod, rxjs, flask and fixtures', async (t) => {
  const root = polyglotWorkspace(tempDir(t));
  cpSync(path.join(FIXTURES, 'python'), path.join(root, 'pyfix'), { recursive: true });
  cpSync(path.join(FIXTURES, 'ts'), path.join(root, 'tsfix'), { recursive: true });
  const app = await startApp(t, root, { index: { watch: false } });
  await indexReady(app);
  const names = (body: { results: Result[] }): string[] => body.results.map((r) => r.name);

  t.test('zod@3 ZodType: every direct subclass, from the index and the TypeScript server', async (t) => {
    const { status, body } = await getJson(app, '/symbols/inheritors?symbol=ZodType&kind=class');
    t.equal(status, 200);
    t.match(body.symbol, { name: 'ZodType', kind: 'class', file: 'zod/src/v3/types.ts' });
    t.equal(body.depth, 1);
    t.ok(body.totalMatches >= 30, `${body.totalMatches} direct subclasses`);
    for (const name of ['ZodString', 'ZodNumber', 'ZodObject', 'ZodEffects', 'ZodOptional', 'ZodBranded']) t.ok(names(body).includes(name), name);
    t.ok(body.results.every((r: Result) => r.depth === 1 && r.via === undefined && r.file === 'zod/src/v3/types.ts'));
    t.equal(body.server.request, 'textDocument/implementation');
    t.ok(body.results.filter((r: Result) => r.source === 'both').length >= 30, 'the server confirms them');
    t.equal(body.limit, 100);

    const all = await getJson(app, '/symbols/inheritors?symbol=ZodType&kind=class&depth=all');
    t.equal(all.body.depth, 'all');
    t.ok(all.body.totalMatches >= body.totalMatches);
    t.equal(new Set(all.body.results.map((r: Result) => r.id)).size, all.body.results.length, 'each type once');

    const paged = await getJson(app, '/symbols/inheritors?symbol=ZodType&kind=class&limit=10&offset=10');
    t.equal(paged.body.results.length, 10);
    t.equal(paged.body.truncated, true);
    t.same(paged.body.results.map((r: Result) => r.id), body.results.slice(10, 20).map((r: Result) => r.id), 'pages the same list');
  });

  t.test('rxjs Subject and Subscriber: depth all with via', async (t) => {
    const { body } = await getJson(app, '/symbols/inheritors?symbol=Subject&package=rxjs&depth=all');
    for (const name of ['BehaviorSubject', 'ReplaySubject', 'AsyncSubject', 'AnonymousSubject']) t.ok(names(body).includes(name), name);
    const subscriber = await getJson(app, '/symbols/inheritors?symbol=Subscriber&package=rxjs&depth=all');
    t.ok(names(subscriber.body).includes('SafeSubscriber'));
    const operator = subscriber.body.results.find((r: Result) => r.name === 'OperatorSubscriber');
    t.match(operator, { depth: 1, file: 'rxjs/src/internal/operators/OperatorSubscriber.ts', base: 'Subscriber<T>' });
    const deep = await getJson(app, '/symbols/inheritors?symbol=Observable&package=rxjs&depth=2');
    const behavior = deep.body.results.find((r: Result) => r.name === 'BehaviorSubject');
    t.match(behavior, { depth: 2, via: { name: 'Subject' } }, 'depth 2 says which type it derives through');
  });

  t.test('TypeScript interfaces: implementing classes and extending interfaces', async (t) => {
    const { body } = await getJson(app, '/symbols/inheritors?symbol=Shape&language=typescript');
    t.same(names(body).sort(), ['Solid', 'Sq'], 'direct: the interface extending it and the class implementing it');
    const sq = body.results.find((r: Result) => r.name === 'Sq');
    t.equal(sq.source, 'both', 'the TypeScript server confirms the implementation');
    const all = await getJson(app, '/symbols/inheritors?symbol=Shape&language=typescript&depth=all');
    t.match(all.body.results.find((r: Result) => r.name === 'Cube'), { depth: 2, via: { name: 'Solid' } });
  });

  t.test('two classes of one name: imports say which one a subclass means', async (t) => {
    const a = await getJson(app, '/symbols/inheritors?symbol=Widget&language=typescript');
    t.equal(a.status, 409, 'Widget names two classes');
    const ids = a.body.error.candidates.map((c: { id: string; file: string }) => c);
    const widgetA = ids.find((c: { file: string }) => c.file === 'tsfix/widget-a.ts');
    const widgetB = ids.find((c: { file: string }) => c.file === 'tsfix/widget-b.ts');
    const ofA = await getJson(app, `/symbols/inheritors?id=${widgetA.id}`);
    t.same(names(ofA.body), ['Fancy'], "widget-a's Widget: Fancy imports it");
    t.equal(ofA.body.results[0].confidence, undefined, 'confirmed by the import');
    const ofB = await getJson(app, `/symbols/inheritors?id=${widgetB.id}`);
    t.same(names(ofB.body), ['Plain'], "widget-b's Widget: Plain extends it through an alias (import { Widget as W })");
    t.match(ofB.body.results[0], { base: 'W' });
  });

  t.test('Python: flask Scaffold, a base written module.Base and one through an import alias', async (t) => {
    const scaffold = await getJson(app, '/symbols/inheritors?symbol=Scaffold&language=python');
    t.equal(scaffold.status, 200);
    t.same(names(scaffold.body).sort(), ['Blueprint', 'Flask']);
    t.match(scaffold.body.server, { language: 'Python', request: null, state: 'unsupported', reason: /serves neither typeHierarchy\/subtypes nor textDocument\/implementation/ }, 'pyright serves no hierarchy: the index answers');
    t.equal(scaffold.body.partial, undefined, 'an unsupported request is not a partial answer');
    t.equal(scaffold.body.source, 'index');

    const shapes = await getJson(app, '/symbols?query=Shape&match=exact&language=python');
    const base = shapes.body.results.find((s: { file: string }) => s.file === 'pyfix/shapes/base.py');
    const other = shapes.body.results.find((s: { file: string }) => s.file === 'pyfix/shapes/other.py');
    const ofBase = await getJson(app, `/symbols/inheritors?id=${base.id}`);
    t.same(names(ofBase.body).sort(), ['Circle', 'Square'], 'base.Shape and `Shape as BaseShape`; not Blob, which imports the other Shape');
    t.match(ofBase.body.results.find((r: Result) => r.name === 'Circle'), { base: 'base.Shape', source: 'index' });
    t.match(ofBase.body.results.find((r: Result) => r.name === 'Square'), { base: 'BaseShape' });
    t.ok(ofBase.body.results.every((r: Result) => r.confidence === undefined), 'both confirmed by their imports');
    const ofOther = await getJson(app, `/symbols/inheritors?id=${other.id}`);
    t.same(names(ofOther.body), ['Blob']);
    const deep = await getJson(app, `/symbols/inheritors?id=${base.id}&depth=all`);
    t.match(deep.body.results.find((r: Result) => r.name === 'Cube'), { depth: 2, via: { name: 'Square' } });
  });

  t.test('hierarchy: up through two bases, down several levels', async (t) => {
    const { status, body } = await getJson(app, '/symbols/hierarchy?symbol=BehaviorSubject&package=rxjs&direction=up&depth=3');
    t.equal(status, 200);
    t.same(body.subtypes, []);
    const subject: Node = body.supertypes[0];
    t.match(subject, { name: 'Subject', written: 'Subject<T>' });
    const bases = (subject.supertypes ?? []).map((n) => n.name).sort();
    t.same(bases, ['Observable', 'SubscriptionLike'], 'Subject extends Observable and implements SubscriptionLike');
    const observable = subject.supertypes!.find((n) => n.name === 'Observable')!;
    t.ok(observable.id && observable.external === false, 'resolved to the index');
    // Observable<T> implements Subscribable<T>: three levels up.
    t.same((observable.supertypes ?? []).map((n) => n.name), ['Subscribable']);

    const down = await getJson(app, '/symbols/hierarchy?symbol=Observable&package=rxjs&direction=down&depth=3');
    const subjectDown: Node = down.body.subtypes.find((n: Node) => n.name === 'Subject');
    t.ok(subjectDown, 'Subject under Observable');
    t.ok((subjectDown.subtypes ?? []).some((n) => n.name === 'BehaviorSubject'), 'BehaviorSubject under Subject');
    t.ok(down.body.nodes > 5);

    const external = await getJson(app, '/symbols/hierarchy?symbol=Flask&language=python&direction=up&depth=1');
    t.same(external.body.supertypes.map((n: Node) => n.name), ['Scaffold']);
    const config = await getJson(app, '/symbols/hierarchy?symbol=Config&package=flask&kind=class&direction=up');
    t.match(config.body.supertypes, [{ name: 'dict', external: true }], 'a base outside the index is external, by name');

    const markdown = await app.inject({ method: 'GET', url: '/symbols/hierarchy?symbol=BehaviorSubject&package=rxjs&direction=up&format=markdown' });
    t.match(markdown.body, /## Supertypes \(bases\)\n\n- \*\*Subject\*\*.*\n {2}- \*\*(Observable|SubscriptionLike)\*\*/);
  });

  t.test('implementations: overrides of a method and implementations of an interface method', async (t) => {
    const next = await getJson(app, '/symbols/implementations?symbol=next&containingType=Subject&package=rxjs');
    t.equal(next.status, 200);
    t.match(next.body.symbol, { name: 'next', containingType: 'Subject' });
    const owners = next.body.results.map((r: Result & { containingType: string }) => r.containingType);
    t.ok(owners.includes('BehaviorSubject') && owners.includes('ReplaySubject'), `overrides in ${owners.join(', ')}`);
    const area = await getJson(app, '/symbols/implementations?symbol=area&containingType=Shape&language=typescript');
    t.same(area.body.results.map((r: Result & { containingType: string }) => r.containingType).sort(), ['Cube', 'Sq']);
    t.ok(area.body.results.some((r: Result) => r.source === 'both'), 'the TypeScript server confirms');
    const py = await getJson(app, `/symbols/implementations?symbol=area&containingType=Shape&language=python`);
    t.same(py.body.results.map((r: Result & { containingType: string }) => r.containingType).sort(), ['Circle', 'Square']);
  });

  t.test('errors: a non-type, bad depth, unknown name', async (t) => {
    const fn = await getJson(app, '/symbols/inheritors?symbol=pipe&package=rxjs&kind=function');
    t.equal(fn.status, 404);
    t.match(fn.body.error.message, /needs a type/);
    const depth = await getJson(app, '/symbols/inheritors?symbol=Scaffold&depth=11');
    t.equal(depth.status, 400);
    t.match(depth.body.error.message, /Parameter 'depth' must be an integer from 1 to 10 or 'all'/);
    const hdepth = await getJson(app, '/hierarchy?symbol=Scaffold&depth=all');
    t.equal(hdepth.status, 400, 'hierarchy takes no `all`');
    const limit = await getJson(app, '/inheritors?symbol=Scaffold&limit=201');
    t.equal(limit.status, 400);
    const missing = await getJson(app, '/symbols/inheritors?symbol=NoSuchTypeAnywhere');
    t.equal(missing.status, 404);
    t.equal(missing.body.error.message, "Symbol 'NoSuchTypeAnywhere' not found");
    const method = await getJson(app, '/symbols/implementations?symbol=Scaffold');
    t.equal(method.status, 404, 'implementations needs a method');
  });

  t.test('MCP: find_inheritors, type_hierarchy, find_implementations', async (t) => {
    const { client } = await connectHttp(t, app);
    const inheritors = await call(client, 'find_inheritors', { symbol: 'Scaffold', language: 'python' });
    t.notOk(inheritors.isError);
    t.match(textOf(inheritors), /# Inheritors of `Scaffold`[\s\S]*\| Flask \|/);
    t.same(structured<{ results: Result[] }>(inheritors).results.map((r) => r.name).sort(), ['Blueprint', 'Flask']);
    const hierarchy = await call(client, 'type_hierarchy', { symbol: 'BehaviorSubject', package: 'rxjs', direction: 'up', depth: 2 });
    t.notOk(hierarchy.isError);
    t.match(textOf(hierarchy), /- \*\*Subject\*\*/);
    const impls = await call(client, 'find_implementations', { symbol: 'area', containingType: 'Shape', language: 'typescript' });
    t.notOk(impls.isError);
    t.match(textOf(impls), /Cube\.area|Sq\.area/);
  });
});
