import t from 'tap';
import { SymbolKind } from 'vscode-languageserver-protocol';
import { findSymbol, isAlive, makePool, RXJS, timed, ZOD } from './helpers.js';

// The native TypeScript 7 server on the sources npm's rxjs@7 and zod@3 ship.
const rxjs = makePool(RXJS);
const zod = makePool(ZOD);
t.teardown(async () => {
  await rxjs.close();
  await zod.close();
});

t.test('document symbols of rxjs Observable come back from the TypeScript server', async (t) => {
  const first = await timed(() => rxjs.documentSymbols('src/internal/Observable.ts'));
  const observable = findSymbol(first.value, 'Observable', SymbolKind.Class);
  t.ok(observable, 'class Observable found');
  const members = (observable?.children ?? []).map((child) => child.name);
  t.ok(members.includes('subscribe') && members.includes('pipe'), 'subscribe and pipe are its children');
  const warm = await timed(() => rxjs.documentSymbols('src/internal/Observable.ts'));
  t.equal(warm.value.length, first.value.length);
  t.comment(`tsc --lsp documentSymbol rxjs src/internal/Observable.ts: first ${first.ms} ms (server start included), warm ${warm.ms} ms`);
});

t.test('a JavaScript-family extension goes to the same server', async (t) => {
  t.equal(rxjs.pool.languageFor(rxjs.file('src/internal/Subscriber.ts')).id, 'typescript');
  t.equal(rxjs.pool.languageIdOf(rxjs.file('dist/cjs/index.js')), 'javascript');
  const symbols = await rxjs.documentSymbols('src/internal/Subscriber.ts');
  t.ok(findSymbol(symbols, 'Subscriber', SymbolKind.Class));
});

t.test('document symbols of zod ZodType come back from the TypeScript server', async (t) => {
  const first = await timed(() => zod.documentSymbols('src/v3/types.ts'));
  const zodType = findSymbol(first.value, 'ZodType', SymbolKind.Class);
  t.ok(zodType, 'abstract class ZodType found');
  t.ok((zodType?.children ?? []).some((child) => child.name === 'parse'), 'parse is a member');
  const warm = await timed(() => zod.documentSymbols('src/v3/types.ts'));
  t.comment(`tsc --lsp documentSymbol zod src/v3/types.ts: first ${first.ms} ms (server start included), warm ${warm.ms} ms`);
});

t.test('status reports the native server of this platform and shutdown stops it', async (t) => {
  const [server] = zod.pool.status().filter((entry) => entry.language === 'typescript');
  t.match(server, { state: /ready|indexing/, restarts: 0 });
  t.match(server.command, new RegExp(`typescript-${process.platform}-${process.arch}/lib/tsc --lsp --stdio$`));
  const pid = server.pid!;
  t.ok(isAlive(pid));
  await zod.pool.shutdown();
  t.notOk(isAlive(pid), 'no process left');
});
