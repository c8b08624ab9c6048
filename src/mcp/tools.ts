import type { TSchema } from 'typebox';
import { OPERATIONS, endpointOf } from '../operations/index.js';
import type { PlumbTool } from './tool.js';

/** Every MCP tool, in the order tools/list gives them: the operations that have one (src/operations/). */
export const TOOLS: PlumbTool[] = OPERATIONS.flatMap((operation) => {
  const tool = operation.tool;
  if (!tool) return [];
  return [{
    name: tool.name,
    endpoint: endpointOf(operation) ?? '',
    title: tool.title,
    description: tool.description,
    query: operation.input,
    response: operation.response,
    operation,
  }];
});

/** Schemas referenced by $id from the operations' schemas; tool schemas carry them as $defs. */
export const SHARED_SCHEMAS: TSchema[] = [...new Map(OPERATIONS.flatMap((operation) => operation.shared ?? []).map((schema) => [(schema as { $id?: string }).$id, schema])).values()];
