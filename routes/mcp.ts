import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { McpSessions } from '../src/mcp/http.js';
import { TOOLS } from '../src/mcp/tools.js';

const SessionHeader = Type.Object({
  'mcp-session-id': Type.Optional(Type.String({ description: 'The session id the initialize answer gave (absent only on initialize)' })),
});

const JsonRpcAnswer = Type.Unknown({ description: 'A JSON-RPC response, or an event stream of them (text/event-stream) when the client accepts one' });
const JsonRpcError = Type.Object({
  jsonrpc: Type.Literal('2.0'),
  error: Type.Object({ code: Type.Integer(), message: Type.String() }),
  id: Type.Null(),
}, { description: 'A JSON-RPC error: no session id, or a session that ended' });

/**
 * Errors before the transport sees a request (a body that is not JSON, an empty one, one too large) in the
 * JSON-RPC shape the MCP transport gives: -32700 for a body that does not parse, as Streamable HTTP specifies.
 */
function mcpErrorHandler(error: FastifyError, request: FastifyRequest, reply: FastifyReply): FastifyReply {
  const status = error.statusCode !== undefined && error.statusCode >= 400 && error.statusCode < 500 ? error.statusCode : 500;
  const parse = error.code === 'FST_ERR_CTP_INVALID_JSON_BODY' || error.code === 'FST_ERR_CTP_EMPTY_JSON_BODY' || error instanceof SyntaxError;
  if (status === 500 && !parse) request.log.error({ err: error }, 'MCP request failed');
  const message = parse
    ? `Parse error: the body must be a JSON-RPC message (${error.code === 'FST_ERR_CTP_EMPTY_JSON_BODY' ? 'it is empty' : 'it is not valid JSON'})`
    : status === 413 ? 'Request body too large' : status === 415 ? 'Unsupported content type: send application/json' : status === 500 ? 'Internal error' : 'Invalid request';
  const code = parse ? -32700 : status === 500 ? -32603 : -32600;
  return reply.status(parse ? 400 : status).type('application/json').send({ jsonrpc: '2.0', error: { code, message }, id: null });
}

const TOOL_LIST = TOOLS.map((tool) => `\`${tool.name}\``).join(', ');

const mcpRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const sessions = new McpSessions(app.plumb, app.plumb.config.mcp);
  // Before the HTTP server closes: open event streams would otherwise hold it open.
  app.addHook('preClose', async () => {
    await sessions.closeAll();
  });

  app.post('/mcp', {
    errorHandler: mcpErrorHandler,
    schema: {
      summary: 'MCP: JSON-RPC requests (Streamable HTTP)',
      description: `The Model Context Protocol endpoint (Streamable HTTP, stateful). POST \`initialize\` without a session id to open a session: the answer's \`Mcp-Session-Id\` header names it; send it on every later request. Send \`Accept: application/json, text/event-stream\`. Tools: ${TOOL_LIST}; each returns markdown as text and the JSON answer of the matching route as structuredContent.`,
      tags: ['mcp'],
      headers: SessionHeader,
      body: Type.Unknown({ description: 'A JSON-RPC request, notification or response' }),
      response: {
        200: JsonRpcAnswer,
        202: Type.Null({ description: 'Accepted: a notification or response, nothing to answer' }),
        400: JsonRpcError,
        404: JsonRpcError,
      },
    },
  }, (request, reply) => sessions.handle(request, reply));

  app.get('/mcp', {
    errorHandler: mcpErrorHandler,
    schema: {
      summary: 'MCP: the server\'s event stream',
      description: 'Opens the session\'s server-to-client event stream (text/event-stream) for notifications, as Streamable HTTP allows. Needs the Mcp-Session-Id header.',
      tags: ['mcp'],
      headers: SessionHeader,
      response: { 200: JsonRpcAnswer, 400: JsonRpcError, 404: JsonRpcError },
    },
  }, (request, reply) => sessions.handle(request, reply));

  app.delete('/mcp', {
    errorHandler: mcpErrorHandler,
    schema: {
      summary: 'MCP: end a session',
      description: 'Ends the session named by the Mcp-Session-Id header; later requests with that id get 404.',
      tags: ['mcp'],
      headers: SessionHeader,
      response: { 200: JsonRpcAnswer, 400: JsonRpcError, 404: JsonRpcError },
    },
  }, (request, reply) => sessions.handle(request, reply));
};

export default mcpRoutes;
