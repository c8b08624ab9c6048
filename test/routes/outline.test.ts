import t from 'tap';
import { FLASK, GOOGLETEST, RXJS_SRC, getJson, googletestCompileDb, startApp } from '../helpers.js';

interface Node { name: string; kind: string; line: number; column: number; range: { start: { line: number } }; children: Node[]; symbolContent?: string; omittedChildren?: number }
const find = (nodes: Node[], name: string): Node | undefined => nodes.find((n) => n.name === name);
const names = (nodes: Node[]): string[] => nodes.map((n) => n.name);

t.test('C++: outline of googletest\'s TestPartResult through clangd and cmake\'s compile database', async (t) => {
  const build = googletestCompileDb(t, { shared: true });
  const app = await startApp(t, GOOGLETEST, { compileDatabase: { directory: build } });
  const { status, body } = await getJson(app, '/outline?file=googletest/include/gtest/gtest-test-part.h');
  t.equal(status, 200);
  t.equal(body.file, 'googletest/include/gtest/gtest-test-part.h');
  t.equal(body.language, 'cpp');
  const ns = find(body.results, 'testing');
  t.ok(ns, 'namespace testing is a top-level symbol');
  t.equal(ns!.kind, 'namespace');
  const cls = find(ns!.children, 'TestPartResult');
  t.ok(cls, 'class TestPartResult inside namespace testing');
  t.equal(cls!.kind, 'class');
  t.equal(cls!.line, 52, 'line is where the name is');
  t.equal(cls!.column, 18, 'column of the name after the GTEST_API_ macro');
  for (const method of ['type', 'file_name', 'line_number', 'summary', 'message', 'skipped', 'passed', 'failed']) {
    t.ok(find(cls!.children, method), `method ${method} listed`);
  }
  t.equal(find(cls!.children, 'failed')!.kind, 'method');
  t.equal(find(cls!.children, 'failed')!.line, 106);
  const status2 = await getJson(app, '/status');
  const cpp = status2.body.servers.find((s: { language: string }) => s.language === 'cpp');
  t.ok(cpp.compileDatabase.path.startsWith(build) || cpp.compileDatabase.source?.startsWith(build), 'status names the cmake compile database');
  t.equal(cpp.compileDatabase.synthesized, false);
});

t.test('TypeScript: outline of rxjs Subject with display_code_for and depth', async (t) => {
  const app = await startApp(t, RXJS_SRC);
  const { status, body } = await getJson(app, '/outline?file=internal/Subject.ts&display_code_for=Subject.next');
  t.equal(status, 200);
  t.equal(body.language, 'typescript');
  const subject = find(body.results, 'Subject')!;
  t.equal(subject.kind, 'class');
  t.equal(subject.line, 17);
  t.same(names(subject.children).filter((n) => ['constructor', 'next', 'error', 'complete', 'unsubscribe', 'asObservable'].includes(n)),
    ['constructor', 'next', 'error', 'complete', 'unsubscribe', 'asObservable'], 'methods in document order');
  const next = find(subject.children, 'next')!;
  t.match(next.symbolContent, /^ {2}next\(value: T\) \{/, 'symbolContent starts at the method');
  t.match(next.symbolContent, /\n {2}\}$/, 'and ends with its closing brace');
  const other = find(find(body.results, 'AnonymousSubject')!.children, 'next')!;
  t.equal(other.symbolContent, undefined, 'Subject.next does not match AnonymousSubject.next');
  t.same(body.displayCodeFor, [{ query: 'Subject.next', matches: 1 }]);

  const shallow = await getJson(app, '/outline?file=internal/Subject.ts&depth=1');
  t.ok(shallow.body.results.every((n: Node) => n.children.length === 0), 'depth=1 gives top-level symbols only');
  t.equal(find(shallow.body.results, 'Subject')!.omittedChildren, 35, 'and says how many nested symbols it left out');
  const shallowMd = await app.inject({ url: '/outline?file=internal/Subject.ts&depth=1&format=markdown' });
  t.match(shallowMd.body, /^- \*\*Subject\*\* \(`Class`\) L17 \(\+35 nested, not shown\)$/m);
  t.same(names(shallow.body.results), names(body.results));
});

t.test('Python: outline of flask\'s config module, as JSON and as the seed\'s markdown', async (t) => {
  const app = await startApp(t, FLASK);
  const { status, body } = await getJson(app, '/outline?file=config.py&display_code_for=from_mapping');
  t.equal(status, 200);
  t.equal(body.language, 'python');
  const config = find(body.results, 'Config')!;
  t.equal(config.kind, 'class');
  t.equal(config.line, 29);
  for (const method of ['__init__', 'from_envvar', 'from_pyfile', 'from_object', 'from_file', 'from_mapping', 'get_namespace']) {
    t.equal(find(config.children, method)?.kind, 'method', `${method} is a method of Config`);
  }
  t.match(find(config.children, 'from_mapping')!.symbolContent, /^ {4}def from_mapping\(/);

  const md = await app.inject({ url: '/outline?file=config.py&display_code_for=from_mapping', headers: { accept: 'text/markdown' } });
  t.equal(md.statusCode, 200);
  t.match(md.headers['content-type'], /text\/markdown/);
  t.match(md.body, /^- \*\*Config\*\* \(`Class`\)/m, 'top-level class in the seed format');
  t.match(md.body, /^ {2}- \*\*from_mapping\*\* \(`Method`\)/m, 'methods indented under it');
  t.match(md.body, /^ {4}```python\n {4} {4}def from_mapping\(/m, 'fenced code under the requested symbol');
  const viaQuery = await app.inject({ url: '/outline?file=config.py&format=markdown' });
  t.match(viaQuery.body, /- \*\*ConfigAttribute\*\* \(`Class`\)/);
});
