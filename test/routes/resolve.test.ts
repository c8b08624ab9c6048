import { cpSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import t, { type Test } from 'tap';
import type { ResolveResponse } from '../../schemas/usages.js';
import type { PlumbApp } from '../../src/app.js';
import { call, connectHttp, structured, textOf } from '../mcp/helpers.js';
import { FLASK, GOOGLETEST, RXJS_SRC, getJson, googletestCompileDb, startApp, tempDir } from '../helpers.js';
import { indexReady } from '../wait.js';

const GO_STD = '/usr/share/go-1.19/src';

/** Line and column (1-based) of the `nth` occurrence of `needle` on the first line matching `line`. */
function positionOf(root: string, file: string, line: RegExp, needle: string): { line: number; column: number } {
  const lines = readFileSync(path.join(root, file), 'utf8').split('\n');
  const index = lines.findIndex((text) => line.test(text));
  if (index < 0) throw new Error(`no line matching ${line} in ${file}`);
  return { line: index + 1, column: lines[index].indexOf(needle) + 1 };
}

/** Resolves a name at a call site and checks it lands on the symbol's definition in another file. */
async function resolvesInto(t: Test, app: PlumbApp, root: string, at: { file: string; line: RegExp; name: string }, expected: { file: string; kind: string }): Promise<ResolveResponse> {
  const position = positionOf(root, at.file, at.line, at.name);
  // Anywhere inside the name: its middle.
  const column = position.column + Math.floor(at.name.length / 2);
  const answer = await getJson<ResolveResponse>(app, `/symbols/resolve?file=${encodeURIComponent(at.file)}&line=${position.line}&column=${column}`);
  t.equal(answer.status, 200, `${at.file}:${position.line}:${column}`);
  t.same(answer.body.identifier, { name: at.name, line: position.line, column: position.column }, 'the identifier under the position, from its start');
  t.equal(answer.body.source, 'lsp');
  t.match(answer.body.server, { request: /^textDocument\/(definition|declaration)$/, state: /^(answered|indexing)$/ }, 'the server outcome names the request');
  t.match(answer.body.symbol, { name: at.name, kind: expected.kind });
  t.ok(answer.body.results.some((p) => p.file === expected.file && p.context === 'definition'), `its definition in ${expected.file}`);
  t.notOk('places' in answer.body, 'the list is `results`, as in every list answer');
  const definition = answer.body.results.find((p) => p.context === 'definition')!;
  t.equal(answer.body.results[0].context, 'definition', 'definitions first');
  t.ok(definition.snippet.text.includes(at.name), 'the snippet shows the name');
  t.equal(definition.snippet.startLine, Math.max(1, definition.line - 4), 'four lines before the name by default');
  t.ok(definition.snippet.endLine <= definition.line + 4 && definition.snippet.endLine > definition.line, 'and up to four after');
  t.equal(answer.body.target?.external, false);
  return answer.body;
}

t.test('TypeScript (rxjs): a call into another file, a target outside the workspace, errors, markdown, MCP', async (t) => {
  const app = await startApp(t, RXJS_SRC);
  await indexReady(app, 120_000);
  await resolvesInto(t, app, RXJS_SRC, { file: 'internal/Observable.ts', line: /return value && isFunction\(value\.next\)/, name: 'isFunction' }, { file: 'internal/util/isFunction.ts', kind: 'function' });

  // Promise is declared in TypeScript's lib .d.ts files, outside the workspace.
  const promise = positionOf(RXJS_SRC, 'internal/firstValueFrom.ts', /return new Promise/, 'Promise');
  const external = await getJson(app, `/symbols/resolve?file=internal/firstValueFrom.ts&line=${promise.line}&column=${promise.column}`);
  t.equal(external.status, 200);
  t.equal(external.body.symbol, null, 'no index symbol for a lib .d.ts declaration');
  t.equal(external.body.target.external, true);
  t.ok(path.isAbsolute(external.body.target.file), 'named by its absolute path');
  t.equal(external.body.target.text, '', 'a file outside the workspace is named, never read');
  t.match(external.body.target.file, /lib\..*\.d\.ts$/);

  const wide = await getJson(app, '/symbols/resolve?file=internal/Observable.ts&line=482&column=2&context_lines=1');
  t.equal(wide.status, 404, 'indentation is no identifier');
  t.equal(wide.body.error.code, 'no_symbol_at_position');
  t.match(wide.body.error.message, /internal\/Observable\.ts:482:2/);
  const far = await getJson(app, '/symbols/resolve?file=internal/Observable.ts&line=99999&column=1');
  t.equal(far.status, 400);
  t.match(far.body.error.message, /'line' must be between 1 and/);
  const context = await getJson(app, '/symbols/resolve?file=internal/Observable.ts&line=1&column=1&context_lines=51');
  t.equal(context.status, 400);
  t.match(context.body.error.message, /context_lines/);
  const outside = await getJson(app, '/symbols/resolve?file=../../package.json&line=1&column=1');
  t.equal(outside.status, 400);
  t.equal(outside.body.error.code, 'path_outside_root');

  const call = positionOf(RXJS_SRC, 'internal/Observable.ts', /return value && isFunction\(value\.next\)/, 'isFunction');
  const md = await app.inject({ url: `/symbols/resolve?file=internal/Observable.ts&line=${call.line}&column=${call.column}&format=markdown&context_lines=2` });
  t.match(md.body, /^# `isFunction` at \d+:\d+/);
  t.match(md.body, /\*\*isFunction\*\* \(Function\) — internal\/util\/isFunction\.ts:5 — id \S+/);
  t.match(md.body, /```typescript\n[\s\S]*export function isFunction/);

  const { client } = await connectHttp(t, app);
  const result = await callTool(client, { file: 'internal/Observable.ts', line: call.line, column: call.column });
  t.notOk(result.isError);
  t.match(textOf(result), /Definition: internal\/util\/isFunction\.ts:5/);
  const answer = structured<ResolveResponse>(result);
  t.equal(answer.symbol?.name, 'isFunction');
  t.ok(answer.results.some((place) => place.file === 'internal/util/isFunction.ts' && place.context === 'definition'), 'the tool\'s places are in `results` too');
});

async function callTool(client: Parameters<typeof call>[0], args: Record<string, unknown>): ReturnType<typeof call> {
  return call(client, 'resolve_position', args);
}

t.test('Python (flask): a call in app.py resolves into helpers.py', async (t) => {
  const app = await startApp(t, FLASK);
  await indexReady(app, 120_000);
  await resolvesInto(t, app, FLASK, { file: 'app.py', line: /defaults\["DEBUG"\] = get_debug_flag\(\)/, name: 'get_debug_flag' }, { file: 'helpers.py', kind: 'function' });
});

t.test('Go (a copy of bufio): a call in a test file resolves into bufio.go', async (t) => {
  const root = tempDir(t, 'plumb-go-bufio-');
  cpSync(path.join(GO_STD, 'bufio'), root, { recursive: true });
  writeFileSync(path.join(root, 'go.mod'), 'module example.com/bufio\n\ngo 1.19\n');
  for (const name of readdirSync(root).filter((n) => n.endsWith('.go'))) {
    const file = path.join(root, name);
    writeFileSync(file, readFileSync(file, 'utf8').replace(/"bufio"/g, '"example.com/bufio"'));
  }
  const app = await startApp(t, root);
  await indexReady(app, 120_000);
  await resolvesInto(t, app, root, { file: 'bufio_test.go', line: /b := NewReader\(strings\.NewReader\(data\)\)/, name: 'NewReader' }, { file: 'bufio.go', kind: 'function' });
});

t.test('C++ (googletest): a call in gtest.cc resolves to the function declared in gtest-port.h and defined in gtest-port.cc', async (t) => {
  const build = googletestCompileDb(t, { shared: true });
  const app = await startApp(t, GOOGLETEST, { compileDatabase: { directory: build }, lsp: { requestTimeoutMs: 60000 } });
  await indexReady(app, 120_000);
  const body = await resolvesInto(t, app, GOOGLETEST, { file: 'googletest/src/gtest.cc', line: /GTEST_LOG_\(ERROR\) << FormatFileLocation\(/, name: 'FormatFileLocation' }, { file: 'googletest/src/gtest-port.cc', kind: 'function' });
  t.ok(body.results.some((p) => p.file === 'googletest/include/gtest/internal/gtest-port.h' && p.context === 'declaration'), 'and its declaration in the header');
});

t.test('no server for the language: resolved by name from the index (Rust)', async (t) => {
  const root = '/usr/share/cargo/registry/ahash-0.7.6';
  const app = await startApp(t, root);
  await indexReady(app, 120_000);
  const at = positionOf(root, 'src/fallback_hash.rs', /self\.buffer = folded_multiply\(new_data/, 'folded_multiply');
  const answer = await getJson(app, `/symbols/resolve?file=src/fallback_hash.rs&line=${at.line}&column=${at.column + 3}`);
  t.equal(answer.status, 200);
  t.equal(answer.body.source, 'index');
  t.match(answer.body.reason, /no language server serves/);
  t.same(answer.body.server, { language: 'rust', request: null, state: 'unsupported', reason: 'no language server serves rust' });
  t.match(answer.body.symbol, { name: 'folded_multiply', file: 'src/operations.rs', kind: 'function' });
  t.equal(answer.body.target, null);
  t.match(answer.body.results[0].snippet.text, /fn folded_multiply/);
  const md = await app.inject({ url: `/symbols/resolve?file=src/fallback_hash.rs&line=${at.line}&column=${at.column}&format=markdown` });
  t.match(md.body, /Resolved by name from the index/);
  t.match(md.body, /```rust\n/);
});
