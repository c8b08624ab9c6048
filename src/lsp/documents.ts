import { stat } from 'node:fs/promises';
import { pathToFileURL } from 'node:url';
import {
  DidChangeTextDocumentNotification,
  DidCloseTextDocumentNotification,
  DidOpenTextDocumentNotification,
  type ProtocolConnection,
} from 'vscode-languageserver-protocol/node.js';
import { PlumbError } from '../errors.js';
import type { WorkspaceFile } from '../workspace.js';
import type { FileReader } from '../files.js';

interface OpenDocument {
  version: number;
  mtimeMs: number;
  /** With the inode: an edit of the same size whose mtime was set back still moves these. */
  ctimeMs: number;
  ino: number;
  size: number;
}

export interface DocumentSyncOptions {
  maxOpenDocuments: number;
  /** Reads the documents' text, within the workspace and its extra roots only. */
  files: FileReader;
  languageIdOf(file: string): string;
  /** The connection while the server runs; undefined otherwise. */
  connection(): ProtocolConnection | undefined;
  /** The error for syncing while the server is not running. */
  notRunning(): PlumbError;
}

export function documentUri(file: WorkspaceFile): string {
  return pathToFileURL(file.absolute).href;
}

/**
 * The documents open in one server: didOpen on first use, didChange (version+1, whole text) when
 * the file changed on disk (mtime, ctime, inode or size), didClose of the least recently used past
 * maxOpenDocuments, except documents pinned by requests in flight.
 */
export class DocumentSync {
  /** Open documents in least-recently-used order (Map keeps insertion order; a use re-inserts). */
  private readonly documents = new Map<string, OpenDocument>();
  /** Per-document chain so concurrent requests on one file open it once. */
  private readonly syncing = new Map<string, Promise<void>>();
  /** Requests in flight per document: those are never closed by the LRU. */
  private readonly pins = new Map<string, number>();

  constructor(private readonly options: DocumentSyncOptions) {}

  get size(): number {
    return this.documents.size;
  }

  /** Opens a document (didOpen), or re-sends its text (didChange, version+1) when it changed on disk since. */
  sync(file: WorkspaceFile): Promise<void> {
    const uri = documentUri(file);
    const previous = this.syncing.get(uri) ?? Promise.resolve();
    const next = previous.then(() => this.syncNow(file, uri));
    const tracked = next.catch(() => {}).finally(() => {
      if (this.syncing.get(uri) === tracked) this.syncing.delete(uri);
    });
    this.syncing.set(uri, tracked);
    return next;
  }

  /** Keeps a document open while a request on it runs. */
  pin(uri: string): void {
    this.pins.set(uri, (this.pins.get(uri) ?? 0) + 1);
  }

  unpin(uri: string): void {
    const count = (this.pins.get(uri) ?? 1) - 1;
    if (count > 0) this.pins.set(uri, count);
    else this.pins.delete(uri);
    // Documents kept open past the limit while in use are closed once they are free.
    const connection = this.options.connection();
    if (this.documents.size > this.options.maxOpenDocuments && connection) {
      this.closeLeastRecentlyUsed(connection, '').catch(() => {});
    }
  }

  /** Forgets every document (the server is gone and its successor starts with none open). */
  clear(): void {
    this.documents.clear();
  }

  private async syncNow(file: WorkspaceFile, uri: string): Promise<void> {
    const connection = this.options.connection();
    if (!connection) throw this.options.notRunning();
    const access = this.options.files.check(file.absolute);
    if (!access.ok) {
      if (access.reason === 'outside_root') throw new PlumbError('path_outside_root', `File '${file.relative}' ${access.message}`, { details: { file: file.relative } });
      throw new PlumbError('file_not_found', `File '${file.relative}' ${access.message}`, { details: { file: file.relative } });
    }
    let info;
    try {
      info = await stat(access.real);
    } catch {
      throw new PlumbError('file_not_found', `File '${file.relative}' not found in the workspace`);
    }
    const open = this.documents.get(uri);
    if (open && open.mtimeMs === info.mtimeMs && open.size === info.size && open.ctimeMs === info.ctimeMs && open.ino === info.ino) {
      this.documents.delete(uri);
      this.documents.set(uri, open);
      return;
    }
    const read = await this.options.files.read(file.absolute);
    if (!read.ok) throw new PlumbError(read.reason === 'outside_root' ? 'path_outside_root' : 'file_not_found', `File '${file.relative}' ${read.message}`, { details: { file: file.relative } });
    // As the file is, byte-order mark included: the server's columns count from it as an editor's would.
    const text = read.text;
    if (open) {
      const version = open.version + 1;
      this.documents.delete(uri);
      this.documents.set(uri, { version, mtimeMs: info.mtimeMs, ctimeMs: info.ctimeMs, ino: info.ino, size: info.size });
      await connection.sendNotification(DidChangeTextDocumentNotification.type, { textDocument: { uri, version }, contentChanges: [{ text }] });
    } else {
      this.documents.set(uri, { version: 1, mtimeMs: info.mtimeMs, ctimeMs: info.ctimeMs, ino: info.ino, size: info.size });
      await connection.sendNotification(DidOpenTextDocumentNotification.type, {
        textDocument: { uri, languageId: this.options.languageIdOf(file.absolute), version: 1, text },
      });
      await this.closeLeastRecentlyUsed(connection, uri);
    }
  }

  private async closeLeastRecentlyUsed(connection: ProtocolConnection, keep: string): Promise<void> {
    for (const uri of this.documents.keys()) {
      if (this.documents.size <= this.options.maxOpenDocuments) return;
      if (uri === keep || (this.pins.get(uri) ?? 0) > 0) continue;
      await this.close(connection, uri);
    }
  }

  private async close(connection: ProtocolConnection, uri: string): Promise<void> {
    if (!this.documents.delete(uri)) return;
    await connection.sendNotification(DidCloseTextDocumentNotification.type, { textDocument: { uri } });
  }
}
