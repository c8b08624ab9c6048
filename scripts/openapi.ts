// Regenerates openapi.yaml from the route schemas: npm run openapi (test/routes/openapi.test.ts fails when it drifts).
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { buildApp } from '../src/app.js';
import { validateConfig } from '../src/config.js';
import { openApiYaml } from '../src/plugins/openapi.js';

const repo = path.resolve(import.meta.dirname, '..');
const cacheDir = mkdtempSync(path.join(os.tmpdir(), 'plumb-openapi-'));
// The description depends on the routes only: an empty workspace keeps the index from doing any work.
const root = mkdtempSync(path.join(os.tmpdir(), 'plumb-openapi-root-'));
try {
  const app = await buildApp({ root, config: validateConfig({ cacheDir, logLevel: 'silent', index: { watch: false } }), logger: false });
  await app.ready();
  const target = path.join(repo, 'openapi.yaml');
  writeFileSync(target, openApiYaml(app));
  await app.close();
  process.stdout.write(`wrote ${path.relative(process.cwd(), target) || target}\n`);
} finally {
  rmSync(cacheDir, { recursive: true, force: true });
  rmSync(root, { recursive: true, force: true });
}
