import { cpSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import t from 'tap';
import { FLASK, GOOGLETEST, RXJS_SRC, getJson, startApp, tempDir } from '../helpers.js';
import { indexReady, RXJS } from '../index/helpers.js';

interface Hit { id: string; path: string; type: { node: string; short: string }; shortType: string; depth: number; file: string; line: number; column: number; code: string; truncated?: boolean }

const q = (params: Record<string, string | number | boolean>): string => `/statements?${new URLSearchParams(Object.entries(params).map(([k, v]) => [k, String(v)])).toString()}`;

/** googletest (C++), rxjs (TypeScript), flask (Python) and Go's strings and bufio, copied into one workspace. */
function realWorkspace(dir: string): string {
  const root = path.join(dir, 'real');
  cpSync(GOOGLETEST, path.join(root, 'googletest'), { recursive: true });
  mkdirSync(path.join(root, 'rxjs'), { recursive: true });
  cpSync(path.join(RXJS, 'package.json'), path.join(root, 'rxjs/package.json'));
  cpSync(RXJS_SRC, path.join(root, 'rxjs/src'), { recursive: true });
  cpSync(FLASK, path.join(root, 'flask'), { recursive: true, filter: (src) => !src.includes('__pycache__') });
  mkdirSync(path.join(root, 'gostd'), { recursive: true });
  writeFileSync(path.join(root, 'gostd/go.mod'), 'module std\n\ngo 1.19\n');
  for (const pkg of ['strings', 'bufio']) cpSync(`/usr/share/go-1.19/src/${pkg}`, path.join(root, 'gostd', pkg), { recursive: true });
  return root;
}

t.test('/statements on real code', async (t) => {
  const root = realWorkspace(tempDir(t));
  const app = await startApp(t, root, { index: { watch: false } });
  await indexReady(app);

  /** What every answer must keep: code is the source at line:column, parents come before their children. */
  const checkShape = (t: { ok: (value: unknown, message: string) => unknown }, hits: Hit[]): void => {
    const seen: string[] = [];
    for (const hit of hits) {
      const source = readFileSync(path.join(root, hit.file), 'utf8').split('\n');
      const at = source[hit.line - 1].slice(hit.column - 1);
      t.ok(hit.code.replace(/…$/, '').startsWith(at.slice(0, Math.min(at.length, 30)).trimEnd()) || at.startsWith(hit.code.split('\n')[0]), `${hit.path}: code is the source at ${hit.file}:${hit.line}:${hit.column}`);
      const parent = hit.path.replace(/\/[^/]+$/, '');
      if (hit.depth > 0) t.ok(hits.every((other) => other.path !== parent) || seen.includes(parent), `${hit.path}: its parent, when listed, comes first`);
      seen.push(hit.path);
    }
  };

  t.test('C++ (googletest): text search in a real file, nested statements with their parents', async (t) => {
    const { status, body } = await getJson(app, q({ query: 'GTEST_CHECK_', file: 'googletest/googletest/src/gtest-port.cc', limit: 500 }));
    t.equal(status, 200);
    t.ok(body.totalMatches > 5, `${body.totalMatches} statements`);
    t.ok(body.results.every((h: Hit) => h.code.includes('GTEST_CHECK_') || h.truncated));
    t.ok(body.results.every((h: Hit) => h.path.startsWith('/gtest/src/gtest-port.cc/') || h.path.startsWith(`/${h.path.split('/')[1]}/`)));
    t.ok(body.results.some((h: Hit) => h.depth > 0), 'some sit inside other statements');
    checkShape(t, body.results);
    const calls = await getJson(app, q({ query: '//call[GTEST_CHECK_]', type: 'path', file: 'googletest/googletest/src/gtest-port.cc', limit: 500 }));
    t.equal(calls.body.totalMatches, body.results.filter((h: Hit) => h.shortType === 'expression' && h.code.startsWith('GTEST_CHECK_')).length, 'one call per statement that is the call');
  });

  t.test('TypeScript (rxjs): //class[Subscriber]/method excludes the other classes of the file', async (t) => {
    const { body } = await getJson(app, q({ query: '//class[Subscriber]/method', type: 'path', package: 'rxjs' }));
    const names = body.results.map((h: Hit) => h.path.split('/').pop());
    t.same(names, ['create', 'constructor', 'next', 'error', 'complete', 'unsubscribe', '_next', '_error', '_complete']);
    t.ok(body.results.every((h: Hit) => h.path.startsWith('/rxjs/src/internal/Subscriber.ts/Subscriber/')));
    const safe = await getJson(app, q({ query: '//class[SafeSubscriber]/method', type: 'path', package: 'rxjs' }));
    t.same(safe.body.results.map((h: Hit) => h.path.split('/').pop()), ['constructor']);
    const regex = await getJson(app, q({ query: 'isFunction\\(\\w+\\.next\\)', type: 'regex', package: 'rxjs' }));
    t.ok(regex.body.totalMatches >= 1);
    t.ok(regex.body.filesParsed < regex.body.filesSearched / 10, `only candidates parsed: ${regex.body.filesParsed} of ${regex.body.filesSearched}`);
    checkShape(t, regex.body.results);
  });

  t.test('Python (flask): decorated methods, narrowing by symbol', async (t) => {
    const { body } = await getJson(app, q({ query: '//method[@setupmethod]', type: 'path', file: 'flask/scaffold.py', limit: 100 }));
    const names = body.results.map((h: Hit) => h.path.split('/').pop());
    for (const name of ['get', 'post', 'put', 'delete', 'route', 'before_request']) t.ok(names.includes(name), name);
    t.ok(body.results.every((h: Hit) => h.code.startsWith('@setupmethod')), 'the decorator is part of the method');
    const inside = await getJson(app, q({ query: 'response', symbol: 'Flask.wsgi_app' }));
    t.equal(inside.status, 200);
    t.ok(inside.body.totalMatches > 2);
    t.ok(inside.body.results.every((h: Hit) => h.path.startsWith('/flask/app.py/Flask/wsgi_app/')));
    t.same(inside.body.symbols.map((s: { qualifiedName: string }) => s.qualifiedName), ['Flask.wsgi_app']);
    checkShape(t, inside.body.results);
    const first = await getJson(app, q({ query: '/statement[1]', type: 'path', symbol: 'Flask.wsgi_app' }));
    t.equal(first.body.results.length, 1, 'the first statement of the method');
    t.equal(first.body.results[0].depth, 0);
  });

  t.test('Go (std): for, while and range loops map onto for, while and foreach', async (t) => {
    const loops = await getJson(app, q({ query: '//function[Fields]/for', type: 'path', package: 'std' }));
    t.ok(loops.body.results.length >= 1);
    t.ok(loops.body.results.every((h: Hit) => h.code.startsWith('for i := 0;') && h.path.startsWith('/std/strings/strings.go/Fields/for[')));
    const whiles = await getJson(app, q({ query: '//function[Fields]/while', type: 'path', package: 'std' }));
    t.ok(whiles.body.results.length >= 1);
    t.ok(whiles.body.results.every((h: Hit) => /^for i < len\(s\)/.test(h.code)));
    const ranges = await getJson(app, q({ query: '//function[FieldsFunc]/foreach', type: 'path', package: 'std' }));
    t.match(ranges.body.results.map((h: Hit) => h.code), [/^for end, rune := range s/]);
    const nested = await getJson(app, q({ query: '//method[ReadString]//statement', type: 'path', file: 'gostd/bufio/bufio.go' }));
    t.ok(nested.body.results.length > 2);
    checkShape(t, nested.body.results);
  });

  t.test('a regex anchored with ^ or $ matches at each statement\'s start and end, not only the file\'s', async (t) => {
    // Every if statement's source starts with `if (` (an else-if's too): the anchored regex finds the ifs `//if` finds.
    for (const scope of [{ file: 'rxjs/src/internal/Subscriber.ts' }, { package: 'rxjs' }, { file: 'googletest/googletest/src/gtest-port.cc' }] as Array<Record<string, string>>) {
      const anchored = await getJson(app, q({ query: '^\\s*if\\s*\\(', type: 'regex', limit: 200, ...scope }));
      const ifs = await getJson(app, q({ query: '//if', type: 'path', limit: 200, ...scope }));
      t.equal(anchored.status, 200);
      t.ok(ifs.body.results.length > 3, `${JSON.stringify(scope)}: ${ifs.body.results.length} ifs`);
      t.same(anchored.body.results.map((h: Hit) => h.path), ifs.body.results.map((h: Hit) => h.path), `${JSON.stringify(scope)}: ^\\s*if\\s*\\( finds the same statements as //if`);
    }
    // Python: `^if\b`, and `:$` (a statement ending with a colon: none, the block follows it) against `raise\b.*\)$`.
    const pythonIfs = await getJson(app, q({ query: '^if\\b', type: 'regex', file: 'flask/app.py', limit: 200 }));
    t.same(pythonIfs.body.results.map((h: Hit) => h.path), (await getJson(app, q({ query: '//if', type: 'path', file: 'flask/app.py', limit: 200 }))).body.results.map((h: Hit) => h.path), 'flask/app.py: ^if\\b finds its ifs');
    const raises = await getJson(app, q({ query: '^raise\\b[\\s\\S]*\\)$', type: 'regex', file: 'flask/app.py', limit: 200 }));
    t.ok(raises.body.results.length > 3 && raises.body.results.every((h: Hit) => h.shortType === 'throw'), `${raises.body.results.length} raise statements ending with a call, by ^ and $`);
    // A lookbehind reads text outside the statement on the whole file: such a regex parses every file of the scope.
    const lookbehind = await getJson(app, q({ query: '(?<![\\w.])isFunction\\(', type: 'regex', file: 'rxjs/src/internal/Observable.ts' }));
    t.ok(lookbehind.body.totalMatches > 0, 'a lookbehind matches too');
  });

  t.test('//if over the whole workspace stops at the page and says the count is a lower bound', async (t) => {
    const { status, body } = await getJson(app, q({ query: '//if', type: 'path', limit: 10 }));
    t.equal(status, 200);
    t.equal(body.results.length, 10);
    t.equal(body.truncated, true);
    t.ok(body.totalMatches >= 10);
    if (body.countsCapped) t.ok(body.filesParsed < body.filesSearched || body.totalMatches >= 1010);
    t.ok(body.filesParsed < 2000);
  });
});
