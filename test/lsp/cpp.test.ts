import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import t from 'tap';
import { SymbolKind } from 'vscode-languageserver-protocol';
import { findSymbol, GOOGLETEST, isAlive, makePool, timed } from './helpers.js';

// clangd on googletest with the compile database cmake exports, built in a temp dir so /usr/src stays untouched.
const buildDir = mkdtempSync(path.join(os.tmpdir(), 'plumb-gtest-build-'));
t.teardown(() => rmSync(buildDir, { recursive: true, force: true }));
execFileSync('cmake', ['-S', GOOGLETEST, '-B', buildDir, '-DCMAKE_EXPORT_COMPILE_COMMANDS=ON'], { stdio: 'ignore' });
const cmake = makePool(GOOGLETEST, { compileDatabase: { directory: buildDir }, lsp: { requestTimeoutMs: 60000 } });
t.teardown(() => cmake.close());

t.test('document symbols of testing::Test in gtest.h come back from clangd', async (t) => {
  const first = await timed(() => cmake.documentSymbols('googletest/include/gtest/gtest.h'));
  const namespaces = first.value.filter((symbol) => symbol.name === 'testing' && symbol.kind === SymbolKind.Namespace);
  t.ok(namespaces.length > 0, 'namespace testing found');
  // gtest.h reopens namespace testing and forward-declares Test before defining it: the definition is the one with members.
  const test = namespaces.flatMap((namespace) => namespace.children ?? []).find((child) => child.name === 'Test' && child.kind === SymbolKind.Class && (child.children ?? []).length > 0);
  t.ok(test, 'class Test defined inside namespace testing');
  const members = (test?.children ?? []).map((child) => child.name);
  t.ok(members.includes('SetUp') && members.includes('TearDown'), 'its virtual methods are children');
  const warm = await timed(() => cmake.documentSymbols('googletest/include/gtest/gtest.h'));
  t.same(warm.value.length, first.value.length);
  t.comment(`clangd documentSymbol googletest/include/gtest/gtest.h: first ${first.ms} ms (server start included), warm ${warm.ms} ms`);
});

t.test('status shows clangd with the cmake compile database', async (t) => {
  const [cpp] = cmake.pool.status().filter((server) => server.language === 'cpp');
  t.match(cpp, { language: 'cpp', state: /ready|indexing/, restarts: 0, compileDatabase: { path: path.join(buildDir, 'compile_commands.json'), synthesized: false, rewritten: false } });
  t.type(cpp.pid, 'number');
  t.match(cpp.command, /clangd.* --compile-commands-dir=/);
  t.same(cmake.pool.status().find((server) => server.language === 'python')?.state, 'stopped', 'other servers start only on need');
});

/**
 * A clangd of its own for a test that times out, aborts or kills: started and answering once, so its pid is
 * known. `frozen` stops it (SIGSTOP) while `work` runs: a request sent meanwhile cannot be answered, by construction.
 */
async function ownClangd(t: { teardown(fn: () => Promise<void>): void }): Promise<{ ctx: ReturnType<typeof makePool>; pid: number; frozen<T>(work: () => Promise<T>): Promise<T> }> {
  const ctx = makePool(GOOGLETEST, { compileDatabase: { directory: buildDir }, languages: { cpp: { args: ['--background-index=false', '--limit-results=0'] } } });
  t.teardown(() => ctx.close());
  await ctx.documentSymbols('googletest/samples/sample1.h');
  const pid = ctx.pool.status().find((server) => server.language === 'cpp')!.pid!;
  return {
    ctx,
    pid,
    async frozen(work) {
      process.kill(pid, 'SIGSTOP');
      try {
        return await work();
      } finally {
        if (isAlive(pid)) process.kill(pid, 'SIGCONT');
      }
    },
  };
}

t.test('a request the server does not answer in time fails with server_timeout and the server keeps working', async (t) => {
  const { ctx, frozen } = await ownClangd(t);
  await frozen(() => t.rejects(ctx.documentSymbols('googletest/samples/sample2.h', { timeoutMs: 300 }), { code: 'server_timeout', message: /did not answer textDocument\/documentSymbol within 300 ms/ }));
  const symbols = await ctx.documentSymbols('googletest/samples/sample2.h');
  t.ok(findSymbol(symbols, 'MyString'), 'the same request answers once the server runs again');
});

t.test('an aborted request rejects at once with request_cancelled, not a timeout', async (t) => {
  const { ctx, frozen } = await ownClangd(t);
  await frozen(async () => {
    const controller = new AbortController();
    const pending = ctx.documentSymbols('googletest/samples/sample2.h', { signal: controller.signal });
    controller.abort();
    await t.rejects(pending, { code: 'request_cancelled', message: /cancelled: the caller went away/ });
  });
});

t.test('clangd killed with SIGKILL during a request: the request fails cleanly, clangd restarts, the next request succeeds', async (t) => {
  const { ctx, pid, frozen } = await ownClangd(t);
  await frozen(async () => {
    // The server is stopped, so the request is still in flight when it dies.
    const pending = ctx.documentSymbols('googletest/src/gtest.cc');
    process.kill(pid, 'SIGKILL');
    await t.rejects(pending, { code: 'server_unavailable', message: /C\/C\+\+.*(crashed|not running|stopped answering)/ });
  });
  const symbols = await ctx.documentSymbols('googletest/src/gtest.cc');
  t.ok(findSymbol(symbols, 'testing'), 'answers after the restart');
  const after = ctx.pool.status().find((server) => server.language === 'cpp')!;
  t.equal(after.restarts, 1);
  t.not(after.pid, pid);
  t.notOk(isAlive(pid));
});

t.test('without a compile database clangd works from a synthesized one', async (t) => {
  // Background indexing of every googletest source is not what this test is about.
  const synthesized = makePool(GOOGLETEST, { languages: { cpp: { args: ['--background-index=false', '--limit-results=0'] } } });
  t.teardown(() => synthesized.close());
  const symbols = await synthesized.documentSymbols('googletest/samples/sample3-inl.h');
  t.ok(findSymbol(symbols, 'Queue'), 'class template Queue found');
  const [cpp] = synthesized.pool.status();
  t.equal(cpp.compileDatabase?.synthesized, true);
  t.ok(cpp.compileDatabase && existsSync(cpp.compileDatabase.path) && cpp.compileDatabase.path.startsWith(synthesized.cacheDir));
});

t.test('shutdown leaves no clangd process behind', async (t) => {
  const pid = cmake.pool.status().find((server) => server.language === 'cpp')!.pid!;
  t.ok(isAlive(pid));
  await cmake.pool.shutdown();
  t.notOk(isAlive(pid), `pid ${pid} is gone`);
  t.equal(cmake.pool.status().find((server) => server.language === 'cpp')!.state, 'stopped');
  await t.rejects(cmake.documentSymbols('googletest/include/gtest/gtest.h'), { code: 'server_unavailable', message: /shutting down/ });
});
