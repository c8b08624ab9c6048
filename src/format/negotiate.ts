import type { FastifyReply, FastifyRequest } from 'fastify';

/** format=markdown or an Accept header that prefers text/markdown. */
export function wantsMarkdown(request: FastifyRequest): boolean {
  const query = request.query as { format?: string } | undefined;
  if (query?.format === 'markdown') return true;
  if (query?.format === 'json') return false;
  const accept = request.headers.accept ?? '';
  return /\btext\/markdown\b/.test(accept) && !/^\s*application\/json\b/.test(accept);
}

/** Sends a use case's result as JSON, or as its markdown rendering when the client asked for it. */
export function sendResult<T>(request: FastifyRequest, reply: FastifyReply, result: T, markdown: (result: T) => string): FastifyReply {
  if (wantsMarkdown(request)) {
    return reply.type('text/markdown; charset=utf-8').send(markdown(result));
  }
  return reply.send(result);
}
