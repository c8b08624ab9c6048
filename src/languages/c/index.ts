/** C: tree-sitter-c, served by clangd like C++ (headers `.h` are C++'s). */
import { c as syntax } from '../cpp/syntax.js';
import { clangd } from '../cpp/index.js';
import { cRules } from '../cpp/rules.js';
import type { Language } from '../types.js';

export const c: Language<'c'> = {
  id: 'c',
  name: 'C',
  extensions: ['.c'],
  syntax,
  server: clangd,
  lspLanguageId: 'c',
  fence: 'c',
  rules: cRules,
};
