/** TSX: tree-sitter-tsx, served by the TypeScript server. */
import { tsx as syntax } from '../typescript/syntax.js';
import { tsserver } from '../typescript/index.js';
import { scriptRules } from '../typescript/rules.js';
import type { Language } from '../types.js';

export const tsx: Language<'tsx'> = {
  id: 'tsx',
  name: 'TSX',
  extensions: ['.tsx'],
  syntax,
  server: tsserver,
  lspLanguageId: 'typescriptreact',
  fence: 'tsx',
  rules: scriptRules,
};
