/**
 * POST /changes on real code: a copy of Go's container/list in a temporary git repository, served with gopls.
 * A diff that modifies a body, one that adds a function, one that removes a called function (its former
 * callers are the impact), one not applied yet, one from `git diff` through `base`; and the refusals: a body
 * that is no diff, a path outside the workspace (nothing read), a workspace that is no git repository.
 */
import { execFileSync } from 'node:child_process';
import { cpSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import t, { type Test } from 'tap';
import type { PlumbApp } from '../../src/app.js';
import type { ChangesResponse, ChangesResult } from '../../schemas/impact.js';
import { corpusPath, requireCorpora, ZOD } from '../corpora.js';
import { startApp, tempDir } from '../helpers.js';
import { call, connectHttp, structured, textOf } from '../mcp/helpers.js';
import { indexReady } from '../wait.js';

/** container/list with a go.mod, committed in a fresh git repository. */
function goListRepo(t: Test): string {
  const root = tempDir(t, 'plumb-changes-');
  cpSync(path.join(corpusPath('go'), 'src', 'container', 'list'), root, { recursive: true });
  writeFileSync(path.join(root, 'go.mod'), 'module example.com/list\n\ngo 1.19\n');
  for (const name of readdirSync(root).filter((n) => n.endsWith('.go'))) {
    const file = path.join(root, name);
    writeFileSync(file, readFileSync(file, 'utf8').replace(/"container\/list"/g, '"example.com/list"'));
  }
  git(root, 'init', '-q');
  git(root, 'add', '-A');
  git(root, '-c', 'user.email=test@example.com', '-c', 'user.name=test', 'commit', '-q', '-m', 'container/list');
  return root;
}

function git(cwd: string, ...args: string[]): string {
  return execFileSync('git', args, { cwd, encoding: 'utf8' });
}

function edit(root: string, file: string, change: (text: string) => string): void {
  const target = path.join(root, file);
  const before = readFileSync(target, 'utf8');
  const after = change(before);
  if (after === before) throw new Error(`the edit of ${file} changed nothing`);
  writeFileSync(target, after);
}

async function post(app: PlumbApp, body: unknown, query = ''): Promise<{ status: number; body: any }> {
  const response = await app.inject({ method: 'POST', url: `/changes${query}`, payload: body as object });
  return { status: response.statusCode, body: response.headers['content-type']?.toString().includes('json') ? response.json() : response.body };
}

async function served(t: Test, root: string): Promise<PlumbApp> {
  const app = await startApp(t, root, { index: { watch: false } });
  await indexReady(app);
  return app;
}

function named(results: ChangesResult[], name: string): ChangesResult | undefined {
  return results.find((r) => ('qualifiedName' in r.symbol ? r.symbol.qualifiedName : r.symbol.name) === name);
}

const NEW_BODY = (text: string): string => text.replace('return l.insert(&Element{Value: v}, at)', 'e := &Element{Value: v}\n\treturn l.insert(e, at)');

t.test('a diff that modifies a body: the function, its callers and the tests reaching it', async (t) => {
  if (!requireCorpora(t, 'go')) return;
  const root = goListRepo(t);
  edit(root, 'list.go', NEW_BODY);
  const diff = git(root, 'diff');
  const app = await served(t, root);
  const { status, body } = await post(app, { diff });
  t.equal(status, 200);
  t.match(body, { diffSource: 'body', depth: 2, changedTotal: 1 });
  t.same(body.changedFiles, [{ file: 'list.go', status: 'modified', linesAdded: 2, linesRemoved: 1, symbols: 1, indexed: true }]);
  t.match(body.changed, [{ change: 'modified', name: 'insertValue', qualifiedName: 'List.insertValue', kind: 'method', file: 'list.go', linesChanged: 3 }]);
  t.ok(body.changed[0].id, 'with its index id');
  const answer = body as ChangesResponse;
  t.match(named(answer.results, 'List.PushBack'), { distance: 1, relation: 'call', precision: 'semantic', from: [{ name: 'List.insertValue' }] });
  t.ok(answer.tests.some((test) => test.name === 'TestList' && test.file === 'list_test.go' && test.distance === 2), 'TestList reaches it through PushBack');
  t.ok(answer.files.some((f) => f.file === 'list_test.go' && f.test));

  const md = await post(app, { diff }, '?format=markdown');
  t.match(md.body, /^# Changes/);
  t.match(md.body, /\| modified \| List\.insertValue \| method \| list\.go:\d+ \|/);
  t.match(md.body, /`TestList` — list_test\.go:\d+, distance 2/);

  // The same diff before it is applied: the working tree holds its old side, which the index holds too.
  git(root, 'checkout', '--', 'list.go');
  const old = await served(t, root);
  const unapplied = await post(old, { diff });
  t.equal(unapplied.status, 200);
  t.match(unapplied.body.changed, [{ change: 'modified', qualifiedName: 'List.insertValue' }]);
  t.ok(unapplied.body.changed[0].id, 'found in the index by its old side');
  t.match(unapplied.body.changedFiles[0].note, /old side/);
  t.ok(named(unapplied.body.results, 'List.PushBack'), 'the same impact');
});

t.test('a diff that edits a test: the test itself is one to run', async (t) => {
  if (!requireCorpora(t, 'go')) return;
  const root = goListRepo(t);
  edit(root, 'list_test.go', (text) => text.replace('func TestExtending(t *testing.T) {\n', 'func TestExtending(t *testing.T) {\n\t// extended\n'));
  const app = await served(t, root);
  const { status, body } = await post(app, { diff: git(root, 'diff') });
  t.equal(status, 200);
  t.match(body.changed, [{ change: 'modified', qualifiedName: 'TestExtending', file: 'list_test.go' }]);
  t.match(body.tests[0], { name: 'TestExtending', file: 'list_test.go', distance: 0 }, 'listed first, at distance 0');
});

t.test('a diff inside a describe/test block of zod\'s tests (not applied: the tree stays as it is)', async (t) => {
  const root = path.join(ZOD, 'src', 'v4');
  const file = 'classic/tests/error-utils.test.ts';
  const lines = readFileSync(path.join(root, file), 'utf8').split('\n');
  const at = lines.findIndex((line) => line.startsWith('test("z.toDotPath"')) + 1;
  t.ok(at > 0);
  const diff = `--- a/${file}\n+++ b/${file}\n@@ -${at},2 +${at},3 @@\n ${lines[at - 1]}\n+  // edited\n ${lines[at]}\n`;
  const app = await served(t, root);
  const { status, body } = await post(app, { diff });
  t.equal(status, 200);
  t.match(body.changedFiles, [{ file, status: 'modified', linesAdded: 1, note: /old side/ }]);
  t.match(body.tests, [{ name: 'z.toDotPath', file, line: at, distance: 0 }], 'the test block the edit is in');
});

t.test('a diff that adds a function', async (t) => {
  if (!requireCorpora(t, 'go')) return;
  const root = goListRepo(t);
  edit(root, 'list.go', (text) => `${text}\n// PushBackTwice inserts v twice at the back of list l and returns the second element.\nfunc (l *List) PushBackTwice(v any) *Element {\n\tl.PushBack(v)\n\treturn l.PushBack(v)\n}\n`);
  const diff = git(root, 'diff');
  const app = await served(t, root);
  const { status, body } = await post(app, { diff });
  t.equal(status, 200);
  t.match(body.changed, [{ change: 'added', qualifiedName: 'List.PushBackTwice', kind: 'method', linesChanged: 4 }]);
  t.ok(body.changed[0].id, 'the index holds the new function');
  t.equal(body.changed.length, 1, 'the function it calls is not changed');
  t.equal(body.totalMatches, 0, 'nothing calls it yet');
});

t.test('a diff that removes a called function: its former callers are the impact', async (t) => {
  if (!requireCorpora(t, 'go')) return;
  const root = goListRepo(t);
  edit(root, 'list.go', (text) => text.replace(/\/\/ lazyInit lazily initializes a zero List value\.\nfunc \(l \*List\) lazyInit\(\) \{\n[\s\S]*?\n\}\n\n/, ''));
  const diff = git(root, 'diff');
  const app = await served(t, root);
  const { status, body } = await post(app, { diff, depth: 2 });
  t.equal(status, 200);
  t.match(body.changed, [{ change: 'removed', name: 'lazyInit', qualifiedName: 'List.lazyInit', id: null }]);
  const answer = body as ChangesResponse;
  for (const caller of ['List.PushFront', 'List.PushBack', 'List.PushBackList', 'List.PushFrontList']) {
    t.match(named(answer.results, caller), { distance: 1, relation: 'call', precision: 'syntactic', from: [{ id: null, name: 'List.lazyInit' }], sites: [{ file: 'list.go', text: 'l.lazyInit()' }] }, `${caller} called it`);
  }
  t.ok(answer.parts.some((part) => part.operation === 'name search' && /gone from the index/.test(part.reason ?? '')), 'says the callers were found by name');
  t.ok(answer.tests.some((test) => test.name === 'TestList' && test.distance === 2), 'and the tests calling its former callers');
  t.equal(answer.precision, 'mixed');
});

t.test('the working tree against a git ref: modified, added and untracked', async (t) => {
  if (!requireCorpora(t, 'go')) return;
  const root = goListRepo(t);
  edit(root, 'list.go', NEW_BODY);
  writeFileSync(path.join(root, 'extra.go'), 'package list\n\n// Second returns the list\'s second element or nil.\nfunc Second(l *List) *Element {\n\tif f := l.Front(); f != nil {\n\t\treturn f.Next()\n\t}\n\treturn nil\n}\n');
  const app = await served(t, root);
  const { status, body } = await post(app, { base: 'HEAD' });
  t.equal(status, 200);
  t.match(body, { diffSource: 'git', base: 'HEAD' });
  t.same(body.changedFiles.map((f: { file: string; status: string }) => `${f.file} ${f.status}`).sort(), ['extra.go added', 'list.go modified']);
  t.same(body.changed.map((c: { change: string; qualifiedName: string }) => `${c.change} ${c.qualifiedName}`), ['added Second', 'modified List.insertValue']);
  t.ok(named(body.results, 'List.PushBack'));

  const { client } = await connectHttp(t, app);
  const result = await call(client, 'detect_changes', { base: 'HEAD' });
  t.notOk(result.isError);
  t.match(textOf(result), /\| added \| Second \| function \| extra\.go:4 \|/);
  t.equal((structured(result) as ChangesResponse).totalMatches, body.totalMatches);

  const unknown = await post(app, { base: 'no-such-branch' });
  t.match(unknown, { status: 400, body: { error: { code: 'invalid_parameter', message: /'base'.*no commit/ } } });
  const option = await post(app, { base: '--output=/tmp/x' });
  t.match(option, { status: 400, body: { error: { code: 'invalid_parameter', message: /'base'/ } } }, 'no option reaches git');
});

t.test('refusals: not a diff, a path outside the workspace, no repository', async (t) => {
  if (!requireCorpora(t, 'go')) return;
  const root = goListRepo(t);
  const app = await served(t, root);
  const notDiff = await post(app, { diff: 'this is not a diff\njust some text\n' });
  t.match(notDiff, { status: 400, body: { error: { code: 'invalid_parameter', message: /Parameter 'diff'.*not a unified diff/ } } });
  t.equal((await post(app, {})).status, 400, 'diff or base is required');
  t.equal((await post(app, { diff: 'x', base: 'HEAD' })).status, 400, 'not both');
  const outside = '--- a/../secret.go\n+++ b/../secret.go\n@@ -1 +1 @@\n-a\n+b\n';
  const refused = await post(app, { diff: outside });
  t.match(refused, { status: 400, body: { error: { code: 'path_outside_root', message: /'\.\.\/secret\.go' is outside the workspace/ } } });
  const absolute = '--- /etc/passwd\n+++ /etc/passwd\n@@ -1 +1 @@\n-a\n+b\n';
  t.match(await post(app, { diff: absolute }), { status: 400, body: { error: { code: 'path_outside_root' } } });
  const missing = '--- a/gone.go\n+++ b/gone.go\n@@ -1,3 +1,3 @@\n package list\n-func Gone() {}\n+func Gone2() {}\n \n';
  const gone = await post(app, { diff: missing });
  t.equal(gone.status, 200, 'a file not in the workspace is reported, not fatal');
  t.match(gone.body.changedFiles, [{ file: 'gone.go', indexed: false, note: /not in the working tree/ }]);

  const plain = tempDir(t, 'plumb-changes-plain-');
  writeFileSync(path.join(plain, 'a.go'), 'package a\n');
  const noRepo = await served(t, plain);
  t.match(await post(noRepo, { base: 'HEAD' }), { status: 400, body: { error: { code: 'invalid_parameter', message: /'base'.*git repository/ } } });
});
