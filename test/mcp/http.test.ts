import t from 'tap';
import { FLASK, RXJS_SRC, getJson, startApp, tempDir } from '../helpers.js';
import { call, connectHttp, textOf } from './helpers.js';
import { TOOLS } from '../../src/mcp/tools.js';
import { CallToolResultSchema, ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';

interface Node { name: string; kind: string; line: number; children: Node[]; symbolContent?: string }

t.test('an MCP client lists the tools over Streamable HTTP, each with input and output schemas', async (t) => {
  const app = await startApp(t, FLASK);
  const { client } = await connectHttp(t, app);
  t.equal(client.getServerVersion()?.name, 'plumb');
  t.match(client.getInstructions(), /symbol_outline/);
  const { tools } = await client.listTools();
  const names = tools.map((tool) => tool.name);
  t.same(names, TOOLS.map((tool) => tool.name), 'every operation\'s tool, in src/operations/index.ts\'s order');
  t.same(names.slice(0, 3), ['search_symbols', 'get_symbol', 'find_declaration'], 'finding by name first');
  t.equal(names.at(-1), 'batch', 'batch, which asks the others, last');
  for (const tool of tools) {
    t.equal(tool.inputSchema.type, 'object', `${tool.name} takes an object`);
    t.notOk(tool.inputSchema.properties && 'format' in tool.inputSchema.properties, `${tool.name} has no format argument`);
    t.equal(tool.outputSchema?.type, 'object', `${tool.name} declares its output`);
    t.match(tool.description, /Example: \{/, `${tool.name} shows an example call`);
    t.equal(tool.annotations?.readOnlyHint, true);
  }
  const outline = tools.find((tool) => tool.name === 'symbol_outline')!;
  t.same(outline.inputSchema.required, ['file']);
  t.same(outline.outputSchema?.properties?.results, { type: 'array' }, 'the output schema is compact: the answer\'s fields (openapi.yaml has the whole shape)');
});

t.test('symbol_outline on flask\'s config.py: markdown text and the route\'s JSON', async (t) => {
  const app = await startApp(t, FLASK);
  const { client } = await connectHttp(t, app);
  const result = await call(client, 'symbol_outline', { file: 'config.py', display_code_for: 'Config.from_pyfile' });
  t.notOk(result.isError, result.isError ? textOf(result) : 'answered');
  const body = result.structuredContent as { file: string; language: string; results: Node[] };
  t.equal(body.file, 'config.py');
  t.equal(body.language, 'python');
  const config = body.results.find((node) => node.name === 'Config')!;
  t.equal(config.kind, 'class');
  t.equal(config.line, 29);
  const fromPyfile = config.children.find((node) => node.name === 'from_pyfile')!;
  t.equal(fromPyfile.kind, 'method');
  t.match(fromPyfile.symbolContent, /def from_pyfile\(self, filename: str/);
  const text = textOf(result);
  t.match(text, /^# Outline of config\.py/);
  t.match(text, /- \*\*Config\*\* \(`Class`\) L29/);
  t.match(text, /```python\n\s+def from_pyfile/);

  const http = await getJson(app, '/outline?file=config.py&display_code_for=Config.from_pyfile');
  const { elapsedMs: _a, ...viaHttp } = http.body;
  const { elapsedMs: _b, ...viaMcp } = result.structuredContent as Record<string, unknown>;
  t.same(viaMcp, viaHttp, 'the same answer as GET /outline');
});

t.test('get_symbol_children of rxjs Subject and index_status', async (t) => {
  const app = await startApp(t, RXJS_SRC);
  const { client } = await connectHttp(t, app);
  // A model may send depth as a number: understood as the string the schema lists.
  const result = await call(client, 'get_symbol_children', { file: 'internal/Subject.ts', line: 17, column: 14, depth: 1 });
  t.notOk(result.isError, result.isError ? textOf(result) : 'answered');
  const body = result.structuredContent as { symbol: { name: string; kind: string }; depth: number; results: { name: string; kind: string; parent: string; depth: number }[] };
  t.equal(body.symbol.name, 'Subject');
  t.equal(body.symbol.kind, 'class');
  t.equal(body.depth, 1);
  const names = body.results.map((child) => child.name);
  for (const name of ['observers', 'next', 'error', 'complete', 'unsubscribe', 'asObservable']) t.ok(names.includes(name), `${name} is a child`);
  t.ok(body.results.every((child) => child.parent === 'Subject' && child.depth === 1));
  const text = textOf(result);
  t.match(text, /^# Children of Subject \(`Class`\) in internal\/Subject\.ts:17/);
  t.match(text, /\| NAME \| KIND \| RANGE \| SELECTION \| PARENT \| HOVER_INFO \|/);
  t.match(text, /\| next \| Method \| \d+:\d+-\d+:\d+ \|/);

  const status = await call(client, 'index_status', {});
  t.notOk(status.isError);
  const statusBody = status.structuredContent as { root: string; servers: { language: string; state: string }[] };
  t.equal(statusBody.root, RXJS_SRC);
  t.ok(statusBody.servers.some((server) => server.language === 'typescript' && server.state !== 'stopped'), 'the TypeScript server the call started is listed');
  t.match(textOf(status), /^# plumb /);
});

t.test('bad calls are tool errors with the message the HTTP route gives', async (t) => {
  const app = await startApp(t, RXJS_SRC);
  const { client } = await connectHttp(t, app);
  const cases: { args: Record<string, unknown>; query: string }[] = [
    { args: { file: 'internal/Subject.ts', line: 0, column: 1 }, query: 'file=internal/Subject.ts&line=0&column=1' },
    { args: { file: 'internal/Subject.ts', line: 17 }, query: 'file=internal/Subject.ts&line=17' },
    { args: { file: 'internal/Subject.ts', line: 17, column: 14, depth: '5' }, query: 'file=internal/Subject.ts&line=17&column=14&depth=5' },
    { args: { file: '../../package.json', line: 1, column: 1 }, query: 'file=../../package.json&line=1&column=1' },
    { args: { file: 'internal/Nope.ts', line: 1, column: 1 }, query: 'file=internal/Nope.ts&line=1&column=1' },
  ];
  for (const { args, query } of cases) {
    const result = await call(client, 'get_symbol_children', args);
    const http = await getJson(app, `/children?${query}`);
    t.ok(http.status >= 400 && http.status < 500, `HTTP ${http.status} for ${query}`);
    t.equal(result.isError, true, `tool error for ${JSON.stringify(args)}`);
    t.equal(result.content[0]?.type === 'text' ? result.content[0].text : undefined, http.body.error.message, `same message: ${http.body.error.message}`);
  }
  await t.rejects(client.callTool({ name: 'no_such_tool', arguments: {} }), /Unknown tool 'no_such_tool'/);
});

t.test('tools/call whose arguments is not an object is a JSON-RPC invalid params error (-32602) naming arguments', async (t) => {
  const app = await startApp(t, FLASK);
  const { client } = await connectHttp(t, app);
  for (const args of ['x', [1], 5, null, true]) {
    const call = client.request({ method: 'tools/call', params: { name: 'search_symbols', arguments: args as never } }, CallToolResultSchema);
    const error = await call.then(() => undefined, (caught: unknown) => caught);
    t.ok(error instanceof McpError, `arguments ${JSON.stringify(args)}: a JSON-RPC error`);
    t.equal((error as McpError).code, ErrorCode.InvalidParams, `arguments ${JSON.stringify(args)}: -32602, not -32603`);
    t.match((error as McpError).message, /'arguments' must be an object .*got (a string|an array|a number|null|a boolean)/, (error as McpError).message);
  }
  const omitted = await client.request({ method: 'tools/call', params: { name: 'symbol_outline' } }, CallToolResultSchema);
  t.equal(omitted.isError, true, 'arguments left out: the tool says what it needs');
  t.match(omitted.content[0], { type: 'text', text: /^Parameter 'file' is required/ });
  const fine = await client.request({ method: 'tools/call', params: { name: 'search_symbols', arguments: { query: 'Flask' } } }, CallToolResultSchema);
  t.notOk(fine.isError, 'an object still works');
  const unknown = await client.request({ method: 'tools/nope', params: {} }, CallToolResultSchema).then(() => undefined, (caught: unknown) => caught);
  t.equal((unknown as McpError).code, ErrorCode.MethodNotFound, 'another method is still not found (-32601)');
});

t.test('sessions: a request without a session or with an ended one is refused; DELETE ends a session', async (t) => {
  const app = await startApp(t, tempDir(t));
  const { client, transport, url } = await connectHttp(t, app);
  const sessionId = transport.sessionId!;
  t.ok(sessionId, 'initialize gave a session id');
  const headers = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
  const ping = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' });

  const noSession = await fetch(url, { method: 'POST', headers, body: ping });
  t.equal(noSession.status, 400);
  t.match(await noSession.json(), { error: { message: /no Mcp-Session-Id/ } });

  const unknown = await fetch(url, { method: 'POST', headers: { ...headers, 'mcp-session-id': 'nope' }, body: ping });
  t.equal(unknown.status, 404);

  await client.ping();
  await transport.terminateSession();
  const ended = await fetch(url, { method: 'POST', headers: { ...headers, 'mcp-session-id': sessionId }, body: ping });
  t.equal(ended.status, 404, 'the ended session is gone');
});

t.test('raw Streamable HTTP: POST initialize, GET the event stream, DELETE the session', async (t) => {
  const app = await startApp(t, tempDir(t));
  await app.listen({ host: '127.0.0.1', port: 0 });
  const address = app.server.address() as { port: number };
  const url = `http://127.0.0.1:${address.port}/mcp`;
  const post = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
  const initialize = await fetch(url, {
    method: 'POST',
    headers: post,
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '0' } } }),
  });
  t.equal(initialize.status, 200);
  const sessionId = initialize.headers.get('mcp-session-id')!;
  t.ok(sessionId, 'the answer names the session');
  await initialize.body?.cancel();

  const stream = await fetch(url, { headers: { accept: 'text/event-stream', 'mcp-session-id': sessionId } });
  t.equal(stream.status, 200, 'GET opens the server\'s event stream');
  t.match(stream.headers.get('content-type'), /text\/event-stream/);
  await stream.body?.cancel();

  const end = await fetch(url, { method: 'DELETE', headers: { 'mcp-session-id': sessionId } });
  t.equal(end.status, 200, 'DELETE ends the session');
  const after = await fetch(url, { method: 'POST', headers: { ...post, 'mcp-session-id': sessionId }, body: JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'ping' }) });
  t.equal(after.status, 404);
});

t.test('past mcp.maxSessions the least recently used session ends', async (t) => {
  const app = await startApp(t, tempDir(t), { mcp: { maxSessions: 1 } });
  const first = await connectHttp(t, app);
  await first.client.ping();
  const second = await connectHttp(t, app);
  await second.client.ping();
  await t.rejects(first.client.ping(), /404|not found/i, 'the older session is gone');
  await second.client.ping();
});

t.test('every endpoint has its MCP tool', async (t) => {
  const app = await startApp(t, tempDir(t));
  const { body } = await getJson(app, '/openapi.json');
  // Liveness, the description itself and MCP are no operations a model needs.
  const exempt = new Set(['GET /health', 'GET /openapi.json', 'POST /mcp', 'GET /mcp', 'DELETE /mcp']);
  const endpoints = Object.entries(body.paths as Record<string, Record<string, unknown>>)
    .flatMap(([url, item]) => Object.keys(item).map((method) => `${method.toUpperCase()} ${url}`))
    .filter((endpoint) => !exempt.has(endpoint));
  const covered = new Set(TOOLS.map((tool) => tool.endpoint));
  for (const endpoint of endpoints) t.ok(covered.has(endpoint), `${endpoint} has a tool in src/mcp/tools.ts`);
  for (const tool of TOOLS) t.ok(endpoints.includes(tool.endpoint), `${tool.name}'s endpoint ${tool.endpoint} exists`);
});
