/**
 * Adding a language is one module of the shape every src/languages/<id>.ts has: this test defines a toy
 * Ruby (a grammar @repomix/tree-sitter-wasms ships and plumb does not index) and shows the index's walker
 * take its files by extension, extraction read its symbols and the pool's server table gain its server,
 * through `withLanguages([...LANGUAGES, toy])` (the built-in list stays as it is).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import t from 'tap';
import type { Node } from 'web-tree-sitter';
import { BUILTIN, LANGUAGES, withLanguages, type Language } from '../../src/languages/index.js';
import { LanguageTable, resolveLanguages } from '../../src/languages/resolve.js';
import { RootFilter, walkRoot, type WalkResult } from '../../src/index/walker.js';
import { extractSymbols } from '../../src/syntax/index.js';
import type { Draft, LanguageSpec } from '../../src/syntax/languages/spec.js';
import { tempDir } from '../helpers.js';

/** Modules, classes and methods; enough to show the walker, nothing more. */
const rubySyntax: LanguageSpec = {
  grammar: 'ruby',
  separator: '::',
  commentTypes: new Set(['comment']),
  declare(node: Node): Draft[] | undefined {
    const nameNode = node.childForFieldName('name');
    if (!nameNode) return undefined;
    if (node.type === 'module') return [{ name: nameNode.text, kind: 'namespace', node, nameNode, body: node }];
    if (node.type === 'class') return [{ name: nameNode.text, kind: 'class', node, nameNode, body: node }];
    if (node.type === 'method') return [{ name: nameNode.text, kind: 'method', node, nameNode }];
    return undefined;
  },
  descend: new Set(['program', 'body_statement']),
  wrappers: new Set(),
};

const ruby: Language<'ruby'> = {
  id: 'ruby',
  name: 'Ruby',
  extensions: ['.rb'],
  syntax: rubySyntax,
  server: {
    id: 'ruby',
    name: 'Ruby',
    defaultLanguageId: 'ruby',
    command: { kind: 'path', names: ['ruby-lsp'] },
    args: [],
    installHint: 'gem install ruby-lsp',
    instances: 1,
    compileDatabase: false,
    readiness: { openFileOnStart: false, indexingProgressTitles: [] },
  },
  lspLanguageId: 'ruby',
  fence: 'ruby',
};

const SOURCE = `module Shop
  class Greeter < Base
    def hello(name)
      "hi #{name}"
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

t.test('the index walks its files as that language', async (t) => {
  const root = tempDir(t);
  mkdirSync(path.join(root, 'lib'));
  writeFileSync(path.join(root, 'lib/shop.rb'), SOURCE);
  writeFileSync(path.join(root, 'lib/tool.py'), 'def tool():\n    pass\n');
  writeFileSync(path.join(root, 'README.md'), '# toy\n');
  const walk = async (filter: RootFilter): Promise<Record<string, string>> => {
    const result: WalkResult = { files: [], directories: [], listings: new Map() };
    await walkRoot(filter, result);
    return Object.fromEntries(result.files.map((file) => [file.stored, file.language]));
  };
  const rootInfo = { path: root, external: false };
  t.same(await walk(new RootFilter(rootInfo, { include: [], exclude: [], skip: [], languages })), { 'lib/shop.rb': 'ruby', 'lib/tool.py': 'python' });
  t.same(await walk(new RootFilter(rootInfo, { include: [], exclude: [], skip: [] })), { 'lib/tool.py': 'python' }, 'without it, .rb is not indexed');
});

t.test('extraction reads its symbols with its spec', async (t) => {
  const symbols = await extractSymbols(languages.forPath('shop.rb')!, SOURCE);
  t.same(symbols.map((s) => [s.qualifiedName, s.kind, s.containingType, s.language]), [
    ['Shop', 'namespace', null, 'ruby'],
    ['Shop::Greeter', 'class', null, 'ruby'],
    ['Shop::Greeter::hello', 'method', 'Greeter', 'ruby'],
  ]);
  const greeter = symbols.find((s) => s.name === 'Greeter')!;
  t.same(greeter.selectionRange.start, { line: 2, column: 9 });
});

t.test('its server joins the pool\'s table under its id', async (t) => {
  const servers = languages.servers();
  t.same(servers.map((server) => server.id), ['cpp', 'typescript', 'python', 'go', 'ruby']);
  const table = new LanguageTable(resolveLanguages({ ruby: { args: ['--debug'] } }, servers));
  const server = table.forPath('/w/lib/shop.rb')!;
  t.equal(server.id, 'ruby');
  t.same(server.args, ['--debug'], 'languages.ruby in plumb.json overrides it like a built-in');
  t.equal(table.languageIdOf(server, '/w/lib/shop.rb'), 'ruby');
});
