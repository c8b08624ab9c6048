/** Go: tree-sitter-go, gopls; a file's module is its directory (`net/http`). */
import { go as syntax } from '../syntax/languages/go.js';
import type { Language, ServerDescriptor } from './types.js';

export const gopls: ServerDescriptor = {
  id: 'go',
  name: 'Go',
  defaultLanguageId: 'go',
  command: { kind: 'path', names: ['gopls'] },
  args: ['serve'],
  installHint: 'apt-get install gopls golang-go (gopls needs the go command to load packages)',
  instances: 1,
  compileDatabase: false,
  readiness: { openFileOnStart: false, indexingProgressTitles: [] },
};

export const go: Language<'go'> = {
  id: 'go',
  name: 'Go',
  extensions: ['.go'],
  syntax,
  server: gopls,
  lspLanguageId: 'go',
  modulePath: 'directory',
  fence: 'go',
};
