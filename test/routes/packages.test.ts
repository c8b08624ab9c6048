import t from 'tap';
import { GOOGLETEST, getJson, startApp, tempDir } from '../helpers.js';
import { indexReady, packagesWorkspace } from '../index/helpers.js';

interface Pkg { name: string; path: string; manifest: string | null; language: string | null; symbols: number; files: number; external: boolean }
interface Sym { name: string; kind: string; file: string; line: number; package: string }

t.test('/packages and /packages/{name}/symbols', async (t) => {
  const root = packagesWorkspace(tempDir(t));
  const app = await startApp(t, root, { index: { extraRoots: [GOOGLETEST], watch: false } });
  await indexReady(app);

  t.test('packages are named by their manifests, else by their top-level directory', async (t) => {
    const { status, body } = await getJson(app, '/packages?limit=200');
    t.equal(status, 200);
    const byName = new Map<string, Pkg>(body.results.map((p: Pkg) => [p.name, p]));
    t.match(byName.get('rxjs'), { path: 'rxjs', manifest: 'package.json', language: 'typescript', external: false });
    t.match(byName.get('zod'), { path: 'zod', manifest: 'package.json', language: 'typescript' });
    t.match(byName.get('flask'), { path: 'flask', manifest: null, language: 'python' }, 'no manifest: the top-level directory names it');
    t.match(byName.get('@plumb/scoped'), { path: 'scoped', symbols: 5, files: 1 });
    t.match(byName.get('docs-only'), { symbols: 0, files: 0, language: null });
    t.match(byName.get('gtest'), { manifest: 'CMakeLists.txt', external: true, path: `${GOOGLETEST}/googletest` });
    t.ok(byName.get('rxjs')!.symbols > 1000);
    const externals = body.results.map((p: Pkg) => p.external);
    t.same(externals, [...externals].sort((a, b) => Number(a) - Number(b)), 'workspace packages first');
    t.equal(body.totalMatches, body.results.length);
    t.equal(body.truncated, false);
    const user = await getJson(app, '/packages?scope=user&query=Z');
    t.same(user.body.results.map((p: Pkg) => p.name), ['zod']);
    const capped = await getJson(app, '/packages?limit=2');
    t.equal(capped.body.results.length, 2);
    t.equal(capped.body.truncated, true);
  });

  t.test('a package\'s symbols, by file then line, with a kind filter', async (t) => {
    const { status, body } = await getJson(app, '/packages/zod/symbols?kind=class&limit=200');
    t.equal(status, 200);
    t.equal(body.package, 'zod');
    t.ok(body.totalMatches > 20);
    t.ok(body.results.every((s: Sym) => s.kind === 'class' && s.package === 'zod'));
    const order = body.results.map((s: Sym) => [s.file, s.line] as const);
    const sorted = [...order].sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : a[1] - b[1]));
    t.same(order, sorted, 'ordered by file, then line');
    const all = await getJson(app, '/packages/zod/symbols');
    t.equal(all.body.results.length, 50);
    t.equal(all.body.truncated, true);
  });

  t.test('names are URL-encoded, exact first, then a unique case-insensitive match', async (t) => {
    const scoped = await getJson(app, '/packages/%40plumb%2Fscoped/symbols');
    t.equal(scoped.status, 200);
    t.equal(scoped.body.package, '@plumb/scoped');
    t.same(scoped.body.results.map((s: Sym) => s.name), ['Receipt', 'total', 'processPayment', 'PaymentGateway', 'charge'], 'in file order');
    const upper = await getJson(app, '/packages/RXJS/symbols?kind=class');
    t.equal(upper.status, 200);
    t.equal(upper.body.package, 'rxjs');
  });

  t.test('an unknown package is a 404; a package without symbols is an empty 200', async (t) => {
    const missing = await getJson(app, '/packages/left-pad/symbols');
    t.equal(missing.status, 404);
    t.same(missing.body.error, { code: 'package_not_found', message: "Package 'left-pad' not found", package: 'left-pad' });
    const empty = await getJson(app, '/packages/docs-only/symbols');
    t.equal(empty.status, 200);
    t.same(empty.body.results, []);
    t.equal(empty.body.totalMatches, 0);
    const bad = await getJson(app, '/packages/zod/symbols?limit=500');
    t.equal(bad.status, 400);
  });

  t.test('markdown renderings', async (t) => {
    const list = await app.inject({ url: '/packages?format=markdown' });
    t.match(list.body, /\| Name \| Path \| Language \| Symbols \| Manifest \|/);
    t.match(list.body, /\| rxjs \| rxjs \| typescript \| [\d,]+ \| package\.json \|/);
    const symbols = await app.inject({ url: '/packages/zod/symbols?format=markdown' });
    t.match(symbols.body, /# Symbols of package `zod`/);
    t.match(symbols.body, /Showing 50 of [\d,]+ symbols/);
  });
});
