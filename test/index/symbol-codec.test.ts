import { readFileSync } from 'node:fs';
import path from 'node:path';
import t from 'tap';
import { symbolIds } from '../../src/index/ids.js';
import { humpsOf } from '../../src/index/ranking.js';
import { baseKeys, ChunkReader, packedIds, packSymbols, Str, STRINGS, symbolObjects, type IndexedSymbol } from '../../src/index/symbol-codec.js';
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
