import t from 'tap';
import { cell, fenced, markdownTable } from '../../src/format/markdown.js';

t.test('table cells cannot break the table', async (t) => {
  t.equal(cell('a|b'), 'a\\|b', 'pipes escaped');
  t.equal(cell(' line one\nline two\r\n'), 'line one line two', 'newlines become spaces');
  t.equal(markdownTable(['A', 'B'], [['x|y', '1']]), '| A | B |\n|---|---|\n| x\\|y | 1 |');
  t.equal(markdownTable(['A'], []), '| A |\n|---|', 'no rows: the header alone');
});

t.test('fenced code is never closed early by backticks inside it', async (t) => {
  t.equal(fenced('x = 1\n', 'python'), '```python\nx = 1\n```', 'a trailing newline is not doubled');
  const code = 'const s = ```;\nconst t = ````;';
  const block = fenced(code);
  t.ok(block.startsWith('`````\n') && block.endsWith('\n`````'), 'the fence is longer than the longest run inside');
});
