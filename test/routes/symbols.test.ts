import t from 'tap';
import type { SymbolSearchResponse } from '../../schemas/symbols.js';
import { GOOGLETEST, getJson, startApp, tempDir } from '../helpers.js';
import { indexReady, packagesWorkspace } from '../index/helpers.js';

const TIER_ORDER = ['exact', 'exact_case_insensitive', 'prefix', 'fuzzy', 'substring', 'signature'];

interface Hit { id: string; name: string; kind: string; file: string; line: number; package: string; language: string; match: string; external: boolean; definition: boolean; forwardDeclaration: boolean; qualifiedName: string; signature: string }

t.test('/symbols over rxjs, zod, flask and a scoped package, with googletest as an extra root', async (t) => {
  const root = packagesWorkspace(tempDir(t));
  const app = await startApp(t, root, { index: { extraRoots: [GOOGLETEST], watch: false } });

  const early = await getJson(app, '/symbols?query=Subject');
  t.equal(early.status, 200, 'answers while the index builds');
  t.equal(early.body.partial, true, 'and says it is partial');
  t.match(early.body.reason, /still building \(\d+ of \d+ files indexed\)/);

  await indexReady(app);
  const status = await getJson(app, '/status');
  t.equal(status.body.index.state, 'ready');
  t.ok(status.body.index.symbols > 10000, `${status.body.index.symbols} symbols indexed`);
  t.match(status.body.store, { backend: 'sqlite', location: /index\.sqlite$/, workspace: null, readOnly: false, reachable: true, behind: 0, lastUpdate: /^\d{4}-\d\d-\d\dT/ });
  t.ok(status.body.store.version > 0, 'the store counts the batches it committed');

  t.test('search by name: the exact name first, then prefixes, in tier order', async (t) => {
    const { status, body } = await getJson(app, '/symbols?query=Subject');
    t.equal(status, 200);
    t.equal(body.partial, undefined, 'no longer partial');
    const first: Hit = body.results[0];
    t.match(first, { name: 'Subject', kind: 'class', file: 'rxjs/src/internal/Subject.ts', package: 'rxjs', language: 'typescript', match: 'exact', definition: true, external: false });
    t.equal(first.line, 17);
    t.ok(first.id.length >= 8 && /^[A-Za-z0-9_-]+$/.test(first.id), 'a short URL-safe id');
    const tiers = body.results.map((h: Hit) => TIER_ORDER.indexOf(h.match));
    t.same(tiers, [...tiers].sort((a, b) => a - b), 'tiers never go back');
    t.ok(body.results.some((h: Hit) => h.match === 'prefix' && h.name.startsWith('Subject')), 'prefix matches follow');
    t.ok(typeof body.elapsedMs === 'number');
    t.equal(body.source, 'index');
  });

  t.test('case-insensitive exact, CamelCase initials and substring tiers', async (t) => {
    const lower = await getJson(app, '/symbols?query=behaviorsubject');
    t.match(lower.body.results[0], { name: 'BehaviorSubject', match: 'exact_case_insensitive' });
    const initials = await getJson(app, '/symbols?query=BS&limit=200');
    t.ok(initials.body.results.some((h: Hit) => h.name === 'BehaviorSubject' && h.match === 'fuzzy'), 'BS finds BehaviorSubject');
    const inner = await getJson(app, '/symbols?query=haviorSub');
    t.ok(inner.body.results.some((h: Hit) => h.name === 'BehaviorSubject' && h.match === 'substring'));
  });

  t.test('search by signature content: parameter and return types', async (t) => {
    const { body } = await getJson(app, '/symbols?query=Receipt');
    t.match(body.results[0], { name: 'Receipt', kind: 'interface', match: 'exact', package: '@plumb/scoped' });
    const bySignature = body.results.filter((h: Hit) => h.match === 'signature').map((h: Hit) => h.name);
    t.ok(bySignature.includes('processPayment'), '`Receipt` finds processPayment(...): Receipt');
    t.ok(bySignature.includes('charge'), 'and the method returning it');
    const tuple = await getJson(app, '/symbols?query=ObservableInputTuple&limit=200');
    t.ok(tuple.body.results.some((h: Hit) => h.name === 'combineLatest' && h.match === 'signature'), 'a parameter type finds rxjs combineLatest');
  });

  t.test('package, kind and language filters', async (t) => {
    const { body } = await getJson(app, '/symbols?query=Zod&package=zod&kind=class&limit=200');
    t.ok(body.totalMatches > 10, `${body.totalMatches} zod classes`);
    t.ok(body.results.every((h: Hit) => h.package === 'zod' && h.kind === 'class'));
    const several = await getJson(app, '/symbols?query=Zod&kind=class,interface&limit=200');
    t.ok(several.body.results.every((h: Hit) => h.kind === 'class' || h.kind === 'interface'));
    t.ok(several.body.totalMatches > body.totalMatches);
    const python = await getJson(app, '/symbols?query=Flask&language=python');
    t.match(python.body.results[0], { name: 'Flask', kind: 'class', file: 'flask/app.py', package: 'flask', language: 'python' });
    t.ok(python.body.results.every((h: Hit) => h.language === 'python'));
    const member = await getJson(app, '/symbols?query=next&containingType=Subject');
    t.ok(member.body.results.length > 0 && member.body.results.every((h: Hit) => h.qualifiedName.startsWith('Subject.')), 'containingType narrows to members');
    const unknownPackage = await getJson(app, '/symbols?query=Zod&package=nope');
    t.equal(unknownPackage.status, 404);
    t.equal(unknownPackage.body.error.message, "Package 'nope' not found");
    const badKind = await getJson(app, '/symbols?query=Zod&kind=klass');
    t.equal(badKind.status, 400);
    t.match(badKind.body.error.message, /Parameter 'kind' must be one or more of: namespace, .*class/);
  });

  t.test('the 50 cap: limit, totalMatches, truncated and paging', async (t) => {
    const { body } = await getJson(app, '/symbols?query=get');
    t.equal(body.limit, 50);
    t.equal(body.results.length, 50);
    t.ok(body.totalMatches > 50, `${body.totalMatches} matches in all`);
    t.equal(body.truncated, true);
    const next = await getJson(app, '/symbols?query=get&offset=50');
    const firstIds = new Set(body.results.map((h: Hit) => h.id));
    t.ok(next.body.results.every((h: Hit) => !firstIds.has(h.id)), 'the next page holds other symbols');
    // Past COUNT_CAP the count is a lower bound: the last page is found from the exact counts forward declarations listed give.
    const all = body.countsCapped ? (await getJson(app, '/symbols?query=get&include_forward_declarations=true')).body : body;
    const fwd = body.countsCapped ? '&include_forward_declarations=true' : '';
    const last = await getJson(app, `/symbols?query=get${fwd}&offset=${all.totalMatches + (fwd ? all.forwardDeclarations : 0) - 3}`);
    t.equal(last.body.results.length, 3);
    t.equal(last.body.truncated, false);
    const max = await getJson(app, '/symbols?query=get&limit=200');
    t.equal(max.body.results.length, 200);
  });

  t.test('bad input: empty or blank query, limit over the maximum', async (t) => {
    for (const url of ['/symbols?query=', '/symbols?query=%20%20', '/symbols']) {
      const { status, body } = await getJson(app, url);
      t.equal(status, 400, url);
      t.same(body.error, { code: 'invalid_parameter', message: 'Search query must not be empty', parameter: 'query' });
    }
    const over = await getJson(app, '/symbols?query=get&limit=201');
    t.equal(over.status, 400);
    t.match(over.body.error.message, /limit.*at most 200/);
  });

  t.test('get_symbol (match=exact): every package\'s match, or one package\'s; none is a 404', async (t) => {
    const { status, body } = await getJson(app, '/symbols?query=map&match=exact&limit=200');
    t.equal(status, 200);
    t.ok(body.results.length > 0 && body.results.every((h: Hit) => h.name === 'map' && h.match === 'exact'), 'exact names only');
    const packages = new Set(body.results.map((h: Hit) => h.package));
    t.ok(packages.has('rxjs') && packages.has('zod'), `found in ${[...packages].join(', ')}`);
    const scoped = await getJson(app, '/symbols?query=map&match=exact&package=rxjs');
    t.ok(scoped.body.results.length > 0 && scoped.body.results.every((h: Hit) => h.package === 'rxjs'));
    const missing = await getJson(app, '/symbols?query=NoSuchSymbolAnywhere&match=exact');
    t.equal(missing.status, 404);
    t.same(missing.body.error, { code: 'symbol_not_found', message: "Symbol 'NoSuchSymbolAnywhere' not found", symbol: 'NoSuchSymbolAnywhere' });
    const qualified = await getJson(app, '/symbols?query=ZodFirstPartyTypeKind.ZodString&match=exact');
    t.equal(qualified.body.results.length, 1, 'a qualified name matches on separator boundaries');
    t.match(qualified.body.results[0], { kind: 'enum_member', qualifiedName: 'ZodFirstPartyTypeKind.ZodString' });
    for (const query of ['flask.Flask', 'flask.app.Flask', 'app.Flask']) {
      const flask = await getJson(app, `/symbols?query=${query}&match=exact`);
      t.equal(flask.status, 200, query);
      t.ok(flask.body.results.some((h: Hit) => h.kind === 'class' && h.file === 'flask/app.py'), `${query}: the module path qualifies a Python name`);
    }
    const g = await getJson(app, '/symbols?query=flask.g');
    t.same(g.body.results.map((h: Hit) => `${h.file}:${h.name}`), ['flask/globals.py:g'], 'a short qualified name means itself, not every name it starts');
    const prefixed = await getJson(app, '/symbols?query=flask.get_fla');
    t.match(prefixed.body.results, [{ name: 'get_flashed_messages', match: 'prefix', file: 'flask/helpers.py' }], 'a longer one is a prefix too');
    const config = await getJson(app, '/symbols?query=flask.config.Config.from_object&match=exact');
    t.match(config.body.results, [{ name: 'from_object', kind: 'method', file: 'flask/config.py', qualifiedName: 'Config.from_object' }], 'module, class, then method');
    t.equal((await getJson(app, '/symbols?query=werkzeug.Flask&match=exact')).status, 404, 'another package\'s name does not qualify it');
    const packaged = await getJson(app, '/symbols?query=flask.Config.from_object&match=exact');
    t.match(packaged.body.results, [{ name: 'from_object', file: 'flask/config.py' }], 'the package, then the class and method');
    // rxjs has the class Scheduler and eleven `scheduler` properties: the case-sensitive match when there is one.
    const scheduler = await getJson<SymbolSearchResponse>(app, '/symbols?query=Scheduler&match=exact');
    t.match(scheduler.body.results, [{ name: 'Scheduler', kind: 'class', file: 'rxjs/src/internal/Scheduler.ts', match: 'exact' }], 'the class Scheduler alone');
    t.equal(scheduler.body.totalMatches, 1, 'none of the lower-case properties');
    const properties = await getJson<SymbolSearchResponse>(app, '/symbols?query=scheduler&match=exact&limit=200');
    t.ok(properties.body.results.length >= 10 && properties.body.results.every((h) => h.name === 'scheduler' && h.kind === 'property'), `${properties.body.results.length} properties \`scheduler\`, not the class`);
    const shouted = await getJson<SymbolSearchResponse>(app, '/symbols?query=SCHEDULER&match=exact&limit=200');
    t.equal(shouted.body.totalMatches, scheduler.body.totalMatches + properties.body.totalMatches, 'no case-sensitive match: every case-insensitive one');
    t.ok(shouted.body.results.every((h) => h.match === 'exact_case_insensitive'));
    const byId = await getJson(app, `/symbols?id=${encodeURIComponent(body.results[0].id)}`);
    t.same(byId.body.results[0].id, body.results[0].id, 'an id finds its symbol');
    t.equal((await getJson(app, '/symbols?id=AAAAAAAAAAAA')).status, 404);
  });

  t.test('forward declarations in C++ headers are grouped out and counted', async (t) => {
    const { body } = await getJson(app, '/symbols?query=UnitTest&match=exact');
    t.ok(body.forwardDeclarations >= 2, `${body.forwardDeclarations} forward declaration(s) grouped out`);
    t.ok(body.results.every((h: Hit) => !h.forwardDeclaration));
    t.match(body.results.find((h: Hit) => h.kind === 'class'), { kind: 'class', definition: true, external: true, file: `${GOOGLETEST}/googletest/include/gtest/gtest.h` });
    const all = await getJson(app, '/symbols?query=UnitTest&match=exact&include_forward_declarations=true');
    const forward = all.body.results.filter((h: Hit) => h.forwardDeclaration);
    t.equal(forward.length, body.forwardDeclarations, 'listed when asked for');
    t.same(all.body.results.slice(-forward.length), forward, 'after everything else');
    t.ok(forward.every((h: Hit) => h.file.endsWith('.h')));
  });

  t.test('scope=user leaves the extra roots out; within a tier user code comes first', async (t) => {
    const all = await getJson(app, '/symbols?query=TestEventListener&match=exact');
    t.ok(all.body.results.length > 0 && all.body.results.every((h: Hit) => h.external));
    const user = await getJson(app, '/symbols?query=TestEventListener&match=exact&scope=user');
    t.equal(user.status, 404, 'googletest is not user code here');
    const mixed = await getJson(app, '/symbols?query=Test&limit=200');
    for (const tier of TIER_ORDER) {
      const external = mixed.body.results.filter((h: Hit) => h.match === tier).map((h: Hit) => h.external);
      t.same(external, [...external].sort((a, b) => Number(a) - Number(b)), `user before external in ${tier}`);
    }
  });

  t.test('markdown: a Fathom-like table that states what it shows', async (t) => {
    const response = await app.inject({ url: '/symbols?query=get&format=markdown' });
    t.equal(response.statusCode, 200);
    t.match(response.headers['content-type'], /text\/markdown/);
    t.match(response.body, /\| Name \| Kind \| File \| Line \|/);
    t.match(response.body, /Showing 50 of [\d,]+\+? matches/);
    const forward = await app.inject({ url: '/symbols?query=UnitTest&match=exact&format=markdown' });
    t.match(forward.body, /\d+ forward declarations? skipped/);
  });
});
