/** Go: tree-sitter-go, gopls; a file's module is its directory (`net/http`). */
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { go as syntax } from './syntax.js';
import { goRules } from './rules.js';
import type { Language, ServerDescriptor } from '../types.js';

export const gopls: ServerDescriptor = {
  id: 'go',
  name: 'Go',
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

export const go: Language<'go'> = {
  id: 'go',
  name: 'Go',
  extensions: ['.go'],
  syntax,
  server: gopls,
  lspLanguageId: 'go',
  modulePath: 'directory',
  fence: 'go',
  rules: goRules,
};
