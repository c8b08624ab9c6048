import type { FastifyPluginAsync } from 'fastify';
import { Type, type TObject, type TSchema } from 'typebox';
import { errorResponses } from '../schemas/common.js';
import { OPERATIONS, type Operation } from '../src/operations/index.js';
import { sendResult } from '../src/format/negotiate.js';
import { abortSignalOf } from './abort.js';

/** The querystring: the operation's input less its path parameters. */
function querystringOf(operation: Operation): TObject {
  const params = operation.http?.params;
  if (!params) return operation.input;
  const entries = Object.entries(operation.input.properties).filter(([name]) => !(name in params.properties));
  return Type.Object(Object.fromEntries(entries) as Record<string, TSchema>);
}

/** Every operation's route (src/operations/): HTTP shape only, the use case and rendering are the operation's. */
export function operationRoutes(operations: Operation[] = OPERATIONS): FastifyPluginAsync {
  return async (app) => {
    const added = new Set<string>();
    for (const operation of operations) {
      for (const schema of operation.shared ?? []) {
        const id = (schema as { $id?: string }).$id;
        if (id && !added.has(id)) {
          app.addSchema(schema);
          added.add(id);
        }
      }
    }
    for (const operation of operations) {
      const http = operation.http;
      if (!http) continue;
      const schema = {
        summary: http.summary,
        description: http.description,
        tags: http.tags,
        ...(http.params ? { params: http.params } : {}),
        querystring: querystringOf(operation),
        response: { 200: operation.response, ...errorResponses(http.errors) },
      };
      const handler = async (request: { query: unknown; params: unknown }, reply: Parameters<typeof abortSignalOf>[0]) => {
        const input = { ...(request.params as object), ...(request.query as object) };
        const result = await operation.run(reply.server.plumb, input as never, abortSignalOf(reply));
        const markdown = operation.markdown;
        return markdown ? sendResult(request as never, reply, result, markdown) : reply.send(result);
      };
      app.get(http.path, { schema }, handler);
      for (const alias of http.aliases ?? []) app.get(alias, { schema: { ...schema, hide: true } }, handler);
    }
  };
}
