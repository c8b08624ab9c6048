/**
 * Defects a hostile test run found (issue 13), each checked as a user would see it: on a copy of flask,
 * one app shared by the read-only subtests.
 */
import { cpSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import t from 'tap';
import { FLASK, getJson, startApp, tempDir } from '../helpers.js';
import { eventually, indexReady } from '../index/helpers.js';
import { callTool } from '../../src/mcp/tool.js';
import { TOOLS } from '../../src/mcp/tools.js';
import type { PlumbApp } from '../../src/app.js';

function flaskCopy(dir: string): string {
  const root = path.join(dir, 'ws');
  cpSync(FLASK, path.join(root, 'flask'), { recursive: true, filter: (src) => !src.includes('__pycache__') });
  return root;
}

async function tool(app: PlumbApp, name: string, args: Record<string, unknown>) {
  const found = TOOLS.find((candidate) => candidate.name === name);
  if (!found) throw new Error(`no tool ${name}`);
  return callTool(found, app.plumb, args, new AbortController().signal);
}

function textOf(result: { content: Array<{ type: string; text?: string }> }): string {
  return result.content.map((part) => part.text ?? '').join('\n');
}

t.test('hostile input on a copy of flask', async (t) => {
  const root = flaskCopy(tempDir(t));
  writeFileSync(path.join(root, '..dotdot.py'), 'def dotdot_function():\n    return 1\n');
  mkdirSync(path.join(root, '..dir'));
  writeFileSync(path.join(root, '..dir', 'x.py'), 'class DotDotDirClass:\n    pass\n');
  const app = await startApp(t, root, { index: { watch: true } });
  await indexReady(app);

  t.test('1. a NUL or another control character in a search query is never a 500', async (t) => {
    for (const query of ['a\0b', 'Flask\0', '\0Flask', 'Fla\0sk', '\x01Flask', 'Fl\x1fask', 'a\0', '\0', '\0\0\0', 'Fla"\0"sk', 'x\x7fy', 'Flask\n']) {
      const encoded = encodeURIComponent(query);
      for (const url of [`/symbols?query=${encoded}`, `/symbols?query=${encoded}&match=exact`]) {
        const { status, body } = await getJson(app, url);
        t.ok(status === 200 || status === 400 || status === 404, `${JSON.stringify(url)}: ${status}`);
        if (status !== 200) t.ok(body.error?.code && body.error?.message, 'a clear error');
      }
      for (const name of ['search_symbols', 'get_symbol']) {
        const result = await tool(app, name, { query });
        t.notMatch(textOf(result), /Internal error/, `${name} ${JSON.stringify(query)}`);
      }
    }
    const clean = await getJson(app, '/symbols?query=Flask');
    t.equal(clean.body.results[0].name, 'Flask', 'an ordinary query still answers');
  });

  t.test('2. bad JSON to /mcp is a JSON-RPC parse error, not a 500', async (t) => {
    for (const [method, payload] of [['POST', 'not json'], ['POST', ''], ['POST', '{"jsonrpc":'], ['DELETE', ''], ['DELETE', 'not json']] as const) {
      const response = await app.inject({ method, url: '/mcp', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' }, payload });
      t.equal(response.statusCode, 400, `${method} ${JSON.stringify(payload)}`);
      const body = response.json();
      t.match(body, { jsonrpc: '2.0', error: { code: -32700, message: /Parse error/ }, id: null });
      t.notMatch(response.body, /FST_|fastify/i, 'no framework internals');
    }
  });

  t.test('3. every offset and limit has one bound and one behaviour', async (t) => {
    for (const route of ['/packages/flask/symbols', '/symbols?query=Flask', '/packages']) {
      const join = route.includes('?') ? '&' : '?';
      for (const offset of ['9223372036854775807', '1e20', '1e308', '1000001']) {
        const { status, body } = await getJson(app, `${route}${join}offset=${offset}`);
        t.equal(status, 400, `${route} offset=${offset}`);
        t.match(body.error, { code: 'invalid_parameter', message: /'offset'/ });
      }
      const big = await getJson(app, `${route}${join}offset=1000001`);
      t.match(big.body.error.message, /at most 1000000/, 'names the maximum');
      const last = await getJson(app, `${route}${join}offset=1000000`);
      t.equal(last.status, 200, 'the maximum itself is an (empty) page');
      t.same(last.body.results, []);
      const limit = await getJson(app, `${route}${join}limit=201`);
      t.equal(limit.status, 400);
      t.match(limit.body.error.message, /'limit' must be at most 200/);
    }
    const viaTool = await tool(app, 'get_package_symbols', { name: 'flask', offset: 9223372036854775807 });
    t.equal(viaTool.isError, true);
    t.match(textOf(viaTool), /'offset' must be at most 1000000/);
  });

  t.test('6. names starting with .. are inside the root', async (t) => {
    const file = await getJson(app, '/outline?file=..dotdot.py');
    t.not(file.status, 400, 'no path_outside_root for ROOT/..dotdot.py');
    t.not(file.body.error?.code, 'path_outside_root');
    const dir = await getJson(app, `/outline?file=${encodeURIComponent(path.join(root, '..dir', 'x.py'))}`);
    t.not(dir.body.error?.code, 'path_outside_root', 'nor for ROOT/..dir/x.py');
    const found = await getJson(app, '/symbols?query=dotdot_function&match=exact');
    t.equal(found.status, 200, 'indexed');
    t.equal(found.body.results[0]?.file, '..dotdot.py');
    // `..dir` is a dot directory, left out of the index as every hidden directory is; it is still inside the root.
    const outside = await getJson(app, '/outline?file=../x.py');
    t.equal(outside.body.error?.code, 'path_outside_root', '../x.py is still outside');
  });

  t.test('10. whole-number parameters take decimal integers only', async (t) => {
    for (const [url, name] of [
      ['/symbols?query=Flask&limit=2.7', 'limit'], ['/symbols?query=Flask&limit=0x10', 'limit'], ['/symbols?query=Flask&limit=1e1', 'limit'],
      ['/symbols?query=Flask&limit=%205', 'limit'], ['/symbols?query=Flask&limit=%2B5', 'limit'], ['/symbols?query=Flask&limit=', 'limit'],
      ['/symbols?query=Flask&offset=1.0', 'offset'], ['/symbols?query=Flask&limit=1&limit=2', 'limit'], ['/packages?limit=0b11', 'limit'],
      ['/children?file=flask/app.py&line=109.9&column=7', 'line'], ['/children?file=flask/app.py&line=109&column=7.5', 'column'],
      ['/outline?file=flask/app.py&depth=1.9', 'depth'], ['/outline?file=flask/app.py&depth=1e3', 'depth'], ['/children?file=flask/app.py&line=109&column=7&depth=1.9', 'depth'],
    ] as const) {
      const { status, body } = await getJson(app, url);
      t.equal(status, 400, url);
      t.match(body.error?.message, new RegExp(`'${name}'`), `${url}: names ${name}`);
      if (name !== 'depth' || url.startsWith('/outline')) t.match(body.error?.message, /must be a decimal integer/, url);
    }
    t.equal((await getJson(app, '/symbols?query=Flask&limit=007')).body.limit, 7, 'leading zeros are still decimal');
    const viaTool = await tool(app, 'search_symbols', { query: 'Flask', limit: 2.7 });
    t.equal(viaTool.isError, true, 'the MCP tool agrees');
    t.match(textOf(viaTool), /Parameter 'limit' must be a decimal integer/);
    const hex = await tool(app, 'search_symbols', { query: 'Flask', limit: '0x10' });
    t.equal(hex.isError, true);
    const fine = await tool(app, 'search_symbols', { query: 'Flask', limit: '3' });
    t.notOk(fine.isError, 'a decimal string is understood');
    t.equal((fine.structuredContent as { limit: number }).limit, 3);
  });

  t.test('11. Accept q values and Host case', async (t) => {
    const refused = await app.inject({ url: '/symbols?query=Flask', headers: { accept: 'text/markdown;q=0, application/json' } });
    t.match(refused.headers['content-type'], /application\/json/, 'q=0 means not wanted');
    const preferred = await app.inject({ url: '/symbols?query=Flask', headers: { accept: 'application/json;q=0.5, text/markdown' } });
    t.match(preferred.headers['content-type'], /text\/markdown/, 'the higher q wins');
    const plain = await app.inject({ url: '/symbols?query=Flask', headers: { accept: 'text/markdown' } });
    t.match(plain.headers['content-type'], /text\/markdown/);
    const json = await app.inject({ url: '/symbols?query=Flask', headers: { accept: 'application/json, text/markdown' } });
    t.match(json.headers['content-type'], /application\/json/, 'equal q: the first listed');
    const upper = await app.inject({ url: '/status', headers: { host: 'LOCALHOST:7077' } });
    t.equal(upper.statusCode, 200, 'Host: LOCALHOST is loopback');
    t.equal((await app.inject({ url: '/status', headers: { host: 'LocalHost' } })).statusCode, 200);
  });

  t.test('7. /status file counts follow live updates', async (t) => {
    const before = (await getJson(app, '/status')).body.index;
    t.equal(before.filesIndexed, before.filesTotal);
    for (let i = 0; i < 6; i++) writeFileSync(path.join(root, `added_${i}.py`), `def added_function_${i}():\n    return ${i}\n`);
    await eventually(async () => (await getJson(app, '/symbols?query=added_function_5&match=exact')).status === 200);
    await eventually(async () => (await getJson(app, '/status')).body.index.filesTotal === before.filesTotal + 6);
    const after = (await getJson(app, '/status')).body.index;
    t.equal(after.filesTotal, before.filesTotal + 6, 'filesTotal counts the new files');
    t.equal(after.filesIndexed, before.filesIndexed + 6, 'and filesIndexed');
  });
});
