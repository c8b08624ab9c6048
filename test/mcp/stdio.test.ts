import { spawnSync } from 'node:child_process';
import path from 'node:path';
import t from 'tap';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { FLASK, GOOGLETEST, REPO, RXJS_SRC, tempDir } from '../helpers.js';
import { call, textOf } from './helpers.js';
import { TOOLS } from '../../src/mcp/tools.js';
import { CallToolResultSchema, ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';

/** `plumb mcp ROOT` as a client would start it, from the sources. */
async function connectStdio(t: Parameters<typeof tempDir>[0] & { teardown(fn: () => Promise<void> | void): void }, root: string, cache = tempDir(t, 'plumb-cache-')): Promise<{ client: Client; stderr: () => string }> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: ['--import=tsx', path.join(REPO, 'src/cli.ts'), 'mcp', root],
    cwd: REPO,
    env: { ...process.env, PLUMB_CACHE_DIR: cache, PLUMB_LOG_LEVEL: 'warn' } as Record<string, string>,
    stderr: 'pipe',
  });
  let stderr = '';
  transport.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const client = new Client({ name: 'plumb-stdio-test', version: '0.0.0' });
  await client.connect(transport);
  t.teardown(() => client.close());
  return { client, stderr: () => stderr };
}

t.test('plumb mcp ROOT over stdio: the same tools, real answers on flask', async (t) => {
  const { client, stderr } = await connectStdio(t, FLASK);
  const { tools } = await client.listTools();
  t.same(tools.map((tool) => tool.name).sort(), TOOLS.map((tool) => tool.name).sort(), 'every tool /mcp has');

  const outline = await call(client, 'symbol_outline', { file: 'config.py', depth: 1 });
  t.notOk(outline.isError, outline.isError ? textOf(outline) : 'answered');
  const body = outline.structuredContent as { results: { name: string; kind: string; children: unknown[] }[] };
  t.ok(body.results.some((node) => node.name === 'Config' && node.kind === 'class'), 'class Config at the top level');
  t.ok(body.results.every((node) => node.children.length === 0), 'depth 1 only');
  t.match(textOf(outline), /- \*\*ConfigAttribute\*\* \(`Class`\)/);

  const bad = await call(client, 'symbol_outline', { file: '/etc/passwd' });
  t.equal(bad.isError, true);
  t.match(textOf(bad), /^Parameter 'file'.*outside the workspace root/);

  for (const args of ['x', [1], 5]) {
    const error = await client.request({ method: 'tools/call', params: { name: 'symbol_outline', arguments: args as never } }, CallToolResultSchema).then(() => undefined, (caught: unknown) => caught);
    t.ok(error instanceof McpError && error.code === ErrorCode.InvalidParams, `arguments ${JSON.stringify(args)}: invalid params (-32602): ${String(error)}`);
    t.match(String(error), /'arguments' must be an object/);
  }
  t.notMatch(stderr(), /"level":(50|60)/, 'no errors logged');
});

t.test('plumb mcp on an index plumb index built: the first answers are whole, not "still building"', async (t) => {
  const cache = tempDir(t, 'plumb-cache-');
  // googletest's 184 files: enough that the walk at start-up (comparing every file with the index) outlasts the first call.
  const built = spawnSync(process.execPath, ['--import=tsx', path.join(REPO, 'src/cli.ts'), 'index', GOOGLETEST], { cwd: REPO, encoding: 'utf8', timeout: 240_000, env: { ...process.env, PLUMB_CACHE_DIR: cache } });
  t.equal(built.status, 0, built.stderr);
  const { client } = await connectStdio(t, GOOGLETEST, cache);
  const search = await call(client, 'search_symbols', { query: 'TestSuite', limit: 3 });
  t.notOk(search.isError, textOf(search));
  const answer = search.structuredContent as { partial?: boolean; reason?: string; totalMatches: number };
  t.notOk(answer.partial, `the first answer is not partial: ${answer.reason ?? ''}`);
  t.notMatch(textOf(search), /still building/);
  t.ok(answer.totalMatches > 0, 'and finds what the index holds');
  const status = await call(client, 'index_status', {});
  const index = (status.structuredContent as { index: { state: string; filesTotal: number } }).index;
  t.equal(index.state, 'ready', 'index_status says ready at once');
  t.ok(index.filesTotal > 100);
});

t.test('plumb mcp over stdio: children of rxjs Subject at depth 2', async (t) => {
  const { client } = await connectStdio(t, RXJS_SRC);
  const result = await call(client, 'get_symbol_children', { file: 'internal/Subject.ts', line: 17, column: 14, depth: '2' });
  t.notOk(result.isError, result.isError ? textOf(result) : 'answered');
  const body = result.structuredContent as { symbol: { name: string }; results: { name: string; depth: number }[] };
  t.equal(body.symbol.name, 'Subject');
  t.ok(body.results.some((child) => child.name === 'next' && child.depth === 1));
  t.ok(body.results.every((child) => child.depth <= 2));
});

t.test('plumb mcp --help says what each flag does; serve-only flags are refused', async (t) => {
  const run = (args: string[]) => spawnSync(process.execPath, ['--import=tsx', path.join(REPO, 'src/cli.ts'), ...args], { cwd: REPO, encoding: 'utf8', timeout: 60_000 });
  const help = run(['mcp', '--help']);
  t.equal(help.status, 0);
  for (const flag of ['--config', '--log-level', '--cache-dir']) t.match(help.stdout, new RegExp(`${flag} \\S+\\s+\\S`), `${flag} described`);
  t.match(help.stdout, /over\nstdio/);
  t.match(run(['--help']).stdout, /plumb mcp \[ROOT\]/, 'plumb --help lists it');
  const bad = run(['mcp', '--port', '7077']);
  t.equal(bad.status, 2);
  t.match(bad.stderr, /Unknown option '--port'/);
});
