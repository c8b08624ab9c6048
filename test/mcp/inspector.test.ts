import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import t from 'tap';
import { TOOLS } from '../../src/mcp/tools.js';
import { FLASK, REPO, startApp } from '../helpers.js';
import { indexSettled } from './helpers.js';

const run = promisify(execFile);
const script = path.join(REPO, 'scripts/mcp-inspect.sh');

t.test('the MCP Inspector\'s CLI mode lists and calls the tools of a running plumb (scripts/mcp-inspect.sh)', async (t) => {
  const app = await startApp(t, FLASK);
  t.teardown(() => indexSettled(app));
  const address = await app.listen({ host: '127.0.0.1', port: 0 });
  const url = `${address}/mcp`;

  const list = await run(script, [url], { timeout: 60_000 });
  const { tools } = JSON.parse(list.stdout) as { tools: { name: string }[] };
  t.same(tools.map((tool) => tool.name), TOOLS.map((tool) => tool.name), 'the Inspector sees every tool');

  const outline = await run(script, [url, '--method', 'tools/call', '--tool-name', 'symbol_outline', '--tool-arg', 'file=config.py', '--tool-arg', 'depth=1'], { timeout: 120_000 });
  const result = JSON.parse(outline.stdout) as { isError?: boolean; content: { text: string }[]; structuredContent: { results: { name: string }[] } };
  t.notOk(result.isError);
  t.ok(result.structuredContent.results.some((node) => node.name === 'Config'));
  t.match(result.content[0]!.text, /^# Outline of config\.py/);
});
