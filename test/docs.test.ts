import { readFileSync } from 'node:fs';
import path from 'node:path';
import t from 'tap';
import { apiDocument, GENERATED_MARKER } from '../src/operations/docs.js';
import { OPERATIONS, endpointOf } from '../src/operations/index.js';
import { REPO } from './helpers.js';

const api = readFileSync(path.join(REPO, 'docs/API.md'), 'utf8');
const readme = readFileSync(path.join(REPO, 'README.md'), 'utf8');

t.test('docs/API.md describes the operations as the code defines them (npm run docs regenerates it)', async (t) => {
  t.ok(api.includes(GENERATED_MARKER), 'the generated part is marked');
  t.equal(api, apiDocument(api), 'docs/API.md is current');
});

t.test('every operation has its section and an example in docs/API.md', async (t) => {
  for (const operation of OPERATIONS) {
    const heading = operation.http ? `### ${endpointOf(operation)}` : `### MCP \`${operation.tool?.name}\``;
    t.ok(api.includes(heading), heading);
    if (operation.http) t.ok(operation.http.example?.startsWith(operation.http.path.replace(/:.*$/, '')), `${heading} has an example of its own path`);
  }
});

t.test('the README and docs point nowhere outside the repository and name every endpoint', async (t) => {
  for (const [name, text] of [['README.md', readme], ['docs/API.md', api]] as const) {
    t.notMatch(text, /\.\.\/shared|DESIGN\.md/, `${name} does not send readers outside the repository`);
  }
  t.match(readme, /docs\/API\.md/, 'the README links the API reference');
  for (const operation of OPERATIONS) {
    const endpoint = endpointOf(operation);
    if (operation.http) t.ok(readme.includes(`\`${operation.http.method ?? 'GET'} ${operation.http.path.replace(/:([a-z]+)/g, '{$1}')}`), `README names ${endpoint}`);
    if (operation.tool) t.ok(readme.includes(`\`${operation.tool.name}\``), `README names the tool ${operation.tool.name}`);
  }
});

t.test('every code fence of the README and docs is closed before the next heading', async (t) => {
  for (const [name, text] of [['README.md', readme], ['docs/API.md', api]] as const) {
    let open: number | undefined;
    text.split('\n').forEach((line, index) => {
      if (/^\s*```/.test(line)) open = open === undefined ? index + 1 : undefined;
      else if (open !== undefined && /^#{2,4} /.test(line)) t.fail(`${name}:${index + 1}: the heading '${line}' is inside the code block opened at line ${open}`);
    });
    t.equal(open, undefined, `${name}: no code block left open`);
  }
});
