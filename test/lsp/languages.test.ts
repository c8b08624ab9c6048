import { existsSync } from 'node:fs';
import path from 'node:path';
import t from 'tap';
import { ConfigError } from '../../src/config.js';
import { BUILTIN_SERVERS } from '../../src/languages/index.js';
import { LanguageTable, resolveLanguages } from '../../src/languages/resolve.js';
import { lookupSection } from '../../src/lsp/client.js';
import { findExecutable, resolveCommand } from '../../src/lsp/command.js';

t.test('every built-in language maps its extensions to one descriptor', async (t) => {
  const table = new LanguageTable(BUILTIN_SERVERS);
  t.equal(table.forPath('/x/a.cpp')?.id, 'cpp');
  t.equal(table.forPath('/x/a.H')?.id, 'cpp', 'extensions match case-insensitively');
  t.equal(table.forPath('/x/a.tsx')?.id, 'typescript');
  t.equal(table.forPath('/x/a.mjs')?.id, 'typescript');
  t.equal(table.forPath('/x/a.pyi')?.id, 'python');
  t.equal(table.forPath('/x/a.go')?.id, 'go');
  t.equal(table.forPath('/x/Makefile'), undefined);
  const cpp = table.forPath('/x/a.c')!;
  t.equal(table.languageIdOf(cpp, '/x/a.c'), 'c');
  t.equal(table.languageIdOf(cpp, '/x/a.hpp'), 'cpp');
  const ts = table.forPath('/x/a.tsx')!;
  t.equal(table.languageIdOf(ts, '/x/a.tsx'), 'typescriptreact');
  t.equal(table.languageIdOf(ts, '/x/a.cjs'), 'javascript');
});

t.test('config overrides fields of a built-in language and keeps the rest', async (t) => {
  const languages = resolveLanguages({ cpp: { command: '/opt/llvm/bin/clangd', instances: 2 }, go: { enabled: false } });
  const cpp = languages.find((l) => l.id === 'cpp')!;
  t.same(cpp.command, { kind: 'path', names: ['/opt/llvm/bin/clangd'] });
  t.equal(cpp.instances, 2);
  t.ok(cpp.args.includes('--limit-results=0'), 'args stay the built-in ones');
  t.match(cpp.installHint, /apt-get install clangd-19/);
  t.notOk(languages.some((l) => l.id === 'go'), 'enabled: false removes a language');
});

t.test('config adds a language that has a command and extensions', async (t) => {
  const languages = resolveLanguages({ rust: { command: 'rust-analyzer', extensions: ['.RS'] } });
  const table = new LanguageTable(languages);
  t.equal(table.forPath('/x/main.rs')?.id, 'rust');
  t.equal(table.languageIdOf(table.forPath('/x/main.rs')!, '/x/main.rs'), 'rust');
  t.throws(() => resolveLanguages({ rust: { command: 'rust-analyzer' } }), ConfigError);
});

t.test('the TypeScript server resolves to the native binary of this platform package', async (t) => {
  const ts = BUILTIN_SERVERS.find((l) => l.id === 'typescript')!;
  const resolved = resolveCommand(ts.command);
  t.ok(resolved, 'found');
  t.match(resolved!.executable, new RegExp(`@typescript/typescript-${process.platform}-${process.arch}/lib/tsc$`));
  t.ok(existsSync(resolved!.executable));
});

t.test('pyright runs its langserver script with this Node', async (t) => {
  const python = BUILTIN_SERVERS.find((l) => l.id === 'python')!;
  const resolved = resolveCommand(python.command)!;
  t.equal(resolved.executable, process.execPath);
  t.equal(path.basename(resolved.prefixArgs[0]), 'langserver.index.js');
});

t.test('a command that is not installed resolves to nothing', async (t) => {
  t.equal(resolveCommand({ kind: 'path', names: ['plumb-no-such-server'] }), undefined);
  t.equal(findExecutable('/nonexistent/clangd'), undefined);
  t.match(findExecutable('sh'), /\/sh$/, 'a name is looked up on PATH');
});

t.test('workspace/configuration sections are looked up by dotted path', async (t) => {
  const settings = { python: { analysis: { diagnosticMode: 'openFilesOnly' } } };
  t.same(lookupSection(settings, 'python.analysis'), { diagnosticMode: 'openFilesOnly' });
  t.equal(lookupSection(settings, 'python.analysis.diagnosticMode'), 'openFilesOnly');
  t.equal(lookupSection(settings, 'pyright'), null);
  t.same(lookupSection(settings, undefined), settings);
  t.equal(lookupSection(undefined, 'x'), null);
});
