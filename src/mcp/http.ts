import { randomUUID } from 'node:crypto';
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { chargeRequests } from '../plugins/access.js';
import type { Services } from '../services.js';
import { createMcpServer } from './server.js';
import { TOOLS } from './tools.js';

const TOOL_BY_NAME = new Map(TOOLS.map((tool) => [tool.name, tool]));

/**
 * How many requests a POST body counts as toward the rate limit: one per message, a tools/call of `batch` as the
 * requests it carries (the operation's requestCount), as POST /batch counts.
 */
export function requestCountOf(body: unknown): number {
  const messages = Array.isArray(body) ? body : [body];
  let count = 0;
  for (const message of messages) {
    const params = (message as { method?: unknown; params?: { name?: unknown; arguments?: unknown } } | null)?.params;
    const tool = (message as { method?: unknown } | null)?.method === 'tools/call' && typeof params?.name === 'string' ? TOOL_BY_NAME.get(params.name) : undefined;
    const counted = tool?.operation.requestCount && typeof params?.arguments === 'object' && params.arguments !== null ? tool.operation.requestCount(params.arguments as never) : 1;
    count += Number.isInteger(counted) && counted > 1 ? counted : 1;
  }
  return count;
}

interface Session {
  transport: StreamableHTTPServerTransport;
  server: Server;
  lastUsed: number;
}

export interface McpSessionLimits {
  /** Sessions kept at once; a new one past this ends the least recently used. */
  maxSessions: number;
  /** A session unused this long is ended; its client re-initializes on the 404. */
  idleTimeoutMs: number;
}

/** JSON-RPC error bodies for requests that never reach a transport (the SDK's own shape and codes). */
function jsonRpcError(reply: FastifyReply, status: number, message: string): FastifyReply {
  return reply.status(status).type('application/json').send({ jsonrpc: '2.0', error: { code: status === 404 ? -32001 : -32000, message }, id: null });
}

/**
 * Stateful Streamable HTTP sessions: POST initialize opens one (its id in Mcp-Session-Id),
 * POST carries requests, GET opens the server's event stream, DELETE ends it.
 */
export class McpSessions {
  private readonly sessions = new Map<string, Session>();
  private readonly sweeper: NodeJS.Timeout;

  constructor(private readonly services: Services, private readonly limits: McpSessionLimits) {
    this.sweeper = setInterval(() => this.closeIdle(), Math.min(60_000, limits.idleTimeoutMs));
    this.sweeper.unref();
  }

  /** Hands the raw request to the session's transport; Fastify has parsed the body already. */
  async handle(request: FastifyRequest, reply: FastifyReply): Promise<void> {
    const header = request.headers['mcp-session-id'];
    const sessionId = Array.isArray(header) ? header[0] : header;
    let session: Session | undefined;
    if (sessionId !== undefined) {
      session = this.sessions.get(sessionId);
      if (!session) {
        await jsonRpcError(reply, 404, `Session '${sessionId}' not found (ended or expired); send initialize without Mcp-Session-Id to start a new one`);
        return;
      }
    } else if (request.method === 'POST' && isInitializeRequest(request.body)) {
      session = await this.open();
    } else {
      await jsonRpcError(reply, 400, 'Bad Request: no Mcp-Session-Id header; start a session with a POST of initialize');
      return;
    }
    session.lastUsed = Date.now();
    // A batch counts as its requests: a 429 (the route's error handler) before the transport sees it.
    if (request.method === 'POST') await chargeRequests(request, requestCountOf(request.body));
    // From here the SDK writes the response (JSON or an event stream); Fastify must not.
    reply.hijack();
    try {
      await session.transport.handleRequest(request.raw, reply.raw, request.body);
    } catch (error) {
      this.services.logger.error({ err: error }, 'MCP request failed');
      if (!reply.raw.headersSent) {
        reply.raw.writeHead(500, { 'content-type': 'application/json' });
        reply.raw.end(JSON.stringify({ jsonrpc: '2.0', error: { code: -32603, message: 'Internal error' }, id: null }));
      }
    }
  }

  private async open(): Promise<Session> {
    if (this.sessions.size >= this.limits.maxSessions) await this.closeLeastRecentlyUsed();
    const server = createMcpServer(this.services);
    const session: Session = {
      server,
      lastUsed: Date.now(),
      transport: new StreamableHTTPServerTransport({
        sessionIdGenerator: () => randomUUID(),
        onsessioninitialized: (id) => {
          this.sessions.set(id, session);
        },
        onsessionclosed: (id) => {
          this.sessions.delete(id);
        },
      }),
    };
    session.transport.onclose = () => {
      if (session.transport.sessionId) this.sessions.delete(session.transport.sessionId);
    };
    await server.connect(session.transport);
    return session;
  }

  private async closeLeastRecentlyUsed(): Promise<void> {
    let oldest: [string, Session] | undefined;
    for (const entry of this.sessions) if (!oldest || entry[1].lastUsed < oldest[1].lastUsed) oldest = entry;
    if (oldest) await this.close(oldest[0], oldest[1]);
  }

  private closeIdle(): void {
    const cutoff = Date.now() - this.limits.idleTimeoutMs;
    for (const [id, session] of this.sessions) if (session.lastUsed < cutoff) void this.close(id, session);
  }

  private async close(id: string, session: Session): Promise<void> {
    this.sessions.delete(id);
    await session.server.close().catch(() => undefined);
  }

  /** Ends every session, open event streams included, so the HTTP server can close. */
  async closeAll(): Promise<void> {
    clearInterval(this.sweeper);
    await Promise.all([...this.sessions].map(([id, session]) => this.close(id, session)));
  }
}
