/**
 * max_tokens on real trees: a long answer is cut to fit (fewer rows, shorter code, most relevant first), says so
 * in its markdown and in `budget`, and tells how to get the rest; one that fits is untouched.
 */
import t from 'tap';
import { countTokens } from 'gpt-tokenizer/encoding/o200k_base';
import type { TokenBudget } from '../../schemas/budget.js';
import { FLASK, GOOGLETEST, getJson, startApp } from '../helpers.js';
import { call, connectHttp, textOf } from '../mcp/helpers.js';
import { indexReady } from '../wait.js';

const tokens = (text: string): number => countTokens(text, { disallowedSpecial: new Set() });

t.test('googletest', async (t) => {
  // One index for every case: mcp.maxTokens touches MCP calls only.
  const app = await startApp(t, GOOGLETEST, { index: { watch: false }, mcp: { maxTokens: 700 } });
  await indexReady(app);

  t.test('search_symbols: a long list cut to the rows that fit, the next offset named', async (t) => {
    const whole = await getJson(app, '/symbols?query=Test&limit=200');
    t.equal(whole.body.results.length, 200);
    t.notOk(whole.body.budget, 'no budget, no cut');

    const cut = await getJson(app, '/symbols?query=Test&limit=200&max_tokens=600');
    t.equal(cut.status, 200);
    const budget = cut.body.budget as TokenBudget;
    const shown = cut.body.results.length;
    t.ok(shown > 5 && shown < 200, `${shown} of 200 rows fit`);
    t.same(cut.body.results.map((s: { id: string }) => s.id), whole.body.results.slice(0, shown).map((s: { id: string }) => s.id), 'the first rows, in rank order');
    t.match(budget, { maxTokens: 600, lists: [{ list: 'results', shown, total: 200 }], nextOffset: shown });
    t.ok(budget.tokens <= 600);
    t.equal(cut.body.truncated, true);
    t.equal(cut.body.totalMatches, whole.body.totalMatches, 'the count is still every match');

    const markdown = await app.inject({ method: 'GET', url: '/symbols?query=Test&limit=200&max_tokens=600&format=markdown' });
    t.ok(tokens(markdown.body) <= 600, `the markdown is ${tokens(markdown.body)} tokens`);
    t.match(markdown.body, new RegExp(`^# Symbols matching \`Test\`\\n\\n> \\*\\*Cut to fit max_tokens=600:\\*\\* ${shown} of 200 results shown\\. For more: offset=${shown} continues after the last result shown; narrow the question \\(kind, containingType, package, language, scope\\); or raise max_tokens\\.`));

    const next = await getJson(app, `/symbols?query=Test&limit=200&offset=${shown}&max_tokens=600`);
    t.equal(next.body.results[0].id, whole.body.results[shown].id, 'offset continues where the cut answer stopped');

    const small = await getJson(app, '/symbols?query=TestPartResult&limit=5&max_tokens=5000');
    t.notOk(small.body.budget, 'an answer that fits is not cut');
    t.same({ ...small.body, elapsedMs: 0 }, { ...(await getJson(app, '/symbols?query=TestPartResult&limit=5')).body, elapsedMs: 0 });
  });

  t.test('search_statements: rows cut; a small budget keeps the heading and says what it left', async (t) => {
    const cut = await app.inject({ method: 'GET', url: '/statements?query=//if&type=path&limit=200&max_tokens=800&format=markdown' });
    t.equal(cut.statusCode, 200);
    t.ok(tokens(cut.body) <= 800, `${tokens(cut.body)} tokens`);
    const rows = cut.body.split('\n').filter((line) => /^\| [^-|][^|]*:\d+ \|/.test(line)).length;
    t.ok(rows > 0 && rows < 200, `${rows} statements shown`);
    t.match(cut.body, new RegExp(`Cut to fit max_tokens=800:\\*\\* ${rows} of 200 results shown`));
    t.match(cut.body, new RegExp(`offset=${rows} continues`));

    const tiny = await getJson(app, '/statements?query=//if&type=path&limit=200&max_tokens=100');
    t.equal(tiny.status, 200);
    t.ok(tiny.body.results.length < 5, 'hardly a row fits in 100 tokens');
    t.ok(tiny.body.budget.tokens <= 100 || tiny.body.results.length === 0, 'within the budget, or nothing but the heading');
  });

  t.test('MCP: mcp.maxTokens cuts a call that gives no max_tokens; a batch shares its max_tokens', async (t) => {
    const { client } = await connectHttp(t, app);
    const search = await call(client, 'search_symbols', { query: 'Test', limit: 200 });
    t.notOk(search.isError, textOf(search));
    t.ok(tokens(textOf(search)) <= 700, 'the default budget holds');
    t.match((search.structuredContent as { budget: TokenBudget }).budget, { maxTokens: 700 });
    const wider = await call(client, 'search_symbols', { query: 'Test', limit: 200, max_tokens: 3000 });
    t.ok((wider.structuredContent as { results: unknown[] }).results.length > (search.structuredContent as { results: unknown[] }).results.length, 'a call\'s own max_tokens wins');

    const response = await app.inject({ method: 'POST', url: '/batch', payload: { max_tokens: 1000, requests: [
      { operation: 'search_symbols', params: { query: 'Test', limit: 200 } },
      { operation: 'search_statements', params: { query: '//if', type: 'path', limit: 200 } },
      { operation: 'search_symbols', params: { query: 'Test', limit: 200, max_tokens: 300 } },
    ] } });
    const results = response.json().results as { status: number; body: { budget: TokenBudget } }[];
    t.same(results.map((result) => result.status), [200, 200, 200]);
    t.same(results.map((result) => result.body.budget.maxTokens), [333, 333, 300], 'an equal share each, unless a request gives its own');
  });
});

t.test('flask: code cut to fit (find_declaration), a tree cut to fit (symbol_outline), over HTTP and MCP', async (t) => {
  const app = await startApp(t, FLASK);
  await indexReady(app);
  const whole = await getJson(app, '/symbols/declaration?symbol=Flask&include_body=true');
  const full = whole.body.results[0].snippet;
  t.ok(full.endLine - full.startLine > 300, 'the Flask class is long');
  const cut = await getJson(app, '/symbols/declaration?symbol=Flask&include_body=true&max_tokens=500');
  const snippet = cut.body.results[0].snippet;
  t.equal(snippet.startLine, full.startLine);
  t.equal(snippet.text.split('\n').length, snippet.endLine - snippet.startLine + 1, 'the snippet\'s range is what it shows');
  t.equal(snippet.endLine + snippet.omittedLines, full.endLine + (full.omittedLines ?? 0), 'omittedLines counts the rest');
  t.match(cut.body.budget, { maxTokens: 500, lists: [], codeLines: Number });
  const markdown = await app.inject({ method: 'GET', url: '/symbols/declaration?symbol=Flask&include_body=true&max_tokens=500&format=markdown' });
  t.ok(tokens(markdown.body) <= 500, `${tokens(markdown.body)} tokens`);
  t.match(markdown.body, /> \*\*Cut to fit max_tokens=500:\*\* code cut to \d+ lines\. For more: .*ask about one symbol by its id for its whole code/);
  t.match(markdown.body, /\(cut: [\d,]+ more lines of this declaration not shown\)/);

  const { client } = await connectHttp(t, app);
  const outline = await call(client, 'symbol_outline', { file: 'app.py', max_tokens: 400 });
  t.notOk(outline.isError, textOf(outline));
  const text = textOf(outline);
  t.ok(tokens(text) <= 400, `the tool's text is ${tokens(text)} tokens`);
  t.match(text, /^# Outline of app\.py\n\n> \*\*Cut to fit max_tokens=400:\*\* .*of \d+ children shown/);
  const body = outline.structuredContent as { results: { name: string; omittedChildren?: number; children: unknown[] }[]; budget: TokenBudget };
  const flask = body.results.find((node) => node.name === 'Flask')!;
  t.ok(flask.omittedChildren! > 0, `Flask's children left out are counted (${flask.omittedChildren})`);
  t.match(text, /\*\*Flask\*\* \(`Class`\) L110 \(\+\d+ nested, not shown\)/);
  t.equal(body.budget.maxTokens, 400, 'structuredContent carries the same budget');
});

t.test('every tool keeps to max_tokens: a long answer of each cut to fit, over MCP', async (t) => {
  // clangd serves the outline and children; the other answers are the index's, the budget what is tested.
  const app = await startApp(t, GOOGLETEST, { index: { watch: false }, languages: { python: { enabled: false } } });
  await indexReady(app);
  const header = 'googletest/include/gtest/gtest.h';
  const edit = '--- a/googletest/src/gtest.cc\n+++ b/googletest/src/gtest.cc\n@@ -1948,1 +1948,2 @@\n-  if (code_point > kMaxCodePoint4) {\n+  // edited\n+  if (code_point > kMaxCodePoint4) {\n';
  /** One question per tool, each with an answer longer than BUDGET whole. */
  const questions: Record<string, Record<string, unknown>> = {
    search_symbols: { query: 'Test', limit: 200 },
    get_symbol: { query: 'Test', limit: 200 },
    find_declaration: { symbol: 'testing::UnitTest', include_body: true },
    resolve_position: { file: 'googletest/src/gtest.cc', line: 2031, column: 15, context_lines: 40 },
    find_usages: { symbol: 'testing::TestPartResult', limit: 200 },
    list_members: { symbol: 'testing::UnitTest', limit: 200 },
    find_inheritors: { symbol: 'testing::TestEventListener', limit: 200 },
    type_hierarchy: { symbol: 'testing::TestEventListener', direction: 'down' },
    find_implementations: { symbol: 'testing::TestEventListener::OnTestStart' },
    find_callers: { symbol: 'testing::internal::CodePointToUtf8', depth: 3 },
    find_callees: { symbol: 'testing::internal::UnitTestImpl::RunAllTests' },
    find_impact: { symbol: 'testing::TestEventListener' },
    detect_changes: { diff: edit },
    trace_calls: { from: 'testing::internal::UnitTestImpl::RunAllTests', to: 'testing::internal::posix::Abort' },
    symbol_context: { symbol: 'testing::UnitTest' },
    get_signature: { symbol: 'testing::Test', kind: 'class' },
    get_doc: { symbol: 'testing::UnitTest' },
    find_counterpart: { file: header },
    search_statements: { query: '//if', type: 'path', limit: 200 },
    list_packages: {},
    get_package_symbols: { name: 'gtest', limit: 200 },
    symbol_outline: { file: header },
    get_symbol_children: { file: header, line: 1093, column: 18 },
    index_status: {},
    batch: { requests: [{ operation: 'search_symbols', params: { query: 'Test', limit: 200 } }, { operation: 'symbol_outline', params: { file: header } }] },
  };
  const { client } = await connectHttp(t, app);
  const { tools } = await client.listTools();
  t.same(tools.map((tool) => tool.name).sort(), Object.keys(questions).sort(), 'a question for every tool');
  const BUDGET = 300;
  let cut = 0;
  for (const tool of tools) {
    t.ok(tool.inputSchema.properties && 'max_tokens' in tool.inputSchema.properties, `${tool.name} takes max_tokens`);
    const whole = await call(client, tool.name, { ...questions[tool.name], max_tokens: 1_000_000 });
    if (whole.isError) {
      t.fail(`${tool.name}: ${textOf(whole).slice(0, 300)}`);
      continue;
    }
    const fitted = await call(client, tool.name, { ...questions[tool.name], max_tokens: BUDGET });
    t.notOk(fitted.isError, `${tool.name} answers within a budget`);
    const text = textOf(fitted);
    t.ok(tokens(text) <= BUDGET, `${tool.name}: ${tokens(text)} tokens in ${BUDGET} (${tokens(textOf(whole))} whole)`);
    if (tokens(textOf(whole)) > BUDGET) {
      cut++;
      t.match(text, /Cut to fit max_tokens=\d+/, `${tool.name} says it was cut`);
      t.notMatch(text, /No (callers|callees) found|Nothing depends on it|No tests reached|Built on: nothing answered|Showing \d+-0 /, `${tool.name}: rows cut are not called absent`);
    }
  }
  t.ok(cut >= 15, `${cut} of ${tools.length} answers were longer than ${BUDGET} tokens whole, and cut`);
});
