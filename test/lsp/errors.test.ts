import t from 'tap';
import { DocumentSymbolRequest } from 'vscode-languageserver-protocol';
import { PlumbError } from '../../src/errors.js';
import { FLASK, GOOGLETEST, makePool } from './helpers.js';

t.test('a missing server binary is a server_unavailable naming the server and how to install it', async (t) => {
  const ctx = makePool(FLASK, { languages: { python: { command: '/nonexistent/pyright-langserver' } } });
  t.teardown(() => ctx.close());
  const error = await ctx.documentSymbols('app.py').catch((caught: unknown) => caught);
  t.type(error, PlumbError);
  t.match(error, { code: 'server_unavailable', message: 'Language server for Python (/nonexistent/pyright-langserver) is not installed: npm install pyright', retryAfter: 60 });
  t.match(ctx.pool.status().find((server) => server.language === 'python'), { state: 'stopped', pid: null, restarts: 0 });
});

t.test('a missing clangd names clangd-19 and the apt-get command', async (t) => {
  const ctx = makePool(GOOGLETEST, { languages: { cpp: { command: '/nonexistent/clangd-19' } } });
  t.teardown(() => ctx.close());
  await t.rejects(ctx.documentSymbols('googletest/include/gtest/gtest.h'), { code: 'server_unavailable', message: /^Language server for C\/C\+\+ \(\/nonexistent\/clangd-19\) is not installed: apt-get install clangd-19/ });
});

t.test('a file with no language is unsupported_language listing the supported extensions', async (t) => {
  const ctx = makePool(FLASK);
  t.teardown(() => ctx.close());
  const file = ctx.file('py.typed');
  t.throws(() => ctx.pool.languageFor(file), { code: 'unsupported_language', message: /^File 'py\.typed' has no language server: supported extensions are .*\.cpp.*\.py.*\.ts/ });
  await t.rejects(ctx.pool.request(file, DocumentSymbolRequest.type, { textDocument: { uri: ctx.workspace.uriOf(file.absolute) } }), { code: 'unsupported_language' });
});

t.test('a language turned off in config is unsupported', async (t) => {
  const ctx = makePool(FLASK, { languages: { python: { enabled: false } } });
  t.teardown(() => ctx.close());
  t.throws(() => ctx.pool.languageFor(ctx.file('app.py')), { code: 'unsupported_language' });
  t.notOk(ctx.pool.status().some((server) => server.language === 'python'));
});

t.test('a server that dies during initialize is left crashed after maxRestarts, with a retry time', async (t) => {
  const ctx = makePool(FLASK, { languages: { python: { command: '/bin/false', args: [] } }, lsp: { maxRestarts: 0 } });
  t.teardown(() => ctx.close());
  await t.rejects(ctx.documentSymbols('app.py'), { code: 'server_unavailable', message: /Python \(false\) failed to start: exited/ });
  const error = await ctx.documentSymbols('app.py').catch((caught: unknown) => caught);
  t.match(error, { code: 'server_unavailable', message: /crashed 1 times/ });
  t.ok((error as PlumbError).retryAfter! >= 1, 'says when to retry');
  t.match(ctx.pool.status().find((server) => server.language === 'python'), { state: 'crashed', pid: null, lastError: /exited/ });
});

t.test('Retry-After is the wait until the restart actually scheduled, not a guess made when the server started', async (t) => {
  // Crashes older than the window no longer count: the second start's backoff is the first's again.
  const ctx = makePool(FLASK, { languages: { python: { command: '/bin/false', args: [] } }, lsp: { maxRestarts: 100, restartWindowMs: 1000, restartBackoffMs: 2000 } });
  t.teardown(() => ctx.close());
  for (let attempt = 1; attempt <= 2; attempt++) {
    const failed = await ctx.documentSymbols('app.py').catch((caught: unknown) => caught);
    t.match(failed, { code: 'server_unavailable' }, `attempt ${attempt} fails`);
    t.equal((failed as PlumbError).retryAfter, 2, `attempt ${attempt}: the restart is 2 s away, and Retry-After says 2`);
  }
  const started = Date.now();
  await ctx.documentSymbols('app.py').catch(() => undefined);
  const waited = (Date.now() - started) / 1000;
  t.ok(waited <= 2.5, `the next start came after ${waited.toFixed(1)} s, within what Retry-After said`);
});
