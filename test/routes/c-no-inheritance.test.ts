/**
 * An operation a language cannot serve answers from the index at once and says why: C has no inheritance,
 * so inheritors and hierarchy of a C struct do not wait on clangd (issue: `inheritors?symbol=file_operations`
 * waited 19 s on clangd to answer nothing). On Go's runtime/cgo, real C (its .h is C: C files beside it).
 */
import { cpSync, mkdirSync, readdirSync } from 'node:fs';
import path from 'node:path';
import t from 'tap';
import { getJson, startApp, tempDir } from '../helpers.js';
import { corpusPath, requireCorpora } from '../corpora.js';
import { indexReady } from '../index/helpers.js';

t.test('runtime/cgo: a C struct', async (t) => {
  if (!requireCorpora(t, 'go')) return;
  const cgo = path.join(corpusPath('go'), 'src', 'runtime', 'cgo');
  const root = path.join(tempDir(t), 'cgo');
  mkdirSync(root);
  for (const name of readdirSync(cgo)) if (/\.[ch]$/.test(name)) cpSync(path.join(cgo, name), path.join(root, name));
  const app = await startApp(t, root);
  await indexReady(app);

  const found = await getJson(app, '/symbols?query=ThreadStart&kind=struct&match=exact');
  t.match(found.body.results, [{ name: 'ThreadStart', language: 'c', file: 'libcgo.h' }], 'the header is C');

  for (const url of ['/symbols/inheritors?symbol=ThreadStart&kind=struct', '/symbols/hierarchy?symbol=ThreadStart&kind=struct']) {
    const started = performance.now();
    const { status, body } = await getJson(app, url);
    const took = performance.now() - started;
    t.equal(status, 200, url);
    t.match(body.server, { state: 'unsupported', request: null, reason: /C has no inheritance/ }, 'says why no server was asked');
    t.notOk(body.partial, 'a whole answer, not a partial one');
    t.ok(took < 3000, `${url} answered in ${Math.round(took)} ms, without waiting on clangd`);
    const status2 = (await getJson(app, '/status')).body.servers.find((s: { language: string }) => s.language === 'cpp');
    t.ok(!status2 || status2.state === 'stopped', 'clangd was not started for it');
  }
});
