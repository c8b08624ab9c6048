import { readFileSync } from 'node:fs';
import path from 'node:path';
import t from 'tap';
import { openApiYaml } from '../../src/plugins/openapi.js';
import { REPO, getJson, startApp, tempDir } from '../helpers.js';

interface Operation {
  summary?: string;
  description?: string;
  parameters?: { name: string; in: string; description?: string }[];
  responses: Record<string, { description?: string; content?: Record<string, { schema?: unknown }> }>;
}

const METHODS = ['get', 'post', 'put', 'delete', 'patch'] as const;

t.test('openapi.yaml is what the app generates (npm run openapi regenerates it)', async (t) => {
  const app = await startApp(t, tempDir(t, 'plumb-openapi-root-'), { index: { watch: false } });
  await app.ready();
  const committed = readFileSync(path.join(REPO, 'openapi.yaml'), 'utf8');
  t.ok(committed === openApiYaml(app), 'openapi.yaml matches the route schemas; if not, run npm run openapi and commit it');
});

t.test('/openapi.json describes every route with summaries, descriptions and error responses', async (t) => {
  const app = await startApp(t, tempDir(t, 'plumb-openapi-root-'), { index: { watch: false } });
  const { status, body } = await getJson(app, '/openapi.json');
  t.equal(status, 200);
  t.equal(body.openapi, '3.1.0');
  t.equal(body.components.securitySchemes.bearerAuth.scheme, 'bearer');

  const paths = body.paths as Record<string, Partial<Record<(typeof METHODS)[number], Operation>>>;
  for (const expected of ['/status', '/health', '/outline', '/children', '/mcp', '/openapi.json']) t.ok(paths[expected], `${expected} is described`);
  t.notOk(Object.keys(paths).some((p) => p.startsWith('/docs')), 'the docs UI\'s own routes are not');

  for (const [url, item] of Object.entries(paths)) {
    for (const method of METHODS) {
      const operation = item[method];
      if (!operation) continue;
      const name = `${method.toUpperCase()} ${url}`;
      t.ok(operation.summary, `${name} has a summary`);
      t.ok(operation.description, `${name} has a description`);
      for (const parameter of operation.parameters ?? []) t.ok(parameter.description, `${name}: parameter ${parameter.name} is described`);
      const statuses = Object.keys(operation.responses);
      t.ok(statuses.some((s) => s.startsWith('2')), `${name} has a success response`);
      t.ok(statuses.includes('429'), `${name} documents the rate limit`);
      if (url !== '/health') t.ok(statuses.includes('401'), `${name} documents the token`);
      for (const [code, response] of Object.entries(operation.responses)) {
        t.ok(response.description && response.description !== 'Default Response', `${name} ${code} is described`);
      }
    }
  }
  const tags = new Set((body.tags as { name: string }[]).map((tag) => tag.name));
  for (const [url, item] of Object.entries(paths)) {
    for (const operation of Object.values(item)) {
      for (const tag of (operation as { tags?: string[] }).tags ?? []) t.ok(tags.has(tag), `${url}: tag ${tag} is declared with a description`);
    }
  }
  t.same(Object.keys(paths['/outline']!.get!.responses['200']!.content!).sort(), ['application/json', 'text/markdown'], 'markdown is a documented answer');
  t.ok(['400', '404', '503'].every((s) => s in paths['/outline']!.get!.responses), '/outline lists its errors');

  // Every $ref resolves, OutlineNode (registered with addSchema) and ErrorResponse by name.
  const text = JSON.stringify(body);
  const refs = new Set([...text.matchAll(/"\$ref":"([^"]+)"/g)].map((m) => m[1]!));
  t.ok(refs.has('#/components/schemas/OutlineNode'));
  t.ok(refs.has('#/components/schemas/ErrorResponse'));
  for (const ref of refs) {
    t.match(ref, /^#\/components\/schemas\//, `${ref} is local`);
    t.ok(body.components.schemas[ref.split('/').pop()!], `${ref} exists`);
  }
  t.same(body.components.schemas.OutlineNode.properties.children.items, { $ref: '#/components/schemas/OutlineNode' }, 'the outline tree is recursive');
});

t.test('/docs serves the browsable UI', async (t) => {
  const app = await startApp(t, tempDir(t, 'plumb-openapi-root-'), { index: { watch: false } });
  const response = await app.inject({ method: 'GET', url: '/docs' });
  const page = response.statusCode === 302 ? await app.inject({ method: 'GET', url: response.headers.location as string }) : response;
  t.equal(page.statusCode, 200);
  t.match(page.headers['content-type'], /text\/html/);
  t.match(page.body, /swagger/i);
  const json = await getJson(app, '/docs/json');
  t.equal(json.body.openapi, '3.1.0', 'the UI reads the same description');
});
