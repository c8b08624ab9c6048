import type { FastifyReply } from 'fastify';

/** Aborts when the HTTP client goes away before the answer is sent, so language-server work is cancelled. */
export function abortSignalOf(reply: FastifyReply): AbortSignal {
  const controller = new AbortController();
  reply.raw.once('close', () => {
    if (!reply.raw.writableFinished) controller.abort();
  });
  return controller.signal;
}
