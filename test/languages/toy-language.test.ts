/**
 * Adding a language is one folder of the shape every src/languages/<id>/ has: this test adds a toy Ruby
 * (test/fixtures/languages/ruby.ts; a grammar @repomix/tree-sitter-wasms ships and plumb does not index)
 * and shows the index's walker take its files by extension, extraction read its symbols, and search,
 * members, usages, callers and hierarchy answer through its fields (rules, tokens, calls) and nothing else. A language
 * without those fields fails loudly: the compiler says so for a TypeScript module, the registry at load for
 * any other.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import t from 'tap';
import { addLanguageModules, BUILTIN, LANGUAGES, withLanguages, type Language } from '../../src/languages/index.js';
import { LanguageTable, resolveLanguages } from '../../src/languages/resolve.js';
import { RootFilter, walkRoot, type WalkResult } from '../../src/index/walker.js';
import { extractSymbols } from '../../src/syntax/index.js';
import { getJson, startApp, tempDir } from '../helpers.js';
import { indexReady } from '../index/helpers.js';
import { language as ruby } from '../fixtures/languages/ruby.js';

const RUBY_MODULE = new URL('../fixtures/languages/ruby.ts', import.meta.url).href;

const SOURCE = `module Shop
  class Greeter < Base
    def hello(name)
      "hi #{name}"
    end

    def self.build
      # a Greeter in a comment is no use, nor is one in "Greeter" a string
      Greeter.new
    end
  end
end
`;

const BASE = `module Shop
  class Base
    def hello(name)
      name
    end

    def farewell
      hello("bye")
    end
  end
end
`;

const languages = withLanguages([...LANGUAGES, ruby]);

t.test('the toy language claims its extension; the built-in set is untouched', async (t) => {
  t.equal(languages.forPath('/w/lib/shop.RB')?.id, 'ruby');
  t.equal(languages.forPath('/w/a.py')?.id, 'python', 'the built-in languages stay');
  t.equal(BUILTIN.forPath('/w/lib/shop.rb'), undefined);
  t.notOk((LANGUAGES as readonly Language[]).some((language) => language.id === 'ruby'));
  t.throws(() => withLanguages([...LANGUAGES, { ...ruby, id: 'ruby2', extensions: ['.py'] }]), /'\.py' belongs to both 'python' and 'ruby2'/);
});

t.test('a language without its rules or token rules is refused when it is registered', async (t) => {
  const { rules: _rules, ...withoutRules } = ruby;
  t.throws(() => withLanguages([...LANGUAGES, { ...withoutRules, id: 'ruby3', extensions: ['.rb3'] } as unknown as Language]), /language 'ruby3' lacks rules/);
  const { skippedTokens: _tokens, ...syntaxWithoutTokens } = ruby.syntax;
  t.throws(() => withLanguages([...LANGUAGES, { ...ruby, id: 'ruby4', extensions: ['.rb4'], syntax: syntaxWithoutTokens } as unknown as Language]), /lacks syntax\.skippedTokens/);
  const { membersLive: _members, ...partialRules } = ruby.rules;
  t.throws(() => withLanguages([...LANGUAGES, { ...ruby, id: 'ruby5', extensions: ['.rb5'], rules: partialRules } as unknown as Language]), /lacks rules\.membersLive/);
});

t.test('the index walks its files as that language', async (t) => {
  const root = tempDir(t);
  mkdirSync(path.join(root, 'lib'));
  writeFileSync(path.join(root, 'lib/shop.rb'), SOURCE);
  writeFileSync(path.join(root, 'lib/tool.py'), 'def tool():\n    pass\n');
  writeFileSync(path.join(root, 'README.md'), '# toy\n');
  const walk = async (filter: RootFilter): Promise<Record<string, string>> => {
    const result: WalkResult = { files: [], directories: [], listings: new Map(), buildOutput: [] };
    await walkRoot(filter, result);
    return Object.fromEntries(result.files.map((file) => [file.stored, file.language]));
  };
  const rootInfo = { path: root, external: false };
  t.same(await walk(new RootFilter(rootInfo, { include: [], exclude: [], skip: [], languages })), { 'lib/shop.rb': 'ruby', 'lib/tool.py': 'python' });
  t.same(await walk(new RootFilter(rootInfo, { include: [], exclude: [], skip: [], languages: BUILTIN })), { 'lib/tool.py': 'python' }, 'without it, .rb is not indexed');
});

t.test('extraction reads its symbols with its spec', async (t) => {
  const symbols = await extractSymbols(languages.forPath('shop.rb')!, SOURCE);
  t.same(symbols.map((s) => [s.qualifiedName, s.kind, s.containingType, s.language]), [
    ['Shop', 'namespace', null, 'ruby'],
    ['Shop::Greeter', 'class', null, 'ruby'],
    ['Shop::Greeter::hello', 'method', 'Greeter', 'ruby'],
    ['Shop::Greeter::build', 'method', 'Greeter', 'ruby'],
  ]);
  const greeter = symbols.find((s) => s.name === 'Greeter')!;
  t.same(greeter.selectionRange.start, { line: 2, column: 9 });
  t.same(greeter.bases, ['Base']);
});

t.test('its server joins the pool\'s table under its id', async (t) => {
  const served: Language = { ...ruby, server: { id: 'ruby', name: 'Ruby', defaultLanguageId: 'ruby', command: { kind: 'path', names: ['ruby-lsp'] }, args: [], installHint: 'gem install ruby-lsp', instances: 1, compileDatabase: false, readiness: { openFileOnStart: false, indexingProgressTitles: [] } } };
  const servers = withLanguages([...LANGUAGES, served]).servers();
  t.same(servers.map((server) => server.id), ['cpp', 'typescript', 'python', 'go', 'ruby']);
  const table = new LanguageTable(resolveLanguages({ ruby: { args: ['--debug'] } }, servers));
  const server = table.forPath('/w/lib/shop.rb')!;
  t.equal(server.id, 'ruby');
  t.same(server.args, ['--debug'], 'languages.ruby in plumb.json overrides it like a built-in');
  t.equal(table.languageIdOf(server, '/w/lib/shop.rb'), 'ruby');
});

t.test('search, members, usages and hierarchy answer for it through its fields', async (t) => {
  await addLanguageModules([RUBY_MODULE]);
  const root = tempDir(t);
  mkdirSync(path.join(root, 'lib'));
  writeFileSync(path.join(root, 'lib/greeter.rb'), SOURCE);
  writeFileSync(path.join(root, 'lib/base.rb'), BASE);
  const app = await startApp(t, root);
  await indexReady(app);

  const search = await getJson(app, '/symbols?query=Greeter&kind=class');
  t.equal(search.status, 200);
  t.match(search.body.results, [{ qualifiedName: 'Shop::Greeter', language: 'ruby', file: 'lib/greeter.rb' }], 'search finds it, parsed in a parser thread');
  t.equal(search.body.results.length, 1);

  const members = await getJson(app, '/symbols/members?symbol=Shop::Greeter&inherited=true');
  t.equal(members.status, 200);
  const byName = Object.fromEntries(members.body.results.map((m: { name: string }) => [m.name, m]));
  t.same(Object.keys(byName).sort(), ['build', 'farewell', 'hello'], 'its own and the base\'s (bases)');
  t.match(byName.hello, { overrides: { qualifiedName: 'Shop::Base::hello' } }, 'hello overrides the base\'s (overrides: name)');
  t.match(byName.farewell, { inheritedFrom: 'Shop::Base' });
  t.equal(byName.build.static, true, 'def self.build is static (isStatic)');
  t.equal(byName.hello.visibility, 'public', 'visibility');
  t.match(members.body.bases, [{ name: 'Base', resolved: true, qualifiedName: 'Shop::Base' }]);

  const hierarchy = await getJson(app, '/symbols/hierarchy?symbol=Shop::Greeter&direction=up');
  t.equal(hierarchy.status, 200);
  t.match(hierarchy.body.supertypes, [{ qualifiedName: 'Shop::Base' }], 'the hierarchy names the same base as members');
  const inheritors = await getJson(app, '/symbols/inheritors?symbol=Shop::Base');
  t.match(inheritors.body.results, [{ qualifiedName: 'Shop::Greeter' }]);

  const usages = await getJson(app, '/symbols/usages?symbol=Greeter&kind=class');
  t.equal(usages.status, 200);
  t.equal(usages.body.precision, 'syntactic', 'no server: the syntactic scan, by its token rules');
  t.same(usages.body.results.map((u: { file: string; line: number }) => `${u.file}:${u.line}`), ['lib/greeter.rb:9'], 'Greeter.new is a use; the comment and the string are not (skippedTokens)');

  // Ruby's call names its method in `method`, not `function` as Python's does: its spec's calls say so.
  const callers = await getJson(app, '/symbols/callers?symbol=Shop::Base::hello');
  t.equal(callers.status, 200);
  t.match(callers.body.results, [{ symbol: { qualifiedName: 'Shop::Base::farewell' } }], 'farewell calls hello, read through the spec\'s calls');
  const helloUses = await getJson(app, '/symbols/usages?symbol=Shop::Base::hello');
  t.match(helloUses.body.results.find((u: { line: number }) => u.line === 8), { file: 'lib/base.rb', usageKind: 'call' }, 'a call by its spec\'s calls');
});
