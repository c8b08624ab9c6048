/**
 * Two small fixtures after real patterns: a C++ subclass whose base is only forward-declared in its header
 * (its .cpp includes it first, as a unity build allows), which clangd's subtypes miss and the index finds;
 * and a Go interface satisfied structurally, which only gopls can find.
 */
import { cpSync } from 'node:fs';
import path from 'node:path';
import t from 'tap';
import { TypeHierarchyPrepareRequest, TypeHierarchySubtypesRequest } from 'vscode-languageserver-protocol';
import type { PlumbApp } from '../../src/app.js';
import { getJson, REPO, startApp, tempDir } from '../helpers.js';
import { indexReady } from '../index/helpers.js';
import { waitFor } from '../wait.js';

interface Result { id: string; name: string; source: string; depth: number; via?: { name: string }; kind: string; containingType: string }

const FIXTURES = path.join(REPO, 'test/fixtures/hierarchy');

/** Asks until `done` holds (the server finished indexing what the answer needs), for at most 30 s. */
function until(app: PlumbApp, url: string, done: (body: any) => boolean): Promise<any> {
  return waitFor(`${url} to answer as expected`, async () => (await getJson(app, url)).body, done, { timeoutMs: 30_000, intervalMs: 500 });
}

t.test('C++: a base only forward-declared in the subclass header', async (t) => {
  const root = path.join(tempDir(t), 'cpp');
  cpSync(path.join(FIXTURES, 'cpp'), root, { recursive: true });
  const app = await startApp(t, root, { index: { watch: false }, compileDatabase: { standard: 'c++17' } });
  await indexReady(app);

  // Square's relation reaches clangd's index once it has indexed main.cpp; Circle's never does.
  const body = await until(app, '/symbols/inheritors?symbol=Shape', (b) => b.results?.some((r: Result) => r.name === 'Square' && r.source === 'both'));
  t.match(body.symbol, { qualifiedName: 'gfx::Shape', file: 'shape.h' });
  t.same(body.results.map((r: Result) => r.name), ['Circle', 'Square']);
  t.match(body.results.find((r: Result) => r.name === 'Square'), { source: 'both' }, 'clangd and the index agree on Square');
  t.match(body.results.find((r: Result) => r.name === 'Circle'), { source: 'index', file: 'circle.h', line: 8 }, 'only the index finds Circle');
  t.equal(body.server.request, 'typeHierarchy/subtypes');

  t.test("clangd's own answer misses Circle", async (t) => {
    const file = app.plumb.workspace.resolveFile('file', 'shape.h');
    const uri = app.plumb.workspace.uriOf(file.absolute);
    const items = await app.plumb.lsp.request(file, TypeHierarchyPrepareRequest.type, { textDocument: { uri }, position: { line: 5, character: 6 } });
    t.equal(items?.[0]?.name, 'Shape');
    const subtypes = await app.plumb.lsp.request(file, TypeHierarchySubtypesRequest.type, { item: items![0] });
    t.same((subtypes ?? []).map((item) => item.name), ['Square'], 'typeHierarchy/subtypes names Square only');
  });

  t.test('depth all, hierarchy and implementations', async (t) => {
    const all = await getJson(app, '/symbols/inheritors?symbol=Shape&depth=all');
    t.match(all.body.results.find((r: Result) => r.name === 'Rounded'), { depth: 2, via: { name: 'Square' } });
    const up = await getJson(app, '/symbols/hierarchy?symbol=Rounded&direction=up');
    t.match(up.body.supertypes, [{ name: 'Square', supertypes: [{ name: 'Shape', qualifiedName: 'gfx::Shape' }] }]);
    const down = await getJson(app, '/hierarchy?symbol=gfx::Shape&direction=down&depth=2');
    const square = down.body.subtypes.find((n: { name: string }) => n.name === 'Square');
    t.same(square.subtypes.map((n: { name: string }) => n.name), ['Rounded']);
    const draw = await getJson(app, '/symbols/implementations?symbol=gfx::Shape::draw');
    t.equal(draw.status, 200);
    t.same(draw.body.results.map((r: Result) => r.containingType).sort(), ['Circle', 'Rounded', 'Square'], 'every override, Circle included');
    t.ok(draw.body.results.every((r: Result & { definition: boolean; file: string }) => r.definition && r.file.endsWith('.cpp')), 'each override once, by its out-of-line definition');
  });
});

t.test('Go: an interface satisfied structurally, through gopls', async (t) => {
  const root = path.join(tempDir(t), 'shapes');
  cpSync(path.join(FIXTURES, 'go'), root, { recursive: true });
  const app = await startApp(t, root, { index: { watch: false } });
  await indexReady(app);

  const { status, body } = await getJson(app, '/symbols/inheritors?symbol=Shape&language=go');
  t.equal(status, 200);
  t.equal(body.server.request, 'textDocument/implementation');
  const byName = Object.fromEntries(body.results.map((r: Result) => [r.name, r]));
  t.same(Object.keys(byName).sort(), ['Circle', 'Solid', 'Square'], 'not Label, which has no Area');
  t.match(byName.Square, { kind: 'struct', source: 'lsp', depth: 1 }, 'Square names no interface: only gopls knows');
  t.match(byName.Circle, { kind: 'struct', source: 'lsp' }, 'a pointer receiver satisfies it too');
  t.match(byName.Solid, { kind: 'interface', source: 'index' }, 'an embedding interface, from the written embedding');

  const area = await getJson(app, '/symbols/implementations?symbol=Area&containingType=Shape');
  t.same(area.body.results.map((r: Result) => `${r.containingType}.${r.source}`).sort(), ['Circle.both', 'Square.both']);
});
