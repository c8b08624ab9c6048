import { cpSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import t, { type Test } from 'tap';
import { call, connectHttp, structured, textOf } from '../mcp/helpers.js';
import { FLASK, REPO, RXJS_SRC, getJson, startApp, tempDir } from '../helpers.js';
import { compareWithServer, key, waitIndexed, type Usage } from './usages-helpers.js';

const GO_STD = '/usr/share/go-1.19/src';
const FIXTURES = path.join(REPO, 'test/fixtures/usages');

t.test('TypeScript (rxjs): usages match the server, kinds, enclosing symbols, paging, context, markdown, MCP', async (t) => {
  const app = await startApp(t, RXJS_SRC);
  await waitIndexed(app);
  const usages = await compareWithServer(t, app, 'symbol=isFunction&kind=function', 40);
  const notification = usages.find((u) => u.file === 'internal/Notification.ts' && u.usageKind === 'import');
  t.ok(notification, 'the import in Notification.ts is a usage');
  t.match(notification!.text, /^import \{ isFunction \} from '\.\/util\/isFunction';$/);
  const callInObservable = usages.find((u) => u.file === 'internal/Observable.ts' && u.usageKind === 'call');
  t.ok(callInObservable, 'a call in Observable.ts');
  t.match(callInObservable!.enclosingSymbol, { name: 'isObserver', kind: 'function' }, 'enclosed by the function calling it');
  t.ok(usages.filter((u) => u.usageKind !== 'import').every((u) => u.usageKind === 'call'), 'isFunction is only ever imported and called');

  const subscriber = await getJson(app, '/symbols/usages?symbol=Subscriber&kind=class&limit=1000');
  t.equal(subscriber.status, 200);
  const kinds = new Set(subscriber.body.results.map((u: Usage) => u.usageKind));
  t.ok(kinds.has('type'), 'a type reference (subscriber: Subscriber<T>)');
  t.ok(kinds.has('import'));
  t.ok(kinds.has('inheritance'), 'extends Subscriber<T>');
  const typed = subscriber.body.results.find((u: Usage) => u.usageKind === 'type' && /subscriber: Subscriber</.test(u.text));
  t.ok(typed);
  const extending = subscriber.body.results.find((u: Usage) => u.usageKind === 'inheritance');
  t.match(extending.text, /extends Subscriber/);

  const first = await getJson(app, '/usages?symbol=isFunction&kind=function&limit=10');
  const second = await getJson(app, '/usages?symbol=isFunction&kind=function&limit=10&offset=10');
  t.equal(first.status, 200, '/usages is the same operation');
  t.equal(first.body.truncated, true);
  t.equal(first.body.totalMatches, usages.length);
  t.same([...first.body.results, ...second.body.results].map(key), usages.slice(0, 20).map(key), 'pages follow each other');
  const withContext = await getJson(app, '/symbols/usages?symbol=isFunction&kind=function&limit=3&context_lines=2');
  for (const u of withContext.body.results as Usage[]) {
    t.equal(u.context!.endLine - u.context!.startLine, 4, 'two lines either side');
    t.ok(u.context!.text.split('\n')[2].includes('isFunction'), 'the usage line in the middle');
  }
  const tooMany = await getJson(app, '/symbols/usages?symbol=isFunction&limit=1001');
  t.equal(tooMany.status, 400);
  t.match(tooMany.body.error.message, /limit/);
  const badContext = await getJson(app, '/symbols/usages?symbol=isFunction&context_lines=11');
  t.equal(badContext.status, 400);
  t.match(badContext.body.error.message, /context_lines/);
  const neither = await getJson(app, '/symbols/usages');
  t.equal(neither.status, 400);
  t.match(neither.body.error.message, /'symbol' or 'id'/);
  const unknown = await getJson(app, '/symbols/usages?symbol=NoSuchThingAnywhere');
  t.equal(unknown.status, 404);

  const md = await app.inject({ url: '/symbols/usages?symbol=isFunction&kind=function&limit=5&format=markdown' });
  t.match(md.body, /^# Usages of `isFunction` \(Function, internal\/util\/isFunction\.ts:5, id \S+\)/);
  t.match(md.body, /Precision: semantic/);
  t.match(md.body, /^\| File:Line \| Kind \| In \| Code \|$/m);
  t.match(md.body, /^\| internal\/Notification\.ts:6:10 \| import \|/m);

  const { client } = await connectHttp(t, app);
  const result = await call(client, 'find_usages', { symbol: 'isFunction', kind: 'function', limit: 5 });
  t.notOk(result.isError);
  t.match(textOf(result), /# Usages of `isFunction`/);
  const body = structured<{ results: Usage[]; precision: string; totalMatches: number }>(result);
  t.equal(body.precision, 'semantic');
  t.equal(body.totalMatches, usages.length);
  t.same(body.results.map(key), usages.slice(0, 5).map(key));
});

t.test('Python (flask): usages match pyright, imports included', async (t) => {
  const app = await startApp(t, FLASK);
  await waitIndexed(app);
  const usages = await compareWithServer(t, app, 'symbol=get_debug_flag', 5);
  t.ok(usages.some((u) => u.file === 'app.py' && u.usageKind === 'import' && /from \.helpers import get_debug_flag/.test(u.text)), 'the import in app.py');
  t.ok(usages.some((u) => u.file === 'cli.py' && u.usageKind === 'call' && u.enclosingSymbol?.qualifiedName === 'ScriptInfo.load_app'), 'a call in cli.py, in the method holding it');
});

t.test('Go (a copy of bufio with its own go.mod): usages match gopls', async (t) => {
  const root = goBufio(t);
  const app = await startApp(t, root);
  await waitIndexed(app);
  const usages = await compareWithServer(t, app, 'symbol=NewReader&package=example.com/bufio', 20);
  t.ok(usages.some((u) => u.file === 'bufio_test.go' && u.usageKind === 'call'), 'calls from the external test package');
  const reader = await getJson(app, '/symbols/usages?symbol=Reader&kind=struct&limit=1000');
  t.equal(reader.status, 200);
  t.ok(reader.body.results.some((u: Usage) => u.usageKind === 'type' && /\*Reader/.test(u.text)), 'a type reference (*Reader)');
});

t.test('usages in files the workspace ignores are dropped (build output, .gitignore)', async (t) => {
  const root = tempDir(t, 'plumb-usages-ignored-');
  mkdirSync(path.join(root, 'src'));
  mkdirSync(path.join(root, 'build'));
  mkdirSync(path.join(root, 'generated'));
  writeFileSync(path.join(root, '.gitignore'), 'generated/\n');
  writeFileSync(path.join(root, 'tsconfig.json'), JSON.stringify({ compilerOptions: { strict: true, module: 'esnext', target: 'es2022' }, include: ['src', 'build', 'generated'] }));
  writeFileSync(path.join(root, 'src/helper.ts'), 'export function helper(n: number): number {\n  return n + 1;\n}\n');
  writeFileSync(path.join(root, 'src/main.ts'), "import { helper } from './helper';\n\nexport const two = helper(1);\n");
  writeFileSync(path.join(root, 'build/out.ts'), "import { helper } from '../src/helper';\nexport const three = helper(2);\n");
  // What a build leaves says it is build output (a folder named build alone does not: the kernel's tools/build is source).
  writeFileSync(path.join(root, 'build/CACHEDIR.TAG'), 'Signature: 8a477f597d28d172789f06886806bc55\n');
  writeFileSync(path.join(root, 'generated/gen.ts'), "import { helper } from '../src/helper';\nexport const four = helper(3);\n");
  const app = await startApp(t, root);
  await waitIndexed(app);
  const answer = await getJson(app, '/symbols/usages?symbol=helper');
  t.equal(answer.status, 200);
  t.same(answer.body.results.map((u: Usage) => `${key(u)} ${u.usageKind}`), ['src/main.ts:1:10 import', 'src/main.ts:3:20 call']);
  t.equal(answer.body.droppedIgnored, 4, 'the import and call in build/ and generated/ are counted, not listed');
});

t.test('syntactic usages where no server serves the language: Rust (ahash), Java, C#', async (t) => {
  const rust = await startApp(t, '/usr/share/cargo/registry/ahash-0.7.6');
  await waitIndexed(rust);
  const answer = await getJson(rust, '/symbols/usages?symbol=folded_multiply');
  t.equal(answer.status, 200);
  t.equal(answer.body.precision, 'syntactic');
  t.equal(answer.body.source, 'index');
  t.match(answer.body.reason, /no language server serves rust/);
  t.same(answer.body.server, { language: 'rust', request: null, state: 'unsupported', reason: 'no language server serves rust' }, 'the server outcome says why');
  const usages: Usage[] = answer.body.results;
  t.same(usages.map((u) => `${u.file}:${u.line}`), [
    'src/aes_hash.rs:259', 'src/fallback_hash.rs:2', 'src/fallback_hash.rs:98', 'src/fallback_hash.rs:124', 'src/fallback_hash.rs:214',
    'src/fallback_hash.rs:262', 'src/fallback_hash.rs:341',
  ], 'every call and the use; not feature = "folded_multiply" strings, not the definition');
  t.equal(usages.find((u) => u.line === 2)!.usageKind, 'import');
  t.ok(usages.filter((u) => u.line !== 2).every((u) => u.usageKind === 'call'));
  t.match(usages.find((u) => u.line === 98)!.enclosingSymbol, { name: 'update' });
  const md = await rust.inject({ url: '/symbols/usages?symbol=folded_multiply&format=markdown' });
  t.match(md.body, /Precision: syntactic \(identifier matches of 'folded_multiply'/);

  const java = await startApp(t, path.join(FIXTURES, 'java'));
  await waitIndexed(java);
  const register = await getJson(java, '/symbols/usages?symbol=register');
  t.equal(register.status, 200);
  t.equal(register.body.precision, 'syntactic');
  t.same(register.body.results.map((u: Usage) => `${u.file}:${u.line}:${u.column} ${u.usageKind}`), [
    'com/example/App.java:6:18 call', 'com/example/App.java:7:18 call', 'com/example/App.java:9:19 call',
  ], 'not in comments, javadoc or strings');
  const inheritance = await getJson(java, '/symbols/usages?symbol=Registry&kind=class');
  t.same(inheritance.body.results.map((u: Usage) => `${u.line} ${u.usageKind}`), ['3 inheritance', '5 type', '5 call'], 'extends, a declared type, a constructor call');

  const csharp = await startApp(t, path.join(FIXTURES, 'csharp'));
  await waitIndexed(csharp);
  const add = await getJson(csharp, '/symbols/usages?symbol=AddItem');
  t.equal(add.body.precision, 'syntactic');
  t.same(add.body.results.map((u: Usage) => `${u.file}:${u.line} ${u.usageKind}`), ['Program.cs:10 call', 'Program.cs:14 read'], 'not in comments, verbatim or plain strings');
});

/** bufio copied with a go.mod of its own; its tests import it by the module path. */
function goBufio(t: Test): string {
  const root = tempDir(t, 'plumb-go-bufio-');
  cpSync(path.join(GO_STD, 'bufio'), root, { recursive: true });
  writeFileSync(path.join(root, 'go.mod'), 'module example.com/bufio\n\ngo 1.19\n');
  for (const name of readdirSync(root).filter((n) => n.endsWith('.go'))) {
    const file = path.join(root, name);
    writeFileSync(file, readFileSync(file, 'utf8').replace(/"bufio"/g, '"example.com/bufio"'));
  }
  return root;
}
