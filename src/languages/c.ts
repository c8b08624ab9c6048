/** C: tree-sitter-c, served by clangd like C++ (headers `.h` are C++'s). */
import { c as syntax } from '../syntax/languages/cpp.js';
import { clangd } from './cpp.js';
import type { Language } from './types.js';

export const c: Language<'c'> = {
  id: 'c',
  name: 'C',
  extensions: ['.c'],
  syntax,
  server: clangd,
  lspLanguageId: 'c',
  fence: 'c',
};
