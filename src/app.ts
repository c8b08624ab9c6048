import Fastify, { type FastifyInstance, type FastifyServerOptions } from 'fastify';
import { TypeBoxValidatorCompiler, type TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { cacheDirectory, type PlumbConfig } from './config.js';
import { handleError } from './http-errors.js';
import { Workspace } from './workspace.js';
import { LspPool } from './lsp/pool.js';
import { SymbolIndex } from './index/symbol-index.js';
import type { Services } from './services.js';
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

  const workspace = new Workspace(options.root);
  const cacheDir = cacheDirectory(options.config);
  const lsp = new LspPool({ config: options.config, workspace, cacheDir, logger: app.log });
  const index = await SymbolIndex.open({ root: workspace.root, config: options.config, cacheDir, logger: app.log });
  const services: Services = { config: options.config, workspace, cacheDir, logger: app.log, lsp, index, startedAt: Date.now() };
  app.decorate('plumb', services);
  app.addHook('onClose', async () => {
    await Promise.all([lsp.shutdown(), index.close()]);
  });
  // The first build runs in the background: answers meanwhile say they are partial.
  index.start();

  // Access first so its rate limit reaches every route; OpenAPI before the routes it describes.
  await registerAccess(app, options.config);
  await registerOpenApi(app);
  for (const route of routes) await app.register(route);
  return app;
}
