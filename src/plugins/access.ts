import { createHash, timingSafeEqual } from 'node:crypto';
import rateLimit from '@fastify/rate-limit';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { isLoopback, type PlumbConfig } from '../config.js';
import { PlumbError } from '../errors.js';
import { errorBody } from '../http-errors.js';

/** Routes anyone may call: a health check from Docker or a load balancer carries no token. */
const OPEN_ROUTES = new Set(['/health']);

/**
 * Access control, registered before the routes: the bearer token (when configured), the
 * loopback guard (when there is none), and a rate limit a well-behaved client never meets.
 * CORS stays off: plumb's clients are agents, curl and MCP clients, and /docs is same-origin.
 */
export async function registerAccess(app: FastifyInstance, config: PlumbConfig): Promise<void> {
  // The limiter first, as an instance hook ahead of the token check: wrong tokens are counted and
  // limited like any request (a route-level limiter would run only after authentication passed).
  if (config.rateLimit.max > 0) {
    await app.register(rateLimit, {
      global: false,
      max: config.rateLimit.max,
      timeWindow: config.rateLimit.windowMs,
      allowList: (request) => config.rateLimit.exemptLoopback && isLoopbackAddress(request.ip),
      errorResponseBuilder: (_request, context) => rateLimited(context.max, config.rateLimit.windowMs, context.after),
    });
    app.addHook('onRequest', app.rateLimit());
    const limiter = app.createRateLimit();
    app.decorate('chargeRequests', async (request: FastifyRequest, count: number) => {
      for (let i = 0; i < count; i++) {
        const outcome = await limiter(request);
        if (outcome.isAllowed) return;
        if (outcome.isExceeded) throw rateLimited(outcome.max, config.rateLimit.windowMs, `${outcome.ttlInSeconds} seconds`, outcome.ttlInSeconds);
      }
    });
  }
  if (config.token) app.addHook('onRequest', bearerTokenCheck(config.token));
  else if (isLoopback(config.host)) app.addHook('onRequest', loopbackGuard);
}

declare module 'fastify' {
  interface FastifyInstance {
    /** Present while a rate limit is on: counts `count` more requests from this client, a 429 once past the limit. */
    chargeRequests?: (request: FastifyRequest, count: number) => Promise<void>;
  }
}

function rateLimited(max: number, windowMs: number, after: string, retryAfter?: number): PlumbError {
  return new PlumbError('rate_limited', `Rate limit of ${max} requests per ${windowMs / 1000} s exceeded; retry in ${after}`, retryAfter === undefined ? {} : { retryAfter });
}

/**
 * A request that carries several (a batch, over HTTP or as an MCP tool call) counts as that many toward the rate
 * limit: the onRequest hook counted one, this counts the rest. Nothing to count without a limit.
 */
export async function chargeRequests(request: FastifyRequest, count: number): Promise<void> {
  if (count > 1) await request.server.chargeRequests?.(request, count - 1);
}

/** Hashing first gives equal-length buffers, so timingSafeEqual never throws and the length leaks nothing. */
function digest(text: string): Buffer {
  return createHash('sha256').update(text, 'utf8').digest();
}

export function bearerTokenCheck(token: string): (request: FastifyRequest, reply: FastifyReply) => Promise<void> {
  const expected = digest(token);
  return async (request, reply) => {
    if (request.routeOptions.url !== undefined && OPEN_ROUTES.has(request.routeOptions.url)) return;
    const header = request.headers.authorization;
    const presented = /^Bearer[ \t]+(\S+)[ \t]*$/i.exec(header ?? '')?.[1];
    if (presented !== undefined && timingSafeEqual(digest(presented), expected)) return;
    const message = header === undefined
      ? 'This plumb requires a bearer token: send the header Authorization: Bearer <token>'
      : presented === undefined ? 'The Authorization header must be: Bearer <token>' : 'The bearer token is not the one this plumb was started with';
    await unauthorized(reply, message);
  };
}

/**
 * Without a token on a loopback address, only requests addressed to a loopback name are served:
 * a web page cannot reach plumb through DNS rebinding or a cross-site request (MCP asks servers to check Origin).
 */
async function loopbackGuard(request: FastifyRequest, reply: FastifyReply): Promise<void> {
  const host = request.hostname;
  if (host && !isLoopback(host)) {
    await unauthorized(reply, `Host '${host}' is not a loopback name: without a token plumb answers only requests to localhost, 127.0.0.1 or [::1]; set PLUMB_TOKEN to serve other names`);
    return;
  }
  const origin = request.headers.origin;
  if (origin !== undefined && !isLoopbackOrigin(origin)) {
    await unauthorized(reply, `Origin '${origin}' is not a loopback origin: without a token plumb does not answer web pages from other sites; set PLUMB_TOKEN to allow it`);
  }
}

function isLoopbackOrigin(origin: string): boolean {
  try {
    return isLoopback(new URL(origin).hostname);
  } catch {
    return false;
  }
}

/** request.ip as Node gives it: IPv4, IPv6, or IPv4 mapped into IPv6. */
export function isLoopbackAddress(ip: string): boolean {
  return ip === '::1' || /^(::ffff:)?127\.\d+\.\d+\.\d+$/.test(ip);
}

async function unauthorized(reply: FastifyReply, message: string): Promise<void> {
  await reply
    .code(401)
    .header('www-authenticate', 'Bearer realm="plumb"')
    .type('application/json')
    .send(errorBody(new PlumbError('unauthorized', message)));
}
