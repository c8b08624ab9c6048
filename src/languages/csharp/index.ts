/** C#: tree-sitter-c-sharp, no language server yet. */
import { csharp as syntax } from './syntax.js';
import { csharpRules } from './rules.js';
import type { Language } from '../types.js';

export const csharp: Language<'csharp'> = {
  id: 'csharp',
  name: 'C#',
  extensions: ['.cs'],
  syntax,
  lspLanguageId: 'csharp',
  fence: 'csharp',
  rules: csharpRules,
};
