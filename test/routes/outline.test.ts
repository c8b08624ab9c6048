import { cpSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import t, { type Test } from 'tap';
import type { OutlineResponse } from '../../schemas/outline.js';
import type { PlumbApp } from '../../src/app.js';
import { corpusPath, requireCorpora } from '../corpora.js';
import { FLASK, GOOGLETEST, RXJS_SRC, getJson, googletestCompileDb, startApp, tempDir } from '../helpers.js';
import { indexReady } from '../wait.js';

interface Node { name: string; serverName?: string; kind: string; line: number; column: number; range: { start: { line: number } }; children: Node[]; symbolContent?: string; omittedChildren?: number }
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

  t.test('methods defined outside their class have the index\'s bare names', async (t) => {
    // clangd names them `TestPartResultArray::size`, `HasNewFatalFailureHelper::~HasNewFatalFailureHelper`.
    const file = 'googletest/src/gtest-test-part.cc';
    const { status, body } = await getJson<OutlineResponse>(app, `/outline?file=${file}&display_code_for=TestPartResultArray::size`);
    t.equal(status, 200);
    const testing = find(body.results, 'testing')!;
    t.match(find(testing.children, 'size'), { kind: 'method', serverName: 'TestPartResultArray::size' });
    t.match(find(testing.children, 'ExtractSummary'), { kind: 'method', serverName: 'TestPartResult::ExtractSummary' });
    t.notOk(find(testing.children, 'operator<<')!.serverName, 'a name the server did not decorate has no serverName');
    const internal = find(testing.children, 'internal')!;
    t.same(names(internal.children), ['HasNewFatalFailureHelper', '~HasNewFatalFailureHelper', 'ReportTestPartResult']);
    t.same(body.displayCodeFor, [{ query: 'TestPartResultArray.size', matches: 1 }], 'the class a definition names qualifies it in display_code_for');
    t.match(find(testing.children, 'size')!.symbolContent, /^int TestPartResultArray::size\(\) const \{/);
    // clangd lists the using-declaration `using internal::GetUnitTestImpl;` as a symbol; the index does not.
    await sameNamesAsIndex(t, app, file, body.results, ['GetUnitTestImpl']);
  });
});

/** Every name in the outline, but `unindexed`, is a name the index has for a symbol of the file (the index may hold more: locals, macros). */
async function sameNamesAsIndex(t: Test, app: PlumbApp, file: string, nodes: Node[], unindexed: string[] = []): Promise<void> {
  await indexReady(app);
  const indexed = new Set((await app.plumb.index.reader.symbolsInFile(file)).map((s) => s.name));
  const outlined = new Set<string>();
  const visit = (node: Node): void => {
    outlined.add(node.name);
    node.children.forEach(visit);
  };
  nodes.forEach(visit);
  const missing = [...outlined].filter((name) => !indexed.has(name) && !unindexed.includes(name));
  t.same(missing, [], `the ${outlined.size} outline names of ${file} are index names`);
}

t.test('Go: gopls\'s receiver-qualified method names are the index\'s bare names (container/list)', async (t) => {
  if (!requireCorpora(t, 'go')) return;
  const root = tempDir(t, 'plumb-go-list-');
  cpSync(path.join(corpusPath('go'), 'src', 'container', 'list'), root, { recursive: true });
  writeFileSync(path.join(root, 'go.mod'), 'module example.com/list\n\ngo 1.19\n');
  const app = await startApp(t, root, { index: { watch: false } });
  const { status, body } = await getJson<OutlineResponse>(app, '/outline?file=list.go&display_code_for=List.Len,Element.Next,Front');
  t.equal(status, 200);
  t.equal(body.language, 'go');
  t.match(find(body.results, 'Len'), { kind: 'method', serverName: '(*List).Len' }, 'gopls\'s (*List).Len is Len');
  t.match(find(body.results, 'Next'), { kind: 'method', serverName: '(*Element).Next' });
  t.notOk(body.results.some((n) => n.name.includes('(') || n.name.includes('.')), 'no receiver left in any name');
  t.notOk(find(body.results, 'List')!.serverName, 'the struct is named as gopls names it');
  t.same(body.displayCodeFor, [{ query: 'List.Len', matches: 1 }, { query: 'Element.Next', matches: 1 }, { query: 'Front', matches: 1 }], 'the receiver qualifies a method in display_code_for');
  t.match(find(body.results, 'Len')!.symbolContent, /^func \(l \*List\) Len\(\) int/);
  await sameNamesAsIndex(t, app, 'list.go', body.results);

  const md = await app.inject({ url: '/outline?file=list.go&format=markdown' });
  t.match(md.body, /^- \*\*Len\*\* `\(\*List\)\.Len` \(`Method`\) L\d+ — func\(\) int$/m, 'markdown shows the bare name, then the server\'s');
  const children = await getJson(app, `/children?file=list.go&line=${find(body.results, 'Len')!.line}&column=${find(body.results, 'Len')!.column}`);
  t.match(children.body.symbol, { name: 'Len', serverName: '(*List).Len' }, '/children names it the same way');
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
