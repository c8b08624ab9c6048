/**
 * The kernel's unit tests are tests: a KUnit case (`void name(struct kunit *test)`) in a *_test.c or *_kunit.c
 * file is named in find_impact's and detect_changes' `tests`, not only its file, and the suite's init function
 * and KUnit's own kunit_* helpers are not. Six files of the Linux tree (the recall tests' slices, extracted
 * once), served without clangd: the kernel has no compile database here, so the answers are the index's.
 */
import { cpSync, mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import t from 'tap';
import type { ChangesResponse, ImpactResponse } from '../../schemas/impact.js';
import { languageById } from '../../src/languages/index.js';
import { linuxSource, requireCorpora } from '../corpora.js';
import { getJson, startApp, tempDir } from '../helpers.js';
import { indexReady } from '../wait.js';

const FILES = ['kernel/time/time_test.c', 'kernel/time/timeconv.c', 'include/linux/time.h', 'kernel/resource_kunit.c', 'kernel/resource.c', 'include/linux/ioport.h'];

t.test('KUnit cases are tests: impact and changes name them', async (t) => {
  if (!requireCorpora(t, 'linux-source', 'xz')) return;
  const tree = linuxSource();
  const root = tempDir(t, 'plumb-kunit-');
  for (const file of FILES) {
    mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
    cpSync(path.join(tree, file), path.join(root, file));
  }
  const app = await startApp(t, root, { languages: { cpp: { enabled: false } }, index: { watch: false } });
  await indexReady(app);

  const rules = languageById('c').rules.tests!;
  t.ok(rules.file.test('lib/overflow_kunit.c') && rules.file.test('kernel/time/time_test.c') && rules.file.test('lib/list-test.c'), 'KUnit files by name');
  t.notOk(rules.file.test('lib/kunit/test.c') || rules.file.test('kernel/time/timeconv.c'), 'not KUnit itself, nor the code under test');

  const impact = await getJson<ImpactResponse>(app, '/symbols/impact?symbol=time64_to_tm&depth=1');
  t.equal(impact.status, 200);
  t.match(impact.body.tests, [{ name: 'time64_to_tm_test_date_range', file: 'kernel/time/time_test.c', distance: 1 }], 'the case calling it, by its name');
  t.equal(impact.body.tests.length, 1, 'and nothing else: the code under test is no test');
  t.match(impact.body.files.find((f) => f.file === 'kernel/time/time_test.c'), { test: true, distance: 1 });

  // resource_union is called by a helper taking the case's kunit and more (no case), which the case calls.
  const union = await getJson<ImpactResponse>(app, '/symbols/impact?symbol=resource_union&depth=2');
  t.equal(union.status, 200);
  t.same(union.body.tests.map((test) => `${test.file} ${test.name} ${test.distance}`), ['kernel/resource_kunit.c resource_test_union 2'], 'a case in a *_kunit.c file, through its helper');
  t.match(union.body.results, [{ symbol: { name: 'resource_do_union_test' }, distance: 1 }], 'the helper is reached, not named a test');

  // A field added to struct tm in the header: the case declaring a struct tm is among the tests to run.
  const header = readFileSync(path.join(root, 'include/linux/time.h'), 'utf8').split('\n');
  const field = header.findIndex((line) => /^\tint tm_sec;$/.test(line)) + 1;
  t.ok(field > 0, 'struct tm has tm_sec');
  const diff = `--- a/include/linux/time.h\n+++ b/include/linux/time.h\n@@ -${field},1 +${field},2 @@\n ${header[field - 1]}\n+\tint tm_extra;\n`;
  const changes = await app.inject({ method: 'POST', url: '/changes', payload: { diff, depth: 1 } });
  t.equal(changes.statusCode, 200, 'POST /changes answers');
  const body = changes.json() as ChangesResponse;
  t.match(body.changed, [{ name: 'tm', kind: 'struct', change: 'modified', language: 'c' }, { name: 'tm_extra', change: 'added' }], 'the struct is what changed, read as C like the index reads the header');
  t.ok(body.files.some((f) => f.file === 'kernel/time/timeconv.c'), 'the file filling a struct tm is affected');
  t.ok(body.tests.some((test) => test.name === 'time64_to_tm_test_date_range'), `the case using a struct tm is a test to run (${body.tests.map((test) => test.name).join(', ')})`);
  t.notOk(body.tests.some((test) => test.name === 'kunit_init_test'), 'no KUnit helper');
});
