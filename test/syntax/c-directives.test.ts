/**
 * Headers of nothing but preprocessor lines are read without tree-sitter (src/languages/cpp/defines.ts): the
 * symbols must be the ones the parse gives, field for field, on real headers (the kernel's register maps and its
 * include/linux, Debian's /usr/include, as C and as C++), and the reader must take nearly all of such headers,
 * or it saves nothing. Small sources pin what it takes and what it leaves to the parser.
 */
import { statSync } from 'node:fs';
import path from 'node:path';
import t from 'tap';
import { linuxSource, requireCorpora } from '../corpora.js';
import { extractSymbols } from '../../src/syntax/index.js';
import type { LanguageId } from '../../src/syntax/types.js';
import { compareReadAndParse, onlyDirectives, readingAndParsing } from './directives-compare.js';
import { listFiles } from './recall.js';

t.setTimeout(300_000);

/** Whether the reader takes `source` (what it gives is checked against the parse separately). */
function taken(id: LanguageId, source: string): boolean {
  const { syntax } = readingAndParsing(id).reading;
  return syntax.readWithoutParse?.(syntax.prepare?.(source) ?? source, source, id) !== undefined;
}

t.test("the kernel's preprocessor-only headers read as they parse", async (t) => {
  if (!requireCorpora(t, 'xz', 'linux-source')) return;
  const root = linuxSource();
  const headers = listFiles(root, ['.h']).sort();
  // include/linux's, and the first register header of each block (the whole 373 MB of them parse in minutes).
  const blocks = new Map<string, string>();
  for (const file of headers.filter((file) => file.startsWith('drivers/gpu/drm/amd/include/asic_reg/'))) {
    if (!blocks.has(path.dirname(file)) && statSync(path.join(root, file)).size < 600_000) blocks.set(path.dirname(file), file);
  }
  const files = [...headers.filter((file) => file.startsWith('include/linux/')), ...blocks.values()].filter((file) => onlyDirectives(root, file));
  t.ok(files.length > 100, `${files.length} preprocessor-only headers`);
  const result = await compareReadAndParse(root, files, 'c');
  t.same(result.differing, [], `${result.taken} of ${files.length} headers read without parsing, ${result.symbols} symbols as the parse gives them`);
  t.ok(result.takenBytes >= 0.95 * result.bytes, `${((result.takenBytes / result.bytes) * 100).toFixed(1)}% of their bytes read without parsing (95% at least)`);
});

t.test("/usr/include's preprocessor-only headers read as they parse, as C and as C++", async (t) => {
  const root = '/usr/include';
  const files = listFiles(root, ['.h']).sort().filter((file) => statSync(path.join(root, file)).size < 1_000_000 && onlyDirectives(root, file));
  t.ok(files.length > 100, `${files.length} preprocessor-only headers`);
  for (const id of ['c', 'cpp'] as const) {
    // As C++, every third: the grammars read directives alike (npm run bench compares the whole kernel both ways).
    const read = id === 'c' ? files : files.filter((_, i) => i % 3 === 0);
    const result = await compareReadAndParse(root, read, id);
    t.same(result.differing, [], `as ${id}: ${result.taken} of ${read.length} headers read without parsing, ${result.symbols} symbols as the parse gives them`);
    t.ok(result.takenBytes >= 0.9 * result.bytes, `as ${id}: ${((result.takenBytes / result.bytes) * 100).toFixed(1)}% of their bytes read without parsing (90% at least)`);
  }
});

/** Sources the reader takes, and those it must leave to the parser (where the grammar reads past the line or drops it). */
const CASES: Array<{ name: string; source: string; taken: boolean }> = [
  { name: 'docs above, through conditionals and after a branch', taken: true, source: '/* guard */\n#ifndef G_H\n#define G_H\n\n// one\n// two\n#define A 1\n#if defined(X) && Y > 2 /* why */\n/** inner */\n#define B(x, y, ...) ((x) + (y))\n#elif Z\n#define B(x) (x)\n#else\n#define B() 0\n#endif\n/* after */\n#define C\n#endif\n' },
  { name: 'a doc separated by a blank line, and a trailing comment that is none', taken: true, source: '/* far */\n\n#define A 1\n#define B 2 /* mine */\n#define C 3\n' },
  { name: 'continuations, a comment before the value and one across lines', taken: true, source: '#define A \\\n  (1 + \\\n   2)\n#define B /* first */ 2\n#define C 3 /* a\n  long one */\n#define D(x) \\\n  do { } while (0)\n' },
  { name: 'includes, pragmas, undefs and errors', taken: true, source: '#pragma once\n#include <linux/types.h>\n#include "local.h" // why\n#undef A\n#error "can\'t"\n#define A 1\n' },
  { name: 'a #define in an #if 0 branch (the parse leaves it out)', taken: false, source: '#if 0\n#define GONE 1\n#else\n#define KEPT 1\n#endif\n#define LAST 2\n' },
  { name: 'a line of code', taken: false, source: '#define A 1\nint x;\n' },
  { name: 'an empty #define followed by blanks', taken: false, source: '#define EMPTY   \n#define NEXT 1\n' },
  { name: 'a function-like #define without a value, followed by blanks', taken: false, source: '#define F(x)  \n#define NEXT 1\n' },
  { name: 'a comment after a value, followed by blanks', taken: false, source: '#define A 1 /* c */ \n\n/* doc */\n#define B 2\n' },
  { name: 'a line comment in a value, followed by blanks', taken: false, source: '#define A 1 // c  \n#define B 2\n' },
  { name: 'a value ending in a slash', taken: false, source: '#define A 1/\n#define B 2\n' },
  { name: 'text after #endif', taken: false, source: '#ifdef A\n#define B 1\n#endif A\n#define C 2\n' },
  { name: 'an #endif without #if', taken: false, source: '#define A 1\n#endif\n#define B 2\n' },
  { name: 'an #if left open', taken: false, source: '#ifdef A\n#define B 1\n' },
  { name: 'no line break at the end', taken: false, source: '#define A 1\n#define B 2' },
  { name: 'CRLF line breaks', taken: false, source: '#define A 1\r\n#define B 2\r\n' },
  { name: 'a #define inside a comment and a name with a dollar', taken: false, source: '/*\n#define NOT 1\n*/\n#define A$B 1\n' },
];

t.test('small sources: what the reader takes, and the same symbols either way', async (t) => {
  for (const id of ['c', 'cpp'] as const) {
    const { reading, parsing } = readingAndParsing(id);
    for (const { name, source, taken: expected } of CASES) {
      t.equal(taken(id, source), expected, `as ${id}, ${name}: ${expected ? 'read without parsing' : 'left to the parser'}`);
      t.same(await extractSymbols(reading, source), await extractSymbols(parsing, source), `as ${id}, ${name}: the parse's symbols`);
    }
  }
  const symbols = await extractSymbols(readingAndParsing('c').reading, CASES[0].source);
  t.same(symbols.map((symbol) => [symbol.name, symbol.doc, symbol.parameters.map((p) => p.name).join(',')]), [
    ['G_H', null, ''], ['A', 'one\ntwo', ''], ['B', 'inner', 'x,y'], ['B', null, 'x'], ['B', null, ''], ['C', 'after', ''],
  ], 'names, docs and parameters as written');
});
