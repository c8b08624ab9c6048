import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { Type, type TObject, type TSchema } from 'typebox';
import { errorResponses } from '../schemas/common.js';
import { OPERATIONS, type Operation } from '../src/operations/index.js';
import { answerOperation } from '../src/operations/answer.js';
import { renderAnswer } from '../src/operations/budget.js';
import { sendResult } from '../src/format/negotiate.js';
import { chargeRequests } from '../src/plugins/access.js';
import { abortSignalOf } from './abort.js';

/** The operation's input less some of its properties (the path parameters, or what a POST takes in its body). */
function inputWithout(operation: Operation, leave: (name: string) => boolean): TObject {
  const entries = Object.entries(operation.input.properties).filter(([name]) => !leave(name));
  return Type.Object(Object.fromEntries(entries) as Record<string, TSchema>);
}

/** Where each part of the input travels: path parameters, then the querystring (GET) or a JSON body with `format` in the querystring (POST). */
function requestSchemas(operation: Operation): { params?: TObject; querystring: TObject; body?: TObject } {
  const http = operation.http!;
  const pathParams = new Set(Object.keys(http.params?.properties ?? {}));
  const params = http.params ? { params: http.params } : {};
  if (http.method !== 'POST') return { ...params, querystring: inputWithout(operation, (name) => pathParams.has(name)) };
  return {
    ...params,
    querystring: inputWithout(operation, (name) => name !== 'format'),
    body: inputWithout(operation, (name) => pathParams.has(name) || name === 'format'),
  };
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
        ...requestSchemas(operation),
        response: { 200: operation.response, ...errorResponses(http.errors) },
      };
      const handler = async (request: FastifyRequest, reply: FastifyReply) => {
        const input = { ...(request.params as object), ...(request.query as object), ...(request.body as object | undefined) } as Record<string, unknown>;
        if (operation.requestCount) await chargeRequests(request, operation.requestCount(input as never));
        const result = await answerOperation(operation, reply.server.plumb, input, abortSignalOf(reply));
        return operation.markdown ? sendResult(request, reply, result, (answer) => renderAnswer(operation, answer)) : reply.send(result);
      };
      const method = http.method ?? 'GET';
      app.route({ method, url: http.path, schema, handler });
      for (const alias of http.aliases ?? []) app.route({ method, url: alias, schema: { ...schema, hide: true }, handler });
    }
  };
}
