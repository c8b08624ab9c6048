import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import t from 'tap';
import { DocumentSymbolRequest, SymbolKind } from 'vscode-languageserver-protocol';
import { BUILTIN_SERVERS } from '../../src/languages/index.js';
import { LanguageTable } from '../../src/languages/resolve.js';
import { LspClient } from '../../src/lsp/client.js';
import { resolveCommand } from '../../src/lsp/command.js';
import { Workspace } from '../../src/workspace.js';
import { findSymbol, isAlive, makePool, rewrite, silentLogger } from './helpers.js';

// A small TypeScript workspace written here, so files can change under the server.
const root = mkdtempSync(path.join(os.tmpdir(), 'plumb-docs-test-'));
t.teardown(() => rmSync(root, { recursive: true, force: true }));
writeFileSync(path.join(root, 'tsconfig.json'), JSON.stringify({ compilerOptions: { strict: true, target: 'es2022', module: 'nodenext' } }));
for (const name of ['a', 'b', 'c', 'd']) writeFileSync(path.join(root, `${name}.ts`), `export function ${name}One(): number { return 1; }\n`);

t.test('a file changed on disk is re-synced before the next request on it', async (t) => {
  const ctx = makePool(root);
  t.teardown(() => ctx.close());
  t.ok(findSymbol(await ctx.documentSymbols('a.ts'), 'aOne', SymbolKind.Function));
  rewrite(path.join(root, 'a.ts'), 'export class Changed {\n  method(): void {}\n}\n');
  const symbols = await ctx.documentSymbols('a.ts');
  t.notOk(findSymbol(symbols, 'aOne'), 'the old text is gone');
  t.ok(findSymbol(symbols, 'method', SymbolKind.Method), 'the new text is what the server sees');
});

t.test('documents past maxOpenDocuments are closed least recently used first, and reopen on demand', async (t) => {
  const workspace = new Workspace(root);
  const table = new LanguageTable(BUILTIN_SERVERS);
  const language = table.forPath('x.ts')!;
  const client = new LspClient({
    language,
    command: resolveCommand(language.command)!,
    args: language.args,
    root: workspace.root,
    files: workspace.files,
    requestTimeoutMs: 30000,
    startTimeoutMs: 30000,
    maxInFlight: 1,
    maxOpenDocuments: 2,
    logger: silentLogger,
    languageIdOf: (file) => table.languageIdOf(language, file),
  });
  t.teardown(() => client.stop());
  await client.start();
  const symbolsOf = (name: string) => {
    const file = workspace.resolveFile('file', name);
    return client.request(DocumentSymbolRequest.type, { textDocument: { uri: workspace.uriOf(file.absolute) } }, { document: file });
  };
  for (const name of ['b.ts', 'c.ts', 'd.ts']) await symbolsOf(name);
  t.equal(client.openDocuments, 2, 'b.ts was closed');
  // Five at once through one in-flight slot: the rest queue and all are answered.
  const answers = await Promise.all(['b.ts', 'c.ts', 'd.ts', 'b.ts', 'c.ts'].map(symbolsOf));
  t.equal(answers.length, 5);
  t.ok(answers.every((answer) => Array.isArray(answer) && answer.length === 1));
  t.equal(client.openDocuments, 2);
  const pid = client.pid!;
  await client.stop();
  t.equal(client.state, 'stopped');
  t.notOk(isAlive(pid));
});

t.test('instances: 2 runs two servers and sends requests round-robin', async (t) => {
  const ctx = makePool(root, { languages: { typescript: { instances: 2 } } });
  t.teardown(() => ctx.close());
  await ctx.documentSymbols('b.ts');
  await ctx.documentSymbols('c.ts');
  const servers = ctx.pool.status().filter((server) => server.language === 'typescript');
  t.equal(servers.length, 2);
  t.same(servers.map((server) => server.instance), [0, 1]);
  t.ok(servers.every((server) => typeof server.pid === 'number'), 'both started');
  t.not(servers[0].pid, servers[1].pid);
  const pids = servers.map((server) => server.pid!);
  await ctx.pool.shutdown();
  t.ok(pids.every((pid) => !isAlive(pid)), 'both gone after shutdown');
});
