import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import t from 'tap';
import { SymbolKind } from 'vscode-languageserver-protocol';
import { findSymbol, FLASK, isAlive, makePool, rewrite, timed } from './helpers.js';

// pyright on Debian's python3-flask.
const flask = makePool(FLASK, { lsp: { startTimeoutMs: 120000 } });
t.teardown(() => flask.close());

t.test('document symbols of the Flask class come back from pyright', async (t) => {
  const first = await timed(() => flask.documentSymbols('app.py'));
  const app = findSymbol(first.value, 'Flask', SymbolKind.Class);
  t.ok(app, 'class Flask found');
  const members = (app?.children ?? []).map((child) => child.name);
  t.ok(members.includes('__init__') && members.includes('wsgi_app'), '__init__ and wsgi_app are its children');
  const warm = await timed(() => flask.documentSymbols('app.py'));
  t.equal(warm.value.length, first.value.length);
  t.comment(`pyright documentSymbol flask/app.py: first ${first.ms} ms (server start included), warm ${warm.ms} ms`);
});

t.test('a second file is answered by the running server', async (t) => {
  const { value, ms } = await timed(() => flask.documentSymbols('blueprints.py'));
  t.ok(findSymbol(value, 'Blueprint', SymbolKind.Class));
  t.comment(`pyright documentSymbol flask/blueprints.py (server warm, file new): ${ms} ms`);
});

t.test('pyright reads files from disk and sees a change on the next request', async (t) => {
  const root = mkdtempSync(path.join(os.tmpdir(), 'plumb-py-test-'));
  writeFileSync(path.join(root, 'shapes.py'), 'class Square:\n    def area(self) -> float:\n        return 1.0\n');
  const ctx = makePool(root, { lsp: { startTimeoutMs: 120000 } });
  t.teardown(async () => {
    await ctx.close();
    rmSync(root, { recursive: true, force: true });
  });
  t.ok(findSymbol(await ctx.documentSymbols('shapes.py'), 'Square', SymbolKind.Class));
  rewrite(path.join(root, 'shapes.py'), 'class Circle:\n    def radius(self) -> float:\n        return 2.0\n');
  const symbols = await ctx.documentSymbols('shapes.py');
  t.notOk(findSymbol(symbols, 'Square'), 'the old class is gone');
  t.ok(findSymbol(symbols, 'radius', SymbolKind.Method), 'the new text is what pyright sees');
});

t.test('shutdown stops pyright', async (t) => {
  const pid = flask.pool.status().find((server) => server.language === 'python')!.pid!;
  await flask.pool.shutdown();
  t.notOk(isAlive(pid));
});
