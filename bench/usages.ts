/**
 * Usages and resolve next to the bare LSP request they wrap (same symbol, same position, same run,
 * interleaved) on rxjs (the TypeScript server), and syntactic usages over Go's std (gopls left out).
 *   npx tsx bench/usages.ts
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { DefinitionRequest, ReferencesRequest } from 'vscode-languageserver-protocol';
import { buildApp, type PlumbApp } from '../src/app.js';
import { validateConfig } from '../src/config.js';

const repo = path.resolve(import.meta.dirname, '..');
const scratch = mkdtempSync(path.join(os.tmpdir(), 'plumb-bench-usages-'));
const RUNS = 40;

async function open(root: string, extra: Record<string, unknown> = {}): Promise<PlumbApp> {
  const app = await buildApp({ root, config: validateConfig({ cacheDir: path.join(scratch, path.basename(root)), logLevel: 'silent', ...extra }), logger: false });
  for (let i = 0; i < 3000 && app.plumb.index.status().state !== 'ready'; i++) await new Promise((resolve) => setTimeout(resolve, 100));
  return app;
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

async function timed(run: () => Promise<unknown>): Promise<number> {
  const started = performance.now();
  await run();
  return performance.now() - started;
}

const rows: string[][] = [];
function report(name: string, samples: number[]): void {
  const sorted = [...samples].sort((a, b) => a - b);
  rows.push([name, percentile(sorted, 50).toFixed(1), percentile(sorted, 99).toFixed(1)]);
}

async function inject(app: PlumbApp, url: string): Promise<void> {
  const response = await app.inject({ url });
  if (response.statusCode !== 200) throw new Error(`${url}: ${response.statusCode} ${response.body.slice(0, 300)}`);
}

// rxjs: usages of isFunction (71 with imports) and resolve at a call of it, each next to its bare request.
{
  const root = path.join(repo, 'node_modules/rxjs/src');
  const app = await open(root);
  const { workspace, lsp } = app.plumb;
  const definitionFile = workspace.resolveFile('file', 'internal/util/isFunction.ts');
  const callFile = workspace.resolveFile('file', 'internal/Observable.ts');
  const callLines = readFileSync(callFile.absolute, 'utf8').split('\n');
  const callLine = callLines.findIndex((l) => l.includes('return value && isFunction(value.next)'));
  const callColumn = callLines[callLine].indexOf('isFunction');
  const references = (): Promise<unknown> => lsp.request(definitionFile, ReferencesRequest.type, { textDocument: { uri: workspace.uriOf(definitionFile.absolute) }, position: { line: 4, character: 16 }, context: { includeDeclaration: true } });
  const definition = (): Promise<unknown> => lsp.request(callFile, DefinitionRequest.type, { textDocument: { uri: workspace.uriOf(callFile.absolute) }, position: { line: callLine, character: callColumn } });
  const usagesUrl = '/symbols/usages?symbol=isFunction&kind=function&limit=50';
  const resolveUrl = `/symbols/resolve?file=internal/Observable.ts&line=${callLine + 1}&column=${callColumn + 1}`;
  await inject(app, usagesUrl);
  await inject(app, resolveUrl);
  const samples = { references: [] as number[], usages: [] as number[], definition: [] as number[], resolve: [] as number[] };
  for (let i = 0; i < RUNS; i++) {
    samples.references.push(await timed(references));
    samples.usages.push(await timed(() => inject(app, usagesUrl)));
    samples.definition.push(await timed(definition));
    samples.resolve.push(await timed(() => inject(app, resolveUrl)));
  }
  report('rxjs: bare textDocument/references (isFunction)', samples.references);
  report('rxjs: GET /symbols/usages (isFunction, limit 50)', samples.usages);
  report('rxjs: bare textDocument/definition (call site)', samples.definition);
  report('rxjs: GET /symbols/resolve (same position)', samples.resolve);
  await app.close();
}

// Go's std with gopls left out: syntactic usages of common names.
{
  const app = await open('/usr/share/go-1.19/src', { languages: { go: { enabled: false } } });
  for (const [symbol, extra] of [['bufio.NewReader', ''], ['fmt.Errorf', '']] as const) {
    const url = `/symbols/usages?symbol=${symbol}${extra}&limit=50`;
    const cold = await timed(() => inject(app, url));
    const answer = (await app.inject({ url })).json();
    const warm: number[] = [];
    for (let i = 0; i < 10; i++) warm.push(await timed(() => inject(app, url)));
    rows.push([`Go std: syntactic usages of ${symbol} (${answer.totalMatches} in ${answer.filesScanned} files), first`, cold.toFixed(1), '']);
    report(`Go std: syntactic usages of ${symbol}, warm`, warm);
  }
  await app.close();
}

console.log('| case | p50 ms | p99 ms |');
console.log('|---|---|---|');
for (const row of rows) console.log(`| ${row.join(' | ')} |`);
rmSync(scratch, { recursive: true, force: true });
