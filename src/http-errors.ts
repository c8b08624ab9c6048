import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { PlumbError, STATUS_BY_CODE, type ErrorCode } from './errors.js';

interface ValidationIssue {
  instancePath?: string;
  keyword?: string;
  params?: Record<string, unknown>;
  message?: string;
}

/** A schema violation as a sentence that names the parameter and what is allowed. */
export function describeValidation(issues: ValidationIssue[], context: string | undefined): string {
  const issue = issues.find((i) => i.keyword !== 'anyOf') ?? issues[0];
  if (!issue) return 'Invalid request';
  const where = context === 'body' ? 'Body field' : context === 'params' ? 'Path parameter' : 'Parameter';
  const missing = issue.params?.requiredProperties ?? issue.params?.missingProperty;
  if (issue.keyword === 'required' && missing !== undefined) {
    const names = Array.isArray(missing) ? missing : [missing];
    return `${where} '${names.join("', '")}' is required`;
  }
  const name = (issue.instancePath ?? '').replace(/^\//, '').split('/').join('.') || '(request)';
  // A union of literals (kind, depth, format) fails as several 'const' issues: list the allowed values.
  const allowed = issues
    .filter((i) => (i.instancePath ?? '') === (issue.instancePath ?? '') && i.keyword === 'const')
    .map((i) => i.params?.allowedValue)
    .filter((v) => v !== undefined);
  if (issue.keyword === 'enum' && Array.isArray(issue.params?.allowedValues)) return `${where} '${name}' must be one of: ${issue.params.allowedValues.join(', ')}`;
  if (allowed.length > 0) return `${where} '${name}' must be one of: ${allowed.join(', ')}`;
  if (issue.keyword === 'maximum') return `${where} '${name}' must be at most ${String(issue.params?.limit ?? issue.params?.maximum)}`;
  if (issue.keyword === 'minimum') return `${where} '${name}' must be at least ${String(issue.params?.limit ?? issue.params?.minimum)}`;
  return `${where} '${name}' ${issue.message ?? 'is invalid'}`;
}

export interface ErrorBody {
  error: { code: ErrorCode; message: string; [extra: string]: unknown };
}

export function errorBody(error: PlumbError): ErrorBody {
  return { error: { code: error.code, message: error.message, ...(error.details ?? {}) } };
}

/** The one place where errors become HTTP answers: never a stack trace, never a 500 for bad input. */
export function handleError(error: FastifyError | PlumbError | Error, request: FastifyRequest, reply: FastifyReply): FastifyReply {
  if (error instanceof PlumbError && error.code === 'request_cancelled') {
    // The client is gone: not a timeout, nothing to answer. Logged and counted (/status requestsCancelled).
    request.log.info({ url: request.url }, error.message);
    const stats = (request.server as { plumb?: { stats: { requestsCancelled: number } } }).plumb?.stats;
    if (stats) stats.requestsCancelled++;
    reply.hijack();
    if (!reply.raw.destroyed) reply.raw.destroy();
    return reply;
  }
  if (error instanceof PlumbError) {
    if (error.retryAfter !== undefined) reply.header('retry-after', String(error.retryAfter));
    if (error.status >= 500) request.log.warn({ code: error.code }, error.message);
    return reply.status(error.status).type('application/json').send(errorBody(error));
  }
  const fastifyError = error as FastifyError;
  if (fastifyError.validation) {
    const message = describeValidation(fastifyError.validation as ValidationIssue[], fastifyError.validationContext);
    return reply.status(400).type('application/json').send({ error: { code: 'invalid_parameter', message } });
  }
  const status = fastifyError.statusCode;
  if (status !== undefined && status >= 400 && status < 500) {
    const code: ErrorCode = status === 413 ? 'payload_too_large' : status === 429 ? 'rate_limited' : status === 404 ? 'not_found' : 'invalid_parameter';
    return reply.status(status).type('application/json').send({ error: { code, message: fastifyError.message } });
  }
  request.log.error({ err: error }, 'unexpected error');
  return reply.status(STATUS_BY_CODE.internal_error).type('application/json').send({ error: { code: 'internal_error', message: 'Internal error; the server log has the details' } });
}
