import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { buildApp, type PlumbApp } from '../src/app.js';
import { validateConfig, type PlumbConfig } from '../src/config.js';

import { GOOGLETEST } from './corpora.js';

export { FLASK, GOOGLETEST, RXJS_SRC } from './corpora.js';
export const REPO = path.resolve(import.meta.dirname, '..');

export function tempDir(t: { teardown(fn: () => void): void }, prefix = 'plumb-test-'): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), prefix));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

/** A config as plumb.json would give it, with the cache in a temp dir. */
export function testConfig(cacheDir: string, extra: Record<string, unknown> = {}): PlumbConfig {
  return validateConfig({ cacheDir, logLevel: 'silent', ...extra });
}

/** Builds the app in process; closed (servers shut down) at the end of the test. */
export async function startApp(
  t: { teardown(fn: () => Promise<void> | void): void },
  root: string,
  extra: Record<string, unknown> = {},
): Promise<PlumbApp> {
  const cacheDir = tempDir(t, 'plumb-cache-');
  const app = await buildApp({ root, config: testConfig(cacheDir, extra), logger: false });
  t.teardown(() => app.close());
  return app;
}

/** googletest's own compile database, made by cmake in a temp build directory. */
export function googletestCompileDb(t: { teardown(fn: () => void): void }): string {
  const build = tempDir(t, 'plumb-gtest-build-');
  execFileSync('cmake', ['-S', GOOGLETEST, '-B', build, '-DCMAKE_EXPORT_COMPILE_COMMANDS=ON'], { stdio: 'ignore' });
  if (!existsSync(path.join(build, 'compile_commands.json'))) throw new Error('cmake wrote no compile_commands.json');
  return build;
}

export async function getJson(app: PlumbApp, url: string): Promise<{ status: number; body: any; headers: Record<string, unknown> }> {
  const response = await app.inject({ method: 'GET', url });
  const body = response.headers['content-type']?.toString().includes('json') ? response.json() : response.body;
  return { status: response.statusCode, body, headers: response.headers };
}
