import t from 'tap';
import { fromLspPosition, fromLspRange, rangeContains, toLspPosition, toLspRange } from '../../src/lsp/convert.js';

t.test('LSP 0-based positions become 1-based lines and columns', async (t) => {
  t.same(fromLspPosition({ line: 0, character: 0 }), { line: 1, column: 1 });
  t.same(fromLspRange({ start: { line: 9, character: 4 }, end: { line: 12, character: 1 } }), { start: { line: 10, column: 5 }, end: { line: 13, column: 2 } });
});

t.test('plumb positions go back to LSP unchanged by a round trip', async (t) => {
  const range = { start: { line: 3, character: 7 }, end: { line: 3, character: 19 } };
  t.same(toLspRange(fromLspRange(range)), range);
  t.same(toLspPosition({ line: 1, column: 1 }), { line: 0, character: 0 });
});

t.test('positions below 1 clamp to 0 instead of going negative', async (t) => {
  t.same(toLspPosition({ line: 0, column: 0 }), { line: 0, character: 0 });
});

t.test('rangeContains includes the start and excludes the end', async (t) => {
  const range = { start: { line: 2, column: 5 }, end: { line: 4, column: 3 } };
  t.ok(rangeContains(range, { line: 2, column: 5 }));
  t.ok(rangeContains(range, { line: 3, column: 100 }));
  t.ok(rangeContains(range, { line: 4, column: 2 }));
  t.notOk(rangeContains(range, { line: 4, column: 3 }));
  t.notOk(rangeContains(range, { line: 2, column: 4 }));
});
