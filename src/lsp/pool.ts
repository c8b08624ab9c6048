import { readdir } from 'node:fs/promises';
import path from 'node:path';
import type { Diagnostic, ProtocolRequestType, ServerCapabilities } from 'vscode-languageserver-protocol';
import type { PlumbConfig } from '../config.js';
import { PlumbError } from '../errors.js';
import { LanguageTable, resolveLanguages } from '../languages/resolve.js';
import type { LanguageDescriptor } from '../languages/types.js';
import type { Workspace, WorkspaceFile } from '../workspace.js';
import { LspClient, type LspLogger, type ServerState } from './client.js';
import { commandDisplayName, resolveCommand } from './command.js';
import { prepareCompileDatabase, type CompileDatabase } from './compile-db.js';

/** One server slot as the pool sees it; the status route answers these as they are. */
export interface ServerStatus {
  language: string;
  command: string;
  pid: number | null;
  state: ServerState;
  progress: { percent?: number; message?: string; title?: string } | null;
  restarts: number;
  uptimeMs: number | null;
  instance?: number;
  compileDatabase?: { path: string; synthesized: boolean; rewritten?: boolean; source?: string };
  lastError?: string;
}
export type { LanguageDescriptor } from '../languages/types.js';
export type { LspLogger, ServerState } from './client.js';

export interface LspPoolOptions {
  config: PlumbConfig;
  workspace: Workspace;
  /** plumb's cache directory (compile databases go under `<cacheDir>/<hash of root>/`). */
  cacheDir: string;
  logger: LspLogger;
}

export interface PoolRequestOptions {
  /** Aborts the request (and sends $/cancelRequest) when the HTTP client goes away. */
  signal?: AbortSignal;
  /** Overrides config lsp.requestTimeoutMs for this request. */
  timeoutMs?: number;
  /**
   * performance.now() when the caller began waiting (default: when request() is called): time spent since in
   * queues (a permit for large answers, the server starting, its in-flight bound) counts against the timeout.
   */
  since?: number;
  /** The server should answer this one (a document's symbols, references at a name the index holds): its internal errors count against its health. */
  expectAnswer?: boolean;
}

/** Seconds a 503 for a missing server binary tells clients to wait: installing takes a while. */
const MISSING_RETRY_AFTER = 60;
const MAX_BACKOFF_MS = 30_000;

/** One server process slot of a language: the client in it, and its crash history for backoff. */
interface Slot {
  language: LanguageDescriptor;
  instance: number;
  client?: LspClient;
  starting?: Promise<LspClient>;
  crashes: number[];
  restarts: number;
  /** No start before this time (backoff after a crash). */
  retryAt: number;
  /** Crashed more than maxRestarts times in the window: only a request after retryAt tries again. */
  gaveUp: boolean;
  restartTimer?: NodeJS.Timeout;
  lastError?: string;
  /** The file of the latest request, reopened first after a restart. */
  lastFile?: WorkspaceFile;
  /** Why the slot's server was judged unhealthy and killed, until its replacement starts. */
  unhealthy?: string;
}

/**
 * The language servers of a workspace: started lazily per language on first need, restarted with
 * backoff after crashes, shut down together. Every failure reaching a caller is a PlumbError.
 *
 * ```ts
 * const pool = new LspPool({ config, workspace, cacheDir, logger: app.log });
 * const file = workspace.resolveFile('file', 'src/app.ts');
 * const symbols = await pool.request(file, DocumentSymbolRequest.type, { textDocument: { uri: workspace.uriOf(file.absolute) } }, { signal });
 * await pool.shutdown();
 * ```
 */
export class LspPool {
  private readonly config: PlumbConfig;
  private readonly workspace: Workspace;
  private readonly cacheDir: string;
  private readonly logger: LspLogger;
  private readonly table: LanguageTable;
  private readonly slots = new Map<string, Slot[]>();
  private readonly nextInstance = new Map<string, number>();
  private compileDatabase: CompileDatabase | undefined;
  private closed = false;

  constructor(options: LspPoolOptions) {
    this.config = options.config;
    this.workspace = options.workspace;
    this.cacheDir = options.cacheDir;
    this.logger = options.logger;
    this.table = new LanguageTable(resolveLanguages(options.config.languages));
    for (const language of this.table.languages) {
      this.slots.set(language.id, Array.from({ length: language.instances }, (_, instance) => ({ language, instance, crashes: [], restarts: 0, retryAt: 0, gaveUp: false })));
    }
  }

  /** The enabled languages, built-ins with config applied. */
  get languages(): readonly LanguageDescriptor[] {
    return this.table.languages;
  }

  /** The language serving a file, by extension; unsupported_language when there is none. */
  languageFor(file: WorkspaceFile): LanguageDescriptor {
    const language = this.table.forPath(file.absolute);
    if (!language) {
      throw new PlumbError('unsupported_language', `File '${file.relative}' has no language server: supported extensions are ${this.table.extensions.join(', ')}`, {
        details: { file: file.relative, supportedExtensions: this.table.extensions },
      });
    }
    return language;
  }

  /** LSP languageId of a file (cpp, c, typescriptreact, ...). */
  languageIdOf(file: WorkspaceFile): string {
    return this.table.languageIdOf(this.languageFor(file), file.absolute);
  }

  /**
   * Sends a typed LSP request about a file: starts the language's server when needed, opens the
   * document or re-syncs it when it changed on disk, then asks with a timeout. Rejects only with PlumbError.
   */
  async request<P, R>(file: WorkspaceFile, type: ProtocolRequestType<P, R, unknown, unknown, unknown>, params: P, options: PoolRequestOptions = {}): Promise<R> {
    const language = this.languageFor(file);
    const since = options.since ?? performance.now();
    try {
      const client = await this.clientFor(language, file, options.signal);
      return await client.request(type, params, { signal: options.signal, timeoutMs: options.timeoutMs, document: file, since, expectAnswer: options.expectAnswer });
    } catch (error) {
      throw this.toPlumbError(error, language);
    }
  }

  /**
   * The server for a file's language, started when needed: what it serves (its initialize capabilities)
   * and whether it is still indexing. Rejects like request() when it cannot start.
   */
  async serverFor(file: WorkspaceFile, signal?: AbortSignal): Promise<{ name: string; capabilities: ServerCapabilities | undefined; indexing: boolean; progress: string | null }> {
    const language = this.languageFor(file);
    try {
      const client = await this.clientFor(language, file, signal);
      const progress = client.currentProgress;
      return {
        name: client.serverName,
        capabilities: client.capabilities,
        indexing: client.state === 'indexing',
        progress: progress ? [progress.title, progress.message, progress.percent !== undefined ? `${progress.percent}%` : undefined].filter(Boolean).join(' ') : null,
      };
    } catch (error) {
      throw this.toPlumbError(error, language);
    }
  }

  /**
   * What the running server of a file's language last published about it (textDocument/publishDiagnostics), waiting
   * up to `waitMs` for a first publication; undefined when no running server published any in time. Never starts a server.
   * Only clangd is waited for (it publishes a file's diagnostics once it has parsed it, every time); of the other
   * servers, some publish nothing for a file until asked, and an answer must not wait for what may never come.
   */
  async diagnostics(file: WorkspaceFile, waitMs: number): Promise<Diagnostic[] | undefined> {
    const language = this.table.forPath(file.absolute);
    const running = (this.slots.get(language?.id ?? '') ?? []).map((slot) => slot.client).filter((client): client is LspClient => client?.running === true);
    if (running.length === 0) return undefined;
    const wait = language?.compileDatabase ? waitMs : 0;
    const published = await Promise.all(running.map((client) => client.diagnosticsOf(file, wait)));
    return published.find((list) => list !== undefined);
  }

  /**
   * Whether a file's server was still loading its project (pyright before it found its files), waiting up to
   * `timeoutMs` for it to finish: an answer given meanwhile covers only the open files and is worth asking again.
   */
  async waitLoaded(file: WorkspaceFile, timeoutMs: number, signal?: AbortSignal): Promise<boolean> {
    const language = this.table.forPath(file.absolute);
    const loading = (this.slots.get(language?.id ?? '') ?? []).map((slot) => slot.client).filter((client) => client?.running && client.isLoading);
    if (loading.length === 0) return false;
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([
      Promise.all(loading.map((client) => client!.loaded)),
      new Promise<void>((resolve) => {
        timer = setTimeout(resolve, timeoutMs);
        signal?.addEventListener('abort', () => resolve(), { once: true });
      }),
    ]);
    clearTimeout(timer);
    return true;
  }

  /** Starts a language's servers ahead of need (e.g. at serve time); failures are logged, not thrown. */
  async warm(languageId: string): Promise<void> {
    for (const slot of this.slots.get(languageId) ?? []) {
      await this.ensure(slot).catch((error: unknown) => this.logger.warn({ language: languageId, err: error }, 'language server did not start'));
    }
  }

  /** One entry per server process slot, started or not. */
  status(): ServerStatus[] {
    const result: ServerStatus[] = [];
    for (const [languageId, slots] of this.slots) {
      for (const slot of slots) {
        const client = slot.client;
        const failing = client?.failing;
        const state: ServerState = failing
          ? 'unhealthy'
          : client?.running
            ? client.state
            : slot.starting
              ? 'starting'
              : slot.unhealthy && !slot.gaveUp
                ? 'unhealthy'
                : client && client.state !== 'stopped'
                  ? client.state
                  : slot.gaveUp
                    ? 'crashed'
                    : 'stopped';
        const entry: ServerStatus = {
          language: languageId,
          command: client?.commandLine ?? [commandDisplayName(slot.language.command), ...slot.language.args].join(' '),
          pid: client?.running || client?.state === 'starting' ? client.pid : null,
          state,
          progress: client?.running ? client.currentProgress : null,
          restarts: slot.restarts,
          uptimeMs: client?.running && client.startedAt !== null ? Date.now() - client.startedAt : null,
        };
        if (slots.length > 1) entry.instance = slot.instance;
        if (slot.language.compileDatabase && this.compileDatabase) {
          const { path: databasePath, synthesized, rewritten, source } = this.compileDatabase;
          entry.compileDatabase = { path: databasePath, synthesized, rewritten, ...(source ? { source } : {}) };
        }
        const lastError = failing
          ? `${failing}: requests to it fail at once until it answers or is restarted`
          : state === 'unhealthy'
            ? `${slot.unhealthy}: it is being restarted`
            : client?.state === 'crashed' || slot.gaveUp ? (slot.lastError ?? client?.lastError) : undefined;
        if (lastError) entry.lastError = lastError;
        result.push(entry);
      }
    }
    return result;
  }

  /** Stops every server (shutdown, exit, then SIGKILL) and waits until no child process is left. */
  async shutdown(): Promise<void> {
    this.closed = true;
    const stops: Promise<void>[] = [];
    for (const slots of this.slots.values()) {
      for (const slot of slots) {
        clearTimeout(slot.restartTimer);
        stops.push((async () => {
          await slot.client?.stop();
          // A start in flight ends once its client is stopped; wait so nothing is spawned after this.
          await slot.starting?.catch(() => {});
          await slot.client?.stop();
        })());
      }
    }
    await Promise.all(stops);
  }

  private async clientFor(language: LanguageDescriptor, file: WorkspaceFile, signal?: AbortSignal): Promise<LspClient> {
    const slots = this.slots.get(language.id)!;
    const next = this.nextInstance.get(language.id) ?? 0;
    this.nextInstance.set(language.id, (next + 1) % slots.length);
    // Round robin, passing over an instance that is unhealthy while another is not.
    const healthy = (slot: Slot): boolean => !slot.unhealthy && !slot.client?.failing;
    let index = next;
    for (let step = 0; step < slots.length && !healthy(slots[index]); step++) index = (next + step + 1) % slots.length;
    if (!healthy(slots[index])) index = next;
    slots[index].lastFile = file;
    return abortable(this.ensure(slots[index], file), signal, language);
  }

  /** The slot's running client, starting it (after any backoff) when it is not; `restart`: the scheduled restart itself. */
  private async ensure(slot: Slot, firstFile?: WorkspaceFile, restart = false): Promise<LspClient> {
    for (;;) {
      if (this.closed) throw new PlumbError('server_unavailable', `Language server for ${slot.language.name} is not available: plumb is shutting down`, { retryAfter: 5 });
      if (slot.client?.running) return slot.client;
      if (slot.starting) {
        await slot.starting;
        continue;
      }
      const wait = slot.retryAt - Date.now();
      if (wait > 0) {
        if (slot.gaveUp) {
          throw new PlumbError('server_unavailable', `Language server for ${slot.language.name} crashed ${slot.crashes.length} times in ${Math.round(this.config.lsp.restartWindowMs / 1000)} s (${slot.lastError ?? 'no reason given'}); it will be tried again after ${Math.ceil(wait / 1000)} s`, {
            retryAfter: Math.ceil(wait / 1000),
            details: { language: slot.language.id },
          });
        }
        // Killed for not doing its job: answers meanwhile say so (or fall back) instead of waiting for the restart.
        if (slot.unhealthy && !restart) {
          throw new PlumbError('server_unavailable', `Language server for ${slot.language.name} is unhealthy (it ${slot.unhealthy}) and is being restarted; retry after ${Math.ceil(wait / 1000)} s`, {
            retryAfter: Math.ceil(wait / 1000),
            details: { language: slot.language.id },
          });
        }
        await delay(wait);
        continue;
      }
      slot.starting = this.start(slot, firstFile).finally(() => {
        slot.starting = undefined;
      });
      return await slot.starting;
    }
  }

  private async start(slot: Slot, firstFile?: WorkspaceFile): Promise<LspClient> {
    const { language } = slot;
    const command = resolveCommand(language.command);
    if (!command) {
      throw new PlumbError('server_unavailable', `Language server for ${language.name} (${commandDisplayName(language.command)}) is not installed: ${language.installHint}`, {
        retryAfter: MISSING_RETRY_AFTER,
        details: { language: language.id, installHint: language.installHint },
      });
    }
    const args = [...language.args];
    if (language.compileDatabase) {
      this.compileDatabase = await prepareCompileDatabase({ root: this.workspace.root, cacheDir: this.cacheDir, config: this.config.compileDatabase });
      args.push(...this.compileDatabase.clangdArgs);
      const configured = this.config.compileDatabase.directory;
      if (configured && this.compileDatabase.source !== path.join(path.resolve(this.workspace.root, configured), 'compile_commands.json')) {
        this.logger.warn({ language: language.id, directory: configured }, 'compileDatabase.directory holds no compile_commands.json; using another');
      }
      this.logger.info({ language: language.id, compileDatabase: this.compileDatabase.path, synthesized: this.compileDatabase.synthesized, entries: this.compileDatabase.entries }, 'compile database');
    }
    const { lsp } = this.config;
    const client = new LspClient({
      language,
      command,
      args,
      root: this.workspace.root,
      files: this.workspace.files,
      requestTimeoutMs: lsp.requestTimeoutMs,
      startTimeoutMs: lsp.startTimeoutMs,
      maxInFlight: lsp.maxInFlight,
      unhealthyAfter: lsp.unhealthyAfter,
      maxOpenDocuments: lsp.maxOpenDocuments,
      logger: this.logger,
      languageIdOf: (file) => this.table.languageIdOf(language, file),
      retryAfterSeconds: () => this.retryAfterOf(slot),
      env: language.environment ? { ...process.env, ...(await language.environment({ cacheDir: this.cacheDir, env: process.env })) } : undefined,
    });
    if (slot.client) slot.restarts++;
    slot.client = client;
    slot.unhealthy = undefined;
    try {
      await client.start();
    } catch (error) {
      if (this.closed) throw error;
      this.recordCrash(slot, client.lastError ?? String(error), false);
      // Said when the next start is allowed, now that it is known (the crash history may have aged since the client was made).
      if (error instanceof PlumbError && error.code === 'server_unavailable') {
        throw new PlumbError(error.code, error.message, { details: error.details, retryAfter: this.retryAfterOf(slot), cause: error.cause });
      }
      throw error;
    }
    if (this.closed) {
      await client.stop();
      throw new PlumbError('server_unavailable', `Language server for ${language.name} is not available: plumb is shutting down`, { retryAfter: 5 });
    }
    client.onCrash = (crashed) => this.recordCrash(slot, crashed.lastError ?? 'exited', true);
    client.onUnhealthy = (_, reason) => this.restartUnhealthy(slot, client, reason);
    if (language.readiness.openFileOnStart) {
      // clangd and the TypeScript server index or load the project only once a document is open.
      const file = firstFile ?? (await this.findFileOf(language));
      if (file) await client.syncDocument(file).catch((error: unknown) => this.logger.debug({ language: language.id, err: error }, 'first document did not open'));
    }
    return client;
  }

  /**
   * A server that stopped doing its job (./health.ts) is killed and counted as a crash: restarted after the
   * same backoff, left crashed after too many. Its pending requests fail with 503 saying why.
   */
  private restartUnhealthy(slot: Slot, client: LspClient, reason: string): void {
    if (slot.client !== client || !client.running || this.closed) return;
    this.logger.warn({ language: slot.language.id, pid: client.pid, reason }, 'restarting an unhealthy language server');
    client.onCrash = undefined;
    slot.unhealthy = reason;
    this.recordCrash(slot, `unhealthy: it ${reason}`, true);
    client.abandon(new PlumbError('server_unavailable', `Language server for ${slot.language.name} is unhealthy (it ${reason}) and is being restarted`, {
      retryAfter: this.retryAfterOf(slot),
      details: { language: slot.language.id },
    }));
  }

  /** Counts a crash; restarts after backoff while within maxRestarts per window, else leaves the slot crashed. */
  private recordCrash(slot: Slot, reason: string, restart: boolean): void {
    const now = Date.now();
    const { maxRestarts, restartWindowMs } = this.config.lsp;
    slot.crashes = [...slot.crashes.filter((time) => now - time < restartWindowMs), now];
    slot.lastError = reason;
    slot.retryAt = now + this.backoffMs(slot.crashes.length);
    slot.gaveUp = slot.crashes.length > maxRestarts;
    if (slot.gaveUp || !restart || this.closed) return;
    clearTimeout(slot.restartTimer);
    slot.restartTimer = setTimeout(() => {
      this.ensure(slot, slot.lastFile, true).catch((error: unknown) => this.logger.warn({ language: slot.language.id, err: error }, 'language server restart failed'));
    }, Math.max(0, slot.retryAt - now));
    slot.restartTimer.unref();
  }

  private backoffMs(crashes: number): number {
    const first = this.config.lsp.restartBackoffMs;
    return Math.min(Math.max(MAX_BACKOFF_MS, first), first * 2 ** Math.max(0, crashes - 1));
  }

  /** Seconds until the slot's next start is allowed (the restart scheduled after a crash), at least 1. */
  private retryAfterOf(slot: Slot): number {
    return Math.max(1, Math.ceil((slot.retryAt - Date.now()) / 1000));
  }

  /** Some file of the language to open right after start, found breadth-first (dependencies and hidden dirs skipped). */
  private async findFileOf(language: LanguageDescriptor): Promise<WorkspaceFile | undefined> {
    const queue = [this.workspace.root];
    for (let visited = 0; queue.length > 0 && visited < 2000; visited++) {
      const directory = queue.shift()!;
      const entries = await readdir(directory, { withFileTypes: true }).catch(() => []);
      for (const entry of entries) {
        const absolute = path.join(directory, entry.name);
        if (entry.isFile() && this.table.forPath(absolute) === language) return { absolute, relative: this.workspace.relative(absolute) };
        if (entry.isDirectory() && !entry.name.startsWith('.') && entry.name !== 'node_modules') queue.push(absolute);
      }
    }
    return undefined;
  }

  private toPlumbError(error: unknown, language: LanguageDescriptor): PlumbError {
    if (error instanceof PlumbError) return error;
    const message = error instanceof Error ? error.message : String(error);
    return new PlumbError('server_unavailable', `Language server for ${language.name} failed: ${message}`, { retryAfter: 5, details: { language: language.id }, cause: error });
  }
}

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** Stops waiting (not the work) when the caller's signal aborts. */
function abortable<T>(promise: Promise<T>, signal: AbortSignal | undefined, language: LanguageDescriptor): Promise<T> {
  if (!signal) return promise;
  const reason = (): PlumbError => new PlumbError('request_cancelled', `Waiting for the ${language.name} server was cancelled: the caller went away`);
  if (signal.aborted) return Promise.reject(reason());
  return new Promise<T>((resolve, reject) => {
    const onAbort = (): void => reject(reason());
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}
