import type { LanguageDescriptor } from './types.js';

export const go: LanguageDescriptor = {
  id: 'go',
  name: 'Go',
  extensions: ['.go'],
  languageIds: {},
  defaultLanguageId: 'go',
  command: { kind: 'path', names: ['gopls'] },
  args: ['serve'],
  installHint: 'apt-get install gopls golang-go (gopls needs the go command to load packages)',
  instances: 1,
  compileDatabase: false,
  readiness: { openFileOnStart: false, indexingProgressTitles: [] },
};
