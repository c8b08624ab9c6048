import t from 'tap';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { FLASK, getJson, startApp } from '../helpers.js';
import { waitFor } from '../wait.js';
import { call, connectHttp, structured, textOf } from './helpers.js';

interface Symbol { id: string; name: string; kind: string; file: string; line: number; qualifiedName: string; package: string }
interface SymbolList { query?: string; package?: string; results: Symbol[]; totalMatches: number; truncated: boolean; limit: number; partial?: boolean }

/** The index builds in the background: wait for index_status to say ready, as an agent would. */
async function waitForIndex(client: Client): Promise<void> {
  await waitFor('index_status to say ready', () => call(client, 'index_status', {}), (status) => (status.structuredContent as { ready: boolean }).ready, { timeoutMs: 60_000, intervalMs: 100 });
}

t.test('the index tools on flask: search_symbols, get_symbol, list_packages, get_package_symbols', async (t) => {
  const app = await startApp(t, FLASK);
  const { client } = await connectHttp(t, app);
  const names = (await client.listTools()).tools.map((tool) => tool.name);
  for (const name of ['search_symbols', 'get_symbol', 'list_packages', 'get_package_symbols']) t.ok(names.includes(name), `${name} listed`);
  await waitForIndex(client);

  const search = await call(client, 'search_symbols', { query: 'Config', kind: 'class', limit: 5 });
  t.notOk(search.isError, search.isError ? textOf(search) : 'answered');
  const found = structured<SymbolList>(search);
  t.equal(found.results[0]?.name, 'Config', 'the exact name ranks first');
  t.equal(found.results[0]?.file, 'config.py');
  t.equal(found.results[0]?.line, 29);
  t.equal(found.limit, 5);
  t.match(textOf(search), /^# Symbols matching `Config`/);
  t.match(textOf(search), /\| Name \| Kind \| File \| Line \|/);
  const viaHttp = await getJson(app, '/symbols?query=Config&kind=class&limit=5');
  t.same(found.results, viaHttp.body.results, 'the same results as GET /symbols');

  const exact = await call(client, 'get_symbol', { query: 'from_pyfile' });
  t.notOk(exact.isError, exact.isError ? textOf(exact) : 'answered');
  const fromPyfile = structured<SymbolList>(exact).results;
  t.ok(fromPyfile.length >= 1 && fromPyfile.every((s) => s.name === 'from_pyfile'), 'only exact names');
  t.ok(fromPyfile.some((s) => s.file === 'config.py' && s.kind === 'method'), 'Config.from_pyfile in config.py');
  t.equal(structured<SymbolList>(exact).totalMatches, fromPyfile.length);
  // Flask has the class Config and five lower-case `config` variables, fields, properties and functions.
  const config = structured<SymbolList>(await call(client, 'get_symbol', { query: 'Config' }));
  t.match(config.results, [{ name: 'Config', kind: 'class', file: 'config.py' }], 'the class Config, not every `config`');
  t.equal(config.totalMatches, 1);

  const packages = await call(client, 'list_packages', {});
  t.notOk(packages.isError, packages.isError ? textOf(packages) : 'answered');
  const packageList = (packages.structuredContent as { results: { name: string; symbols: number }[] }).results;
  t.ok(packageList.length >= 1, 'at least the workspace package');
  t.match(textOf(packages), /^# Packages/);

  const first = packageList[0]!;
  const packageSymbols = await call(client, 'get_package_symbols', { name: first.name, kind: 'class', limit: 200 });
  t.notOk(packageSymbols.isError, packageSymbols.isError ? textOf(packageSymbols) : 'answered');
  const body = structured<SymbolList>(packageSymbols);
  t.equal(body.package, first.name);
  t.ok(body.results.length > 0 && body.results.every((s) => s.kind === 'class'), 'classes only');
  t.ok(body.results.every((s) => s.package === first.name));
  const byId = await call(client, 'search_symbols', { id: body.results[0]!.id });
  t.equal(structured<SymbolList>(byId).results[0]?.id, body.results[0]!.id, 'an id from one answer finds the symbol again');
});

t.test('the index tools\' errors are the routes\' messages', async (t) => {
  const app = await startApp(t, FLASK);
  const { client } = await connectHttp(t, app);
  const cases: { tool: string; args: Record<string, unknown>; url: string }[] = [
    { tool: 'search_symbols', args: { query: '  ' }, url: '/symbols?query=%20%20' },
    { tool: 'search_symbols', args: { query: 'Config', limit: 500 }, url: '/symbols?query=Config&limit=500' },
    { tool: 'get_symbol', args: { query: 'NoSuchSymbolAnywhere' }, url: '/symbols?query=NoSuchSymbolAnywhere&match=exact' },
    { tool: 'get_package_symbols', args: { name: 'no-such-package' }, url: '/packages/no-such-package/symbols' },
  ];
  await waitForIndex(client);
  for (const { tool, args, url } of cases) {
    const result = await call(client, tool, args);
    const http = await getJson(app, url);
    t.ok(http.status >= 400, `${url}: HTTP ${http.status}`);
    t.equal(result.isError, true, `${tool} ${JSON.stringify(args)} is a tool error`);
    t.equal(textOf(result).split('\n')[0], http.body.error.message, `same message: ${http.body.error.message}`);
  }
  const missing = await call(client, 'get_symbol', {});
  t.equal(textOf(missing).split('\n')[0], 'Parameter \'query\' is required');
});
