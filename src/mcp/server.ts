import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { CallToolRequestSchema, ErrorCode, ListToolsRequestSchema, McpError, type Tool } from '@modelcontextprotocol/sdk/types.js';
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
    'Every tool answers with compact markdown and the same answer as JSON (structuredContent). Paths are relative to the workspace root; lines and columns are 1-based. When an answer says partial or a server is unavailable, index_status tells what is still starting.',
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
  server.setRequestHandler(CallToolRequestSchema, (request, extra) => {
    const tool = byName.get(request.params.name);
    if (!tool) {
      throw new McpError(ErrorCode.InvalidParams, `Unknown tool '${request.params.name}'; tools/list has: ${tools.map((t) => t.name).join(', ')}`);
    }
    return callTool(tool, services, request.params.arguments, extra.signal);
  });
  return server;
}
