/** Java: tree-sitter-java, no language server yet; a file's module is its directory (`java.util`). */
import { java as syntax } from './syntax.js';
import { javaRules } from './rules.js';
import type { Language } from '../types.js';

export const java: Language<'java'> = {
  id: 'java',
  name: 'Java',
  extensions: ['.java'],
  syntax,
  lspLanguageId: 'java',
  modulePath: 'directory',
  fence: 'java',
  rules: javaRules,
};
