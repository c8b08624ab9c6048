import path from 'node:path';
import t from 'tap';
import { REPO, getJson, startApp } from '../helpers.js';
import { indexReady } from '../index/helpers.js';
import { call, connectHttp, structured, textOf } from '../mcp/helpers.js';

const ROOT = path.join(REPO, 'test/fixtures/statements');

interface Hit { id: string; path: string; type: { node: string; short: string }; shortType: string; depth: number; file: string; line: number; column: number; code: string; truncated?: boolean }

const q = (params: Record<string, string | number | boolean>): string => `/statements?${new URLSearchParams(Object.entries(params).map(([k, v]) => [k, String(v)])).toString()}`;

t.test('/statements on small fixtures in every language', async (t) => {
  const app = await startApp(t, ROOT, { index: { watch: false }, statements: { regexTimeoutMs: 1000 } });
  await indexReady(app);

  t.test('the three-result case in every language: f(1), the if, f(2) nested', async (t) => {
    const cases: Array<[string, string]> = [
      ['three.c', '/statements/three.c/caller'],
      ['three.cpp', '/statements/three.cpp/Widget/caller'],
      ['Three.cs', '/statements/Three.cs/Three/Caller'],
      ['three.ts', '/statements/three.ts/caller'],
      ['three.tsx', '/statements/three.tsx/Caller'],
      ['three.js', '/statements/three.js/caller'],
      ['three.py', '/statements/three.py/caller'],
      ['three.go', '/statements/three.go/caller'],
      ['Three.java', '/statements/Three.java/Three/caller'],
      ['three.rs', '/statements/three.rs/caller'],
    ];
    for (const [file, prefix] of cases) {
      const { status, body } = await getJson(app, q({ query: 'f(', file }));
      t.equal(status, 200, file);
      const hits: Hit[] = body.results;
      t.same(hits.map((h) => [h.shortType, h.depth, h.path]), [
        ['expression', 0, `${prefix}/expression[1]`],
        ['if', 0, `${prefix}/if[1]`],
        ['expression', 1, `${prefix}/if[1]/expression[1]`],
      ], `${file}: first call, the if, the nested call`);
      t.match(hits[0].code, /^f\(1\);?$/, `${file}: the first call's code`);
      t.ok(hits[1].line < hits[2].line && hits[0].line < hits[1].line, `${file}: document order`);
      t.equal(body.totalMatches, 3);
      t.equal(body.truncated, false);
    }
  });

  const paths = async (params: Record<string, string | number | boolean>): Promise<string[]> => {
    const { status, body } = await getJson(app, q({ type: 'path', ...params }));
    t.equal(status, 200, JSON.stringify(params));
    return body.results.map((h: Hit) => h.path);
  };

  t.test('//class[X]/method lists X\'s methods, not another class\'s', async (t) => {
    t.same(await paths({ query: '//class[UserService]/method' }), ['/statements/Services.cs/UserService/Save', '/statements/Services.cs/UserService/Load']);
    t.same(await paths({ query: '//class[Registry]/method' }), ['/statements/Registry.java/Registry/register', '/statements/Registry.java/Registry/count']);
    t.same(await paths({ query: '//class[Api]/method' }), ['/statements/views.py/Api/ping', '/statements/views.py/Api/name', '/statements/views.py/Api/fetch'], 'decorated Python methods are methods of their class');
  });

  t.test('predicates: name, @contains, position, @word, and/or/not', async (t) => {
    t.same(await paths({ query: '//method[Main]//call[WriteLine]' }), ['/statements/Services.cs/Program/Main/try[1]/catch[1]/expression[1]/call[1]']);
    t.same(await paths({ query: '//if[@contains=\'null\']' }), ['/statements/Services.cs/UserService/Save/if[1]']);
    t.same(await paths({ query: '//method[Save]/statement[2]' }), ['/statements/Services.cs/UserService/Save/expression[1]'], 'position counts among the step\'s matches: the second statement of Save (the first is its if)');
    t.same(await paths({ query: '//method[Save]/statement[1]', file: 'Services.cs' }), ['/statements/Services.cs/UserService/Save/if[1]', '/statements/Services.cs/OrderService/Save/expression[1]']);
    t.same(await paths({ query: '//method[@async]' }), ['/statements/Services.cs/UserService/Load', '/statements/shapes.rs/Circle[2]/load', '/statements/views.py/Api/fetch']);
    t.same(await paths({ query: '//method[@staticmethod]' }), ['/statements/views.py/Api/ping'], 'a decorator is part of the head');
    t.same(await paths({ query: '//method[Save and not(@contains=\'int\')]' }), ['/statements/Services.cs/UserService/Save']);
    t.same(await paths({ query: '//method[Save or ping]' }), ['/statements/Services.cs/UserService/Save', '/statements/Services.cs/OrderService/Save', '/statements/views.py/Api/ping']);
    t.same(await paths({ query: '//method[(Save or Load) and @public and not(2)]', file: 'Services.cs' }), ['/statements/Services.cs/UserService/Save', '/statements/Services.cs/OrderService/Save']);
    t.same(await paths({ query: '//switch/case[2]' }), ['/statements/shapes.rs/Circle[2]/area/switch[1]/case[2]'], 'Rust match arms are cases');
    t.same(await paths({ query: '//foreach/if/throw', language: 'java' }), ['/statements/Registry.java/Registry/register/foreach[1]/if[1]/throw[1]']);
    t.same(await paths({ query: '//try/catch/return', language: 'java' }), ['/statements/Registry.java/Registry/count/try[1]/catch[1]/return[1]']);
  });

  t.test('a lambda or closure inside a method', async (t) => {
    const { body } = await getJson(app, q({ query: '//lambda', type: 'path' }));
    t.same(body.results.map((h: Hit) => [h.path, h.depth, h.type.node]), [
      ['/statements/Registry.java/Registry/register/expression[2]/call[1]/lambda[1]', 2, 'lambda_expression'],
      ['/statements/Services.cs/UserService/Load/expression[1]/call[1]/lambda[1]', 2, 'lambda_expression'],
      ['/statements/shapes.rs/Circle[2]/area/local[1]/scale', 1, 'closure_expression'],
      ['/statements/views.py/Api/name/expression[1]/assignment[1]/handler', 2, 'lambda'],
    ]);
    // Text search reaches into the lambda: the statement holding it, and the call inside it.
    const text = await getJson(app, q({ query: 'println', file: 'shapes.rs' }));
    t.same(text.body.results.map((h: Hit) => [h.path, h.depth]), [
      ['/statements/shapes.rs/Circle[2]/area/switch[1]', 0],
      ['/statements/shapes.rs/Circle[2]/area/switch[1]/case[2]', 1],
      ['/statements/shapes.rs/Circle[2]/area/switch[1]/case[2]/expression[1]', 2],
    ]);
    const inLambda = await getJson(app, q({ query: 'WriteLine(u)', symbol: 'Load' }));
    t.same(inLambda.body.results.map((h: Hit) => h.path), [
      '/statements/Services.cs/UserService/Load/expression[1]',
      '/statements/Services.cs/UserService/Load/foreach[1]',
      '/statements/Services.cs/UserService/Load/foreach[1]/expression[1]',
    ]);
  });

  t.test('regex: every statement whose source matches, parents and children', async (t) => {
    const { status, body } = await getJson(app, q({ query: 'WriteLine\\(\\w+\\)', type: 'regex' }));
    t.equal(status, 200);
    t.same(body.results.map((h: Hit) => `${h.file}:${h.line} ${h.shortType} ${h.depth}`), [
      'Services.cs:22 expression 0', 'Services.cs:23 foreach 0', 'Services.cs:26 expression 1', 'Services.cs:35 expression 0',
    ]);
    const ignoring = await getJson(app, q({ query: 'writeline\\(ID\\)', type: 'regex', ignore_case: true }));
    t.same(ignoring.body.results.map((h: Hit) => h.line), [35]);
  });

  t.test('bad and catastrophic regexes are 400s naming query; the next regex still runs', async (t) => {
    const bad = await getJson(app, q({ query: '(unclosed', type: 'regex' }));
    t.equal(bad.status, 400);
    t.match(bad.body.error, { code: 'invalid_parameter', parameter: 'query', message: /not a valid regular expression/ });
    const fallback = await getJson(app, q({ query: '(a+)+$', type: 'regex', file: 'Services.cs' }));
    t.equal(fallback.status, 200, 'nested quantifiers alone fall back to a linear engine');
    const slow = await getJson(app, q({ query: '(a+)+\\1$', type: 'regex', file: 'Services.cs' }));
    t.equal(slow.status, 400, 'a backreference cannot: the time limit stops it');
    t.match(slow.body.error.message, /ran for more than 1000 ms/);
    const after = await getJson(app, q({ query: 'throw new', type: 'regex', file: 'Services.cs' }));
    t.equal(after.status, 200, JSON.stringify(after.body));
    t.same(after.body.results.map((h: Hit) => h.shortType), ['if', 'throw']);
  });

  t.test('malformed patterns: 400 with the position and what was expected', async (t) => {
    const cases: Array<[string, number, RegExp]> = [
      ['//method[Main', 14, /expected '\]'/],
      ['method', 1, /expected '\/' or '\/\/' at the start/],
      ['//methd', 3, /a node name after '\/\/'/],
      ['//if[@contains]', 15, /= and a quoted string after @contains/],
      ['//if[@contains=\'x]', 19, /closing '/],
      ['//if[not(1]', 11, /'\)' to close not\(/],
      ['//if[0]', 6, /a position of 1 or more/],
      ['//if//', 7, /a node name/],
      ['//if[]', 6, /a predicate/],
      ['//if#', 5, /one of/],
      ['//if or //call', 6, /'\/' or '\/\/' before the next step/],
    ];
    for (const [pattern, position, expected] of cases) {
      const { status, body } = await getJson(app, q({ query: pattern, type: 'path' }));
      t.equal(status, 400, pattern);
      t.equal(body.error.position, position, `${pattern}: position`);
      t.match(body.error.message, expected, `${pattern}: what was expected`);
      t.match(body.error.message, `character ${position}`);
    }
  });

  t.test('narrowing by file, package, language and symbol', async (t) => {
    const all = await getJson(app, q({ query: 'f(' }));
    t.equal(all.body.totalMatches, 32, 'three in each of the ten three.* files, and nameof( in Services.cs');
    t.same(all.body.results.filter((h: Hit) => !h.file.startsWith('three.') && !h.file.startsWith('Three.')).map((h: Hit) => `${h.file}:${h.line} ${h.shortType}`), ['Services.cs:12 if', 'Services.cs:14 throw']);
    const go = await getJson(app, q({ query: 'f(', language: 'go' }));
    t.same([...new Set(go.body.results.map((h: Hit) => h.file))], ['three.go']);
    const pkg = await getJson(app, q({ query: 'f(', package: 'statements', limit: 1 }));
    t.equal(pkg.body.totalMatches, 32);
    const missing = await getJson(app, q({ query: 'f(', package: 'nope' }));
    t.equal(missing.status, 404);
    const symbol = await getJson(app, q({ query: 'Console', symbol: 'Save' }));
    t.same(symbol.body.results.map((h: Hit) => h.path), ['/statements/Services.cs/UserService/Save/expression[2]', '/statements/Services.cs/OrderService/Save/expression[1]'], 'every definition of the name is searched');
    t.same(symbol.body.symbols.map((s: { qualifiedName: string }) => s.qualifiedName), ['Shop.UserService.Save', 'Shop.OrderService.Save']);
    const narrowed = await getJson(app, q({ query: 'Console', symbol: 'Save', containingType: 'OrderService' }));
    t.same(narrowed.body.results.map((h: Hit) => h.line), [35]);
    const byId = await getJson(app, q({ query: '/statement', type: 'path', id: narrowed.body.symbols[0].id }));
    t.same(byId.body.results.map((h: Hit) => h.path), ['/statements/Services.cs/OrderService/Save/expression[1]'], 'with a symbol, a path starts at it');
    const cls = await getJson(app, q({ query: '//if', type: 'path', symbol: 'UserService' }));
    t.same(cls.body.results.map((h: Hit) => h.path), ['/statements/Services.cs/UserService/Save/if[1]', '/statements/Services.cs/UserService/Load/foreach[1]/if[1]']);
    const unknown = await getJson(app, q({ query: 'x', symbol: 'NoSuchThing' }));
    t.equal(unknown.status, 404);
    const outside = await getJson(app, q({ query: 'x', file: '../etc/passwd' }));
    t.equal(outside.status, 400);
    t.equal(outside.body.error.code, 'path_outside_root');
  });

  t.test('limit, offset, truncation of the list and of the code', async (t) => {
    const all = await getJson(app, q({ query: 'f(' }));
    const first = await getJson(app, q({ query: 'f(', limit: 4 }));
    t.equal(first.body.results.length, 4);
    t.equal(first.body.truncated, true);
    t.equal(first.body.totalMatches, 32);
    const second = await getJson(app, q({ query: 'f(', limit: 4, offset: 4 }));
    t.same([...first.body.results, ...second.body.results].map((h: Hit) => h.id), all.body.results.slice(0, 8).map((h: Hit) => h.id), 'pages continue in order');
    const last = await getJson(app, q({ query: 'f(', limit: 4, offset: 30 }));
    t.equal(last.body.results.length, 2);
    t.equal(last.body.truncated, false);
    const tooMany = await getJson(app, q({ query: 'f(', limit: 501 }));
    t.equal(tooMany.status, 400);
    t.match(tooMany.body.error.message, /500/);
    const cut = await getJson(app, q({ query: 'if (c)', file: 'three.c', max_code_chars: 20 }));
    t.equal(cut.body.results[0].code, `${'if (c) {\n    f(2);\n  }'.slice(0, 20)}…`);
    t.equal(cut.body.results[0].truncated, true);
    const empty = await getJson(app, q({ query: ' ' }));
    t.equal(empty.status, 400);
    t.match(empty.body.error.message, 'Search query must not be empty');
  });

  t.test('markdown and the MCP tool', async (t) => {
    const md = await app.inject({ method: 'GET', url: q({ query: 'f(', file: 'three.py', format: 'markdown' }) });
    t.equal(md.statusCode, 200);
    t.match(md.body, '| three.py:6 | 0 | /statements/three.py/caller/expression[1] | `f(1)` |');
    const { client } = await connectHttp(t, app);
    const tools = await client.listTools();
    t.ok(tools.tools.some((tool) => tool.name === 'search_statements'));
    const result = await call(client, 'search_statements', { query: '//class[UserService]/method', type: 'path' });
    t.notOk(result.isError);
    t.match(textOf(result), '/statements/Services.cs/UserService/Load');
    t.same(structured<{ results: Hit[] }>(result).results.map((h) => h.path), ['/statements/Services.cs/UserService/Save', '/statements/Services.cs/UserService/Load']);
    const bad = await call(client, 'search_statements', { query: '//if[', type: 'path' });
    t.ok(bad.isError);
    t.match(textOf(bad), 'character 6');
  });
});
