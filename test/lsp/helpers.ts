import { mkdtempSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { DocumentSymbolRequest, type DocumentSymbol, type SymbolInformation, type SymbolKind } from 'vscode-languageserver-protocol';
import { validateConfig } from '../../src/config.js';
import type { LspLogger } from '../../src/lsp/client.js';
import { LspPool } from '../../src/lsp/pool.js';
import { Workspace, type WorkspaceFile } from '../../src/workspace.js';

export const silentLogger: LspLogger = { debug() {}, info() {}, warn() {}, error() {} };

export interface TestPool {
  pool: LspPool;
  workspace: Workspace;
  cacheDir: string;
  file(relative: string): WorkspaceFile;
  documentSymbols(relative: string, options?: { timeoutMs?: number; signal?: AbortSignal }): Promise<DocumentSymbol[]>;
  /** Tears the pool down and removes its cache directory. */
  close(): Promise<void>;
}

/** A pool over a real directory with a throwaway cache; `config` is merged into plumb.json defaults. */
export function makePool(root: string, config: Record<string, unknown> = {}): TestPool {
  const cacheDir = mkdtempSync(path.join(os.tmpdir(), 'plumb-lsp-test-'));
  const workspace = new Workspace(root);
  const pool = new LspPool({ config: validateConfig({ cacheDir, ...config }), workspace, cacheDir, logger: silentLogger });
  const file = (relative: string): WorkspaceFile => workspace.resolveFile('file', relative);
  return {
    pool,
    workspace,
    cacheDir,
    file,
    async documentSymbols(relative, options) {
      const target = file(relative);
      const result = await pool.request(target, DocumentSymbolRequest.type, { textDocument: { uri: workspace.uriOf(target.absolute) } }, options);
      return asDocumentSymbols(result);
    },
    async close() {
      await pool.shutdown();
      rmSync(cacheDir, { recursive: true, force: true });
    },
  };
}

function asDocumentSymbols(result: DocumentSymbol[] | SymbolInformation[] | null): DocumentSymbol[] {
  if (!result) return [];
  return result.filter((symbol): symbol is DocumentSymbol => 'selectionRange' in symbol);
}

/** Depth-first search of a symbol tree by name (and kind, when given). */
export function findSymbol(symbols: DocumentSymbol[], name: string, kind?: SymbolKind): DocumentSymbol | undefined {
  for (const symbol of symbols) {
    if (symbol.name === name && (kind === undefined || symbol.kind === kind)) return symbol;
    const inner = findSymbol(symbol.children ?? [], name, kind);
    if (inner) return inner;
  }
  return undefined;
}

export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

export async function timed<T>(work: () => Promise<T>): Promise<{ value: T; ms: number }> {
  const start = performance.now();
  const value = await work();
  return { value, ms: Math.round((performance.now() - start) * 10) / 10 };
}

/** Writes new text and moves the mtime a second on, so a change is seen however coarse the clock (no sleep). */
export function rewrite(file: string, text: string): void {
  const before = statSync(file).mtimeMs;
  writeFileSync(file, text);
  const later = new Date(Math.max(before + 1000, statSync(file).mtimeMs));
  utimesSync(file, later, later);
}

export { FLASK, GOOGLETEST, RXJS, ZOD } from '../corpora.js';
