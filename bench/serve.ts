/**
 * The service as the bench measures it: a separate process (so its RSS and event loop are its
 * own), listening on loopback. Prints one JSON line once the index is ready (a replica: once its
 * store says the writer's build is).
 *   tsx bench/serve.ts ROOT CACHE_DIR [EXTRA_ROOTS_JSON] [CONFIG_JSON (more settings: compileDatabase, a shared
 *   store as {"store": URL, "workspace": KEY, "readOnly": true})]
 */
import { buildApp } from '../src/app.js';
import { validateConfig } from '../src/config.js';

const [root, cacheDir, extraRootsJson, configJson] = process.argv.slice(2);
const started = performance.now();
const config = validateConfig({ ...(JSON.parse(configJson ?? '{}') as object), cacheDir, logLevel: 'silent', index: { extraRoots: JSON.parse(extraRootsJson ?? '[]') as string[], watch: false } });
const app = await buildApp({ root, config, logger: false });
while (app.plumb.index.status().state !== 'ready') await new Promise((resolve) => setTimeout(resolve, 20));
const readyMs = performance.now() - started;
const address = await app.listen({ host: '127.0.0.1', port: 0 });
process.stdout.write(JSON.stringify({ url: address, readyMs, status: app.plumb.index.status() }) + '\n');
process.on('SIGTERM', () => void app.close().then(() => process.exit(0)));
