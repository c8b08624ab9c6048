import t from 'tap';
import { fileFilterSource } from '../../src/syntax/statements/regex-filter.js';

t.test('assertions that see past a statement leave the file filter; the rest of the expression stays', async (t) => {
  t.equal(fileFilterSource('^\\s*if\\s*\\(', ''), '(?:)\\s*if\\s*\\(');
  t.equal(fileFilterSource('return \\w+;$', ''), 'return \\w+;(?:)');
  t.equal(fileFilterSource('\\bfoo\\B', 'i'), '(?:)foo(?:)');
  t.equal(fileFilterSource('save\\(', ''), 'save\\(', 'an expression without assertions is its own filter');
  t.equal(fileFilterSource('[\\b^$]x\\^\\$', ''), '[\\b^$]x\\^\\$', 'in a class or escaped, ^ $ \\b are characters');
  t.equal(fileFilterSource('(a)\\1^0', ''), '(a)\\1(?:)0', 'no token merges with its neighbour (\\10 is another escape)');
  t.equal(fileFilterSource('(?<name>x)\\k<name>$', ''), '(?<name>x)\\k<name>(?:)', 'a named group is no lookbehind');
  for (const lookaround of ['foo(?!bar)', 'foo(?=bar)', '(?<=x)foo', '(?<!x)foo']) t.equal(fileFilterSource(lookaround, ''), null, `${lookaround}: no filter`);
});

t.test('the filter matches every file holding a statement the expression matches', async (t) => {
  // Statements (with what stands around them in a file) and expressions testing their edges.
  const statements: Array<[before: string, statement: string, after: string]> = [
    ['} else ', 'if (x) {\n  y();\n}', '\n'],
    ['  ', 'return value;', ' // done\n'],
    ['foo(', 'bar', 'baz)'],
    ['x = 1;', 'y = 2', ';z = 3'],
    ['\t\t', 'raise ValueError("bad")', '\n'],
  ];
  const expressions = ['^\\s*if\\s*\\(', '^return\\b', ';$', '^bar$', '\\bbar\\b', '^y = \\d$', '^raise\\b.*\\)$', '\\}$', '^[a-z]+$', 'if|^return'];
  for (const [before, statement, after] of statements) {
    const file = `${before}${statement}${after}`;
    for (const expression of expressions) {
      if (!new RegExp(expression).test(statement)) continue;
      const filter = fileFilterSource(expression, '');
      t.ok(filter === null || new RegExp(filter).test(file), `${JSON.stringify(statement)} matches ${expression}: so does its file`);
      t.notOk(new RegExp(expression).test(file) && !new RegExp(filter ?? '').test(file), 'and the filter keeps what the expression kept');
    }
  }
  t.notOk(new RegExp('^\\s*if\\s*\\(').test('} else if (x) {}'), 'the bug: on the whole file ^ is its start only');
});
