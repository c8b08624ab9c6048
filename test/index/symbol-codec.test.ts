import { readFileSync } from 'node:fs';
import path from 'node:path';
import t from 'tap';
import { symbolIds } from '../../src/index/ids.js';
import { humpsOf } from '../../src/index/ranking.js';
import { baseKeys, ChunkReader, packedIds, packMacroRows, packSymbols, Str, STRINGS, symbolObjects, type IndexedSymbol } from '../../src/index/symbol-codec.js';
import { macroSymbols } from '../../src/syntax/macro-rows.js';
import { languageById, languageOfPath } from '../../src/languages/index.js';
import { extractSymbols } from '../../src/syntax/index.js';
import type { ExtractedSymbol } from '../../src/syntax/types.js';
import { GOOGLETEST, RXJS_SRC } from '../helpers.js';

/** What the packed rows give back as objects: the symbol without its containers, the base keys as aliases. */
function expected(symbol: ExtractedSymbol): IndexedSymbol {
  const { containers: _containers, baseAliases: _aliases, ...rest } = symbol;
  return { ...rest, parameters: symbol.parameters.map((p) => ({ name: p.name, type: p.type })), ...(symbol.bases.length > 0 && baseKeys(symbol).size > 0 ? { baseAliases: [...baseKeys(symbol)] } : {}) };
}

// What a parser thread sends is what the writer binds: every stored value, in order, with the ids of the file.
t.test('symbols read back from the packed rows equal the extracted ones', async (t) => {
  const files = [
    path.join(GOOGLETEST, 'googletest/include/gtest/gtest.h'),
    path.join(GOOGLETEST, 'googlemock/include/gmock/gmock-matchers.h'),
    path.join(RXJS_SRC, 'internal/Subscriber.ts'),
    path.join(RXJS_SRC, 'internal/Observable.ts'),
  ];
  let total = 0;
  for (const file of files) {
    const symbols = await extractSymbols(languageOfPath(file)!, readFileSync(file, 'utf8'));
    total += symbols.length;
    const chunk = packSymbols(symbols, 'src/x.h');
    const back = symbolObjects({ packed: [chunk], count: chunk.count });
    t.same(back, symbols.map(expected), path.basename(file));
    t.same(packedIds({ packed: [chunk], count: chunk.count }), symbolIds('src/x.h', symbols), 'ids of the stored path');
  }
  t.ok(total > 500, `${total} symbols compared`);
});

t.test('the row values: lower-case name, humps, JSON columns, base keys; a file in pieces numbers its overloads on', async (t) => {
  const ts = await extractSymbols(languageById('typescript'), "import { Base as B } from './base';\nexport class C extends B { m(a: number, b = 2): void {} }\nclass Über {}\n");
  const chunk = packSymbols(ts, 'a.ts');
  const reader = new ChunkReader(chunk);
  const rows: Array<Array<string | null>> = [];
  for (let i = 0; i < chunk.count; i++) {
    reader.next();
    rows.push([...reader.strings]);
  }
  const c = rows.find((row) => row[Str.Name] === 'C')!;
  t.equal(c[Str.NameLower], 'c');
  t.equal(c[Str.Bases], '["B"]');
  t.same(c.slice(STRINGS), ['B', 'Base'], 'symbol_bases keys: the base as written and the name its alias stands for');
  const m = rows.find((row) => row[Str.Name] === 'm')!;
  t.same(JSON.parse(m[Str.Parameters]!), ts.find((s) => s.name === 'm')!.parameters);
  const u = rows.find((row) => row[Str.Name] === 'Über')!;
  t.equal(u[Str.NameLower], 'über');
  t.equal(u[Str.Humps], humpsOf('Über'));
  const cpp = await extractSymbols(languageById('cpp'), 'class Fwd;\nstruct S : public Fwd { int x; };\nvoid f(int);\nvoid f(long);\n');
  t.same(symbolObjects({ packed: [packSymbols(cpp, 'a.cpp')], count: cpp.length }), cpp.map(expected));
  t.ok(cpp.some((s) => s.forwardDeclaration));
  const seen = new Map<string, number>();
  const parts = [packSymbols(cpp.slice(0, 2), 'a.cpp', seen), packSymbols(cpp.slice(2), 'a.cpp', seen)];
  t.same(packedIds({ packed: parts, count: cpp.length }), symbolIds('a.cpp', cpp), 'ids as if packed at once');
  t.same(symbolObjects({ packed: [packSymbols([], 'a.cpp')], count: 0 }), []);
});

// A register header's macros go from the reader to the rows without symbol objects (packMacroRows): the same chunk.
t.test('macros read as rows pack as their symbols do, in one chunk or in pieces with their lines moved', async (t) => {
  const source = [
    '/* a register map */',
    '#ifndef REGS_H',
    '#define REGS_H',
    '/** The control register. */',
    '#define mmDCP0_GRPH_CONTROL 0x1a01',
    '#define mmDCP0_GRPH_CONTROL_BASE_IDX 2',
    '#define REG_FIELD(reg, field) ((reg) & (field##_MASK))',
    '#define VARIADIC(fmt, ...) printk(fmt, __VA_ARGS__)',
    '#define NO_ARGS() 1',
    '/* twice, as in a header read in pieces: an ordinal on */',
    '#define mmDCP0_GRPH_CONTROL 0x1a02',
    '#define lower_case_value (1 << 3)',
    '#endif',
    '',
  ].join('\n');
  const { syntax } = languageById('c');
  const rows = syntax.readWithoutParse!(syntax.prepare!(source), source, 'c');
  t.ok(rows, 'read without parsing');
  const symbols = macroSymbols(rows!);
  t.same(symbols, await extractSymbols(languageById('c'), source), 'macroSymbols gives what extraction gives');
  t.ok(symbols.length >= 8, `${symbols.length} macros`);
  const same = (a: { text: string; lengths: Int32Array; ints: Int32Array; count: number }, b: typeof a, what: string): void => {
    t.equal(a.text, b.text, `${what}: text`);
    t.same([...a.lengths], [...b.lengths], `${what}: lengths`);
    t.same([...a.ints], [...b.ints], `${what}: ints`);
    t.equal(a.count, b.count, `${what}: count`);
  };
  same(packMacroRows(rows!, 'drivers/regs.h'), packSymbols(symbols, 'drivers/regs.h'), 'whole');
  // Pieces: each piece's lines moved by its first line, the ordinals carried by `seen` from piece to piece.
  const rowSeen = new Map<string, number>();
  const symbolSeen = new Map<string, number>();
  for (const offset of [0, 120]) {
    const moved = macroSymbols(rows!);
    for (const symbol of moved) {
      for (const range of [symbol.range, symbol.selectionRange]) {
        range.start.line += offset;
        range.end.line += offset;
      }
    }
    same(packMacroRows(rows!, 'drivers/regs.h', rowSeen, offset), packSymbols(moved, 'drivers/regs.h', symbolSeen), `piece at line ${offset}`);
  }
});
