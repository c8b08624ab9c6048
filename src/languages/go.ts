import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import type { LanguageDescriptor } from './types.js';

export const go: LanguageDescriptor = {
  id: 'go',
  name: 'Go',
  extensions: ['.go'],
  languageIds: {},
  defaultLanguageId: 'go',
  // Debian's gopls is /usr/bin/gopls, on PATH.
  command: { kind: 'path', names: ['gopls'] },
  args: ['serve'],
  installHint: 'apt-get install gopls golang-go (gopls needs the go command to load packages)',
  instances: 1,
  compileDatabase: false,
  readiness: { openFileOnStart: false, indexingProgressTitles: [] },
  environment: goEnvironment,
};

/**
 * gopls runs the go command, which needs a writable GOPATH (module cache) and GOCACHE (build cache).
 * Their defaults live under HOME, which is not writable (or not set) for root in a container or in CI:
 * where the caller set neither, both go under plumb's cache directory.
 */
async function goEnvironment({ cacheDir, env }: { cacheDir: string; env: NodeJS.ProcessEnv }): Promise<Record<string, string>> {
  const result: Record<string, string> = {};
  if (!env.GOPATH) result.GOPATH = path.join(cacheDir, 'go', 'path');
  if (!env.GOCACHE) result.GOCACHE = path.join(cacheDir, 'go', 'build-cache');
  // Go 1.21+ would otherwise switch to (and download) the toolchain a go.mod asks for.
  if (!env.GOTOOLCHAIN) result.GOTOOLCHAIN = 'local';
  await Promise.all([result.GOPATH, result.GOCACHE].filter(Boolean).map((dir) => mkdir(dir, { recursive: true }).catch(() => undefined)));
  return result;
}
