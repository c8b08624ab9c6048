import t from 'tap';
import { GOOGLETEST, getJson, startApp } from '../helpers.js';
import { indexReady } from '../index/helpers.js';
import { call, connectHttp, structured, textOf } from '../mcp/helpers.js';

interface Counterpart { file: string; role: string; reason: string; sharedSymbols: number; sameBaseName: boolean; examples: string[] }
interface Answer { file: string; role: string; results: Counterpart[]; totalMatches: number }

t.test('/symbols/counterpart over googletest', async (t) => {
  const app = await startApp(t, GOOGLETEST, { index: { watch: false } });
  await indexReady(app);

  t.test('a header: the source defining what it declares, first', async (t) => {
    const { status, body } = await getJson(app, '/symbols/counterpart?file=googletest/include/gtest/gtest.h');
    t.equal(status, 200);
    const answer = body as Answer;
    t.match(answer, { file: 'googletest/include/gtest/gtest.h', role: 'header' });
    t.match(answer.results[0], { file: 'googletest/src/gtest.cc', role: 'source', sameBaseName: true });
    t.ok(answer.results[0].sharedSymbols > 50, `${answer.results[0].sharedSymbols} shared symbols`);
    t.match(answer.results[0].reason, /^shared symbols: \d+; same base name$/);
    t.ok(answer.results[0].examples.length > 0);
    const counts = answer.results.map((r) => r.sharedSymbols);
    t.same(counts, [...counts].sort((a, b) => b - a), 'most shared first');
  });

  t.test('a source: its header in the sibling include tree, then others sharing fewer symbols', async (t) => {
    const answer = (await getJson(app, '/symbols/counterpart?file=googletest/src/gtest-port.cc')).body as Answer;
    t.equal(answer.role, 'source');
    t.match(answer.results[0], { file: 'googletest/include/gtest/internal/gtest-port.h', role: 'header', sameBaseName: true });
    t.ok(answer.results[0].sharedSymbols > 10);
    const custom = answer.results.find((r) => r.file === 'googletest/include/gtest/internal/custom/gtest-port.h');
    t.match(custom, { reason: 'same base name', sharedSymbols: 0 }, 'a namesake sharing nothing comes after, by base name');
    t.ok(answer.results.indexOf(custom!) > 0);
    const absolute = (await getJson(app, `/symbols/counterpart?file=${GOOGLETEST}/googletest/src/gtest.cc`)).body as Answer;
    t.equal(absolute.results[0].file, 'googletest/include/gtest/gtest.h', 'an absolute path inside the root works too');
  });

  t.test('same base name alone, in the same directory', async (t) => {
    // sample1.h declares what sample1.cc defines, side by side.
    const answer = (await getJson(app, '/symbols/counterpart?file=googletest/samples/sample1.cc')).body as Answer;
    t.match(answer.results[0], { file: 'googletest/samples/sample1.h', role: 'header', sameBaseName: true });
  });

  t.test('errors: other languages, missing files, paths outside', async (t) => {
    const python = await getJson(app, '/symbols/counterpart?file=googletest/test/gtest_help_test.py');
    t.equal(python.status, 400);
    t.equal(python.body.error.code, 'unsupported_language');
    t.match(python.body.error.message, /C and C\+\+/);
    t.match(python.body.error.message, /headers [^)]*\.tcc/, 'their headers are the C++ rules\' headerExtensions (one table with the index and the compile database)');
    t.equal((await getJson(app, '/symbols/counterpart?file=nope.h')).status, 404);
    t.equal((await getJson(app, '/symbols/counterpart?file=../etc/passwd')).body.error.code, 'path_outside_root');
    t.equal((await getJson(app, '/symbols/counterpart')).status, 400);
  });

  t.test('markdown and MCP', async (t) => {
    const markdown = (await app.inject({ method: 'GET', url: '/symbols/counterpart?file=googletest/src/gtest.cc&format=markdown' })).body;
    t.match(markdown, /^# Counterparts of `googletest\/src\/gtest\.cc` \(source\)/);
    t.match(markdown, /\| googletest\/include\/gtest\/gtest\.h \| header \| shared symbols: \d+; same base name \|/);
    const { client } = await connectHttp(t, app);
    const result = await call(client, 'find_counterpart', { file: 'googletest/include/gtest/gtest.h' });
    t.notOk(result.isError, result.isError ? textOf(result) : 'answered');
    t.equal(structured<Answer>(result).results[0].file, 'googletest/src/gtest.cc');
    const python = await call(client, 'find_counterpart', { file: 'googletest/test/gtest_help_test.py' });
    t.equal(python.isError, true);
    t.match(textOf(python), /C and C\+\+/);
  });
});
