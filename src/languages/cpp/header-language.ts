/**
 * Whether a `.h` is C or C++, from the code around it: C where that code is C, else C++ (what a C++ developer
 * gets in mixed trees, and the safe side: tree-sitter's C++ grammar reads C, its C grammar does not read classes).
 *
 * - A source of the same name beside it decides: `slab.h` beside `slab.c` is C, `qconf.h` beside `qconf.cc` is C++.
 * - Else its tree decides: the nearest directory above it (its own first) whose tree holds C or C++ files. No
 *   C++ there, or only a stray few (under a tenth: the kernel's tree holds 8 C++ files among 32,013 C ones,
 *   its kconfig 1 among 19), is C; anything else, or no code at all (a tree of headers), is C++.
 *
 * `.hpp`, `.hh`, `.hxx`, `.h++`, `.inl`, `.ipp` and `.tcc` are always C++ (the language's own extensions).
 */
import path from 'node:path';
import type { FilesAround, LanguageOfFile } from '../types.js';

const C_SOURCES = ['.c'];
const CPP_SOURCES = ['.cc', '.cpp', '.cxx', '.c++'];
/** C++-only headers count as C++ code around a header; `.inl` and friends do not (the kernel's arch/arm/nwfpe has C `.inl` files). */
const CPP_HEADERS = ['.hpp', '.hh', '.hxx', '.h++'];

/** C++ files under this share of a tree's C and C++ files are a stray few in a C tree. */
const STRAY_SHARE = 0.1;

export function headerLanguage(file: string, around: FilesAround): 'c' | 'cpp' {
  const stem = path.basename(file).replace(/\.[^.]*$/, '');
  const beside = around.siblings;
  if (CPP_SOURCES.some((extension) => beside.has(stem + extension))) return 'cpp';
  if (C_SOURCES.some((extension) => beside.has(stem + extension))) return 'c';
  const count = (extensions: readonly string[]): number => extensions.reduce((sum, extension) => sum + (around.nearest.get(extension) ?? 0), 0);
  const c = count(C_SOURCES);
  const cpp = count(CPP_SOURCES) + count(CPP_HEADERS);
  return c > 0 && cpp < STRAY_SHARE * (c + cpp) ? 'c' : 'cpp';
}

/** `.h`'s language, for the C++ language (which owns the extension) to hand to the walker. */
export const headerLanguageOf: LanguageOfFile = {
  extensions: ['.h'],
  evidence: [...C_SOURCES, ...CPP_SOURCES, ...CPP_HEADERS],
  of: headerLanguage,
};
