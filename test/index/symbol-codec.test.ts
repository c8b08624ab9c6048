import { readFileSync } from 'node:fs';
import path from 'node:path';
import t from 'tap';
import { decodeSymbols, encodeSymbols } from '../../src/index/symbol-codec.js';
import { languageById, languageOfPath } from '../../src/languages/index.js';
import { extractSymbols } from '../../src/syntax/index.js';
import { GOOGLETEST, RXJS_SRC } from '../helpers.js';

// What a parser thread sends is what the writer gets: every field, key order included (stored JSON columns follow it).
t.test('symbols read back from the compact message equal the extracted ones', async (t) => {
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
    const back = decodeSymbols(encodeSymbols(symbols));
    t.equal(JSON.stringify(back), JSON.stringify(symbols), path.basename(file));
  }
  t.ok(total > 500, `${total} symbols compared`);
});

t.test('aliases of bases, forward declarations, no parameters and empty input survive', async (t) => {
  const ts = await extractSymbols(languageById('typescript'), "import { Base as B } from './base';\nexport class C extends B { m(a: number, b = 2): void {} }\n");
  t.same(decodeSymbols(encodeSymbols(ts)), ts);
  t.same(ts.find((s) => s.name === 'C')?.baseAliases, ['Base']);
  const cpp = await extractSymbols(languageById('cpp'), 'class Fwd;\nstruct S : public Fwd { int x; };\n');
  t.same(decodeSymbols(encodeSymbols(cpp)), cpp);
  t.ok(cpp.some((s) => s.forwardDeclaration));
  t.same(decodeSymbols(encodeSymbols([])), []);
  t.same(decodeSymbols('[]'), []);
});
