import t from 'tap';
import { GOOGLETEST, getJson, googletestCompileDb, startApp } from '../helpers.js';
import { waitFor } from '../wait.js';
import { compareWithServer, waitIndexed } from './usages-helpers.js';

// Apart from usages.test.ts: clangd's background index of googletest takes one to two minutes here.
t.test('C++ (googletest, cmake compile database): partial while clangd indexes, then usages match clangd', async (t) => {
  const build = googletestCompileDb(t);
  const app = await startApp(t, GOOGLETEST, { compileDatabase: { directory: build }, lsp: { requestTimeoutMs: 60000 } });
  await waitIndexed(app);
  const query = '/symbols/usages?symbol=FormatFileLocation&kind=function&limit=1000';
  const clangd = (): string | undefined => app.plumb.lsp.status().find((s) => s.language === 'cpp')?.state;
  const first = await getJson(app, query);
  t.equal(first.status, 200);
  // Right after clangd starts, its background index runs; an answer given while the pool says so is partial.
  const before = clangd();
  const during = await getJson(app, query);
  const after = clangd();
  t.equal(during.status, 200);
  if (before === 'indexing' && after === 'indexing') {
    t.equal(during.body.partial, true, 'partial while clangd indexes');
    t.match(during.body.reason, /The C\/C\+\+ server was still indexing/);
    t.match(during.body.server, { language: 'C/C++', request: 'textDocument/references', state: 'indexing' }, 'the server outcome says so too');
  } else {
    t.comment(`clangd was ${before} → ${after} around the second request: the partial state was not observable`);
  }
  await waitFor('clangd to finish indexing', clangd, (state) => state !== 'indexing', { timeoutMs: 120_000, intervalMs: 100 });
  t.equal(clangd(), 'ready', 'clangd finished indexing');
  const usages = await compareWithServer(t, app, 'symbol=FormatFileLocation&kind=function', 8);
  const ready = await getJson(app, query);
  t.notOk(ready.body.partial, 'no partial once clangd is ready');
  t.notOk(ready.body.reason);
  t.same(ready.body.server, { language: 'C/C++', request: 'textDocument/references', state: 'answered' });
  t.ok(usages.some((u) => u.file === 'googletest/src/gtest.cc' && u.usageKind === 'call'), 'calls in gtest.cc');
  t.ok(usages.every((u) => u.file !== 'googletest/src/gtest-port.cc' || u.line !== 979), 'the definition is no usage');
  const inGtest = usages.find((u) => u.file === 'googletest/src/gtest.cc')!;
  t.ok(inGtest.enclosingSymbol, 'an enclosing symbol from the index');
});
