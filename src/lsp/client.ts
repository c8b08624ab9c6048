import path from 'node:path';
import { pathToFileURL } from 'node:url';
import {
  DidChangeConfigurationNotification,
  ErrorCodes,
  InitializedNotification,
  InitializeRequest,
  PublishDiagnosticsNotification,
  type Diagnostic,
  type InitializeParams,
  type InitializeResult,
  type ProtocolConnection,
  type ProtocolRequestType,
  type WorkDoneProgressBegin,
  type WorkDoneProgressEnd,
  type WorkDoneProgressReport,
  ResponseError,
} from 'vscode-languageserver-protocol/node.js';
import type { PlumbError } from '../errors.js';
import type { LanguageDescriptor } from '../languages/types.js';
import type { WorkspaceFile } from '../workspace.js';
import type { FileReader } from '../files.js';
import { CLIENT_CAPABILITIES } from './capabilities.js';
import type { ResolvedCommand } from './command.js';
import { DiagnosticsStore } from './diagnostics.js';
import { documentUri, DocumentSync } from './documents.js';
import { requestCancelled, requestFailure, serverName, serverTimeout, serverUnavailable, type ServerIdentity } from './errors.js';
import { RequestGate } from './gate.js';
import { ServerHealth, type HealthCall, type HealthOutcome } from './health.js';
import { answerServerRequests } from './handlers.js';
import { ServerProcess, withTimeout } from './process.js';

/** A server's states, as /status reports them (schemas/status.ts takes its enum from here). */
export const SERVER_STATES = ['stopped', 'starting', 'indexing', 'ready', 'unhealthy', 'crashed'] as const;
export type ServerState = (typeof SERVER_STATES)[number];

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
  /** The workspace's one file reader: what a document is opened with (nothing outside the roots is sent). */
  files: FileReader;
  requestTimeoutMs: number;
  startTimeoutMs: number;
  maxInFlight: number;
  /** Failures in a row of one kind of request that make the server unhealthy (config lsp.unhealthyAfter, default 3; 0: never). */
  unhealthyAfter?: number;
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
  /** performance.now() when the caller began waiting: the time since (in plumb's queues) counts against the timeout. */
  since?: number;
  /** The server should answer this one (a document's symbols, references at a name the index holds): its internal errors count against its health. */
  expectAnswer?: boolean;
}

/** The progress entry standing for a project still loading (readiness.loadedLogPattern). */
const LOADING_TOKEN = '$plumb/loading';
/** How long a closed pipe waits for the process to report its own exit, whose code says more. */
const LOST_GRACE_MS = 200;
/** How long past its deadline a request may stay unanswered (nothing else heard either) before new requests fail at once. */
const FAIL_FAST_AFTER_MS = 1000;
/** How long stop() waits for an abandoned (killed) server's exit. */
const KILL_WAIT_MS = 15_000;

/**
 * One language-server process: JSON-RPC over stdio, documents kept in sync, requests bounded and
 * cancellable. The composition of a ServerProcess (spawn, exit, shutdown), a RequestGate (in-flight
 * bound, timeout, cancel), a DocumentSync (didOpen/didChange, LRU) and the errors of ./errors.ts;
 * this class keeps the state machine (starting, indexing, ready, crashed, stopped) and the server's
 * progress (answering its other requests is ./handlers.ts).
 */
export class LspClient {
  state: ServerState = 'stopped';
  pid: number | null = null;
  startedAt: number | null = null;
  lastError: string | undefined;
  capabilities: InitializeResult['capabilities'] | undefined;
  /** Called once when the process ends without being asked to. */
  onCrash: ((client: LspClient) => void) | undefined;
  /** Called once when the server is judged unhealthy (see ./health.ts): the pool restarts it. */
  onUnhealthy: ((client: LspClient, reason: string) => void) | undefined;
  readonly commandLine: string;
  readonly serverName: string;

  private readonly identity: ServerIdentity;
  private process: ServerProcess | undefined;
  private connection: ProtocolConnection | undefined;
  private stopping = false;
  /** Its pipe closed: the server is gone or going, its exit not reported yet (LOST_GRACE_MS); no request goes to it. */
  private connectionLost = false;
  private answered = false;
  private readonly progress = new Map<string | number, ServerProgress>();
  /** Until the server says it found its project's files (readiness.loadedLogPattern). */
  private loading: { promise: Promise<void>; resolve: () => void } | undefined;
  private readonly documents: DocumentSync;
  private readonly diagnostics = new DiagnosticsStore();
  private readonly gate: RequestGate;
  private readonly health: ServerHealth;
  private unhealthyReported = false;

  constructor(private readonly options: LspClientOptions) {
    this.commandLine = [options.command.executable, ...options.command.prefixArgs, ...options.args].join(' ');
    this.identity = {
      languageId: options.language.id,
      languageName: options.language.name,
      binary: path.basename(options.command.prefixArgs[0] ?? options.command.executable),
      retryAfterSeconds: options.retryAfterSeconds,
    };
    this.serverName = serverName(this.identity);
    this.gate = new RequestGate(options.maxInFlight);
    this.health = new ServerHealth({
      unhealthyAfter: options.unhealthyAfter ?? 3,
      failFastAfterMs: Math.min(FAIL_FAST_AFTER_MS, options.requestTimeoutMs),
      // Not even the answer to $/cancelRequest a whole timeout after the deadline.
      wedgedAfterMs: options.requestTimeoutMs,
    });
    this.documents = new DocumentSync({
      maxOpenDocuments: options.maxOpenDocuments,
      files: options.files,
      languageIdOf: options.languageIdOf,
      connection: () => (this.running ? this.connection : undefined),
      notRunning: () => this.unavailable(`is not running (${this.lastError ?? this.state})`),
    });
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
    return (this.state === 'ready' || this.state === 'indexing') && !this.connectionLost;
  }

  /** Why requests to the running server fail at once (it left one unanswered past its deadline and has said nothing since), or undefined. */
  get failing(): string | undefined {
    return this.running ? this.health.failFast(performance.now()) : undefined;
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
    this.connectionLost = false;
    if (this.options.language.readiness.loadedLogPattern) {
      let resolve: () => void = () => {};
      const promise = new Promise<void>((done) => {
        resolve = done;
      });
      this.loading = { promise, resolve };
      this.progress.set(LOADING_TOKEN, { title: 'Loading the project', message: 'finding its source files' });
    }
    const { command, args, root } = this.options;
    let server: ServerProcess;
    try {
      server = new ServerProcess({ command, args, cwd: root, env: this.options.env, onExit: (reason) => this.handleExit(server, reason) });
    } catch (error) {
      this.state = 'crashed';
      throw this.unavailable(`cannot be started: ${(error as Error).message}`, error);
    }
    this.process = server;
    this.pid = server.pid;
    this.startedAt = Date.now();

    const connection = server.connection;
    this.connection = connection;
    this.registerHandlers(connection);
    // A closed pipe means the process is gone or going; acting on it at once spares requests the wait for 'exit'.
    const lost = (reason: string): void => {
      if (this.stopping || server !== this.process || this.state === 'crashed') return;
      // The pool starts another for the next request instead of handing it this one until the exit is reported.
      this.connectionLost = true;
      // Give the process a moment to report its own exit, whose code says more than the broken pipe.
      withTimeout(server.exited, LOST_GRACE_MS).catch(() => {
        server.kill();
        this.handleExit(server, reason);
      });
    };
    connection.onClose(() => lost('closed its connection'));
    connection.onError(([error, message]) => {
      this.options.logger.debug({ language: this.options.language.id, err: error }, 'language server connection error');
      if (message !== undefined || server.stdinDestroyed) lost(`cannot be written to (${error.message})`);
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
        server.exited.then(() => Promise.reject(new Error(`exited during initialize (${this.lastError ?? 'no reason given'})`))),
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
      if (!this.stopping) await withTimeout(server.exited, LOST_GRACE_MS).catch(() => {});
      const exitReason = (this.state as ServerState) === 'crashed' ? this.lastError : undefined;
      const reason = this.stopping ? 'was stopped while starting' : (exitReason ?? (error as Error).message);
      server.kill();
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
    const budgetMs = options.timeoutMs ?? (this.answered ? this.options.requestTimeoutMs : Math.max(this.options.requestTimeoutMs, this.options.startTimeoutMs));
    const now = performance.now();
    const timeoutMs = Math.round(budgetMs - (options.since !== undefined ? Math.max(0, now - options.since) : 0));
    const method = type.method;
    const document = options.document;
    const uri = document ? documentUri(document) : undefined;
    const connection = this.connection;
    if (!this.running || !connection) {
      return Promise.reject(this.unavailable(this.state === 'starting' ? 'is still starting' : `is not running (${this.lastError ?? this.state})`));
    }
    // A server that left a request unanswered and has said nothing since would leave this one waiting a whole timeout too.
    const stuck = this.health.failFast(now);
    if (stuck) return Promise.reject(this.unavailable(`${stuck}: requests to it fail at once until it answers or is restarted`));
    if (timeoutMs <= 0) return Promise.reject(serverTimeout(this.serverName, method, budgetMs, 'spent waiting for other requests to it'));
    let call: HealthCall | undefined;
    return this.gate.run<R>({
      signal: options.signal,
      timeoutMs,
      timeoutError: () => {
        if (call) this.overdue(call);
        return serverTimeout(this.serverName, method, budgetMs);
      },
      abortError: () => requestCancelled(method, this.serverName),
      toError: (error) => requestFailure(this.identity, error, method),
      // Only requests holding a slot pin their document; queued ones would keep the LRU from closing anything.
      onAcquire: uri ? () => this.documents.pin(uri) : undefined,
      onRelease: uri ? () => this.documents.unpin(uri) : undefined,
      canCancel: () => this.running,
      work: async (token, ticket) => {
        if (document) await this.documents.sync(document);
        if (ticket.settled) return undefined as R;
        ticket.sent();
        const sent = this.health.sent(method, performance.now());
        call = sent;
        let value: R;
        try {
          value = await connection.sendRequest(type, params, token);
        } catch (error) {
          this.judge(sent, outcomeOf(error, options.expectAnswer === true));
          throw error;
        }
        this.answered = true;
        this.judge(sent, 'ok');
        return value;
      },
    });
  }

  /** Counts an answer (even one nobody waits for any more) towards the server's health; reports it unhealthy once. */
  private judge(call: HealthCall, outcome: HealthOutcome): void {
    const verdict = this.health.answered(call, outcome, performance.now());
    if (verdict) this.reportUnhealthy(verdict);
  }

  /** A sent request whose caller stopped waiting: if the server stays silent a whole timeout more, it is unhealthy. */
  private overdue(call: HealthCall): void {
    this.health.timedOut(call, performance.now());
    const check = setTimeout(() => {
      const verdict = this.health.unhealthy(performance.now());
      if (verdict) this.reportUnhealthy(verdict);
    }, this.options.requestTimeoutMs + 50);
    check.unref();
  }

  private reportUnhealthy(reason: string): void {
    if (this.unhealthyReported || !this.running) return;
    this.unhealthyReported = true;
    this.options.logger.warn({ language: this.options.language.id, pid: this.pid, reason }, 'language server unhealthy');
    this.onUnhealthy?.(this, reason);
  }

  /**
   * Gives up on the server at once: every request fails with `error` and the process is killed (SIGKILL, no
   * shutdown: an unhealthy server may not answer it). The pool starts another.
   */
  abandon(error: PlumbError): void {
    const server = this.process;
    if (!server || !this.running) return;
    this.stopping = true;
    this.state = 'stopped';
    this.gate.failAll(error);
    server.kill();
  }

  /** Opens a document (didOpen), or re-sends its text (didChange, version+1) when it changed on disk since. */
  syncDocument(file: WorkspaceFile): Promise<void> {
    return this.documents.sync(file);
  }

  /** shutdown request, exit notification, then SIGKILL when the process is still there. */
  async stop(): Promise<void> {
    const server = this.process;
    if (!server || this.state === 'stopped' || this.state === 'crashed') {
      this.state = this.state === 'crashed' ? 'crashed' : 'stopped';
      // An abandoned server was killed without waiting: no process is left behind once stop() returns.
      await server?.waitForExit(KILL_WAIT_MS);
      return;
    }
    this.stopping = true;
    this.gate.failAll(this.unavailable('is shutting down'));
    // A server still in initialize cannot take shutdown; it is killed right away.
    await server.shutdown(this.running ? this.connection : undefined);
    this.state = 'stopped';
  }

  private handleExit(server: ServerProcess, reason: string): void {
    if (server !== this.process) return;
    const stderr = server.stderrTail;
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
      this.gate.failAll(this.unavailable(`crashed (${reason}) and is being restarted`));
    } else if (this.stopping) {
      this.state = 'stopped';
    }
    this.pid = null;
  }

  /**
   * What the server last published about a file it has open (its errors say whether it could parse it), waiting
   * up to `waitMs` for a first publication; undefined when it published nothing in time.
   */
  diagnosticsOf(file: WorkspaceFile, waitMs: number): Promise<Diagnostic[] | undefined> {
    return this.diagnostics.of(documentUri(file), waitMs);
  }

  private registerHandlers(connection: ProtocolConnection): void {
    this.diagnostics.clear();
    connection.onNotification(PublishDiagnosticsNotification.type, (params) => this.diagnostics.publish(params));
    answerServerRequests(connection, {
      settings: this.options.language.settings,
      root: this.options.root,
      onProgress: (token, value) => this.updateProgress(token, value),
      onLog: (message) => {
        this.options.logger.debug({ language: this.options.language.id, message }, 'language server log');
        if (this.loading && this.options.language.readiness.loadedLogPattern?.test(message)) this.markLoaded();
      },
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
    return serverUnavailable(this.identity, what, cause);
  }
}

/** The server's own internal errors count against it on requests it should answer; nothing else does. */
function outcomeOf(error: unknown, expectAnswer: boolean): HealthOutcome {
  if (expectAnswer && error instanceof ResponseError && (error.code === ErrorCodes.InternalError || error.code === ErrorCodes.UnknownErrorCode)) {
    return { failure: error.message };
  }
  return 'neutral';
}

export { lookupSection } from './handlers.js';
