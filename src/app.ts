import Fastify, { type FastifyInstance, type FastifyServerOptions } from 'fastify';
import { TypeBoxValidatorCompiler, type TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
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

/** Composes the service: services first, then the route plugins. Tests call this and use inject(). */
export async function buildApp(options: BuildAppOptions): Promise<PlumbApp> {
  const app = Fastify({
    logger: options.logger ?? { level: options.config.logLevel },
    // Long agent queries are fine; huge bodies are not (no route takes a large body).
    bodyLimit: 1024 * 1024,
    ajv: { customOptions: { coerceTypes: true } },
  }).withTypeProvider<TypeBoxTypeProvider>();
  app.setValidatorCompiler(TypeBoxValidatorCompiler);
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
