/**
 * Callers and callees on real code with real servers: googletest with clangd (cmake's compile database),
 * rxjs with the native TypeScript server, flask with pyright; each semantic answer checked against the
 * server's own callHierarchy answer asked directly through the pool. clangd 19 has no outgoingCalls, and
 * Java has no server here: both answer syntactically, and say why.
 */
import { cpSync } from 'node:fs';
import path from 'node:path';
import t from 'tap';
import { CallHierarchyIncomingCallsRequest, CallHierarchyPrepareRequest } from 'vscode-languageserver-protocol';
import type { PlumbApp } from '../../src/app.js';
import { GOOGLETEST, getJson, googletestCompileDb, REPO, startApp, tempDir } from '../helpers.js';
import { indexReady, polyglotWorkspace } from '../index/helpers.js';
import { call, connectHttp, structured, textOf } from '../mcp/helpers.js';
import { serverState } from '../wait.js';

interface Site { file: string; line: number; column: number; text: string | null }
interface Node { id?: string; name: string; qualifiedName?: string; file: string | null; line: number | null; indexed?: false; containingType?: string | null }
interface Result { symbol: Node; calls: Site[]; depth: number; via?: { id?: string; name: string } }

/** The server's own incoming calls at a symbol's name, as `file:line` call sites, asked through the pool. */
async function serverIncoming(app: PlumbApp, file: string, line: number, column: number): Promise<{ callers: number; sites: string[] }> {
  const services = app.plumb;
  const target = { absolute: path.join(services.workspace.root, file), relative: file };
  const items = await services.lsp.request(target, CallHierarchyPrepareRequest.type, {
    textDocument: { uri: services.workspace.uriOf(target.absolute) }, position: { line: line - 1, character: column - 1 },
  });
  if (!items || items.length === 0) throw new Error(`no call hierarchy item at ${file}:${line}:${column}`);
  const calls = (await services.lsp.request(target, CallHierarchyIncomingCallsRequest.type, { item: items[0] })) ?? [];
  const sites = calls.flatMap((c) => c.fromRanges.map((r) => `${services.workspace.relative(services.workspace.pathOfUri(c.from.uri)!)}:${r.start.line + 1}`));
  return { callers: calls.length, sites: sites.sort() };
}

function sitesOf(results: Result[]): string[] {
  return results.flatMap((r) => r.calls.map((c) => `${c.file}:${c.line}`)).sort();
}

t.test('googletest with clangd', async (t) => {
  const build = googletestCompileDb(t, { shared: true });
  const app = await startApp(t, GOOGLETEST, { compileDatabase: { directory: build }, index: { watch: false } });
  await indexReady(app);
  // The first request opens a file and starts clangd's background index; compare once it is done.
  await getJson(app, '/symbols/callers?symbol=testing::internal::EqFailure');
  await serverState(app, 'cpp', ['ready'], 300_000);

  t.test('callers of EqFailure: the same callers and call sites as clangd incomingCalls', async (t) => {
    const { status, body } = await getJson(app, '/symbols/callers?symbol=testing::internal::EqFailure');
    t.equal(status, 200);
    t.match(body, { direction: 'incoming', depth: 1, precision: 'semantic', source: 'lsp', server: { language: 'C/C++', request: 'callHierarchy/incomingCalls', state: 'answered' } });
    t.equal(body.symbol.definition, true, 'resolved to the definition (gtest.cc), merged with the header declaration');
    const server = await serverIncoming(app, body.symbol.file, body.symbol.line, body.symbol.column);
    t.ok(server.callers >= 5, `clangd finds ${server.callers} callers`);
    t.equal(body.totalMatches, server.callers, 'one result per caller clangd lists');
    t.same(sitesOf(body.results), server.sites, 'the same call sites');
    const failure = body.results.find((r: Result) => r.symbol.name === 'CmpHelperEQFailure');
    t.ok(failure, 'the template CmpHelperEQFailure in gtest.h calls it');
    t.match(failure.symbol, { file: 'googletest/include/gtest/gtest.h', kind: 'function' });
    t.ok(failure.symbol.id, 'mapped to the index symbol');
    t.match(failure.calls[0], { file: 'googletest/include/gtest/gtest.h', text: /^return EqFailure\(/ });
  });

  t.test('callees of a C++ function: clangd 19 has no outgoingCalls, so the body is read', async (t) => {
    const { body } = await getJson(app, '/symbols/callees?symbol=CmpHelperEQFailure');
    t.match(body, { direction: 'outgoing', precision: 'syntactic', source: 'index', server: { language: 'C/C++', request: 'callHierarchy/outgoingCalls', state: 'unsupported', reason: /does not serve callHierarchy\/outgoingCalls/ } });
    const names = body.results.map((r: Result) => r.symbol.name).sort();
    t.same(names, ['EqFailure', 'FormatForComparisonFailureMessage']);
    const eq = body.results.find((r: Result) => r.symbol.name === 'EqFailure');
    t.match(eq.symbol, { qualifiedName: 'testing::internal::EqFailure' });
    const format = body.results.find((r: Result) => r.symbol.name === 'FormatForComparisonFailureMessage');
    t.equal(format.calls.length, 2, 'both calls in the body, one result');
    t.match(body.reason, /Syntactic/);
  });

  t.test('depth 2: the callers of the callers, with via', async (t) => {
    const one = await getJson(app, '/symbols/callers?symbol=CmpHelperEQFailure');
    const two = await getJson(app, '/symbols/callers?symbol=CmpHelperEQFailure&depth=2');
    t.equal(two.body.depth, 2);
    const direct = one.body.results.map((r: Result) => r.symbol.qualifiedName ?? r.symbol.name);
    t.ok(direct.some((name: string) => /CmpHelperEQ$/.test(name)), 'CmpHelperEQ calls it');
    const deeper = two.body.results.filter((r: Result) => r.depth === 2);
    t.ok(deeper.length > 0, 'something calls CmpHelperEQ');
    t.ok(deeper.every((r: Result) => r.via && direct.includes(r.via.name)), 'each depth-2 caller says which direct caller it reaches it through');
    t.equal(new Set(two.body.results.map((r: Result) => r.symbol.id ?? `${r.symbol.file}:${r.symbol.line}`)).size, two.body.results.length, 'each caller once');
  });

  t.test('errors, markdown', async (t) => {
    const type = await getJson(app, '/symbols/callers?symbol=testing::Test&kind=class');
    t.equal(type.status, 404);
    t.match(type.body.error.message, /needs a function or method/);
    const deep = await getJson(app, '/symbols/callers?symbol=EqFailure&depth=4');
    t.equal(deep.status, 400);
    t.match(deep.body.error.message, /depth/);
    const markdown = await app.inject({ method: 'GET', url: '/symbols/callers?symbol=testing::internal::EqFailure&format=markdown' });
    t.match(markdown.body, /^# Callers of `testing::internal::EqFailure`/);
    t.match(markdown.body, /\| CmpHelperEQFailure|testing::internal::CmpHelperEQFailure \|/);
    t.match(markdown.body, /Precision: semantic/);
  });
});

t.test('rxjs, flask and a Java fixture', async (t) => {
  const root = polyglotWorkspace(tempDir(t));
  cpSync(path.join(REPO, 'test/fixtures/calls/java'), path.join(root, 'javafix'), { recursive: true });
  const app = await startApp(t, root, { index: { watch: false } });
  await indexReady(app);

  t.test('TypeScript: callers of rxjs isFunction against the server', async (t) => {
    // rxjs/src has no tsconfig.json: the server's project for a file is the open files and their imports, so
    // it sees the callers in the files opened so far (isScheduler.ts here), and plumb says what it sees.
    await getJson(app, '/symbols/callees?symbol=isScheduler&package=rxjs');
    const { status, body } = await getJson(app, '/symbols/callers?symbol=isFunction&package=rxjs&limit=200');
    t.equal(status, 200);
    t.match(body, { precision: 'semantic', server: { language: 'TypeScript/JavaScript', state: /^(answered|indexing)$/ } });
    const server = await serverIncoming(app, body.symbol.file, body.symbol.line, body.symbol.column);
    t.ok(server.callers >= 1, `the server finds ${server.callers} callers`);
    t.equal(body.totalMatches, server.callers);
    t.same(sitesOf(body.results), server.sites);
    const names = body.results.map((r: Result) => r.symbol.name);
    t.ok(names.includes('isScheduler'), 'isScheduler calls it');
    t.ok(body.results.every((r: Result) => r.calls.every((c) => c.text && c.text.includes('isFunction'))), 'each site\'s text shows the call');
  });

  t.test('TypeScript depth 2 and paging', async (t) => {
    const { body } = await getJson(app, '/symbols/callers?symbol=isScheduler&package=rxjs&depth=2');
    // The server's project for isScheduler.ts holds only what it imports, none of its callers: the source has them.
    t.match(body, { precision: 'syntactic', server: { state: /^(answered|indexing)$/, reason: /found no callers/ } });
    const direct = body.results.filter((r: Result) => r.depth === 1).map((r: Result) => r.symbol.name);
    t.ok(direct.includes('popScheduler'));
    t.ok(body.results.some((r: Result) => r.depth === 2 && r.via?.name === 'popScheduler'), 'callers of popScheduler at depth 2');
    const page = await getJson(app, '/symbols/callers?symbol=isScheduler&package=rxjs&depth=2&limit=2&offset=1');
    t.same(page.body.results.map((r: Result) => r.symbol.name), body.results.slice(1, 3).map((r: Result) => r.symbol.name));
    t.equal(page.body.truncated, body.totalMatches > 3);
  });

  t.test('Python: callers against pyright, callees of Flask.full_dispatch_request', async (t) => {
    const { body } = await getJson(app, '/symbols/callers?symbol=Flask.finalize_request');
    t.match(body, { precision: 'semantic', server: { language: 'Python' } });
    const server = await serverIncoming(app, body.symbol.file, body.symbol.line, body.symbol.column);
    t.equal(body.totalMatches, server.callers);
    t.same(sitesOf(body.results), server.sites);
    t.ok(body.results.some((r: Result) => r.symbol.qualifiedName === 'Flask.full_dispatch_request'));

    const callees = await getJson(app, '/symbols/callees?symbol=Flask.full_dispatch_request');
    t.match(callees.body, { direction: 'outgoing', precision: 'semantic' });
    const names = callees.body.results.map((r: Result) => r.symbol.name);
    for (const name of ['preprocess_request', 'dispatch_request', 'finalize_request', 'handle_user_exception']) t.ok(names.includes(name), name);
    const finalize = callees.body.results.find((r: Result) => r.symbol.name === 'finalize_request');
    t.match(finalize.symbol, { qualifiedName: 'Flask.finalize_request', file: 'flask/app.py' });
    t.ok(finalize.calls.every((c: Site) => c.file === 'flask/app.py' && /finalize_request\(/.test(c.text ?? '')), 'sites in the calling function');
  });

  t.test('Java has no server here: syntactic callers and callees, saying why', async (t) => {
    const { status, body } = await getJson(app, '/symbols/callers?symbol=roundCents');
    t.equal(status, 200);
    t.match(body, { precision: 'syntactic', source: 'index', server: { language: 'java', request: null, state: 'unsupported', reason: /no language server serves java/ } });
    t.same(body.results.map((r: Result) => r.symbol.qualifiedName).sort(), ['Cart.total', 'Checkout.pay', 'Prices.withTax']);
    const pay = body.results.find((r: Result) => r.symbol.qualifiedName === 'Checkout.pay');
    t.equal(pay.calls.length, 1, 'the comment and the string are not calls');
    t.match(pay.calls[0], { file: 'javafix/shop/Checkout.java', line: 7, text: 'return Prices.roundCents(cart.total() / 100.0);' });

    const two = await getJson(app, '/symbols/callers?symbol=roundCents&depth=2');
    t.match(two.body.results.find((r: Result) => r.symbol.qualifiedName === 'Cart.totalWithTax'), { depth: 2, via: { name: 'Prices.withTax' } });

    const callees = await getJson(app, '/symbols/callees?symbol=Cart.totalWithTax');
    t.match(callees.body, { precision: 'syntactic', server: { state: 'unsupported' } });
    const byName = Object.fromEntries(callees.body.results.map((r: Result) => [r.symbol.name, r.symbol]));
    t.match(byName.withTax, { qualifiedName: 'Prices.withTax', file: 'javafix/shop/Prices.java' });
    t.match(byName.sum, { qualifiedName: 'Cart.sum' });
    t.match(byName.log, { qualifiedName: 'Cart.log' });
  });

  t.test('MCP find_callers and find_callees', async (t) => {
    const { client } = await connectHttp(t, app);
    const callers = await call(client, 'find_callers', { symbol: 'roundCents' });
    t.match(textOf(callers), /# Callers of `Prices.roundCents`/);
    t.match(textOf(callers), /Precision: syntactic/);
    t.equal(structured<{ totalMatches: number }>(callers).totalMatches, 3);
    const callees = await call(client, 'find_callees', { symbol: 'full_dispatch_request', containingType: 'Flask' });
    t.match(textOf(callees), /finalize_request/);
  });
});
