import { readFileSync } from 'node:fs';
import path from 'node:path';
import t from 'tap';
import { GOOGLETEST, getJson, startApp } from '../helpers.js';
import { indexReady } from '../index/helpers.js';
import { call, connectHttp, structured, textOf } from '../mcp/helpers.js';

interface Place {
  id: string; name: string; kind: string; file: string; line: number; qualifiedName: string; containingType: string | null;
  definition: boolean; forwardDeclaration: boolean; context: string; range: { start: { line: number }; end: { line: number } };
  snippet: { startLine: number; endLine: number; text: string; truncated?: boolean; omittedLines?: number } | null;
}
interface Answer { symbol: string; symbols: number; results: Place[]; totalMatches: number; forwardDeclarations: number; truncated: boolean; limit: number; offset: number; source: string }

const gtestLines = (file: string): string[] => readFileSync(path.join(GOOGLETEST, file), 'utf8').split('\n');

t.test('/symbols/declaration over googletest', async (t) => {
  const app = await startApp(t, GOOGLETEST, { index: { watch: false } });
  await indexReady(app);

  t.test('a method declared in its class in a header and defined out of line: both places, definition first', async (t) => {
    const { status, body } = await getJson(app, '/symbols/declaration?symbol=testing::Test::SetUp');
    t.equal(status, 200);
    const answer = body as Answer;
    t.equal(answer.symbols, 1, 'one symbol');
    t.equal(answer.results.length, 2, 'two places');
    const [definition, declaration] = answer.results;
    t.match(definition, { file: 'googletest/src/gtest.cc', context: 'definition', definition: true, qualifiedName: 'testing::Test::SetUp', kind: 'method' });
    t.match(declaration, { file: 'googletest/include/gtest/gtest.h', context: 'declaration', definition: false, qualifiedName: 'testing::Test::SetUp' });
    // The snippet is the file's own lines, 4 either side of the name by default.
    for (const place of answer.results) {
      const lines = gtestLines(place.file);
      t.equal(place.snippet!.startLine, place.line - 4);
      t.equal(place.snippet!.endLine, place.line + 4);
      t.equal(place.snippet!.text, lines.slice(place.line - 5, place.line + 4).join('\n'), `${place.file}: the lines as on disk`);
    }
    t.match(definition.snippet!.text, /void Test::SetUp\(\) \{\}/);
    t.match(declaration.snippet!.text, /virtual void SetUp\(\);/);
  });

  t.test('by id: the same symbol, both places', async (t) => {
    const first = (await getJson(app, '/symbols/declaration?symbol=testing::Test::SetUp')).body as Answer;
    const byId = (await getJson(app, `/symbols/declaration?id=${first.results[1].id}`)).body as Answer;
    t.same(byId.results.map((p) => p.id), first.results.map((p) => p.id), 'the declaration\'s id brings its definition along');
  });

  t.test('qualified name and containingType narrow a common name', async (t) => {
    const all = (await getJson(app, '/symbols/declaration?symbol=SetUp&limit=200')).body as Answer;
    t.ok(all.symbols > 10, `${all.symbols} SetUp methods in googletest`);
    const narrowed = (await getJson(app, '/symbols/declaration?symbol=SetUp&containingType=Test')).body as Answer;
    t.ok(narrowed.results.length >= 2 && narrowed.results.length < all.totalMatches);
    t.ok(narrowed.results.every((p) => p.containingType === 'Test'), 'only members of a type named Test');
    t.ok(narrowed.results.some((p) => p.qualifiedName === 'testing::Test::SetUp' && p.definition));
    const qualified = (await getJson(app, '/symbols/declaration?symbol=UnitTest::Run&context_lines=0')).body as Answer;
    t.same(qualified.results.map((p) => [p.qualifiedName, p.context, p.file]), [
      ['testing::UnitTest::Run', 'definition', 'googletest/src/gtest.cc'],
      ['testing::UnitTest::Run', 'declaration', 'googletest/include/gtest/gtest.h'],
    ]);
    t.equal(qualified.results[0].snippet!.startLine, qualified.results[0].line, 'context_lines=0 is the name\'s line alone');
    t.equal(qualified.results[0].snippet!.endLine, qualified.results[0].line);
  });

  t.test('include_body: the whole declaration, cut after 400 lines saying how many were left out', async (t) => {
    const run = (await getJson(app, '/symbols/declaration?symbol=UnitTest::Run&include_body=true')).body as Answer;
    const definition = run.results[0];
    t.equal(definition.snippet!.startLine, definition.range.start.line);
    t.equal(definition.snippet!.endLine, definition.range.end.line);
    t.match(definition.snippet!.text, /^int UnitTest::Run\(\) \{/);
    t.match(definition.snippet!.text, /\n\}$/, 'through the closing brace');
    t.notOk(definition.snippet!.truncated);

    const impl = (await getJson(app, '/symbols/declaration?symbol=testing::internal::UnitTestImpl&kind=class&include_body=true')).body as Answer;
    const type = impl.results[0];
    t.match(type, { kind: 'class', file: 'googletest/src/gtest-internal-inl.h', context: 'definition' });
    const length = type.range.end.line - type.range.start.line + 1;
    t.ok(length > 400, `the class spans ${length} lines`);
    t.equal(type.snippet!.endLine - type.snippet!.startLine + 1, 400, '400 lines shown');
    t.equal(type.snippet!.truncated, true);
    t.equal(type.snippet!.omittedLines, length - 400);
  });

  t.test('forward declarations are counted, and listed last on request', async (t) => {
    const grouped = (await getJson(app, '/symbols/declaration?symbol=UnitTestImpl')).body as Answer;
    t.ok(grouped.forwardDeclarations >= 1, `${grouped.forwardDeclarations} forward declaration(s) of UnitTestImpl`);
    t.ok(grouped.results.every((p) => !p.forwardDeclaration), 'none listed by default');
    t.equal(grouped.results[0].kind, 'class');
    t.equal(grouped.results[0].context, 'definition');
    const listed = (await getJson(app, '/symbols/declaration?symbol=UnitTestImpl&include_forward_declarations=true')).body as Answer;
    const tail = listed.results.slice(-grouped.forwardDeclarations);
    t.equal(listed.results.length, grouped.results.length + grouped.forwardDeclarations);
    t.ok(tail.every((p) => p.forwardDeclaration && p.context === 'declaration'), 'appended after everything else');
    t.match(tail[0].snippet!.text, /class UnitTestImpl;/);
  });

  t.test('paging, and errors', async (t) => {
    const page = (await getJson(app, '/symbols/declaration?symbol=SetUp&limit=3&offset=2')).body as Answer;
    t.equal(page.results.length, 3);
    t.equal(page.truncated, true);
    const missing = await getJson(app, '/symbols/declaration?symbol=NoSuchSymbolAnywhere');
    t.equal(missing.status, 404);
    t.equal(missing.body.error.message, "Symbol 'NoSuchSymbolAnywhere' not found");
    const neither = await getJson(app, '/symbols/declaration');
    t.equal(neither.status, 400);
    t.match(neither.body.error.message, /'symbol' or 'id'/);
    const tooMuch = await getJson(app, '/symbols/declaration?symbol=SetUp&context_lines=51');
    t.equal(tooMuch.status, 400);
    t.match(tooMuch.body.error.message, /context_lines/);
    const limit = await getJson(app, '/symbols/declaration?symbol=SetUp&limit=201');
    t.equal(limit.status, 400);
  });

  t.test('markdown: one heading per place, the code fenced as cpp', async (t) => {
    const response = await app.inject({ method: 'GET', url: '/symbols/declaration?symbol=testing::Test::SetUp&format=markdown' });
    t.equal(response.statusCode, 200);
    const text = response.body;
    t.match(text, /^# Declarations of `testing::Test::SetUp`/);
    t.match(text, /## testing::Test::SetUp — Method, definition — googletest\/src\/gtest\.cc:\d+ — id `[\w-]+`/);
    t.match(text, /## testing::Test::SetUp — Method, declaration — googletest\/include\/gtest\/gtest\.h:\d+ — id `[\w-]+`/);
    t.ok(text.indexOf(', definition —') < text.indexOf(', declaration —'), 'definition first');
    t.match(text, /```cpp\n[\s\S]*void Test::SetUp\(\) \{\}[\s\S]*```/);
  });

  t.test('MCP: find_declaration gives the markdown and the same JSON', async (t) => {
    const { client } = await connectHttp(t, app);
    const result = await call(client, 'find_declaration', { symbol: 'UnitTest::Run', include_body: true });
    t.notOk(result.isError, result.isError ? textOf(result) : 'answered');
    t.match(textOf(result), /## testing::UnitTest::Run — Method, definition/);
    const answer = structured<Answer>(result);
    t.equal(answer.results[0].file, 'googletest/src/gtest.cc');
    t.match(answer.results[0].snippet!.text, /HandleExceptionsInMethodIfSupported/);
    const missing = await call(client, 'find_declaration', { symbol: 'NoSuchSymbolAnywhere' });
    t.equal(missing.isError, true);
    t.match(textOf(missing), /Symbol 'NoSuchSymbolAnywhere' not found/);
  });
});
