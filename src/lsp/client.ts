import { spawn, type ChildProcess } from 'node:child_process';
import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import {
  ApplyWorkspaceEditRequest,
  CancellationTokenSource,
  CodeLensRefreshRequest,
  ConfigurationRequest,
  createProtocolConnection,
  DiagnosticRefreshRequest,
  DidChangeConfigurationNotification,
  DidChangeTextDocumentNotification,
  DidCloseTextDocumentNotification,
  DidOpenTextDocumentNotification,
  ErrorCodes,
  ExitNotification,
  InitializedNotification,
  InitializeRequest,
  InlayHintRefreshRequest,
  InlineValueRefreshRequest,
  LogMessageNotification,
  LSPErrorCodes,
  RegistrationRequest,
  ResponseError,
  SemanticTokensRefreshRequest,
  ShowMessageRequest,
  ShutdownRequest,
  StreamMessageReader,
  StreamMessageWriter,
  UnregistrationRequest,
  WorkDoneProgress,
  WorkDoneProgressCreateRequest,
  WorkspaceFoldersRequest,
  type InitializeParams,
  type InitializeResult,
  type Message,
  type MessageWriter,
  type ProtocolConnection,
  type ProtocolRequestType,
  type WorkDoneProgressBegin,
  type WorkDoneProgressEnd,
  type WorkDoneProgressReport,
} from 'vscode-languageserver-protocol/node.js';
import { PlumbError } from '../errors.js';
import type { LanguageDescriptor } from '../languages/types.js';
import type { WorkspaceFile } from '../workspace.js';
import { CLIENT_CAPABILITIES } from './capabilities.js';
import type { ResolvedCommand } from './command.js';

export type ServerState = 'starting' | 'indexing' | 'ready' | 'crashed' | 'stopped';

export interface ServerProgress {
  title?: string;
  message?: string;
  percent?: number;
}

/** What the pool's logger must offer; pino and Fastify's logger fit. */
export interface LspLogger {
  debug(object: object, message?: string): void;
  info(object: object, message?: string): void;
  warn(object: object, message?: string): void;
  error(object: object, message?: string): void;
}

export interface LspClientOptions {
  language: LanguageDescriptor;
  command: ResolvedCommand;
  /** Arguments after the command's prefix (descriptor args plus e.g. --compile-commands-dir). */
  args: string[];
  root: string;
  requestTimeoutMs: number;
  startTimeoutMs: number;
  maxInFlight: number;
  maxOpenDocuments: number;
  logger: LspLogger;
  languageIdOf(file: string): string;
  /** Seconds a 503 tells clients to wait, asked when the error is made: the pool knows when it restarts the server. */
  retryAfterSeconds?: () => number;
  /** The server's environment (default: plumb's own). */
  env?: NodeJS.ProcessEnv;
}

export interface RequestOptions {
  signal?: AbortSignal;
  timeoutMs?: number;
  /** Opened (or re-synced when changed on disk) before the request, and kept open while it runs. */
  document?: WorkspaceFile;
}

interface OpenDocument {
  version: number;
  mtimeMs: number;
  /** With the inode: an edit of the same size whose mtime was set back still moves these. */
  ctimeMs: number;
  ino: number;
  size: number;
}

/** Every server process alive, so a plumb that exits without shutdown() still leaves none behind. */
const liveChildren = new Set<ChildProcess>();
let exitHookInstalled = false;

function track(child: ChildProcess): void {
  liveChildren.add(child);
  child.once('exit', () => liveChildren.delete(child));
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  process.once('exit', () => {
    for (const alive of liveChildren) alive.kill('SIGKILL');
  });
}

const SHUTDOWN_WAIT_MS = 1500;
const KILL_WAIT_MS = 15_000;
/** The progress entry standing for a project still loading (readiness.loadedLogPattern). */
const LOADING_TOKEN = '$plumb/loading';
const LOST_GRACE_MS = 200;
const STDERR_TAIL = 2000;

/** One language-server process: JSON-RPC over stdio, documents kept in sync, requests bounded and cancellable. */
export class LspClient {
  state: ServerState = 'stopped';
  pid: number | null = null;
  startedAt: number | null = null;
  lastError: string | undefined;
  capabilities: InitializeResult['capabilities'] | undefined;
  /** Called once when the process ends without being asked to. */
  onCrash: ((client: LspClient) => void) | undefined;
  readonly commandLine: string;
  readonly serverName: string;

  private child: ChildProcess | undefined;
  private connection: ProtocolConnection | undefined;
  private stopping = false;
  private answered = false;
  private exited: Promise<void> = Promise.resolve();
  private stderrTail = '';
  private readonly progress = new Map<string | number, ServerProgress>();
  /** Until the server says it found its project's files (readiness.loadedLogPattern). */
  private loading: { promise: Promise<void>; resolve: () => void } | undefined;
  /** Open documents in least-recently-used order (Map keeps insertion order; a use re-inserts). */
  private readonly documents = new Map<string, OpenDocument>();
  /** Per-document chain so concurrent requests on one file open it once. */
  private readonly syncing = new Map<string, Promise<void>>();
  /** Requests in flight per document: those are never closed by the LRU. */
  private readonly documentUse = new Map<string, number>();
  private readonly pending = new Set<(error: PlumbError) => void>();
  private inFlight = 0;
  private readonly queue: Array<() => void> = [];

  constructor(private readonly options: LspClientOptions) {
    this.commandLine = [options.command.executable, ...options.command.prefixArgs, ...options.args].join(' ');
    this.serverName = `${options.language.name} server (${path.basename(options.command.prefixArgs[0] ?? options.command.executable)})`;
  }

  /** Resolves once the server has loaded its project (see readiness.loadedLogPattern); at once for servers without one. */
  get loaded(): Promise<void> {
    return this.loading?.promise ?? Promise.resolve();
  }

  get isLoading(): boolean {
    return this.loading !== undefined;
  }

  private markLoaded(): void {
    const loading = this.loading;
    this.loading = undefined;
    this.progress.delete(LOADING_TOKEN);
    if (this.running) this.state = this.progress.size > 0 ? 'indexing' : 'ready';
    loading?.resolve();
  }

  get running(): boolean {
    return this.state === 'ready' || this.state === 'indexing';
  }

  get openDocuments(): number {
    return this.documents.size;
  }

  /** The first piece of work the server reports, or null when it is idle. */
  get currentProgress(): ServerProgress | null {
    const first = this.progress.values().next();
    return first.done ? null : { ...first.value };
  }

  /** Spawns the server and runs initialize/initialized; fails with server_unavailable. */
  async start(): Promise<void> {
    this.state = 'starting';
    this.stopping = false;
    if (this.options.language.readiness.loadedLogPattern) {
      let resolve: () => void = () => {};
      const promise = new Promise<void>((done) => {
        resolve = done;
      });
      this.loading = { promise, resolve };
      this.progress.set(LOADING_TOKEN, { title: 'Loading the project', message: 'finding its source files' });
    }
    const { command, args, root } = this.options;
    let child: ChildProcess;
    try {
      child = spawn(command.executable, [...command.prefixArgs, ...args], { cwd: root, stdio: ['pipe', 'pipe', 'pipe'], env: this.options.env });
    } catch (error) {
      this.state = 'crashed';
      throw this.unavailable(`cannot be started: ${(error as Error).message}`, error);
    }
    this.child = child;
    this.pid = child.pid ?? null;
    if (child.pid !== undefined) track(child);
    this.startedAt = Date.now();
    // A dead server's pipes raise EPIPE and friends: they are reported through 'exit', not thrown.
    for (const stream of [child.stdin, child.stdout, child.stderr]) stream?.on('error', () => {});
    child.stderr?.on('data', (chunk: Buffer) => {
      this.stderrTail = (this.stderrTail + chunk.toString('utf8')).slice(-STDERR_TAIL);
    });
    let reportExit: (reason: string) => void = () => {};
    this.exited = new Promise<void>((resolve) => {
      reportExit = (reason) => {
        resolve();
        this.handleExit(child, reason);
      };
    });
    child.once('exit', (code, signal) => reportExit(signal ? `was killed by ${signal}` : `exited with code ${code}`));
    child.once('error', (error) => reportExit(`failed: ${error.message}`));

    const connection = createProtocolConnection(new StreamMessageReader(child.stdout!), new QuietMessageWriter(new StreamMessageWriter(child.stdin!)));
    this.connection = connection;
    this.registerHandlers(connection);
    // A closed pipe means the process is gone or going; acting on it at once spares requests the wait for 'exit'.
    const lost = (reason: string): void => {
      if (this.stopping || child !== this.child || this.state === 'crashed') return;
      // Give the process a moment to report its own exit, whose code says more than the broken pipe.
      withTimeout(this.exited, LOST_GRACE_MS).catch(() => {
        this.kill();
        this.handleExit(child, reason);
      });
    };
    connection.onClose(() => lost('closed its connection'));
    connection.onError(([error, message]) => {
      this.options.logger.debug({ language: this.options.language.id, err: error }, 'language server connection error');
      if (message !== undefined || child.stdin?.destroyed) lost(`cannot be written to (${error.message})`);
    });
    connection.listen();

    const params: InitializeParams = {
      processId: process.pid,
      clientInfo: { name: 'plumb' },
      locale: 'en',
      rootPath: root,
      rootUri: pathToFileURL(root).href,
      workspaceFolders: [{ uri: pathToFileURL(root).href, name: path.basename(root) }],
      capabilities: CLIENT_CAPABILITIES,
      initializationOptions: this.options.language.initializationOptions,
      trace: 'off',
    };
    let timer: NodeJS.Timeout | undefined;
    try {
      const result = await Promise.race([
        connection.sendRequest(InitializeRequest.type, params),
        this.exited.then(() => Promise.reject(new Error(`exited during initialize (${this.lastError ?? 'no reason given'})`))),
        new Promise<never>((_, reject) => {
          timer = setTimeout(() => reject(new Error(`did not answer initialize within ${this.options.startTimeoutMs} ms`)), this.options.startTimeoutMs);
        }),
      ]);
      this.capabilities = result.capabilities;
      await connection.sendNotification(InitializedNotification.type, {});
      if (this.options.language.settings !== undefined) {
        await connection.sendNotification(DidChangeConfigurationNotification.type, { settings: this.options.language.settings });
      }
    } catch (error) {
      if (!this.stopping) await withTimeout(this.exited, LOST_GRACE_MS).catch(() => {});
      const exitReason = (this.state as ServerState) === 'crashed' ? this.lastError : undefined;
      const reason = this.stopping ? 'was stopped while starting' : (exitReason ?? (error as Error).message);
      this.kill();
      this.state = this.stopping ? 'stopped' : 'crashed';
      this.lastError = reason;
      throw this.unavailable(`failed to start: ${reason}`, error);
    } finally {
      clearTimeout(timer);
    }
    this.state = this.progress.size > 0 ? 'indexing' : 'ready';
    this.options.logger.info({ language: this.options.language.id, pid: this.pid, ms: Date.now() - this.startedAt }, 'language server started');
  }

  /**
   * Sends a typed request with a timeout, an optional abort signal and the in-flight bound; on
   * timeout or abort the server gets $/cancelRequest. Every failure is a PlumbError.
   */
  request<P, R>(type: ProtocolRequestType<P, R, unknown, unknown, unknown>, params: P, options: RequestOptions = {}): Promise<R> {
    // Until a server has answered once, its answers include loading the project (pyright: 5-20 s for flask), so the start budget applies.
    const timeoutMs = options.timeoutMs ?? (this.answered ? this.options.requestTimeoutMs : Math.max(this.options.requestTimeoutMs, this.options.startTimeoutMs));
    const method = type.method;
    const uri = options.document ? pathToFileURL(options.document.absolute).href : undefined;
    return new Promise<R>((resolve, reject) => {
      if (!this.running || !this.connection) {
        reject(this.unavailable(this.state === 'starting' ? 'is still starting' : `is not running (${this.lastError ?? this.state})`));
        return;
      }
      if (options.signal?.aborted) {
        reject(cancelled(method, this.serverName));
        return;
      }
      const connection = this.connection;
      const source = new CancellationTokenSource();
      let settled = false;
      let acquired = false;
      let sent = false;
      const waiter = (): void => {
        acquired = true;
        // Only requests holding a slot pin their document; queued ones would keep the LRU from closing anything.
        if (uri) this.documentUse.set(uri, (this.documentUse.get(uri) ?? 0) + 1);
        void send();
      };
      const finish = (error: PlumbError | undefined, value?: R): void => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        options.signal?.removeEventListener('abort', onAbort);
        this.pending.delete(fail);
        const queued = this.queue.indexOf(waiter);
        if (queued >= 0) this.queue.splice(queued, 1);
        if (acquired) {
          this.release();
          if (uri) this.unuse(uri);
        }
        if (error && sent && this.running) {
          // Tells the server to stop working on it; a closed connection has nobody to tell.
          try {
            source.cancel();
          } catch {}
        }
        source.dispose();
        if (error) reject(error);
        else resolve(value as R);
      };
      const fail = (error: PlumbError): void => finish(error);
      const onAbort = (): void => finish(cancelled(method, this.serverName));
      const timer = setTimeout(() => finish(new PlumbError('server_timeout', `${this.serverName} did not answer ${method} within ${timeoutMs} ms`, { details: { method, timeoutMs } })), timeoutMs);
      const send = async (): Promise<void> => {
        try {
          if (options.document) await this.syncDocument(options.document);
          if (settled) return;
          sent = true;
          const value = await connection.sendRequest(type, params, source.token);
          this.answered = true;
          finish(undefined, value);
        } catch (error) {
          finish(this.toPlumbError(error, method));
        }
      };
      this.pending.add(fail);
      options.signal?.addEventListener('abort', onAbort, { once: true });
      if (this.inFlight < this.options.maxInFlight) {
        this.inFlight++;
        waiter();
      } else {
        this.queue.push(waiter);
      }
    });
  }

  /** Opens a document (didOpen), or re-sends its text (didChange, version+1) when it changed on disk since. */
  syncDocument(file: WorkspaceFile): Promise<void> {
    const uri = pathToFileURL(file.absolute).href;
    const previous = this.syncing.get(uri) ?? Promise.resolve();
    const next = previous.then(() => this.syncNow(file, uri));
    const tracked = next.catch(() => {}).finally(() => {
      if (this.syncing.get(uri) === tracked) this.syncing.delete(uri);
    });
    this.syncing.set(uri, tracked);
    return next;
  }

  private async syncNow(file: WorkspaceFile, uri: string): Promise<void> {
    const connection = this.connection;
    if (!connection || !this.running) throw this.unavailable(`is not running (${this.lastError ?? this.state})`);
    let info;
    try {
      info = await stat(file.absolute);
    } catch {
      throw new PlumbError('file_not_found', `File '${file.relative}' not found in the workspace`);
    }
    const open = this.documents.get(uri);
    if (open && open.mtimeMs === info.mtimeMs && open.size === info.size && open.ctimeMs === info.ctimeMs && open.ino === info.ino) {
      this.documents.delete(uri);
      this.documents.set(uri, open);
      return;
    }
    const text = await readFile(file.absolute, 'utf8').catch(() => {
      throw new PlumbError('file_not_found', `File '${file.relative}' cannot be read`);
    });
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
      if (uri === keep || (this.documentUse.get(uri) ?? 0) > 0) continue;
      await this.closeDocument(connection, uri);
    }
  }

  private async closeDocument(connection: ProtocolConnection, uri: string): Promise<void> {
    if (!this.documents.delete(uri)) return;
    await connection.sendNotification(DidCloseTextDocumentNotification.type, { textDocument: { uri } });
  }

  /** shutdown request, exit notification, then SIGKILL when the process is still there. */
  async stop(): Promise<void> {
    const child = this.child;
    if (!child || this.state === 'stopped' || this.state === 'crashed') {
      this.state = this.state === 'crashed' ? 'crashed' : 'stopped';
      return;
    }
    this.stopping = true;
    this.failPending(this.unavailable('is shutting down'));
    const connection = this.connection;
    // A server still in initialize cannot take shutdown; it is killed right away.
    if (!this.running) this.kill();
    if (connection && this.running) {
      try {
        await withTimeout(connection.sendRequest(ShutdownRequest.type), SHUTDOWN_WAIT_MS);
        await connection.sendNotification(ExitNotification.type);
      } catch {
        // A server that does not answer shutdown is killed below.
      }
    }
    if (!(await withTimeout(this.exited.then(() => true), SHUTDOWN_WAIT_MS).catch(() => false))) this.kill();
    // SIGKILL cannot be refused: wait for the exit itself (a loaded machine may take seconds to report it),
    // so a stopped pool leaves no process behind.
    await withTimeout(this.exited, KILL_WAIT_MS).catch(() => {});
    this.state = 'stopped';
  }

  private kill(): void {
    try {
      this.child?.kill('SIGKILL');
    } catch {}
  }

  private handleExit(child: ChildProcess, reason: string): void {
    if (child !== this.child) return;
    const stderr = this.stderrTail.trim().split('\n').slice(-3).join(' | ');
    const crashed = !this.stopping && this.state !== 'crashed';
    this.connection?.dispose();
    this.connection = undefined;
    this.documents.clear();
    this.progress.clear();
    this.loading?.resolve();
    this.loading = undefined;
    if (crashed) {
      this.lastError = `${reason}${stderr ? `: ${stderr}` : ''}`;
      this.state = 'crashed';
      this.options.logger.warn({ language: this.options.language.id, pid: this.pid, reason: this.lastError }, 'language server crashed');
      // The pool schedules the restart first, so the pending requests' Retry-After is that restart's.
      this.onCrash?.(this);
      this.failPending(this.unavailable(`crashed (${reason}) and is being restarted`));
    } else if (this.stopping) {
      this.state = 'stopped';
    }
    this.pid = null;
  }

  private failPending(error: PlumbError): void {
    for (const fail of [...this.pending]) fail(error);
  }

  private release(): void {
    const next = this.queue.shift();
    if (next) next();
    else this.inFlight--;
  }

  private unuse(uri: string): void {
    const count = (this.documentUse.get(uri) ?? 1) - 1;
    if (count > 0) this.documentUse.set(uri, count);
    else this.documentUse.delete(uri);
    // Documents kept open past the limit while in use are closed once they are free.
    if (this.documents.size > this.options.maxOpenDocuments && this.connection && this.running) {
      this.closeLeastRecentlyUsed(this.connection, '').catch(() => {});
    }
  }

  private registerHandlers(connection: ProtocolConnection): void {
    const settings = this.options.language.settings;
    const root = pathToFileURL(this.options.root).href;
    connection.onRequest(ConfigurationRequest.type, (params) => params.items.map((item) => lookupSection(settings, item.section)));
    connection.onRequest(WorkDoneProgressCreateRequest.type, (params) => {
      const token = params.token;
      const disposable = connection.onProgress(WorkDoneProgress.type, token, (value) => {
        this.updateProgress(token, value);
        if (value.kind === 'end') disposable.dispose();
      });
      return null;
    });
    connection.onRequest(RegistrationRequest.type, () => undefined);
    connection.onRequest(UnregistrationRequest.type, () => undefined);
    connection.onRequest(WorkspaceFoldersRequest.type, () => [{ uri: root, name: path.basename(this.options.root) }]);
    connection.onRequest(ShowMessageRequest.type, () => null);
    connection.onRequest(ApplyWorkspaceEditRequest.type, () => ({ applied: false, failureReason: 'plumb does not edit files' }));
    for (const refresh of [SemanticTokensRefreshRequest.type, CodeLensRefreshRequest.type, InlayHintRefreshRequest.type, InlineValueRefreshRequest.type, DiagnosticRefreshRequest.type]) {
      connection.onRequest(refresh, () => undefined);
    }
    connection.onNotification(LogMessageNotification.type, (params) => {
      this.options.logger.debug({ language: this.options.language.id, message: params.message }, 'language server log');
      if (this.loading && this.options.language.readiness.loadedLogPattern?.test(params.message)) this.markLoaded();
    });
  }

  private updateProgress(token: string | number, value: WorkDoneProgressBegin | WorkDoneProgressReport | WorkDoneProgressEnd): void {
    if (value.kind === 'end') {
      this.progress.delete(token);
    } else if (value.kind === 'begin') {
      const titles = this.options.language.readiness.indexingProgressTitles;
      if (titles.length > 0 && !titles.some((title) => value.title.includes(title))) return;
      this.progress.set(token, { title: value.title, message: value.message, percent: value.percentage });
    } else {
      const current = this.progress.get(token);
      if (!current) return;
      this.progress.set(token, { title: current.title, message: value.message ?? current.message, percent: value.percentage ?? current.percent });
    }
    if (this.running) this.state = this.progress.size > 0 ? 'indexing' : 'ready';
  }

  private unavailable(what: string, cause?: unknown): PlumbError {
    return new PlumbError('server_unavailable', `Language server for ${this.options.language.name} (${path.basename(this.options.command.prefixArgs[0] ?? this.options.command.executable)}) ${what}`, {
      retryAfter: this.options.retryAfterSeconds?.() ?? 5,
      details: { language: this.options.language.id },
      cause,
    });
  }

  private toPlumbError(error: unknown, method: string): PlumbError {
    if (error instanceof PlumbError) return error;
    if (error instanceof ResponseError) {
      if (error.code === ErrorCodes.InvalidParams) {
        return new PlumbError('invalid_parameter', `${this.serverName} rejected ${method}: ${error.message}`, { details: { method } });
      }
      if (error.code === LSPErrorCodes.ContentModified || error.code === LSPErrorCodes.ServerCancelled || error.code === LSPErrorCodes.RequestCancelled) {
        return new PlumbError('server_unavailable', `${this.serverName} dropped ${method} (${error.message}); retry`, { retryAfter: 1, details: { method } });
      }
      return new PlumbError('server_unavailable', `${this.serverName} failed ${method}: ${error.message}`, { retryAfter: 1, details: { method, lspCode: error.code } });
    }
    // Anything else is the connection failing under the request (EPIPE, disposed): the server is gone.
    return this.unavailable(`stopped answering ${method} (${error instanceof Error ? error.message : String(error)})`, error);
  }
}

/**
 * vscode-jsonrpc rethrows a failed request write inside an async Promise executor, an unhandled
 * rejection that would end plumb (EPIPE to a dead server). Writes here never reject: the failure still
 * reaches onError, which treats the server as lost and fails its requests.
 */
class QuietMessageWriter implements MessageWriter {
  readonly onError: MessageWriter['onError'];
  readonly onClose: MessageWriter['onClose'];

  constructor(private readonly inner: StreamMessageWriter) {
    this.onError = inner.onError;
    this.onClose = inner.onClose;
  }

  write(message: Message): Promise<void> {
    return this.inner.write(message).catch(() => undefined);
  }

  end(): void {
    this.inner.end();
  }

  dispose(): void {
    this.inner.dispose();
  }
}

function cancelled(method: string, server: string): PlumbError {
  return new PlumbError('request_cancelled', `${method} to ${server} was cancelled: the caller went away`, { details: { method, cancelled: true } });
}

/** workspace/configuration answers by dotted section ("python.analysis"); the whole settings object for none. */
export function lookupSection(settings: unknown, section: string | undefined): unknown {
  if (!section) return settings ?? null;
  let value: unknown = settings;
  for (const part of section.split('.')) {
    if (value === null || typeof value !== 'object' || !(part in value)) return null;
    value = (value as Record<string, unknown>)[part];
  }
  return value ?? null;
}

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  return Promise.race([
    promise,
    new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`timed out after ${ms} ms`)), ms);
    }),
  ]).finally(() => clearTimeout(timer));
}
