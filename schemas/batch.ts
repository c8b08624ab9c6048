import { Type, type Static } from 'typebox';
import { FormatParam } from './common.js';

/** Requests one batch may carry. */
export const BATCH_MAX = 20;

export const BatchRequest = Type.Object({
  operation: Type.String({ minLength: 1, maxLength: 100, description: 'An MCP tool name (`find_declaration`, `find_usages`, ...: tools/list, or docs/API.md beside each endpoint)' }),
  params: Type.Optional(Type.Object({}, { additionalProperties: true, description: 'The arguments the tool takes (its inputSchema; the endpoint\'s query parameters), `max_tokens` included' })),
}, { additionalProperties: false });
export type BatchRequest = Static<typeof BatchRequest>;

export const BatchQuery = Type.Object({
  requests: Type.Array(BatchRequest, {
    minItems: 1,
    maxItems: BATCH_MAX,
    description: `The questions, 1 to ${BATCH_MAX}, each {"operation": "<tool name>", "params": {...}}; answered in this order`,
  }),
  format: FormatParam,
});
export type BatchQuery = Static<typeof BatchQuery>;

export const BatchResult = Type.Object({
  operation: Type.String({ description: 'The operation as asked' }),
  status: Type.Integer({ description: 'The HTTP status the operation alone answers with: 200, or 400, 404, 409, 503, 504 and the like; 504 `batch_timeout` when the batch\'s time ran out first' }),
  body: Type.Unknown({ description: 'What the operation alone answers: its JSON answer (200), else `{"error": {"code", "message", ...}}`' }),
});
export type BatchResult = Static<typeof BatchResult>;

export const BatchResponse = Type.Object({
  results: Type.Array(BatchResult, { description: 'One per request, in request order' }),
  elapsedMs: Type.Number(),
});
export type BatchResponse = Static<typeof BatchResponse>;
