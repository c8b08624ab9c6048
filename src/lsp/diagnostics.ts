/**
 * What a server last published about each open document (textDocument/publishDiagnostics), kept so an answer
 * can tell whether the server could read the file it answered from: clangd without the headers a file
 * includes (an Unreal module without the engine) answers from a file it could not parse, and its answers then
 * miss what a reader sees. Bounded: the oldest documents are forgotten first.
 */
import type { Diagnostic, PublishDiagnosticsParams } from 'vscode-languageserver-protocol';

/** Documents whose diagnostics are kept at most. */
const DOCUMENTS_MAX = 2000;

export class DiagnosticsStore {
  private readonly byUri = new Map<string, Diagnostic[]>();
  private readonly waiters = new Map<string, Array<() => void>>();

  /** A publishDiagnostics notification: the document's diagnostics now. */
  publish(params: PublishDiagnosticsParams): void {
    this.byUri.delete(params.uri);
    this.byUri.set(params.uri, params.diagnostics);
    if (this.byUri.size > DOCUMENTS_MAX) this.byUri.delete(this.byUri.keys().next().value!);
    const waiting = this.waiters.get(params.uri);
    this.waiters.delete(params.uri);
    for (const wake of waiting ?? []) wake();
  }

  /**
   * The document's diagnostics, waiting up to `waitMs` for the first publication when none came yet (a server
   * publishes once it has parsed a document it just opened, about when it answers the first request on it);
   * undefined when none came in time.
   */
  async of(uri: string, waitMs: number): Promise<Diagnostic[] | undefined> {
    const known = this.byUri.get(uri);
    if (known || waitMs <= 0) return known;
    await new Promise<void>((resolve) => {
      const timer = setTimeout(done, waitMs);
      const list = this.waiters.get(uri) ?? [];
      list.push(done);
      this.waiters.set(uri, list);
      function done(): void {
        clearTimeout(timer);
        resolve();
      }
    });
    return this.byUri.get(uri);
  }

  clear(): void {
    this.byUri.clear();
    for (const waiting of this.waiters.values()) for (const wake of waiting) wake();
    this.waiters.clear();
  }
}
