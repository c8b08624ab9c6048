import type { Static, TObject, TSchema } from 'typebox';
import type { CallToolResult, Tool } from '@modelcontextprotocol/sdk/types.js';
import { isPlumbError } from '../errors.js';
import type { Services } from '../services.js';
import { answerOperation, readArguments } from '../operations/answer.js';
import { renderAnswer } from '../operations/budget.js';
import type { Operation } from '../operations/operation.js';
import { compactInputSchema, compactOutputSchema, toolSchema } from './schema.js';

/**
 * One MCP tool as the server lists and calls it: made from an operation (src/operations/) by tools.ts.
 */
export interface ToolDefinition<Query extends TObject> {
  name: string;
  /** The HTTP endpoint it mirrors, e.g. `GET /symbols`: a test checks every endpoint has a tool. */
  endpoint: string;
  title: string;
  /** Written for a model: when to use it, in a sentence or two, and one example call. */
  description: string;
  /** The operation's input; `format` is left out of the tool's input schema. */
  query: Query;
  /** The route's 200 response schema: structuredContent follows it. */
  response: TSchema;
  /** The operation it runs: its use case, markdown and budget. */
  operation: Operation;
}

/** A tool with its types erased, as the server lists and calls it. */
export type PlumbTool = ToolDefinition<TObject>;

/**
 * The tools/list entry: the input schema made from the operation's, and a compact output schema (the answer's
 * top-level fields with their types; openapi.yaml has the whole shape). Many clients put tools/list in the model's
 * context on every turn: test/mcp/http.test.ts holds the whole list under 40 KB.
 */
export function toolListing(tool: PlumbTool, shared: TSchema[]): Tool {
  return {
    name: tool.name,
    title: tool.title,
    description: tool.description,
    inputSchema: compactInputSchema(toolSchema(tool.query, { shared, omit: ['format'] }), tool.operation.tool?.parameters) as Tool['inputSchema'],
    outputSchema: compactOutputSchema(tool.response, shared) as Tool['outputSchema'],
    annotations: { readOnlyHint: true, openWorldHint: false },
  };
}

/** The arguments as the use case takes them, or the message the HTTP route gives for them. */
export function checkArguments(tool: PlumbTool, args: unknown): { query: Static<TObject> } | { message: string } {
  const read = readArguments(tool.query, args);
  return 'message' in read ? read : { query: read.value };
}

export interface CallOptions {
  /** `max_tokens` for a call that gives none (config mcp.maxTokens); 0 or absent: none. */
  maxTokens?: number;
}

/** Runs a tool: markdown as text, the JSON as structuredContent; bad input and PlumbErrors as tool errors. */
export async function callTool(tool: PlumbTool, services: Services, args: unknown, signal: AbortSignal, options: CallOptions = {}): Promise<CallToolResult> {
  const checked = checkArguments(tool, args);
  if ('message' in checked) return toolError(checked.message);
  const input: Record<string, unknown> = { ...checked.query };
  if (input.max_tokens === undefined && options.maxTokens && 'max_tokens' in tool.query.properties) input.max_tokens = options.maxTokens;
  try {
    const result = await answerOperation(tool.operation, services, input, signal);
    return {
      content: [{ type: 'text', text: renderAnswer(tool.operation, result) }],
      structuredContent: result as Record<string, unknown>,
    };
  } catch (error) {
    if (isPlumbError(error)) return toolError(error.message, error.details);
    services.logger.error({ err: error, tool: tool.name }, 'MCP tool failed');
    return toolError('Internal error; the server log has the details');
  }
}

/** The message first, exactly as the HTTP error body has it; details (candidates, parameter) after it as JSON. */
function toolError(message: string, details?: Record<string, unknown>): CallToolResult {
  const content: CallToolResult['content'] = [{ type: 'text', text: message }];
  if (details && Object.keys(details).length > 0) content.push({ type: 'text', text: JSON.stringify(details) });
  return { isError: true, content };
}
