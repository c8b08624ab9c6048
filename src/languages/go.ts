import type { LanguageDescriptor } from './types.js';

export const go: LanguageDescriptor = {
  id: 'go',
  name: 'Go',
  extensions: ['.go'],
  languageIds: {},
  defaultLanguageId: 'go',
  command: { kind: 'path', names: ['gopls'] },
  args: ['serve'],
  installHint: 'apt-get install gopls (or go install golang.org/x/tools/gopls@latest)',
  instances: 1,
  compileDatabase: false,
  readiness: { openFileOnStart: false, indexingProgressTitles: [] },
};
