import type { FastifyReply, FastifyRequest } from 'fastify';

/** format=markdown or an Accept header that prefers text/markdown. */
export function wantsMarkdown(request: FastifyRequest): boolean {
  const query = request.query as { format?: string } | undefined;
  if (query?.format === 'markdown') return true;
  if (query?.format === 'json') return false;
  return acceptPrefersMarkdown(request.headers.accept ?? '');
}

interface AcceptEntry { type: string; q: number; order: number }

/** The media ranges of an Accept header with their q values (1 when absent; a malformed q counts as 0). */
export function parseAccept(header: string): AcceptEntry[] {
  return header.split(',').flatMap((part, order) => {
    const [range, ...params] = part.split(';').map((piece) => piece.trim());
    if (!range) return [];
    let q = 1;
    for (const param of params) {
      const match = /^q\s*=\s*(.*)$/i.exec(param);
      if (match) q = /^(0(\.\d{0,3})?|1(\.0{0,3})?)$/.test(match[1]) ? Number(match[1]) : 0;
    }
    return [{ type: range.toLowerCase(), q, order }];
  });
}

/**
 * Markdown when the header names text/markdown with a q above zero and above JSON's: application/json
 * named explicitly (a tie goes to the one listed first), else a wildcard covering JSON (a tie goes to
 * markdown, named more specifically). `text/markdown;q=0` refuses markdown.
 */
export function acceptPrefersMarkdown(header: string): boolean {
  const entries = parseAccept(header);
  const markdown = entries.find((entry) => entry.type === 'text/markdown');
  if (!markdown || markdown.q <= 0) return false;
  const json = entries.find((entry) => entry.type === 'application/json');
  if (json) return markdown.q > json.q || (markdown.q === json.q && markdown.order < json.order);
  const wildcard = Math.max(0, ...entries.filter((entry) => entry.type === '*/*' || entry.type === 'application/*').map((entry) => entry.q));
  return markdown.q >= wildcard;
}

/** Sends a use case's result as JSON, or as its markdown rendering when the client asked for it. */
export function sendResult<T>(request: FastifyRequest, reply: FastifyReply, result: T, markdown: (result: T) => string): FastifyReply {
  if (wantsMarkdown(request)) {
    return reply.type('text/markdown; charset=utf-8').send(markdown(result));
  }
  return reply.send(result);
}
