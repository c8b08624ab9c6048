/**
 * The word index (src/index/words.ts): syntactic usages read only the files it does not show without the name, and
 * answer as reading every file does; a file the index changed is read until the word index has read it again.
 * googletest, copied so the test may edit it, with clangd left out (a command that does not exist).
 */
import { appendFileSync, cpSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import t from 'tap';
import type { StatusResponse } from '../../schemas/status.js';
import type { UsagesResponse } from '../../schemas/usages.js';
import { isWord, wordText } from '../../src/index/words.js';
import { GOOGLETEST } from '../corpora.js';
import { getJson, startApp, tempDir } from '../helpers.js';
import { indexReady } from '../wait.js';

const root = path.join(tempDir(t), 'googletest');
cpSync(GOOGLETEST, root, { recursive: true });
// A file over 2 MB: the first pass goes to the word index's thread (smaller passes, the edits below, run on the main thread).
const table = Array.from({ length: 50_000 }, (_, i) => `static const int table_entry_${i} = ${i};`).join('\n');
writeFileSync(path.join(root, 'googletest/src/generated-table.cc'), `${table}\nnamespace testing { namespace internal { const void* kTypeId = &GetTestTypeId; } }\n`);
const app = await startApp(t, root, { languages: { cpp: { command: '/nonexistent/clangd' } } });
await indexReady(app, 60_000);
const words = app.plumb.index.words;
await words.settled();

const NAMES = ['FormatFileLocation', 'StreamableToString', 'ParseInt32', 'GetTestTypeId', 'GetCurrentExecutableName'];

async function usages(name: string): Promise<UsagesResponse> {
  const { status, body } = await getJson<UsagesResponse>(app, `/symbols/usages?symbol=${name}&kind=function&limit=1000`);
  if (status !== 200) throw new Error(`usages of ${name}: ${status} ${JSON.stringify(body)}`);
  return body;
}
const places = (answer: UsagesResponse): string[] => answer.results.map((u) => `${u.file}:${u.line}:${u.column} ${u.usageKind}`);

const before = new Map<string, UsagesResponse>();

t.test('once it is in, usages read only the files holding the name', async (t) => {
  const status = (await getJson<StatusResponse>(app, '/status')).body;
  t.equal(status.index.words.state, 'ready');
  t.equal(status.index.words.files, status.index.filesIndexed, 'every indexed file is covered');
  t.match(words.lastUpdate(), { read: status.index.filesIndexed, thread: true }, 'by one pass, in the thread');
  t.ok((await usages('GetTestTypeId')).results.some((u) => u.file === 'googletest/src/generated-table.cc'), 'the large file\'s use is found');
  for (const name of NAMES) {
    const answer = await usages(name);
    before.set(name, answer);
    t.equal(answer.precision, 'syntactic');
    t.ok(answer.results.length > 0, `${name} is used`);
    t.ok(answer.filesPassedOver! > 100, `${name}: ${answer.filesPassedOver} files passed over`);
    t.ok(answer.filesScanned! < 25, `${name}: ${answer.filesScanned} files read`);
    t.ok(new Set(answer.results.map((u) => u.file)).size <= answer.filesScanned!, 'every file with a usage was read');
  }
});

t.test('a file the index changed is read at once, and covered again once the word index read it', async (t) => {
  // A new file, and a use added to a file that held no word of the name when the word index read it.
  const added = path.join(root, 'googletest/src/extra-usage.cc');
  writeFileSync(added, 'namespace testing { namespace internal {\nvoid Extra() { ParseInt32(Message(), "1", nullptr); }\n} }\n');
  const edited = path.join(root, 'googletest/src/gtest-printers.cc');
  appendFileSync(edited, '\nnamespace testing { void AlsoRuns() { internal::ParseInt32(Message(), "2", nullptr); } }\n');
  // And a file changed without the name: read until the word index has read it again.
  const unrelated = path.join(root, 'googletest/src/gtest-test-part.cc');
  appendFileSync(unrelated, '\n// a comment\n');
  await app.plumb.index.applyChanges([added, edited, unrelated]);
  const fresh = await usages('ParseInt32');
  const files = fresh.results.map((u) => u.file);
  t.ok(files.includes('googletest/src/extra-usage.cc'), 'the new file\'s use, before the word index read it');
  t.ok(files.includes('googletest/src/gtest-printers.cc'), 'the edited file\'s use');
  t.equal(fresh.results.length, before.get('ParseInt32')!.results.length + 2);
  await words.settled();
  const covered = await usages('ParseInt32');
  t.same(places(covered), places(fresh), 'the same once the word index is up to date');
  t.match(words.lastUpdate(), { read: 3, thread: false }, 'the three changed files, read on the main thread');
  t.equal(covered.filesScanned, fresh.filesScanned! - 1, 'the changed file without the name is no longer read');
  t.equal(words.status().files, (await getJson<StatusResponse>(app, '/status')).body.index.filesIndexed);

  // A file deleted leaves the answers at once, and the word index at its next pass.
  rmSync(added);
  await app.plumb.index.applyChanges([added]);
  t.notOk((await usages('ParseInt32')).results.some((u) => u.file === 'googletest/src/extra-usage.cc'), 'the deleted file\'s use is gone');
  await words.settled();
  const status = (await getJson<StatusResponse>(app, '/status')).body;
  t.equal(status.index.words.files, status.index.filesIndexed, 'the word index dropped it too');
});

t.test('the answers are those of reading every file', async (t) => {
  const narrowed = new Map<string, UsagesResponse>();
  for (const name of NAMES) narrowed.set(name, await usages(name));
  await words.close();
  for (const name of NAMES) {
    const whole = await usages(name);
    t.equal(whole.filesPassedOver, 0, 'without the word index every file is read');
    t.same(places(narrowed.get(name)!), places(whole), `${name}: ${whole.results.length} usages either way`);
    t.equal(narrowed.get(name)!.filesScanned! + narrowed.get(name)!.filesPassedOver!, whole.filesScanned, 'read and passed over make the family');
  }
});

t.test('words: runs of ASCII letters, digits and _, a leading run of digits left out; anything else separates', async (t) => {
  t.same(wordText(Buffer.from('12foo x_1 café\tBar(0x1f); /* É */ __init__')).split(/\s+/).filter(Boolean), ['foo', 'x_1', 'caf', 'Bar', 'x1f', '__init__']);
  t.ok(isWord('list_add') && isWord('_M_impl') && isWord('FMyPlayerController'));
  t.notOk(isWord('operator==') || isWord('~Foo') || isWord('$scope') || isWord('café') || isWord(''), 'other names are looked for in every file');
});
