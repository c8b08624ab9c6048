/**
 * Module paths for qualified search: what a user writes before a name in Python, Go and Java.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import t from 'tap';
import { moduleOf, packageDirectoryCheck } from '../../src/index/modules.js';
import { languageById } from '../../src/languages/index.js';
import { parseQuery } from '../../src/index/ranking.js';
import { SymbolIndex } from '../../src/index/symbol-index.js';
import { SqliteSymbolStore } from '../../src/index/sqlite/store.js';
import type { ExtractedSymbol, LanguageId } from '../../src/syntax/types.js';
import { corpusPath, FLASK, requireCorpora } from '../corpora.js';
import { tempDir, testConfig } from '../helpers.js';

const packages = (dirs: string[]) => (directory: string): boolean => dirs.includes(directory);

t.test('moduleOf: Python packages, Go and Java directories, nothing for the rest', async (t) => {
  const flask = packages(['/ws/src/flask', '/ws/src/flask/json']);
  t.same(moduleOf('/ws/src/flask/app.py', '/ws', languageById('python'), flask), 'flask.app', 'up through __init__.py directories only');
  t.same(moduleOf('/ws/src/flask/json/provider.py', '/ws', languageById('python'), flask), 'flask.json.provider');
  t.same(moduleOf('/ws/src/flask/__init__.py', '/ws', languageById('python'), flask), 'flask', 'a package\'s __init__ is the package');
  t.same(moduleOf('/ws/tools/run.py', '/ws', languageById('python'), flask), 'run', 'a lone script is its own module');
  t.same(moduleOf('/lib/flask/app.py', '/lib/flask', languageById('python'), packages(['/lib/flask'])), 'flask.app', 'a root that is a package names itself');
  t.same(moduleOf('/go/src/net/http/server.go', '/go/src', languageById('go'), flask), 'net.http');
  t.same(moduleOf('/go/src/net/http/server.go', '/go/src/net/http', languageById('go'), flask), 'http', 'at the root: the root\'s name');
  t.same(moduleOf('/jdk/java.base/java/util/HashMap.java', '/jdk/java.base', languageById('java'), flask), 'java.util');
  for (const language of ['cpp', 'typescript', 'rust', 'csharp'] as LanguageId[]) t.equal(moduleOf('/ws/a/b.x', '/ws', languageById(language), flask), null, language);
});

t.test('packageDirectoryCheck looks for __init__.py once per directory', async (t) => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'plumb-modules-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  mkdirSync(path.join(dir, 'pkg'));
  writeFileSync(path.join(dir, 'pkg/__init__.py'), '');
  const isPackage = packageDirectoryCheck();
  t.equal(isPackage(path.join(dir, 'pkg')), true);
  t.equal(isPackage(dir), false);
  t.same(moduleOf(path.join(dir, 'pkg/mod.py'), dir, languageById('python'), isPackage), 'pkg.mod');
});

function symbol(name: string, qualifiedName: string, line: number, language: LanguageId): ExtractedSymbol {
  const range = { start: { line, column: 1 }, end: { line, column: 1 + name.length } };
  return { name, kind: 'function', containers: [], qualifiedName, containingType: null, range, selectionRange: range, signature: name, parameters: [], returnType: null, doc: null, definition: true, forwardDeclaration: false, bases: [], language };
}

t.test('qualified search matches a module before the qualified name, and a Python package before a top-level name', async (t) => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'plumb-modules-store-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const store = SqliteSymbolStore.open({ file: path.join(dir, 'index.sqlite') });
  t.teardown(() => store.close());
  const pkg = { name: 'ws', path: '.', manifest: null, external: false };
  await store.write([
    { file: 'net/http/server.go', size: 1, mtimeMs: 1, hash: 'a', language: 'go', package: pkg, external: false, module: 'net.http', symbols: [symbol('HandlerFunc', 'HandlerFunc', 1, 'go'), symbol('Serve', 'Server.Serve', 2, 'go')] },
    { file: 'flask/app.py', size: 1, mtimeMs: 1, hash: 'b', language: 'python', package: pkg, external: false, module: 'flask.app', symbols: [symbol('Flask', 'Flask', 1, 'python'), symbol('run', 'Flask.run', 2, 'python')] },
    { file: 'x.cpp', size: 1, mtimeMs: 1, hash: 'c', language: 'cpp', package: pkg, external: false, module: null, symbols: [symbol('HandlerFunc', 'web::HandlerFunc', 1, 'cpp')] },
  ], []);
  const found = async (name: string, qualifier: string): Promise<string[]> =>
    (await store.search({ name, qualifier, tiers: ['exact'], offset: 0, limit: 50, includeForwardDeclarations: false })).results.map((hit) => `${hit.symbol.file}:${hit.symbol.qualifiedName}`).sort();
  t.same(await found('HandlerFunc', 'http'), ['net/http/server.go:HandlerFunc']);
  t.same(await found('HandlerFunc', 'net.http'), ['net/http/server.go:HandlerFunc']);
  t.same(await found('HandlerFunc', 'web'), ['x.cpp:web::HandlerFunc'], 'the qualified name as written still matches');
  t.same(await found('HandlerFunc', 'net'), [], 'Go modules match at their end only');
  t.same(await found('Serve', 'http.Server'), ['net/http/server.go:Server.Serve']);
  t.same(await found('Flask', 'flask'), ['flask/app.py:Flask'], 'a package names its modules\' top-level symbols');
  t.same(await found('Flask', 'flask.app'), ['flask/app.py:Flask']);
  t.same(await found('run', 'flask.app.Flask'), ['flask/app.py:Flask.run']);
  t.same(await found('run', 'flask.Flask'), ['flask/app.py:Flask.run'], 'and their members');
  t.same(await found('run', 'flask.app'), [], 'a member is not top-level');
  t.same(await found('Flask', 'lask'), [], 'segments match whole');
});

t.test('on real Go and Python trees: http.HandlerFunc, httptest.NewRecorder, flask.Flask', async (t) => {
  if (!requireCorpora(t, 'go', 'flask')) return;
  const goHttp = path.join(corpusPath('go'), 'src/net/http');
  const flask = FLASK;
  const cacheDir = tempDir(t, 'plumb-modules-cache-');
  const index = await SymbolIndex.open({ root: goHttp, config: testConfig(cacheDir, { index: { watch: false, workers: 2, extraRoots: [flask] } }), cacheDir });
  t.teardown(() => index.close());
  await index.build();
  const found = async (query: string): Promise<string[]> => {
    const { name, qualifier } = parseQuery(query);
    const page = await index.reader.search({ name, qualifier, tiers: ['exact'], offset: 0, limit: 50, includeForwardDeclarations: false });
    return page.results.map((hit) => `${hit.symbol.file}:${hit.symbol.qualifiedName}`);
  };
  t.same(await found('http.HandlerFunc'), ['server.go:HandlerFunc'], 'the workspace root names its package');
  t.same(await found('httptest.NewRecorder'), ['httptest/recorder.go:NewRecorder']);
  t.same(await found('net/http/httptest.NewRecorder'), [], 'no directory above the root is read');
  t.same(await found('http.Server.ListenAndServe'), ['server.go:Server.ListenAndServe'], 'a method by package, receiver and name');
  t.same(await found('flask.Flask'), [`${flask}/app.py:Flask`], 'an extra root that is a package names itself');
  t.same(await found('flask.app.Flask'), [`${flask}/app.py:Flask`]);
});
