import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { handleError } from '../src/http-errors.js';
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
 * Errors before the transport sees a request: a body that is not JSON (or is empty) is the JSON-RPC parse
 * error the MCP transport specifies (-32700, HTTP 400), another bad request a JSON-RPC -32600; the rest
 * (413, 415, 429...) as every route gives them.
 */
function mcpErrorHandler(error: FastifyError, request: FastifyRequest, reply: FastifyReply): FastifyReply {
  const parse = error.code === 'FST_ERR_CTP_INVALID_JSON_BODY' || error.code === 'FST_ERR_CTP_EMPTY_JSON_BODY' || error instanceof SyntaxError;
  if (parse) {
    const why = error.code === 'FST_ERR_CTP_EMPTY_JSON_BODY' ? 'it is empty' : 'it is not valid JSON';
    return reply.status(400).type('application/json').send({ jsonrpc: '2.0', error: { code: -32700, message: `Parse error: the body must be a JSON-RPC message (${why})` }, id: null });
  }
  if (error.statusCode === 400) {
    return reply.status(400).type('application/json').send({ jsonrpc: '2.0', error: { code: -32600, message: `Invalid request: ${error.validation ? 'a header is malformed' : 'the request cannot be read'}` }, id: null });
  }
  return handleError(error, request, reply);
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
