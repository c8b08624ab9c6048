import type { LanguageDescriptor } from './types.js';

export const typescript: LanguageDescriptor = {
  id: 'typescript',
  name: 'TypeScript/JavaScript',
  extensions: ['.ts', '.tsx', '.mts', '.cts', '.js', '.jsx', '.mjs', '.cjs'],
  languageIds: {
    '.ts': 'typescript', '.mts': 'typescript', '.cts': 'typescript', '.tsx': 'typescriptreact',
    '.js': 'javascript', '.mjs': 'javascript', '.cjs': 'javascript', '.jsx': 'javascriptreact',
  },
  defaultLanguageId: 'typescript',
  // The native TypeScript 7 server, spawned directly rather than through the bin/tsc Node shim.
  command: { kind: 'platform-binary', package: 'typescript', platformPackage: '@typescript/typescript-{platform}-{arch}', file: 'lib/tsc', display: 'tsc' },
  args: ['--lsp', '--stdio'],
  installHint: 'npm install typescript@7',
  instances: 1,
  compileDatabase: false,
  readiness: { openFileOnStart: true, indexingProgressTitles: [] },
};
