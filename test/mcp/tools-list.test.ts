/**
 * What tools/list costs a client: many put it in the model's context on every turn. Under 40 KB (it was 178 KB,
 * 140 KB of it output schemas), without losing what a client needs: every tool with its input schema, an output
 * schema naming the answer's fields (the SDK client checks structuredContent against it), a description that says
 * when to use the tool with an example.
 */
import t from 'tap';
import { FLASK, startApp } from '../helpers.js';
import { TOOLS } from '../../src/mcp/tools.js';
import { call, connectHttp, textOf } from './helpers.js';

const LIMIT = 40_000;

t.test('tools/list is under 40 KB and still names every parameter and every field of the answers', async (t) => {
  const app = await startApp(t, FLASK);
  const { client } = await connectHttp(t, app);
  const listed = await client.listTools();
  const bytes = Buffer.byteLength(JSON.stringify(listed));
  t.comment(`tools/list: ${bytes} bytes for ${listed.tools.length} tools`);
  t.ok(bytes < LIMIT, `tools/list is ${bytes} bytes, under ${LIMIT}`);

  for (const tool of listed.tools) {
    const own = TOOLS.find((candidate) => candidate.name === tool.name)!;
    t.ok(tool.description && tool.description.length <= 500, `${tool.name}: a short description (${tool.description?.length} characters)`);
    t.match(tool.description, /Example: \{/, `${tool.name} shows an example call`);
    const parameters = Object.keys(own.query.properties).filter((name) => name !== 'format').sort();
    t.same(Object.keys(tool.inputSchema.properties ?? {}).sort(), parameters, `${tool.name} lists every parameter`);
    const fields = Object.keys((own.response as { properties: Record<string, unknown> }).properties).sort();
    t.same(Object.keys((tool.outputSchema?.properties ?? {}) as object).sort(), fields, `${tool.name}'s output schema names every field of the answer`);
  }
  const usages = listed.tools.find((tool) => tool.name === 'find_usages')!;
  t.same(usages.outputSchema?.properties?.results, { type: 'array' }, 'a list says it is one');
  t.match(usages.inputSchema.properties?.symbol, { type: 'string', description: /qualified/ }, 'parameters keep a description');
  t.match(usages.inputSchema.properties?.limit, { type: 'integer', minimum: 1, maximum: 1000 }, 'and their bounds');

  // The SDK client checks structuredContent against the output schema: these calls pass it.
  const outline = await call(client, 'symbol_outline', { file: 'config.py', depth: 1 });
  t.notOk(outline.isError, textOf(outline));
  const search = await call(client, 'search_symbols', { query: 'Config' });
  t.notOk(search.isError, textOf(search));
});
