import type { Test } from 'tap';
import { ReferencesRequest } from 'vscode-languageserver-protocol';
import type { PlumbApp } from '../../src/app.js';
import { getJson } from '../helpers.js';
import { indexReady } from '../wait.js';

export interface Usage { file: string; line: number; column: number; text: string; usageKind: string; enclosingSymbol: { name: string; kind: string; qualifiedName: string; id: string } | null; context?: { startLine: number; endLine: number; text: string }; external: boolean }

export function waitIndexed(app: PlumbApp): Promise<void> {
  return indexReady(app, 120_000);
}

export const key = (u: { file: string; line: number; column: number }): string => `${u.file}:${u.line}:${u.column}`;

/** The server's own references at a position, as root-relative keys (files outside the root left out and counted). */
async function serverReferences(app: PlumbApp, file: string, line: number, column: number, includeDeclaration: boolean): Promise<{ keys: Set<string>; outside: number }> {
  const { workspace, lsp } = app.plumb;
  const target = workspace.resolveFile('file', file);
  const locations = await lsp.request(target, ReferencesRequest.type, {
    textDocument: { uri: workspace.uriOf(target.absolute) },
    position: { line: line - 1, character: column - 1 },
    context: { includeDeclaration },
  });
  const keys = new Set<string>();
  let outside = 0;
  for (const location of locations ?? []) {
    const absolute = workspace.pathOfUri(location.uri)!;
    if (!workspace.contains(absolute)) {
      outside++;
      continue;
    }
    keys.add(`${workspace.relative(absolute)}:${location.range.start.line + 1}:${location.range.start.character + 1}`);
  }
  return { keys, outside };
}

/**
 * plumb's usages against the server's references from the symbol's name: everything the server gives
 * without declarations is there; nothing is there that the server does not give with them; what comes
 * only with declarations is an import (the TypeScript server and pyright count imports as declarations).
 */
export async function compareWithServer(t: Test, app: PlumbApp, query: string, minimum: number): Promise<Usage[]> {
  const answer = await getJson(app, `/symbols/usages?${query}&limit=1000`);
  t.equal(answer.status, 200, query);
  t.equal(answer.body.precision, 'semantic');
  t.equal(answer.body.source, 'lsp');
  t.match(answer.body.server, { request: 'textDocument/references', state: /^(answered|indexing)$/ });
  const symbol = answer.body.symbol;
  const usages: Usage[] = answer.body.results;
  t.ok(usages.length >= minimum, `${symbol.name}: ${usages.length} usages (at least ${minimum})`);
  t.equal(answer.body.totalMatches, usages.length);
  t.equal(answer.body.truncated, false);
  const withoutDeclarations = await serverReferences(app, symbol.file, symbol.line, symbol.column, false);
  const withDeclarations = await serverReferences(app, symbol.file, symbol.line, symbol.column, true);
  const ours = new Set(usages.map(key));
  const missing = [...withoutDeclarations.keys].filter((k) => !ours.has(k));
  t.same(missing, [], 'every reference the server gives without declarations is a usage');
  const extra = usages.filter((u) => !withDeclarations.keys.has(key(u)));
  t.same(extra.map(key), [], 'no usage the server does not give');
  const onlyWithDeclarations = usages.filter((u) => !withoutDeclarations.keys.has(key(u)));
  t.ok(onlyWithDeclarations.every((u) => u.usageKind === 'import'), `what only comes with declarations is an import: ${onlyWithDeclarations.map((u) => `${key(u)} ${u.usageKind}`).join(', ')}`);
  t.notOk(usages.some((u) => u.file === symbol.file && u.line === symbol.line && u.column === symbol.column), 'the symbol\'s own definition is no usage');
  const sorted = [...usages].sort((a, b) => (a.file < b.file ? -1 : a.file > b.file ? 1 : a.line - b.line || a.column - b.column));
  t.same(usages.map(key), sorted.map(key), 'ordered by file, then line');
  return usages;
}
