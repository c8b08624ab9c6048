/** Errors are values with a code; routes map codes to HTTP statuses here and nowhere else. */
export type ErrorCode =
  | 'invalid_parameter'
  | 'path_outside_root'
  | 'file_not_found'
  | 'symbol_not_found'
  | 'package_not_found'
  | 'no_symbol_at_position'
  | 'ambiguous_symbol'
  | 'unsupported_language'
  | 'server_unavailable'
  | 'server_timeout'
  /** A request of a batch not answered within the batch's time limit (batch.timeoutMs): the others are whole. */
  | 'batch_timeout'
  /** The index's store (a PostgreSQL database) cannot be reached, or holds no index this plumb can read. */
  | 'store_unavailable'
  | 'unauthorized'
  | 'not_found'
  | 'payload_too_large'
  | 'rate_limited'
  /** The HTTP client or MCP caller went away before the answer: nothing is sent. */
  | 'request_cancelled'
  | 'internal_error';

export const STATUS_BY_CODE: Record<ErrorCode, number> = {
  invalid_parameter: 400,
  path_outside_root: 400,
  unsupported_language: 400,
  file_not_found: 404,
  symbol_not_found: 404,
  package_not_found: 404,
  no_symbol_at_position: 404,
  not_found: 404,
  ambiguous_symbol: 409,
  payload_too_large: 413,
  rate_limited: 429,
  request_cancelled: 499,
  unauthorized: 401,
  server_unavailable: 503,
  store_unavailable: 503,
  server_timeout: 504,
  batch_timeout: 504,
  internal_error: 500,
};

export class PlumbError extends Error {
  readonly code: ErrorCode;
  /** Extra JSON fields for the error body, e.g. candidates of an ambiguous name. */
  readonly details?: Record<string, unknown>;
  /** Seconds a client should wait before retrying (503). */
  readonly retryAfter?: number;

  constructor(code: ErrorCode, message: string, options: { details?: Record<string, unknown>; retryAfter?: number; cause?: unknown } = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'PlumbError';
    this.code = code;
    this.details = options.details;
    this.retryAfter = options.retryAfter;
  }

  get status(): number {
    return STATUS_BY_CODE[this.code];
  }
}

export function invalidParameter(name: string, message: string): PlumbError {
  return new PlumbError('invalid_parameter', `Parameter '${name}' ${message}`, { details: { parameter: name } });
}

export function isPlumbError(value: unknown): value is PlumbError {
  return value instanceof PlumbError;
}

/** The caller went away (request_cancelled, the one code for it): never a failure to fall back from, always passed on. */
export function isCancelled(error: unknown): error is PlumbError {
  return error instanceof PlumbError && error.code === 'request_cancelled';
}
