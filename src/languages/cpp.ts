import type { LanguageDescriptor } from './types.js';

export const cpp: LanguageDescriptor = {
  id: 'cpp',
  name: 'C/C++',
  extensions: ['.c', '.h', '.cc', '.cpp', '.cxx', '.c++', '.hh', '.hpp', '.hxx', '.h++', '.inl', '.ipp', '.tcc', '.m', '.mm'],
  // .h stays cpp: clangd decides C or C++ from the compile command, the languageId is only a hint.
  languageIds: { '.c': 'c', '.m': 'objective-c', '.mm': 'objective-cpp' },
  defaultLanguageId: 'cpp',
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
  readiness: { openFileOnStart: true, indexingProgressTitles: [] },
};
