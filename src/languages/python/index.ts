/** Python: tree-sitter-python, pyright; modules named through `__init__.py` packages. */
import { python as syntax } from './syntax.js';
import { pythonRules } from './rules.js';
import type { Language, ServerDescriptor } from '../types.js';

export const pyright: ServerDescriptor = {
  id: 'python',
  name: 'Python',
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

export const python: Language<'python'> = {
  id: 'python',
  name: 'Python',
  extensions: ['.py', '.pyi'],
  syntax,
  server: pyright,
  lspLanguageId: 'python',
  modulePath: 'python-package',
  // `flask.Flask`: packages re-export what their modules define.
  packagePrefix: true,
  fence: 'python',
  rules: pythonRules,
};
