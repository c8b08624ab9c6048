/**
 * One answer's conversation with a language server, the same for callers and callees, the type graph
 * (inheritors, hierarchy, implementations), usages and resolve: open a session for the file the answer is
 * about (is there a server, does it serve the request, is it still indexing), ask it (counted against the
 * answer's budget of requests, a few at a time through one Semaphore, the time waiting for a turn counted
 * against each request's lsp.requestTimeoutMs), and say what came of it as one ServerOutcome. A failure
 * becomes the outcome's state and reason; `semanticOr` then gives the syntactic answer with that reason.
 *
 * ```ts
 * const conversation = new ServerConversation(services, signal);
 * const session = await conversation.open(file, symbol.language, [REFERENCES]);
 * const found = await semanticOr(session, () => conversation.ask(session, ReferencesRequest.type, params), (reason) => scan(reason));
 * // found.precision: 'semantic' | 'syntactic'; session.outcome: { language, request, state, reason? }
 * ```
 */
import { ErrorCodes } from 'vscode-languageserver-protocol';
import type { ProtocolRequestType, ServerCapabilities } from 'vscode-languageserver-protocol';
import type { ServerOutcome } from '../../schemas/common.js';
import { isCancelled, PlumbError } from '../errors.js';
import { Semaphore } from '../semaphore.js';
import type { Services } from '../services.js';
import type { WorkspaceFile } from '../workspace.js';

export type { ServerOutcome } from '../../schemas/common.js';

/** A request an answer rests on, and the capability by which a server declares it serves it. */
export interface ServedRequest {
  method: string;
  capability: keyof ServerCapabilities;
}

export const REFERENCES: ServedRequest = { method: 'textDocument/references', capability: 'referencesProvider' };
export const DEFINITION: ServedRequest = { method: 'textDocument/definition', capability: 'definitionProvider' };
export const DECLARATION: ServedRequest = { method: 'textDocument/declaration', capability: 'declarationProvider' };
export const IMPLEMENTATION: ServedRequest = { method: 'textDocument/implementation', capability: 'implementationProvider' };
export const TYPE_HIERARCHY: ServedRequest = { method: 'typeHierarchy/subtypes', capability: 'typeHierarchyProvider' };
export const INCOMING_CALLS: ServedRequest = { method: 'callHierarchy/incomingCalls', capability: 'callHierarchyProvider' };
export const OUTGOING_CALLS: ServedRequest = { method: 'callHierarchy/outgoingCalls', capability: 'callHierarchyProvider' };

/**
 * A request that failed on the server's side (an error answer, the server unavailable, a timeout where the
 * answer falls back on it), with the method: what `ServerSession.fail` turns into the outcome. A cancelled
 * request, and a timeout where the answer fails on it, are thrown as the PlumbError they are, never as this.
 */
export class ServerRequestFailure extends Error {
  constructor(readonly method: string, readonly error: PlumbError) {
    super(error.message, { cause: error });
    this.name = 'ServerRequestFailure';
  }
}

/** The server of one language as one answer sees it: where its requests go, what it serves, and the outcome so far. */
export class ServerSession {
  constructor(
    readonly outcome: ServerOutcome,
    /** The file its requests go through (the server is started and has it open); undefined when it cannot answer. */
    readonly file?: WorkspaceFile,
    private readonly capabilities?: ServerCapabilities,
    /** The pool's id of the server's language (`cpp`), for its status. */
    readonly languageId?: string,
  ) {}

  /** Whether the server can answer: it serves the request and has not failed (it may still be indexing). */
  get usable(): boolean {
    return this.outcome.state === 'answered' || this.outcome.state === 'indexing';
  }

  /** Whether the server runs and declares the capability (a request besides the one the session was opened for). */
  serves(request: ServedRequest): boolean {
    return this.file !== undefined && Boolean(this.capabilities?.[request.capability]);
  }

  /** The request the answer now rests on (a second one asked where the first gave nothing, say). */
  restsOn(request: ServedRequest): void {
    if (this.usable) this.outcome.request = request.method;
  }

  /** A request failed: the outcome says which and why (`unsupported` for a method the server does not know). */
  fail(failure: ServerRequestFailure): void {
    const { method, error } = failure;
    this.outcome.request = method;
    if (isUnsupported(error)) {
      this.outcome.state = 'unsupported';
      this.outcome.reason = `the ${this.outcome.language} server does not serve ${method} (${error.message})`;
      return;
    }
    this.outcome.state = isUnavailable(error) ? 'unavailable' : 'failed';
    this.outcome.reason = `the ${this.outcome.language} server could not answer ${method}: ${error.message}`;
  }

  /** The server answered `method`, but with nothing the answer can use: the outcome says so (and the syntactic answer follows). */
  gaveNothing(method: string, reason: string): void {
    this.outcome.request = method;
    this.outcome.reason = reason;
  }
}

export interface ConversationOptions {
  /** Requests this answer has in flight at once (a level of forty types must not flood the server). */
  concurrency?: number;
  /** Requests this answer makes at most; past it (`remaining` 0) the use case answers the rest from the index. */
  budget?: number;
  /**
   * What a request that runs out of lsp.requestTimeoutMs does: `fall back` (a failed outcome, the syntactic answer
   * or the index's alone: callers, callees, the type graph) or `fail` (504 server_timeout: usages and resolve, whose
   * one request is the answer).
   */
  timeouts?: 'fall back' | 'fail';
}

/** One answer's requests to language servers: opened sessions, counted and bounded asks. */
export class ServerConversation {
  /** Requests asked so far. */
  requests = 0;
  private readonly turns: Semaphore;
  private readonly budget: number;
  private readonly timeouts: 'fall back' | 'fail';

  constructor(private readonly services: Services, private readonly signal: AbortSignal | undefined, options: ConversationOptions = {}) {
    this.turns = new Semaphore(options.concurrency ?? 4);
    this.budget = options.budget ?? Infinity;
    this.timeouts = options.timeouts ?? 'fall back';
  }

  /** Requests the answer's budget has left (Infinity without one); at 0 the use case answers the rest from the index. */
  get remaining(): number {
    return Math.max(0, this.budget - this.requests);
  }

  /**
   * The server for a file, when one serves the first of `requests` it declares (in order of preference); the
   * outcome says which, or why none can answer. `file` is a path (its stored form) when it lies where no server
   * looks; `language` names the language while no server is known (the symbol's language, the file's extension).
   */
  async open(file: WorkspaceFile | string, language: string, requests: ServedRequest[]): Promise<ServerSession> {
    if (typeof file === 'string') return closed(language, 'unsupported', `'${file}' lies outside the workspace, where no language server looks`);
    let name: string;
    let languageId: string;
    try {
      ({ name, id: languageId } = this.services.lsp.languageFor(file));
    } catch (error) {
      if (error instanceof PlumbError && error.code === 'unsupported_language') return closed(language, 'unsupported', `no language server serves ${language}`);
      throw error;
    }
    try {
      const server = await this.services.lsp.serverFor(file, this.signal);
      const served = requests.find((request) => Boolean(server.capabilities?.[request.capability]));
      if (!served) return closed(name, 'unsupported', `${server.name} ${servesNone(requests)}`);
      const outcome: ServerOutcome = server.indexing
        ? { language: name, request: served.method, state: 'indexing', ...(server.progress ? { reason: server.progress } : {}) }
        : { language: name, request: served.method, state: 'answered' };
      return new ServerSession(outcome, file, server.capabilities, languageId);
    } catch (error) {
      if (isCancelled(error) || !(error instanceof PlumbError)) throw error;
      const unavailable = isUnavailable(error);
      return closed(name, unavailable ? 'unavailable' : 'failed', `the ${name} server ${unavailable ? 'is not available' : 'failed'}: ${error.message}`);
    }
  }

  /**
   * One request to the session's server (through `via`, another file it has open, when given): counted, at most
   * `concurrency` of this answer's at once, the wait for a turn counted against the request's time budget.
   * Throws a ServerRequestFailure when the server fails it; a cancellation (and a timeout, with `timeouts: 'fail'`)
   * as the PlumbError it is.
   */
  async ask<P, R>(session: ServerSession, type: ProtocolRequestType<P, R, unknown, unknown, unknown>, params: P, options: { via?: WorkspaceFile; expectAnswer?: boolean } = {}): Promise<R> {
    const file = options.via ?? session.file;
    if (!file) throw new ServerRequestFailure(type.method, new PlumbError('server_unavailable', `no ${session.outcome.language} server was opened for this answer`));
    this.requests++;
    const since = performance.now();
    try {
      return await this.turns.run(() => this.services.lsp.request(file, type, params, { signal: this.signal, since, expectAnswer: options.expectAnswer }), this.signal);
    } catch (error) {
      if (isCancelled(error) || !(error instanceof PlumbError)) throw error;
      if (error.code === 'server_timeout' && this.timeouts === 'fail') throw error;
      throw new ServerRequestFailure(type.method, error);
    }
  }

  /** Asks; a failure marks the session's outcome and answers undefined (answers that go on without this part). */
  async tryAsk<P, R>(session: ServerSession, type: ProtocolRequestType<P, R, unknown, unknown, unknown>, params: P, options: { via?: WorkspaceFile; expectAnswer?: boolean } = {}): Promise<R | undefined> {
    try {
      return await this.ask(session, type, params, options);
    } catch (error) {
      if (!(error instanceof ServerRequestFailure)) throw error;
      session.fail(error);
      return undefined;
    }
  }

  /**
   * A server that was idle when asked and is indexing now (clangd starts once its first file is open) may have
   * answered from a partial index: the outcome says `indexing`. Read from the pool's status, never waiting.
   */
  settle(session: ServerSession): void {
    if (session.outcome.state !== 'answered' || !session.languageId) return;
    const indexing = this.services.lsp.status().find((server) => server.language === session.languageId && server.state === 'indexing');
    if (!indexing) return;
    session.outcome.state = 'indexing';
    const progress = indexing.progress;
    const text = progress ? [progress.title, progress.message, progress.percent !== undefined ? `${progress.percent}%` : undefined].filter(Boolean).join(' ') : '';
    if (text) session.outcome.reason = text;
  }
}

/**
 * The server's answer where the session can give one, else the syntactic answer given the reason. `semantic`
 * answers undefined when the server had nothing to say (after saying why through the session), and may throw the
 * ServerRequestFailure of its requests: both fall back.
 */
export async function semanticOr<T>(session: ServerSession, semantic: () => Promise<T | undefined>, syntactic: (reason: string) => Promise<T>): Promise<{ answer: T; precision: 'semantic' | 'syntactic' }> {
  if (session.usable) {
    try {
      const answer = await semantic();
      if (answer !== undefined && session.usable) return { answer, precision: 'semantic' };
    } catch (error) {
      if (!(error instanceof ServerRequestFailure)) throw error;
      session.fail(error);
    }
  }
  return { answer: await syntactic(session.outcome.reason ?? `the ${session.outcome.language} server did not answer`), precision: 'syntactic' };
}

/**
 * Errors by which a server says it could not read a file as written, rather than that the code is wrong: an
 * include it cannot find (a module checked out without its engine, generated headers never generated), a name
 * used as a type it never saw declared (UCLASS, GENERATED_BODY, int32 from headers it could not read), its
 * parser giving up. Its answers about such a file miss what a reader sees in it.
 */
const UNREAD = [/file not found/i, /unknown type name/i, /unknown class name/i, /too many errors emitted/i, /requires a type specifier/i, /no template named/i, /expected class name/i];
/** The wait for a server's first diagnostics of a file it just opened (clangd publishes them once it has parsed it). */
const DIAGNOSTICS_WAIT_MS = 1500;

/**
 * Why the session's server could not parse its file, from the errors it published about it (`unread` errors
 * only; see UNREAD); undefined when it could, when it published nothing in time, or when no server is open.
 */
export async function unparsedReason(services: Services, session: ServerSession, file: WorkspaceFile | undefined = session.file): Promise<string | undefined> {
  if (!file || session.file === undefined) return undefined;
  const diagnostics = await services.lsp.diagnostics(file, DIAGNOSTICS_WAIT_MS);
  const unread = (diagnostics ?? []).filter((d) => (d.severity ?? 1) === 1 && UNREAD.some((pattern) => pattern.test(d.message)));
  if (unread.length === 0) return undefined;
  // clangd's first line says it (`In included file: 'CoreMinimal.h' file not found`), then where, and whether it has a fix.
  const shown = [...new Set(unread.map((d) => d.message.split('\n')[0].replace(/\s*\(fix available\)$/, '').trim()))].slice(0, 3).join('; ');
  return `the ${session.outcome.language} server could not parse ${file.relative} (${unread.length} error${unread.length === 1 ? '' : 's'} such as: ${shown})`;
}

/** The sentence an answer's `reason` carries while the server it asked was still indexing. */
export function indexingReason(outcome: ServerOutcome): string | undefined {
  if (outcome.state !== 'indexing') return undefined;
  return `The ${outcome.language} server was still indexing${outcome.reason ? ` (${outcome.reason})` : ''}: its answer may be incomplete`;
}

function closed(language: string, state: ServerOutcome['state'], reason: string): ServerSession {
  return new ServerSession({ language, request: null, state, reason });
}

function servesNone(requests: ServedRequest[]): string {
  const capabilities = requests.map((r) => r.capability).join(', ');
  if (requests.length === 1) return `does not serve ${requests[0].method} (no ${capabilities})`;
  return `serves ${requests.length === 2 ? 'neither' : 'none of'} ${requests.map((r) => r.method).join(requests.length === 2 ? ' nor ' : ', ')} (no ${capabilities})`;
}

/** The server does not know the method (a request it does not serve, though it declared the capability). */
function isUnsupported(error: PlumbError): boolean {
  return error.code === 'unsupported_language' || error.details?.lspCode === ErrorCodes.MethodNotFound || /method not found|unhandled method|not supported|unsupported/i.test(error.message);
}

/** The server is missing, not started, gone or unhealthy (not: it answered with an error, or too late). */
function isUnavailable(error: PlumbError): boolean {
  return error.code === 'server_unavailable' && error.details?.lspCode === undefined;
}
