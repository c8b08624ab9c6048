/**
 * Forward declarations in real C++ headers (googletest): every `class X;` / `struct X;` line is
 * flagged, and nothing with a body is.
 */
import t from 'tap';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { extractSymbols } from '../../src/syntax/index.js';
import { GOOGLETEST as ROOT, requireCorpora } from '../corpora.js';
import { languageById } from '../../src/languages/index.js';
import { listFiles } from './recall.js';

const FORWARD = /^\s*(?:template\s*<[^>]*>\s*)?(?:class|struct)\s+([A-Za-z_]\w*)\s*;/;

t.test('finds the forward declarations of googletest headers and flags no definition', async (t) => {
  if (!requireCorpora(t, 'googletest')) return;
  const missed: string[] = [];
  const wronglyFlagged: string[] = [];
  let expected = 0;
  for (const file of listFiles(ROOT, ['.h'])) {
    const source = readFileSync(join(ROOT, file), 'utf8');
    const lines = source.split('\n');
    const symbols = await extractSymbols(languageById('cpp'), source);
    lines.forEach((line, index) => {
      const match = FORWARD.exec(line);
      if (!match) return;
      expected++;
      const hit = symbols.some((s) => s.name === match[1] && s.selectionRange.start.line === index + 1 && s.forwardDeclaration && !s.definition);
      if (!hit) missed.push(`${file}:${index + 1} ${line.trim()}`);
    });
    for (const symbol of symbols) {
      if (!symbol.forwardDeclaration) continue;
      const text = lines.slice(symbol.range.start.line - 1, symbol.range.end.line).join('\n');
      if (text.includes('{')) wronglyFlagged.push(`${file}:${symbol.selectionRange.start.line} ${symbol.name}`);
    }
  }
  t.ok(expected > 50, `${expected} forward declarations in the headers`);
  t.same(missed, [], 'every forward declaration is flagged');
  t.same(wronglyFlagged, [], 'no type with a body is flagged');
});
