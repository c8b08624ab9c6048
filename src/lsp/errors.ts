import { ErrorCodes, LSPErrorCodes, ResponseError } from 'vscode-languageserver-protocol/node.js';
import { PlumbError } from '../errors.js';

/**
 * Every failure of a language server reaching a caller as a PlumbError: the server process missing
 * or gone (server_unavailable, with Retry-After), too slow (server_timeout), the caller gone
 * (request_cancelled), or the server's own JSON-RPC/LSP error.
 */

/** Who the errors name: "Language server for C++ (clangd-19)" and "C++ server (clangd-19)". */
export interface ServerIdentity {
  languageId: string;
  languageName: string;
  /** The binary's base name (clangd-19, tsgo, pyright-langserver). */
  binary: string;
  /** Seconds a 503 tells clients to wait, asked when the error is made. */
  retryAfterSeconds?: () => number;
}

export function serverName(identity: ServerIdentity): string {
  return `${identity.languageName} server (${identity.binary})`;
}

/** 503: the process cannot be started, is not running, crashed, or stopped answering. */
export function serverUnavailable(identity: ServerIdentity, what: string, cause?: unknown): PlumbError {
  return new PlumbError('server_unavailable', `Language server for ${identity.languageName} (${identity.binary}) ${what}`, {
    retryAfter: identity.retryAfterSeconds?.() ?? 5,
    details: { language: identity.languageId },
    cause,
  });
}

/** 504: no answer within the request's time budget (`spent`: where it went, when not on the server's side). */
export function serverTimeout(server: string, method: string, timeoutMs: number, spent?: string): PlumbError {
  const message = spent ? `${method} to ${server} ran out of its ${timeoutMs} ms, ${spent}` : `${server} did not answer ${method} within ${timeoutMs} ms`;
  return new PlumbError('server_timeout', message, { details: { method, timeoutMs } });
}

/** 499: the caller went away (its abort signal fired); nothing is sent back. */
export function requestCancelled(method: string, server: string): PlumbError {
  return new PlumbError('request_cancelled', `${method} to ${server} was cancelled: the caller went away`, { details: { method } });
}

/** A request's failure as a PlumbError: the server's ResponseError by its code, anything else the connection failing. */
export function requestFailure(identity: ServerIdentity, error: unknown, method: string): PlumbError {
  if (error instanceof PlumbError) return error;
  const server = serverName(identity);
  if (error instanceof ResponseError) {
    if (error.code === ErrorCodes.InvalidParams) {
      return new PlumbError('invalid_parameter', `${server} rejected ${method}: ${error.message}`, { details: { method } });
    }
    if (error.code === LSPErrorCodes.ContentModified || error.code === LSPErrorCodes.ServerCancelled || error.code === LSPErrorCodes.RequestCancelled) {
      return new PlumbError('server_unavailable', `${server} dropped ${method} (${error.message}); retry`, { retryAfter: 1, details: { method } });
    }
    return new PlumbError('server_unavailable', `${server} failed ${method}: ${error.message}`, { retryAfter: 1, details: { method, lspCode: error.code } });
  }
  // Anything else is the connection failing under the request (EPIPE, disposed): the server is gone.
  return serverUnavailable(identity, `stopped answering ${method} (${error instanceof Error ? error.message : String(error)})`, error);
}
