/**
 * POST /batch (MCP batch): several operations in one request, each answered as it alone would be, in order; bounded
 * in time; counted as its requests toward the rate limit.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import t from 'tap';
import type { BatchResponse } from '../../schemas/batch.js';
import type { PlumbApp } from '../../src/app.js';
import { FLASK, getJson, startApp, tempDir } from '../helpers.js';
import { call, connectHttp, textOf } from '../mcp/helpers.js';
import { indexReady } from '../wait.js';

async function postBatch(app: PlumbApp, body: unknown, query = ''): Promise<{ status: number; body: any; text: string }> {
  const response = await app.inject({ method: 'POST', url: `/batch${query}`, payload: body as object });
  const json = response.headers['content-type']?.toString().includes('json') ? response.json() : undefined;
  return { status: response.statusCode, body: json, text: response.body };
}

function withoutElapsed(body: unknown): unknown {
  const { elapsedMs: _elapsed, ...rest } = body as Record<string, unknown>;
  return rest;
}

t.test('a batch on flask mixing a success, a 404 and a 409: each answered as the operation alone, in order', async (t) => {
  const app = await startApp(t, FLASK);
  await indexReady(app);
  const requests = [
    { operation: 'find_declaration', params: { symbol: 'Config' } },
    { operation: 'find_usages', params: { symbol: 'NoSuchSymbolAnywhere' } },
    { operation: 'find_usages', params: { symbol: 'get' } },
    { operation: 'search_symbols', params: { query: 'Flask', limit: 3 } },
  ];
  const { status, body } = await postBatch(app, { requests });
  t.equal(status, 200);
  const answer = body as BatchResponse;
  t.same(answer.results.map((result) => [result.operation, result.status]), [['find_declaration', 200], ['find_usages', 404], ['find_usages', 409], ['search_symbols', 200]], 'in request order, each with its own status');

  const alone = await Promise.all([
    getJson(app, '/symbols/declaration?symbol=Config'),
    getJson(app, '/symbols/usages?symbol=NoSuchSymbolAnywhere'),
    getJson(app, '/symbols/usages?symbol=get'),
    getJson(app, '/symbols?query=Flask&limit=3'),
  ]);
  answer.results.forEach((result, at) => {
    t.equal(result.status, alone[at]!.status, `${at + 1}: the status alone`);
    t.same(result.status === 200 ? withoutElapsed(result.body) : result.body, result.status === 200 ? withoutElapsed(alone[at]!.body) : alone[at]!.body, `${at + 1}: the body alone`);
  });
  t.equal((answer.results[1]!.body as any).error.code, 'symbol_not_found');
  t.equal((answer.results[2]!.body as any).error.code, 'ambiguous_symbol');
  t.ok((answer.results[2]!.body as any).error.candidates.length > 1, 'the 409 lists its candidates with ids');

  const markdown = await postBatch(app, { requests }, '?format=markdown');
  t.equal(markdown.status, 200);
  t.match(markdown.text, /^# Batch of 4 requests/);
  t.match(markdown.text, /\*\*1\. find_declaration\*\* → 200\n\n# Declarations of `Config`/);
  t.match(markdown.text, /\*\*2\. find_usages\*\* → 404 symbol_not_found\n\nSymbol 'NoSuchSymbolAnywhere' not found/);
  t.match(markdown.text, /\*\*3\. find_usages\*\* → 409 ambiguous_symbol\n\nSymbol 'get' is ambiguous/);
  t.ok(markdown.text.indexOf('# Declarations of') < markdown.text.indexOf('# Symbols matching'), 'answers in order');
});

t.test('a batch refuses what is not a batch, and answers a bad request in its place', async (t) => {
  const app = await startApp(t, FLASK);
  await indexReady(app);
  const tooMany = await postBatch(app, { requests: Array.from({ length: 21 }, () => ({ operation: 'index_status' })) });
  t.equal(tooMany.status, 400);
  t.match(tooMany.body.error.message, /requests/);
  t.equal((await postBatch(app, { requests: [] })).status, 400, 'an empty batch');
  t.equal((await postBatch(app, {})).status, 400, 'no requests');

  const { status, body } = await postBatch(app, { requests: [
    { operation: 'no_such_tool' },
    { operation: 'search_symbols', params: { query: 'Flask', limit: 'many' } },
    { operation: 'batch', params: { requests: [] } },
    { operation: 'get_symbol', params: { query: 'Flask' } },
  ] });
  t.equal(status, 200);
  const results = (body as BatchResponse).results;
  t.same(results.map((result) => result.status), [400, 400, 400, 200]);
  t.match((results[0]!.body as any).error.message, /unknown operation 'no_such_tool'; one of: search_symbols, get_symbol/);
  t.match((results[1]!.body as any).error, { code: 'invalid_parameter', message: /'limit'/ });
  t.match((results[2]!.body as any).error.message, /unknown operation 'batch'/, 'no batch inside a batch');
  t.equal((results[3]!.body as any).results[0].name, 'Flask', 'a tool without a route of its own (get_symbol) is asked by its name');
});

t.test('a batch is bounded in time: a request still running at batch.timeoutMs is a 504 in its place, the others whole', async (t) => {
  const root = path.join(tempDir(t), 'ws');
  mkdirSync(root);
  // A regex that backtracks for minutes on the first line (a backreference keeps V8's linear engine out; the
  // statements worker would stop it only at 10 s); the file has a 'b', so no search skips it for want of one.
  writeFileSync(path.join(root, 'slow.py'), `VALUE = "${'a'.repeat(30)}!"\n\ndef fast():\n    return "b"\n`);
  const app = await startApp(t, root, { index: { watch: false }, batch: { timeoutMs: 1000 }, statements: { regexTimeoutMs: 10000 } });
  await indexReady(app);
  const started = Date.now();
  const { status, body } = await postBatch(app, { requests: [
    { operation: 'search_symbols', params: { query: 'fast' } },
    { operation: 'search_statements', params: { query: '(a+)+\\1b', type: 'regex' } },
    { operation: 'get_symbol', params: { query: 'VALUE' } },
  ] });
  const elapsed = Date.now() - started;
  t.equal(status, 200);
  const results = (body as BatchResponse).results;
  t.same(results.map((result) => result.status), [200, 504, 200]);
  t.match((results[1]!.body as any).error, { code: 'batch_timeout', message: /time limit \(1 s/ });
  t.equal((results[0]!.body as any).results[0].name, 'fast');
  t.ok(elapsed < 4000, `answered in ${elapsed} ms, at the time limit rather than the regex's 10 s`);
});

t.test('a batch counts as its requests toward the rate limit, over HTTP and as an MCP tool call', async (t) => {
  const app = await startApp(t, FLASK, { rateLimit: { max: 12, exemptLoopback: false } });
  await indexReady(app);
  const status = () => ({ operation: 'index_status' });
  t.equal((await postBatch(app, { requests: Array.from({ length: 8 }, status) })).status, 200, '8 of 12');
  t.equal((await getJson(app, '/health')).status, 200, '9 of 12');
  const over = await postBatch(app, { requests: Array.from({ length: 4 }, status) });
  t.equal(over.status, 429, 'a batch of 4 passes the 12 left of 3');
  t.match(over.body.error, { code: 'rate_limited', message: /Rate limit of 12 requests/ });

  const fresh = await startApp(t, FLASK, { rateLimit: { max: 12, exemptLoopback: false } });
  await indexReady(fresh);
  const { client } = await connectHttp(t, fresh);
  const small = await call(client, 'batch', { requests: [status(), status()] });
  t.notOk(small.isError, textOf(small));
  await t.rejects(call(client, 'batch', { requests: Array.from({ length: 10 }, status) }), /429|Rate limit/, 'an MCP batch of 10 passes the limit too');
});

t.test('the batch tool over MCP: markdown of each answer in order, the JSON as structuredContent', async (t) => {
  const app = await startApp(t, FLASK);
  await indexReady(app);
  const { client } = await connectHttp(t, app);
  const result = await call(client, 'batch', { requests: [
    { operation: 'find_declaration', params: { symbol: 'Config' } },
    { operation: 'find_usages', params: { symbol: 'NoSuchSymbolAnywhere' } },
  ] });
  t.notOk(result.isError, textOf(result));
  const answer = result.structuredContent as unknown as BatchResponse;
  t.same(answer.results.map((entry) => entry.status), [200, 404]);
  t.match(textOf(result), /# Batch of 2 requests[\s\S]*# Declarations of `Config`[\s\S]*404 symbol_not_found/);
});
