/**
 * POST /batch (MCP `batch`): several operations in one round trip, now that MCP has no JSON-RPC batching. Each
 * request is answered as the operation alone would answer it (status and body), in request order, a failure in one
 * leaving the others whole; the batch is bounded in time (batch.timeoutMs) and counts as its requests toward the
 * rate limit. It runs operations, so it lives beside them: index.ts hands it the list.
 */
import { BATCH_MAX, BatchQuery, BatchResponse, type BatchResult } from '../../schemas/batch.js';
import { MAX_TOKENS_MIN } from '../../schemas/budget.js';
import { isPlumbError, PlumbError } from '../errors.js';
import { errorBody } from '../http-errors.js';
import { forEachLimit } from '../map-limit.js';
import type { Services } from '../services.js';
import { answerOperation, readArguments } from './answer.js';
import { renderAnswer } from './budget.js';
import { defineOperation, type Operation } from './operation.js';

type Operations = Map<string, Operation>;

/** The caller went away, or the batch's deadline stopped the request. */
function isCancelled(error: unknown): error is PlumbError {
  return isPlumbError(error) && error.code === 'request_cancelled';
}

function failed(operation: string, error: PlumbError): BatchResult {
  return { operation, status: error.status, body: errorBody(error) };
}

function timedOut(operation: string, timeoutMs: number): BatchResult {
  return failed(operation, new PlumbError('batch_timeout', `The batch's time limit (${timeoutMs / 1000} s, batch.timeoutMs) ran out before this request was answered; ask it alone, or in a smaller batch`));
}

/** One request as its operation alone answers it. */
async function answerRequest(services: Services, operations: Operations, request: BatchQuery['requests'][number], at: number, share: number | undefined, signal: AbortSignal): Promise<BatchResult> {
  const name = request.operation;
  const operation = operations.get(name);
  if (!operation) {
    return failed(name, new PlumbError('invalid_parameter', `Body field 'requests.${at}.operation': unknown operation '${name}'; one of: ${[...operations.keys()].join(', ')}`, { details: { parameter: `requests.${at}.operation` } }));
  }
  const read = readArguments(operation.input, request.params ?? {});
  if ('message' in read) return failed(name, new PlumbError('invalid_parameter', read.message));
  const input: Record<string, unknown> = { ...read.value };
  if (input.max_tokens === undefined && share !== undefined && 'max_tokens' in operation.input.properties) input.max_tokens = share;
  try {
    return { operation: name, status: 200, body: await answerOperation(operation, services, input, signal) };
  } catch (error) {
    if (isPlumbError(error)) {
      if (isCancelled(error)) throw error;
      return failed(name, error);
    }
    services.logger.error({ err: error, operation: name }, 'batch request failed');
    return failed(name, new PlumbError('internal_error', 'Internal error; the server log has the details'));
  }
}

async function runBatch(services: Services, operations: Operations, input: BatchQuery & { max_tokens?: number }, signal: AbortSignal): Promise<BatchResponse> {
  const started = performance.now();
  const { timeoutMs, concurrency } = services.config.batch;
  const requests = input.requests;
  // A batch's max_tokens is shared out among the requests that give none of their own.
  const share = input.max_tokens === undefined ? undefined : Math.max(MAX_TOKENS_MIN, Math.floor(input.max_tokens / requests.length));
  const deadline = new AbortController();
  const timer = setTimeout(() => deadline.abort(), timeoutMs);
  const expired = new Promise<undefined>((resolve) => deadline.signal.addEventListener('abort', () => resolve(undefined), { once: true }));
  const either = AbortSignal.any([signal, deadline.signal]);
  const results: BatchResult[] = new Array(requests.length);
  try {
    await forEachLimit(requests, concurrency, async (request, at) => {
      const answered = deadline.signal.aborted ? undefined : await Promise.race([
        answerRequest(services, operations, request, at, share, either).catch((error: unknown) => {
          // Stopped by the deadline: a timeout in its place. Stopped because the caller went away: the batch ends.
          if (isCancelled(error) && deadline.signal.aborted && !signal.aborted) return undefined;
          throw error;
        }),
        expired,
      ]);
      results[at] = answered ?? timedOut(request.operation, timeoutMs);
    });
  } finally {
    clearTimeout(timer);
  }
  if (signal.aborted) throw new PlumbError('request_cancelled', 'The batch was cancelled: the caller went away');
  return { results, elapsedMs: Math.round(performance.now() - started) };
}

const number = new Intl.NumberFormat('en-US');

function batchMarkdown(answer: BatchResponse, operations: Operations): string {
  const statuses = new Map<number, number>();
  for (const result of answer.results) statuses.set(result.status, (statuses.get(result.status) ?? 0) + 1);
  const counts = [...statuses].sort(([a], [b]) => a - b).map(([status, count]) => `${count} × ${status}`).join(', ');
  const lines = [`# Batch of ${answer.results.length} request${answer.results.length === 1 ? '' : 's'}`, '', `Answered in request order in ${number.format(answer.elapsedMs)} ms: ${counts}.`];
  answer.results.forEach((result, at) => {
    const error = result.status === 200 ? undefined : (result.body as { error?: { code?: string; message?: string } }).error;
    lines.push('', '---', '', `**${at + 1}. ${result.operation}** → ${result.status}${error?.code ? ` ${error.code}` : ''}`, '');
    const operation = operations.get(result.operation);
    if (result.status === 200 && operation) lines.push(renderAnswer(operation, result.body).trimEnd());
    else lines.push(error?.message ?? JSON.stringify(result.body));
  });
  return lines.join('\n') + '\n';
}

/** The batch operation over `operations()` (read when a batch runs: index.ts's list, which holds the batch too). */
export function batchOperation(operations: () => Operation[]): Operation {
  const byTool = (): Operations => new Map(operations().flatMap((operation) => (operation.tool && operation.tool.name !== 'batch' ? [[operation.tool.name, operation] as const] : [])));
  return defineOperation({
    http: {
      method: 'POST',
      path: '/batch',
      summary: 'Several operations in one request',
      description: [
        `A JSON body \`{"requests": [{"operation": "<MCP tool name>", "params": {...}}, ...]}\`, 1 to ${BATCH_MAX} requests, each named by its MCP tool (\`find_declaration\`, \`find_usages\`...) with the arguments that tool takes (the endpoint's query parameters, as JSON).`,
        'Answers `{"results": [{"operation", "status", "body"}, ...]}` in request order, each exactly what the operation alone answers: status 200 with its JSON answer, or its error status with `{"error": {...}}` (an unknown operation or a bad parameter is a 400 in its place); one request\'s failure leaves the others whole.',
        'Requests run a few at a time (batch.concurrency); the batch is bounded in total time (batch.timeoutMs, default 60 s): a request not answered by then is a 504 `batch_timeout` in its place. It counts as its requests toward the rate limit.',
        '`max_tokens` is shared out equally among the requests that give none of their own; `format=markdown` renders every answer in order.',
      ].join(' '),
      tags: ['navigation'],
      errors: [400],
      example: '/batch',
      exampleBody: { requests: [{ operation: 'find_declaration', params: { symbol: 'Config' } }, { operation: 'find_usages', params: { symbol: 'Config.from_object', limit: 20 } }] },
    },
    tool: {
      name: 'batch',
      title: 'Several questions in one call',
      description: `Up to ${BATCH_MAX} tool calls in one: each {"operation": "<tool name>", "params": {...}} answered as that tool alone would, in order, a failure in one leaving the others whole. Example: {"requests": [{"operation": "find_declaration", "params": {"symbol": "Config"}}, {"operation": "find_callers", "params": {"symbol": "Config.load"}}]}`,
    },
    input: BatchQuery,
    response: BatchResponse,
    ownBudget: true,
    requestCount: (input) => Math.min(Array.isArray(input.requests) ? input.requests.length : 1, BATCH_MAX),
    run: (services, input, signal) => runBatch(services, byTool(), input, signal),
    markdown: (answer: BatchResponse) => batchMarkdown(answer, byTool()),
  });
}
