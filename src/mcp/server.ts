import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { ErrorCode, ListToolsRequestSchema, McpError, type Tool } from '@modelcontextprotocol/sdk/types.js';
import type { TSchema } from 'typebox';
import type { Services } from '../services.js';
import { VERSION } from '../version.js';
import { callTool, toolListing, type PlumbTool } from './tool.js';
import { SHARED_SCHEMAS, TOOLS } from './tools.js';

/** What a model reads first: how to start, then every tool with its title (from the operations, so none is missed). */
function instructions(tools: PlumbTool[]): string {
  return [
    'plumb navigates the code of one workspace (every file, every language it indexes, with language servers for the semantic part).',
    'Start from a name when you have one: search_symbols finds symbols anywhere without a file path (prefix, CamelCase initials, substrings, signature words); find_declaration gives a name\'s definition and declarations with their code in one call. Tools about one symbol take `symbol` (a short or qualified name) or the `id` any answer shows; an ambiguous name is an error listing the candidates\' ids.',
    'Every tool answers with compact markdown and the same answer as JSON (structuredContent; tools/list abridges output schemas, GET /openapi.json of plumb serve has them whole). Paths are relative to the workspace root; lines and columns are 1-based. When an answer says partial or a server is unavailable, index_status tells what is still starting.',
    'Every tool takes max_tokens: a longer answer is cut to fit (fewer rows, shorter code, most relevant first) and says what it left out and how to get it (the next offset, a narrower question). batch asks several tools in one call.',
    `Tools: ${tools.map((tool) => `${tool.name} (${tool.title})`).join('; ')}.`,
  ].join('\n');
}

export interface McpServerOptions {
  tools?: PlumbTool[];
  shared?: TSchema[];
}

/**
 * An MCP server over plumb's use cases, one per session or stdio connection.
 * The low-level Server, not McpServer: McpServer wants zod shapes, and the schemas here are the routes' JSON Schemas.
 */
export function createMcpServer(services: Services, options: McpServerOptions = {}): Server {
  const tools = options.tools ?? TOOLS;
  const listing: Tool[] = tools.map((tool) => toolListing(tool, options.shared ?? SHARED_SCHEMAS));
  const byName = new Map(tools.map((tool) => [tool.name, tool]));

  const server = new Server(
    { name: 'plumb', title: 'plumb code navigation', version: VERSION },
    { capabilities: { tools: { listChanged: false } }, instructions: instructions(tools) },
  );
  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: listing }));
  // tools/call is read here rather than through setRequestHandler(CallToolRequestSchema): the SDK parses a handler's
  // request before any handler runs and answers a mistyped `arguments` (a string, an array, null) with its schema
  // library's dump as an internal error (-32603); a client's mistake is invalid params (-32602) saying what is allowed.
  server.fallbackRequestHandler = async (request, extra) => {
    if (request.method !== 'tools/call') throw new McpError(ErrorCode.MethodNotFound, 'Method not found');
    const params = callParams(request.params);
    const tool = byName.get(params.name);
    if (!tool) {
      throw new McpError(ErrorCode.InvalidParams, `Unknown tool '${params.name}'; tools/list has: ${tools.map((t) => t.name).join(', ')}`);
    }
    return callTool(tool, services, params.arguments, extra.signal, { maxTokens: services.config.mcp.maxTokens });
  };
  return server;
}

/** tools/call's params as plumb reads them, or invalid params (-32602) naming the field and what it may be. */
function callParams(params: unknown): { name: string; arguments?: Record<string, unknown> } {
  if (!isObject(params)) {
    throw new McpError(ErrorCode.InvalidParams, `tools/call 'params' must be an object with the tool's 'name' and its 'arguments'; got ${kindOf(params)}`);
  }
  const { name, arguments: args } = params;
  if (typeof name !== 'string') throw new McpError(ErrorCode.InvalidParams, `tools/call 'name' must be a string, the name of a tool tools/list gives; got ${kindOf(name)}`);
  if (args !== undefined && !isObject(args)) {
    throw new McpError(ErrorCode.InvalidParams, `tools/call 'arguments' must be an object of the tool's parameters by name, such as {"query": "Flask"} (its inputSchema in tools/list), or left out; got ${kindOf(args)}`);
  }
  return { name, arguments: args };
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function kindOf(value: unknown): string {
  if (value === null) return 'null';
  if (value === undefined) return 'nothing';
  if (Array.isArray(value)) return 'an array';
  return typeof value === 'object' ? 'an object' : `a ${typeof value}`;
}
