import Fastify, { type FastifyInstance, type FastifyServerOptions } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyReply, FastifySchemaCompiler } from 'fastify';
import type { TSchema } from 'typebox';
import { Compile } from 'typebox/compile';
import { Value } from 'typebox/value';
import { convertArguments } from './whole-numbers.js';
import type { PlumbConfig } from './config.js';
import { handleError } from './http-errors.js';
import { createServices, type Services } from './services.js';
import { routes } from '../routes/index.js';
import { registerAccess } from './plugins/access.js';
import { registerOpenApi } from './plugins/openapi.js';

declare module 'fastify' {
  interface FastifyInstance {
    plumb: Services;
  }
}

export interface BuildAppOptions {
  root: string;
  config: PlumbConfig;
  /** Fastify logger options; tests pass false. */
  logger?: FastifyServerOptions['logger'];
}

export type PlumbApp = FastifyInstance;

/**
 * typebox's checks, with querystring and path values converted from text as the MCP tools convert a
 * model's arguments (src/mcp/tool.ts): whole numbers must be decimal integers first (src/whole-numbers.ts).
 * Installed as the validator builder, so a plugin that adds shared schemas (the operations) gets it too:
 * setValidatorCompiler alone reaches only contexts without schemas of their own.
 */
function buildValidator(shared: Record<string, unknown> = {}): FastifySchemaCompiler<TSchema> {
  const context = Object.fromEntries(Object.values(shared).map((schema) => [(schema as { $id: string }).$id, schema])) as Record<string, TSchema>;
  return ({ schema, httpPart }) => {
    const check = Compile(context, schema);
    return (value: unknown) => {
      let converted = value;
      if (httpPart === 'querystring' || httpPart === 'params') {
        const result = convertArguments(schema, value);
        if ('issue' in result) return { error: [result.issue] as never };
        converted = result.value;
      } else if (httpPart !== 'body') {
        converted = Value.Convert(schema, value);
      }
      if (check.Check(converted)) return { value: converted };
      return { error: [...check.Errors(converted)] as never };
    };
  };
}

/** Composes the service: services first, then the route plugins. Tests call this and use inject(). */
export async function buildApp(options: BuildAppOptions): Promise<PlumbApp> {
  const app = Fastify({
    logger: options.logger ?? { level: options.config.logLevel },
    // Long agent queries are fine; huge bodies are not (no route takes a large body).
    bodyLimit: 1024 * 1024,
    // Package names in /packages/{name} may be long (a scoped name, a path); past this a 400 says so.
    routerOptions: { maxParamLength: 500 },
    frameworkErrors: (error, _request, reply) => {
      const message = error.code === 'FST_ERR_MAX_PARAM_LENGTH'
        ? 'Path parameter is too long: at most 500 characters'
        : 'The URL is malformed: a part of its path is not valid percent-encoded UTF-8';
      void (reply as FastifyReply).status(400).type('application/json').send({ error: { code: 'invalid_parameter', message } });
    },
    // The type describes ajv's builder; Fastify calls any builder the same way.
    schemaController: { compilersFactory: { buildValidator: buildValidator as never } },
  }).withTypeProvider<TypeBoxTypeProvider>();
  app.setErrorHandler(handleError);
  app.setNotFoundHandler((request, reply) =>
    reply.status(404).send({ error: { code: 'not_found', message: `Route ${request.method} ${request.url.split('?')[0]} not found; see /docs for the routes` } }),
  );

  const services = await createServices({ root: options.root, config: options.config, logger: app.log });
  app.decorate('plumb', services);
  app.addHook('onClose', () => services.close());

  // Access first so its rate limit reaches every route; OpenAPI before the routes it describes.
  await registerAccess(app, options.config);
  await registerOpenApi(app);
  for (const route of routes) await app.register(route);
  return app;
}
