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
 *
 * The tree can be wrong the other way: a header it calls C whose text is unmistakably C++ (the kernel's
 * scripts/gcc-plugins/*.h, beside `.c` files the kernel compiles with g++: classes, namespaces, templates) is C++
 * (cppInText, asked by the parser thread, which reads the text anyway: LanguageOfFile.ofText).
 */
import path from 'node:path';
import { lexSpans, type CLexOptions } from '../../syntax/c-lexer.js';
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

/**
 * Lines that only C++ writes, as they start (after blanks): a class with a body or bases, a struct with access-named
 * bases, a namespace with a body (nested and anonymous too) or an alias, `using namespace`, a template head, an access
 * label, `extern "C++"`. C's own uses of these words never take these shapes: `struct class {`, `int class;`,
 * `.class = 1`, `struct page *new`, `void *template;`, `private = 0;` (a label `private:` would, in a function, but
 * header code rarely names one so; the kernel's 24,288 headers have none).
 */
const CPP_LINES = [
  /^class\s+[A-Za-z_]\w*(?:\s+final)?\s*(?:\{|:(?!:))/,
  /^struct\s+[A-Za-z_]\w*(?:\s+final)?\s*:\s*(?:public|private|protected|virtual)\s+[A-Za-z_]/,
  /^namespace(?:\s+[A-Za-z_]\w*(?:\s*::\s*(?:inline\s+)?[A-Za-z_]\w*)*)?\s*\{/,
  /^inline\s+namespace\s+[A-Za-z_]\w*\s*\{/,
  /^namespace\s+[A-Za-z_]\w*\s*=\s*(?:::)?[A-Za-z_][\w:]*\s*;/,
  /^using\s+namespace\s+(?:::)?[A-Za-z_][\w:]*\s*;/,
  /^template\s*<\s*(?:>|(?:typename|class)\b|[A-Za-z_][\w:]*\s+[A-Za-z_]\w*\s*[,>=])/,
  /^(?:public|private|protected)\s*:(?!:)/,
  /^extern\s*"C\+\+"/,
];
/** A class or namespace head whose brace (or a class's bases) starts the next line. */
const CLASS_HEAD = /^class\s+[A-Za-z_]\w*(?:\s+final)?$/;
const NAMESPACE_HEAD = /^namespace\s+[A-Za-z_]\w*(?:\s*::\s*[A-Za-z_]\w*)*$/;
/** Whether any line could be one of CPP_LINES: one fast pass over the text before reading it line by line. */
const MAYBE_CPP = /^[ \t]*(?:(?:class|namespace|template|public|private|protected|using)\b|inline[ \t]+namespace\b|extern[ \t]*"C\+\+"|struct[ \t]+\w+[ \t]*:[ \t]*(?:public|private|protected|virtual)\b)/m;

/**
 * Whether a header's text is unmistakably C++: a line of a shape only C++ writes (CPP_LINES), outside comments and
 * strings, outside preprocessor lines, and outside any conditional that can hold only in C++ (`#ifdef __cplusplus`,
 * C++ for OpenCL's `__OPENCL_CPP_VERSION__`, or a macro defined under one: glibc's string.h writes `extern "C++"` under
 * `__CORRECT_ISO_CPP_STRING_H_PROTO`) or never (`#if 0`): a C header's C++ extras for C++ includers leave it C.
 * Measured: of the kernel's 24,288 headers, 7 (scripts/gcc-plugins, kconfig's qconf.h, perf's clang.h); none of
 * /usr/include's C headers (glibc, ncurses' C headers, llvm-c, clang's OpenCL C header); 1.1 s for the kernel's 565 MB.
 */
export function cppInText(text: string): boolean {
  if (!MAYBE_CPP.test(text)) return false;
  const cppOnly = new Set(['__cplusplus', '__OPENCL_CPP_VERSION__']);
  const cppCondition = (condition: string): boolean => /^0\b/.test(condition) || [...condition.matchAll(/[A-Za-z_]\w*/g)].some(([word]) => cppOnly.has(word));
  /** Per open conditional, whether its lines are left out. */
  const groups: boolean[] = [];
  let leftOut = 0;
  let previous = '';
  /** The code read since the last directive: comments blanked, strings and characters emptied (`"C++"` kept, for `extern "C++"`). */
  let code = '';
  /** Whether a line of `code` is one only C++ writes (outside left-out conditionals). */
  const cppLineIn = (lines: string): boolean => {
    if (leftOut > 0) return false;
    for (const raw of lines.split('\n')) {
      const line = raw.trim();
      if (line === '') continue;
      if (CPP_LINES.some((shape) => shape.test(line))) return true;
      if ((line.startsWith('{') && (CLASS_HEAD.test(previous) || NAMESPACE_HEAD.test(previous))) || (/^:(?!:)/.test(line) && CLASS_HEAD.test(previous))) return true;
      previous = line;
    }
    return false;
  };
  for (const span of lexSpans(text, LEX)) {
    const written = text.slice(span.start, span.end);
    if (span.kind === 'code') code += written;
    else if (span.kind === 'comment') code += written.replace(/[^\n]+/g, ' ');
    else if (span.kind !== 'directive') code += written === '"C++"' ? written : written[0] + written[0];
    else {
      // Each directive starts a line: the code before it is whole lines.
      if (cppLineIn(code)) return true;
      code = '';
      const [, word = '', rest = ''] = /^#\s*(\w*)\s*([\s\S]*)$/.exec(codeIn(written)) ?? [];
      if (word === 'if' || word === 'ifdef' || word === 'ifndef' || (word === 'elif' && groups.length > 0 && !groups[groups.length - 1])) {
        const out = cppCondition(rest.trim());
        if (word === 'elif') groups[groups.length - 1] = out;
        else groups.push(out);
        if (out) leftOut++;
      } else if (word === 'endif') {
        if (groups.pop()) leftOut--;
      } else if (word === 'define' && leftOut > 0) {
        const name = /^[A-Za-z_]\w*/.exec(rest)?.[0];
        if (name) cppOnly.add(name);
      }
    }
  }
  return cppLineIn(code);
}

/** How C++ is lexed here: directives as lines of their own, raw strings R"x(...)x". */
const LEX: CLexOptions = { directives: true, rawStrings: 'delimited' };

/** A directive's text without its comments. */
function codeIn(directive: string): string {
  let code = '';
  for (const span of lexSpans(directive, {})) code += span.kind === 'comment' ? ' ' : directive.slice(span.start, span.end);
  return code;
}

/** `.h`'s language, for the C++ language (which owns the extension) to hand to the walker and the parser thread. */
export const headerLanguageOf: LanguageOfFile = {
  extensions: ['.h'],
  evidence: [...C_SOURCES, ...CPP_SOURCES, ...CPP_HEADERS],
  of: headerLanguage,
  ofText: (file, decided, text) => (decided === 'c' && cppInText(text) ? 'cpp' : undefined),
};
