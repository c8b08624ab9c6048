/** JavaScript (JSX too): tree-sitter-javascript, served by the TypeScript server. */
import { javascript as syntax } from '../typescript/syntax.js';
import { tsserver } from '../typescript/index.js';
import { scriptRules } from '../typescript/rules.js';
import type { Language } from '../types.js';

export const javascript: Language<'javascript'> = {
  id: 'javascript',
  name: 'JavaScript',
  // The JavaScript grammar parses JSX, so .jsx is indexed as JavaScript; the server still hears javascriptreact.
  extensions: ['.js', '.mjs', '.cjs', '.jsx'],
  syntax,
  server: tsserver,
  lspLanguageId: 'javascript',
  lspLanguageIdByExtension: { '.jsx': 'javascriptreact' },
  fence: 'javascript',
  rules: scriptRules,
};
