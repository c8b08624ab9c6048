/** C: tree-sitter-c, served by clangd like C++. A `.h` is C where the code around it is (C++'s header-language.ts). */
import { c as syntax } from '../cpp/syntax.js';
import { clangd } from '../cpp/index.js';
import { cRules } from '../cpp/rules.js';
import { preprocessorPieces } from '../cpp/large-headers.js';
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
  largeFilePieces: preprocessorPieces,
};
