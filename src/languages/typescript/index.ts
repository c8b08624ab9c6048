/** TypeScript: tree-sitter-typescript, the native TypeScript 7 server (shared with TSX and JavaScript). */
import { typescript as syntax } from './syntax.js';
import { scriptRules } from './rules.js';
import type { Language, ServerDescriptor } from '../types.js';

/** The TypeScript server takes TypeScript, TSX and JavaScript: one server, config key `languages.typescript`. */
export const tsserver: ServerDescriptor = {
  id: 'typescript',
  name: 'TypeScript/JavaScript',
  defaultLanguageId: 'typescript',
  // The native TypeScript 7 server, spawned directly rather than through the bin/tsc Node shim.
  command: { kind: 'platform-binary', package: 'typescript', platformPackage: '@typescript/typescript-{platform}-{arch}', file: 'lib/tsc', display: 'tsc' },
  args: ['--lsp', '--stdio'],
  installHint: 'npm install typescript@7',
  instances: 1,
  compileDatabase: false,
  readiness: { openFileOnStart: true, indexingProgressTitles: [] },
};

export const typescript: Language<'typescript'> = {
  id: 'typescript',
  name: 'TypeScript',
  extensions: ['.ts', '.mts', '.cts'],
  syntax,
  server: tsserver,
  lspLanguageId: 'typescript',
  fence: 'typescript',
  rules: scriptRules,
};
