/**
 * The index's C and C++ parse leaves the inside of long blank runs out (grammars.ts blankRunRanges: tree-sitter's
 * included ranges), which bodies blanked before parsing are made of. The tree must be the one a whole parse gives,
 * node for node: types, fields, offsets, rows and columns, missing and error nodes; and so the symbols.
 */
import t from 'tap';
import type { Node, Tree } from 'web-tree-sitter';
import { languageById } from '../../src/languages/index.js';
import { blankRunRanges, loadParser, parseWithin } from '../../src/syntax/grammars.js';
import { extractSymbols } from '../../src/syntax/index.js';

const blank = (lines: number, width = 40): string => `${' '.repeat(width)}\n`.repeat(lines);

/** Sources whose blank runs sit where a token, a directive or a comment could be read differently. */
const SOURCES: Record<string, string> = {
  'blanked bodies': `int f(int a)\n{\nx;${blank(6)}}\n\nstatic void g(void)\n{\n${blank(3)}  \n}\n`,
  'a directive before a run': `#define A 1\n${blank(5)}#include <x.h>\n${blank(4)}#endif\nint v;\n`,
  // The line break ending `#if ...` is a token that takes the line breaks right after it (net/ipv6/route.c).
  'a conditional before a run': `#if defined(A) && defined(B)\n${blank(3)}\n${blank(2)}\nstatic const int x;\n#endif\n`,
  'empty lines around a run': `#if X\n\n\n${blank(4)}\n\n#endif\nint w;\n`,
  'a directive continued onto a blank line': `#define B(x) \\\n${blank(5)}int after_b;\n#define C 2 \\  \n${blank(3)}int after_c;\n`,
  'a // comment continued onto a blank line': `// note \\\n${blank(4)}int after_comment;\n`,
  'a block comment over a run': `/* start\n${blank(6)} end */\nint after_block;\n`,
  'a string left open before a run': `char *s = "open\n${blank(4)}int after_string;\n`,
  'CRLF line ends': `int a;\r\n${'      \r\n'.repeat(8)}int b(void)\r\n{\r\n${'        \r\n'.repeat(6)}}\r\n`,
  'non-ASCII before and after': `/* é ü 😀 */ int é_x;\n${blank(5)}char *t = "😀😀";${blank(2)}int z;\n`,
  'an unclosed body': `void h(void)\n{\n${blank(5)}`,
  'a C++ raw string over a run': `const char *r = R"x(a\n${blank(5)})x";\nclass K {\n${blank(4)}};\n`,
};

function dump(tree: Tree): string[] {
  const out: string[] = [];
  const cursor = tree.walk();
  for (let more = true; more;) {
    const n: Node = cursor.currentNode;
    out.push(`${n.type}|${cursor.currentFieldName}|${n.startIndex}-${n.endIndex}|${n.startPosition.row}:${n.startPosition.column}-${n.endPosition.row}:${n.endPosition.column}|${n.isMissing}|${n.hasError}`);
    if (cursor.gotoFirstChild()) continue;
    while (!cursor.gotoNextSibling()) {
      if (!cursor.gotoParent()) {
        more = false;
        break;
      }
    }
  }
  return out;
}

for (const id of ['c', 'cpp'] as const) {
  t.test(`${id}: the same tree with the blank runs left out`, async (t) => {
    const parser = await loadParser(languageById(id)!.syntax.grammar);
    for (const [name, source] of Object.entries(SOURCES)) {
      const whole = parseWithin(parser, source, 10_000).tree!;
      const ranges = blankRunRanges(source);
      t.ok(ranges && ranges.length > 1, `${name}: runs left out`);
      const skipped = parseWithin(parser, source, 10_000, true).tree!;
      t.same(dump(skipped), dump(whole), name);
      whole.delete();
      skipped.delete();
    }
  });
}

t.test('a blank run is left out between a blank after its first line break and a blank before its last', async (t) => {
  const source = `int a;\n${blank(3)}int b;`;
  t.same(blankRunRanges(source), [
    { startIndex: 0, endIndex: 8, startPosition: { row: 0, column: 0 }, endPosition: { row: 1, column: 1 } },
    { startIndex: 128, endIndex: source.length, startPosition: { row: 3, column: 39 }, endPosition: { row: 4, column: 6 } },
  ]);
  t.equal(blankRunRanges(`int a;\n\n\nint b;`), undefined, 'short runs are read');
});

t.test('symbols of a C file with blanked bodies: as the whole parse gives them', async (t) => {
  const c = languageById('c')!;
  const source = `${SOURCES['blanked bodies']}${SOURCES['a directive continued onto a blank line']}struct s {\n  int m;\n};\nint later(void)\n{\n  return 1;\n}\n`;
  const symbols = await extractSymbols(c, source);
  const whole = await extractSymbols({ id: 'c', syntax: { ...c.syntax, blankRunsSkippable: false } }, source);
  t.same(symbols, whole);
  t.same(symbols.map((s) => s.name), ['f', 'g', 'B', 'C', 'after_c', 's', 'm', 'later']);
});
