import type { Static, TObject, TSchema } from 'typebox';
import { Value } from 'typebox/value';
import type { CallToolResult, Tool } from '@modelcontextprotocol/sdk/types.js';
import { isPlumbError } from '../errors.js';
import { describeValidation } from '../http-errors.js';
import type { Services } from '../services.js';
import { toolSchema } from './schema.js';
import { convertArguments } from '../whole-numbers.js';

/**
 * One MCP tool as the server lists and calls it: made from an operation (src/operations/) by tools.ts.
 */
export interface ToolDefinition<Query extends TObject, Result> {
  name: string;
  /** The HTTP endpoint it mirrors, e.g. `GET /symbols`: a test checks every endpoint has a tool. */
  endpoint: string;
  title: string;
  /** Written for a model: what it is for, when to prefer it over another tool, one example call. */
  description: string;
  /** The route's querystring schema; `format` is left out of the tool's input. */
  query: Query;
  /** The route's 200 response schema: structuredContent follows it. */
  response: TSchema;
  run(services: Services, query: Static<Query>, signal: AbortSignal): Promise<Result> | Result;
  markdown(result: Result): string;
}

/** A tool with its types erased, as the server lists and calls it. */
export type PlumbTool = ToolDefinition<TObject, unknown>;

/** The tools/list entry: input and output schemas made from the route's schemas. */
export function toolListing(tool: PlumbTool, shared: TSchema[]): Tool {
  return {
    name: tool.name,
    title: tool.title,
    description: tool.description,
    inputSchema: toolSchema(tool.query, { shared, omit: ['format'] }) as Tool['inputSchema'],
    outputSchema: toolSchema(tool.response, { shared }) as Tool['outputSchema'],
    annotations: { title: tool.title, readOnlyHint: true, openWorldHint: false },
  };
}

/** The arguments as the use case takes them, or the message the HTTP route gives for them. */
export function checkArguments(tool: PlumbTool, args: unknown): { query: Static<TObject> } | { message: string } {
  // As the HTTP querystring is read: a model that sends depth 2 for "2" or "5" for 5 is understood; 2.7 or "0x10" for a limit is not.
  const read = convertArguments(tool.query, Value.Default(tool.query, Value.Clone(args ?? {})));
  if ('issue' in read) return { message: describeValidation([read.issue], 'querystring') };
  const converted = read.value;
  if (Value.Check(tool.query, converted)) return { query: converted as Static<TObject> };
  return { message: describeValidation([...Value.Errors(tool.query, converted)], 'querystring') };
}

/** Runs a tool: markdown as text, the JSON as structuredContent; bad input and PlumbErrors as tool errors. */
export async function callTool(tool: PlumbTool, services: Services, args: unknown, signal: AbortSignal): Promise<CallToolResult> {
  const checked = checkArguments(tool, args);
  if ('message' in checked) return toolError(checked.message);
  try {
    const result = await tool.run(services, checked.query, signal);
    return {
      content: [{ type: 'text', text: tool.markdown(result) }],
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
