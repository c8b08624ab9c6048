/** Rust: tree-sitter-rust, no language server yet. */
import { rust as syntax } from './syntax.js';
import { rustRules } from './rules.js';
import type { Language } from '../types.js';

export const rust: Language<'rust'> = {
  id: 'rust',
  name: 'Rust',
  extensions: ['.rs'],
  syntax,
  lspLanguageId: 'rust',
  fence: 'rust',
  rules: rustRules,
};
