/**
 * One symbol, resolved the same everywhere (DESIGN.md "Precise rules"), on googletest: a type and its own
 * constructors are one name; several distinct definitions are a 409 listing every candidate, the best
 * placed first (library code before tests and samples), never a silent first pick. clangd is off: the
 * resolution is the index's, the usages syntactic.
 */
import t from 'tap';
import { GOOGLETEST, getJson, startApp } from '../helpers.js';
import { indexReady } from '../index/helpers.js';

t.test('googletest', async (t) => {
  const app = await startApp(t, GOOGLETEST, { languages: { cpp: { enabled: false } } });
  await indexReady(app);

  t.test('a class and its own constructors are one name: the class answers', async (t) => {
    const constructors = await getJson(app, '/symbols?query=testing::TestPartResult::TestPartResult&match=exact');
    t.ok(constructors.body.results.some((s: { kind: string }) => s.kind === 'constructor'), 'TestPartResult has constructors in the index');
    const { status, body } = await getJson(app, '/symbols/usages?symbol=TestPartResult&limit=5');
    t.equal(status, 200, `not a 409 between the class and its constructors (${body.error?.message ?? ''})`);
    t.equal(body.symbol?.kind, 'class');
    t.equal(body.symbol?.qualifiedName, 'testing::TestPartResult');
  });

  t.test('main, defined in many files, is a 409 with the library\'s first', async (t) => {
    const { status, body } = await getJson(app, '/symbols/usages?symbol=main');
    t.equal(status, 409, 'several definitions in several files are several symbols');
    t.equal(body.error.code, 'ambiguous_symbol');
    const files: string[] = body.error.candidates.map((c: { file: string }) => c.file);
    t.ok(files.length >= 10, `${files.length} candidates listed`);
    t.match(files[0], /^(googletest|googlemock)\/src\//, `library code first (${files.slice(0, 3).join(', ')})`);
    const firstAuxiliary = files.findIndex((file) => /\/(test|samples)\//.test(file));
    const lastLibrary = files.map((file) => /\/src\//.test(file)).lastIndexOf(true);
    t.ok(firstAuxiliary > lastLibrary, 'every library definition before every test or sample');
    t.equal(body.error.totalCandidates, files.length, 'all of them listed (50 at most)');
  });
});
