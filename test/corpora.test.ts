/**
 * The corpus table (test/corpora.ts) against the set-up: every package it names is one
 * `scripts/setup.sh --test` installs, and after that set-up every corpus and tool is there.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import t from 'tap';
import { CORPORA, TOOLS, corpusPath, requireCorpora, type CorpusName, type Source, type ToolName } from './corpora.js';
import { REPO } from './helpers.js';

const entries: Array<[CorpusName | ToolName, Source]> = [
  ...Object.entries(CORPORA).map(([name, corpus]) => [name as CorpusName, corpus.installedBy as Source] as [CorpusName, Source]),
  ...Object.entries(TOOLS).map(([name, tool]) => [name as ToolName, tool.installedBy as Source] as [ToolName, Source]),
];

t.test('every Debian package and npm dependency the table names is one the set-up installs', async (t) => {
  const setup = readFileSync(path.join(REPO, 'scripts/setup.sh'), 'utf8');
  const listed = readFileSync(path.join(REPO, 'scripts/test-corpora.txt'), 'utf8').split('\n')
    .filter((line) => line.trim() && !line.startsWith('#')).map((line) => line.split(/\s+/)[0]);
  const manifest = JSON.parse(readFileSync(path.join(REPO, 'package.json'), 'utf8'));
  for (const [name, source] of entries) {
    if ('apt' in source) t.ok(setup.includes(`packages+=(${source.apt})`) || listed.includes(source.apt), `${name}: setup.sh --test installs ${source.apt}`);
    if ('npm' in source) t.ok((source.dev ? manifest.devDependencies : manifest.dependencies)?.[source.npm], `${name}: package.json lists ${source.npm}`);
  }
});

t.test('after the set-up every corpus and tool is there', async (t) => {
  const installed = entries.filter(([, source]) => !('other' in source)).map(([name]) => name);
  const failures: string[] = [];
  t.equal(requireCorpora({ fail: (message: string) => failures.push(message) }, ...installed), true);
  t.same(failures, []);
  t.match(corpusPath('go'), /^\/usr\/share\/go-1\.\d+$/, 'the newest Go tree');
  t.match(corpusPath('python-stdlib'), /^\/usr\/lib\/python3\.\d+$/, 'the newest Python stdlib');
  t.match(corpusPath('crate-regex'), /^\/usr\/share\/cargo\/registry\/regex-\d[^/]*\/src$/, 'regex, not regex-syntax');
});
