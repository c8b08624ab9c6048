/**
 * Signatures and doc comments on real code: googletest's headers (C++ templates, `//` blocks), rxjs (TypeScript
 * overload lists, `/** *\/`), flask (decorated functions, docstrings) and a copy of Go's strings package
 * (`//` blocks above declarations); hovers from the TypeScript server and pyright.
 */
import { cpSync } from 'node:fs';
import path from 'node:path';
import t from 'tap';
import { GOOGLETEST, getJson, startApp, tempDir } from '../helpers.js';
import { indexReady, polyglotWorkspace } from '../index/helpers.js';
import { call, connectHttp, structured, textOf } from '../mcp/helpers.js';
import { corpusPath, requireCorpora } from '../corpora.js';

interface Head { file: string; startLine: number; endLine: number; text: string; definition: boolean; truncated?: boolean }
interface Result { id: string; name: string; qualifiedName: string; file: string; heads: Head[]; hover: { format: string; text: string } | null; hoverNote?: string; doc: string | null; docFile?: string }

t.test('signature and doc over googletest, rxjs, flask and Go', async (t) => {
  if (!requireCorpora(t, 'go')) return;
  const root = polyglotWorkspace(tempDir(t));
  cpSync(path.join(GOOGLETEST, 'googletest/include'), path.join(root, 'gtest/include'), { recursive: true });
  cpSync(path.join(GOOGLETEST, 'googletest/src'), path.join(root, 'gtest/src'), { recursive: true });
  cpSync(path.join(corpusPath('go'), 'src/strings'), path.join(root, 'gostd/strings'), { recursive: true, filter: (src) => !src.endsWith('_test.go') });
  const app = await startApp(t, root, { index: { watch: false } });
  await indexReady(app);

  t.test('a multi-line C++ template declaration, whole, without its body', async (t) => {
    const { status, body } = await getJson(app, '/symbols/signature?symbol=CmpHelperEQFailure&include_hover=false');
    t.equal(status, 200);
    t.equal(body.results.length, 1);
    const [head] = body.results[0].heads as Head[];
    t.equal(head.text, [
      'template <typename T1, typename T2>',
      'AssertionResult CmpHelperEQFailure(const char* lhs_expression,',
      '                                   const char* rhs_expression, const T1& lhs,',
      '                                   const T2& rhs)',
    ].join('\n'));
    t.match(head, { file: 'gtest/include/gtest/gtest.h', definition: true });
    t.equal(head.endLine - head.startLine, 3);
    t.equal(body.results[0].hover, null);
    t.match(body.results[0].hoverNote, /include_hover=false/);
  });

  t.test('every overload of a C++ name, and a declaration with its definition', async (t) => {
    const { body } = await getJson(app, '/symbols/signature?symbol=testing::internal::CmpHelperSTREQ&include_hover=false');
    t.equal(body.totalMatches, 2, 'the char and the wchar_t overloads');
    const wide = body.results.find((r: Result) => r.heads.some((h) => h.text.includes('const wchar_t* lhs')));
    t.ok(wide, 'the wchar_t overload');
    t.same(wide.heads.map((h: Head) => [h.file, h.definition]), [['gtest/src/gtest.cc', true], ['gtest/include/gtest/gtest.h', false]], 'its definition, then its declaration');
    t.equal(wide.heads[1].text, [
      'GTEST_API_ AssertionResult CmpHelperSTREQ(const char* s1_expression,',
      '                                          const char* s2_expression,',
      '                                          const wchar_t* s1, const wchar_t* s2)',
    ].join('\n'), 'a declaration without a body: its whole text, without the semicolon');
  });

  t.test('a Python function under several decorators, with pyright\'s hover', async (t) => {
    const { body } = await getJson(app, '/symbols/signature?symbol=routes_command');
    const result = body.results[0] as Result;
    const text = result.heads[0].text;
    t.ok(text.startsWith('@click.command("routes", short_help="Show the routes for the app.")\n@click.option(\n    "--sort",'), 'decorators first, indentation kept');
    t.ok(text.endsWith('@with_appcontext\ndef routes_command(sort: str, all_methods: bool) -> None'), 'ends at the colon before the body');
    t.notMatch(text, /Show all registered routes/, 'no body');
    t.ok(result.hover, `hover: ${result.hoverNote}`);
    t.match(result.hover?.text, /routes_command/);
    t.equal(body.source, 'both');

    const method = await getJson(app, '/symbols/signature?symbol=Scaffold.route');
    t.equal(method.body.results[0].heads[0].text, '    @setupmethod\n    def route(self, rule: str, **options: t.Any) -> t.Callable[[T_route], T_route]');
  });

  t.test('a TypeScript overload list: every signature, and the server\'s hover', async (t) => {
    const { body } = await getJson(app, '/symbols/signature?symbol=of&package=rxjs&kind=function');
    t.equal(body.results.length, 1, 'one function');
    const heads = body.results[0].heads as Head[];
    t.ok(heads.length >= 9, `${heads.length} heads`);
    t.equal(heads[0].text, 'export function of<T>(...args: Array<T | SchedulerLike>): Observable<T>', 'the implementation first');
    t.ok(heads.some((h) => h.text === 'export function of(value: null): Observable<null>'));
    t.ok(heads.slice(1).every((h) => !h.definition));
    t.ok(body.results[0].hover, `hover: ${body.results[0].hoverNote}`);
    t.match(body.results[0].hover.text, /function of/);
    const markdown = await app.inject({ method: 'GET', url: '/symbols/signature?symbol=of&package=rxjs&kind=function&format=markdown' });
    t.match(markdown.body, /```typescript\nexport function of\(value: null\): Observable<null>\n```/);
    t.match(markdown.body, /Hover:/);
  });

  t.test('doc comments in four languages as plain text', async (t) => {
    const cpp = await getJson(app, '/symbols/doc?symbol=CmpHelperEQFailure');
    t.equal(cpp.body.results[0].doc, 'Separate the error generating code from the code path to reduce the stack\nframe size of CmpHelperEQ. This helps reduce the overhead of some sanitizers\nwhen calling EXPECT_* in a tight loop.');
    const ts = await getJson(app, '/symbols/doc?symbol=isFunction&package=rxjs');
    t.equal(ts.body.results[0].doc, 'Returns true if the object is a function.\n@param value The value to check');
    const py = await getJson(app, '/symbols/doc?symbol=routes_command');
    t.equal(py.body.results[0].doc, 'Show all registered routes with endpoints and methods.');
    const multi = await getJson(app, '/symbols/doc?symbol=Scaffold.route');
    t.match(multi.body.results[0].doc, /^Decorate a view function to register it with the given URL\nrule and options\./);
    t.notMatch(multi.body.results[0].doc, /"""/, 'no quotes');
    t.match(multi.body.results[0].doc, /\n\.\. code-block:: python\n\n {4}@app\.route\("\/"\)\n/, 'the common indentation removed, the inner kept');
    const go = await getJson(app, '/symbols/doc?symbol=Contains&language=go');
    t.equal(go.body.results[0].doc, 'Contains reports whether substr is within s.');
    t.equal(go.body.results[0].file, 'gostd/strings/strings.go');
  });

  t.test('a C++ doc at the header declaration of a function defined in a source file', async (t) => {
    const { body } = await getJson(app, '/symbols/doc?symbol=testing::TempDir');
    const result = body.results[0] as Result;
    t.equal(result.file, 'gtest/src/gtest.cc', 'the symbol is its definition');
    t.equal(result.docFile, 'gtest/include/gtest/gtest.h');
    t.equal(result.doc, 'Returns a path to temporary directory.\nTries to determine an appropriate directory for the platform.');
  });

  t.test('no doc: doc null, said in markdown', async (t) => {
    const none = await getJson(app, '/symbols/doc?symbol=stream_with_context.generator&language=python');
    t.equal(none.status, 200);
    t.equal(none.body.results[0].doc, null);
    const markdown = await app.inject({ method: 'GET', url: '/symbols/doc?symbol=stream_with_context.generator&language=python&format=markdown' });
    t.match(markdown.body, /No doc comment\./);
    const missing = await getJson(app, '/symbols/doc?symbol=NoSuchThingAnywhere');
    t.equal(missing.status, 404);
    const limit = await getJson(app, '/symbols/signature?symbol=of&limit=500');
    t.equal(limit.status, 400);
  });

  t.test('MCP get_signature and get_doc', async (t) => {
    const { client } = await connectHttp(t, app);
    const signature = await call(client, 'get_signature', { symbol: 'CmpHelperEQFailure', include_hover: false });
    t.match(textOf(signature), /```cpp\ntemplate <typename T1, typename T2>\nAssertionResult CmpHelperEQFailure\(/);
    t.equal(structured<{ results: Result[] }>(signature).results[0].name, 'CmpHelperEQFailure');
    const doc = await call(client, 'get_doc', { symbol: 'Contains', language: 'go' });
    t.match(textOf(doc), /Contains reports whether substr is within s\./);
  });
});
