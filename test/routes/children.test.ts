import t from 'tap';
import { FLASK, RXJS_SRC, getJson, startApp } from '../helpers.js';

interface Child { name: string; kind: string; parent: string; depth: number; line: number; hover?: string | null }

t.test('Python: children of flask\'s Config at depth 1, 2 and all', async (t) => {
  const app = await startApp(t, FLASK);
  // Line 29 is `class Config(dict):`; column 8 is inside the name.
  const one = await getJson(app, '/children?file=config.py&line=29&column=8');
  t.equal(one.status, 200);
  t.equal(one.body.symbol.name, 'Config');
  t.equal(one.body.symbol.kind, 'class');
  t.equal(one.body.depth, 1);
  const direct: Child[] = one.body.results;
  t.ok(direct.length >= 8, 'all methods of Config');
  t.ok(direct.every((c) => c.depth === 1 && c.parent === 'Config'), 'depth 1: direct children only, parent named');
  t.ok(direct.some((c) => c.name === 'from_mapping' && c.kind === 'method'));
  t.same(direct.map((c) => c.line), [...direct.map((c) => c.line)].sort((a, b) => a - b), 'document order');

  const two = await getJson(app, '/children?file=config.py&line=29&column=8&depth=2');
  const second: Child[] = two.body.results;
  t.ok(second.some((c) => c.depth === 2), 'depth 2 reaches into the methods');
  const grandchild = second.find((c) => c.depth === 2)!;
  t.ok(direct.some((c) => c.name === grandchild.parent), 'a depth-2 symbol names its method as parent');
  t.same(second.filter((c) => c.depth === 1).map((c) => c.name), direct.map((c) => c.name), 'depth 2 keeps every depth-1 child');
  const index = second.indexOf(grandchild);
  t.equal(second[index - 1].depth === 1 ? second[index - 1].name : grandchild.parent, grandchild.parent, 'flat list in document order: children follow their parent');

  const all = await getJson(app, '/children?file=config.py&line=29&column=8&depth=all');
  t.equal(all.body.depth, 'all');
  t.ok(all.body.results.length >= second.length);

  // A position inside a method body, not on a name: the innermost symbol holding it.
  const inside = await getJson(app, '/children?file=config.py&line=290&column=9');
  t.equal(inside.status, 200);
  t.equal(inside.body.symbol.name, 'from_mapping');
});

t.test('TypeScript: hover on and off, and the hover cap', async (t) => {
  const app = await startApp(t, RXJS_SRC, { hover: { maxSymbols: 25 } });
  const off = await getJson(app, '/children?file=internal/Subject.ts&line=17&column=14');
  t.equal(off.status, 200);
  t.equal(off.body.symbol.name, 'Subject');
  t.ok(off.body.results.every((c: Child) => c.hover === undefined), 'no hover unless asked');
  t.same(off.body.hover, { requested: false, skipped: false });

  const on = await getJson(app, '/children?file=internal/Subject.ts&line=17&column=14&include_hover=true');
  t.equal(on.status, 200);
  const next = on.body.results.find((c: Child) => c.name === 'next');
  t.match(next.hover, /next\(value: T\): void/, 'hover text carries the method signature');
  t.match(on.body.symbol.hover, /class Subject<T>/);

  const md = await app.inject({ url: '/children?file=internal/Subject.ts&line=17&column=14&include_hover=true&format=markdown' });
  t.match(md.body, /^\| NAME \| KIND \| RANGE \| SELECTION \| PARENT \| HOVER_INFO \|$/m, 'the seed table');
  t.match(md.body, /^\| next \| Method \| \d+:\d+-\d+:\d+ \| \d+:\d+-\d+:\d+ \| Subject \| .*next\(value: T\): void/m);

  const many = await getJson(app, '/children?file=internal/Subject.ts&line=17&column=14&depth=all&include_hover=true');
  t.ok(many.body.results.length > 25);
  t.equal(many.body.hover.skipped, true, 'past hover.maxSymbols the hover is skipped');
  t.match(many.body.hover.reason, /hover\.maxSymbols \(25\)/);
  t.ok(many.body.results.every((c: Child) => c.hover === undefined));
});

t.test('bad positions and parameters', async (t) => {
  const app = await startApp(t, FLASK);
  const blank = await getJson(app, '/children?file=config.py&line=27&column=1');
  t.equal(blank.status, 404);
  t.equal(blank.body.error.code, 'no_symbol_at_position');
  t.match(blank.body.error.message, /config\.py:27:1/);

  const far = await getJson(app, '/children?file=config.py&line=99999&column=1');
  t.equal(far.status, 400);
  t.match(far.body.error.message, /'line' must be between 1 and \d+/);
  const wide = await getJson(app, '/children?file=config.py&line=29&column=500');
  t.equal(wide.status, 400);
  t.match(wide.body.error.message, /'column' must be between 1 and 20 on line 29/);
  const zero = await getJson(app, '/children?file=config.py&line=0&column=1');
  t.equal(zero.status, 400);
  t.match(zero.body.error.message, /'line' must be at least 1/);
  const depth = await getJson(app, '/children?file=config.py&line=29&column=8&depth=5');
  t.equal(depth.status, 400);
  t.match(depth.body.error.message, /'depth' must be one of: 1, 2, 3, all/);
  const missing = await getJson(app, '/children?file=config.py&line=29');
  t.equal(missing.status, 400);
  t.match(missing.body.error.message, /'column' is required/);
  const letters = await getJson(app, '/children?file=config.py&line=abc&column=1');
  t.equal(letters.status, 400);
  t.match(letters.body.error.message, /'line'/);
});
