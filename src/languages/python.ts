import type { LanguageDescriptor } from './types.js';

export const python: LanguageDescriptor = {
  id: 'python',
  name: 'Python',
  extensions: ['.py', '.pyi'],
  languageIds: {},
  defaultLanguageId: 'python',
  command: { kind: 'node-script', package: 'pyright', script: 'langserver.index.js', display: 'pyright-langserver' },
  args: ['--stdio'],
  installHint: 'npm install pyright',
  settings: {
    python: {
      analysis: {
        // Workspace-wide diagnostics would make pyright check every file after each change.
        diagnosticMode: 'openFilesOnly',
        autoSearchPaths: true,
        useLibraryCodeForTypes: true,
      },
    },
  },
  instances: 1,
  compileDatabase: false,
  readiness: { openFileOnStart: false, indexingProgressTitles: [], loadedLogPattern: /^Found \d+ source files?/ },
};
