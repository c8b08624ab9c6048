import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
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
export function googletestCompileDb(t: { teardown(fn: () => void): void }, options: { shared?: boolean } = {}): string {
  if (options.shared) return sharedGoogletestCompileDb();
  const build = tempDir(t, 'plumb-gtest-build-');
  execFileSync('cmake', ['-S', GOOGLETEST, '-B', build, '-DCMAKE_EXPORT_COMPILE_COMMANDS=ON'], { stdio: 'ignore' });
  if (!existsSync(path.join(build, 'compile_commands.json'))) throw new Error('cmake wrote no compile_commands.json');
  return build;
}

/**
 * One googletest build directory for the test files that only read through clangd: clangd keeps its background
 * index beside the compile database (.cache/clangd/index), so the second file to use it loads the shards the first
 * wrote instead of indexing googletest again (a minute or two here). Made in a temp directory and renamed into
 * place, so test files starting together never see half of it; left for the next run, like any cache.
 */
function sharedGoogletestCompileDb(): string {
  const shared = path.join(os.tmpdir(), `plumb-test-gtest-build-${process.getuid?.() ?? 0}`);
  if (existsSync(path.join(shared, 'compile_commands.json'))) return shared;
  const fresh = mkdtempSync(path.join(os.tmpdir(), 'plumb-gtest-build-'));
  execFileSync('cmake', ['-S', GOOGLETEST, '-B', fresh, '-DCMAKE_EXPORT_COMPILE_COMMANDS=ON'], { stdio: 'ignore' });
  if (!existsSync(path.join(fresh, 'compile_commands.json'))) throw new Error('cmake wrote no compile_commands.json');
  // cmake wrote absolute paths into its own directory: the copy stays valid only under the name it was made for.
  const text = readFileSync(path.join(fresh, 'compile_commands.json'), 'utf8').split(fresh).join(shared);
  writeFileSync(path.join(fresh, 'compile_commands.json'), text);
  try {
    renameSync(fresh, shared);
  } catch {
    // Another test file put one there first: use it.
    rmSync(fresh, { recursive: true, force: true });
  }
  return shared;
}

export interface JsonAnswer<T> {
  status: number;
  body: T;
  headers: Record<string, unknown>;
}

/**
 * A GET through the app, its body parsed when it is JSON. `T` is what the test reads, from the schemas:
 * `getJson<ResolveResponse>(app, '/symbols/resolve?…')` for an answer, `getJson<ErrorResponse>` for an
 * error; left out, the body is `any`.
 */
export async function getJson<T = any>(app: PlumbApp, url: string): Promise<JsonAnswer<T>> {
  const response = await app.inject({ method: 'GET', url });
  const body = response.headers['content-type']?.toString().includes('json') ? response.json() : response.body;
  return { status: response.statusCode, body: body as T, headers: response.headers };
}
