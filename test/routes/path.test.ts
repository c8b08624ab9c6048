/**
 * /symbols/path on real code with a real server: Go's container/list with gopls, a test three calls away from
 * the function it ends in (TestList → PushFront → insertValue → insert), each step with where it calls the
 * next; over HTTP, markdown and MCP; no path within the depth is a 404 saying how deep it looked.
 */
import { cpSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import t from 'tap';
import type { PathResponse } from '../../schemas/path.js';
import { corpusPath, requireCorpora } from '../corpora.js';
import { getJson, startApp, tempDir } from '../helpers.js';
import { call, connectHttp, structured, textOf } from '../mcp/helpers.js';
import { indexReady } from '../wait.js';

t.test('Go (container/list with gopls): a path across three calls', async (t) => {
  if (!requireCorpora(t, 'go')) return;
  const root = tempDir(t, 'plumb-path-');
  cpSync(path.join(corpusPath('go'), 'src', 'container', 'list'), root, { recursive: true });
  writeFileSync(path.join(root, 'go.mod'), 'module example.com/list\n\ngo 1.19\n');
  for (const name of readdirSync(root).filter((n) => n.endsWith('.go'))) {
    const file = path.join(root, name);
    writeFileSync(file, readFileSync(file, 'utf8').replace(/"container\/list"/g, '"example.com/list"'));
  }
  const app = await startApp(t, root, { index: { watch: false } });
  await indexReady(app);

  const { status, body } = await getJson<PathResponse>(app, '/symbols/path?from=TestList&to=List.insert');
  t.equal(status, 200);
  t.match(body, { length: 3, found: 'callers', precision: 'semantic', from: { name: 'TestList' }, to: { qualifiedName: 'List.insert' } });
  const names = body.results.map((step) => ('qualifiedName' in step.symbol ? step.symbol.qualifiedName : step.symbol.name));
  t.equal(names.length, 4);
  t.equal(names[0], 'TestList');
  t.match(names[1], /^List\.(PushFront|PushBack|InsertBefore|InsertAfter|PushBackList|PushFrontList)$/, 'a method TestList calls');
  t.equal(names[2], 'List.insertValue');
  t.equal(names[3], 'List.insert');
  t.same(body.results.map((step) => step.step), [0, 1, 2, 3]);
  for (let i = 0; i < 3; i++) {
    const next = names[i + 1].split('.').pop()!;
    t.ok(body.results[i].calls.length > 0 && body.results[i].calls.every((site) => site.text?.includes(`${next}(`)), `step ${i} calls ${next} at ${body.results[i].calls.map((c) => `${c.file}:${c.line}`).join(', ')}`);
  }
  t.same(body.results[3].calls, [], 'the last step calls nothing further');

  const md = await app.inject({ url: '/symbols/path?from=TestList&to=List.insert&format=markdown' });
  t.match(md.body, /^# Call path from `TestList` to `List\.insert`/);
  t.match(md.body, /`TestList` → `List\.\w+` → `List\.insertValue` → `List\.insert`/);

  const { client } = await connectHttp(t, app);
  const result = await call(client, 'trace_calls', { from: 'TestList', to: 'List.insert' });
  t.notOk(result.isError);
  t.equal((structured(result) as PathResponse).length, 3);
  t.match(textOf(result), /3 calls/);

  const short = await getJson(app, '/symbols/path?from=TestList&to=List.insert&max_depth=2');
  t.equal(short.status, 404, 'not within two calls');
  t.match(short.body.error.message, /No call path from 'TestList' to 'List\.insert' within 2 calls: the callers of 'insert' were followed 2 deep/);
  const none = await getJson(app, '/symbols/path?from=List.Len&to=List.insert');
  t.equal(none.status, 404, 'Len calls nothing that reaches insert');
  t.equal((await getJson(app, '/symbols/path?to=List.insert')).status, 400, 'from is required');
  const missing = await getJson(app, '/symbols/path?from=NoSuchFunction&to=List.insert');
  t.match(missing, { status: 404, body: { error: { message: /^Parameter 'from': Symbol 'NoSuchFunction' not found/ } } });
  t.equal((await getJson(app, '/symbols/path?from=TestList&to=List.insert&max_depth=7')).status, 400);
});
