/** C++: tree-sitter-cpp, clangd (shared with C). */
import { cpp as syntax } from './syntax.js';
import { cppRules } from './rules.js';
import { headerLanguageOf } from './header-language.js';
import { preprocessorPieces } from './large-headers.js';
import type { Language, ServerDescriptor } from '../types.js';

/** clangd serves C and C++ (and Objective-C, which the index does not parse): one server, config key `languages.cpp`. */
export const clangd: ServerDescriptor = {
  id: 'cpp',
  name: 'C/C++',
  defaultLanguageId: 'cpp',
  // tree-sitter has no Objective-C grammar here, so .m/.mm are clangd's only: navigation works, search does not.
  otherFiles: { '.m': 'objective-c', '.mm': 'objective-cpp' },
  command: { kind: 'path', names: ['clangd-19', 'clangd'] },
  args: [
    '--background-index',
    // Without it clangd stops at 100 results for workspace/symbol and references.
    '--limit-results=0',
    '--header-insertion=never',
    '--pch-storage=memory',
    '--log=error',
  ],
  installHint: 'apt-get install clangd-19 (or any clangd on PATH)',
  instances: 1,
  compileDatabase: true,
  implementationListsOverrides: true,
  readiness: { openFileOnStart: true, indexingProgressTitles: [] },
};

export const cpp: Language<'cpp'> = {
  id: 'cpp',
  name: 'C++',
  // A .h is C or C++ by the code around it (header-language.ts); clangd decides for itself from the compile command.
  extensions: ['.h', '.cc', '.cpp', '.cxx', '.c++', '.hh', '.hpp', '.hxx', '.h++', '.inl', '.ipp', '.tcc'],
  syntax,
  server: clangd,
  lspLanguageId: 'cpp',
  fence: 'cpp',
  rules: cppRules,
  languageOf: headerLanguageOf,
  largeFilePieces: preprocessorPieces,
};
