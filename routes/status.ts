import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { FormatParam } from '../schemas/common.js';
import { HealthResponse, StatusResponse } from '../schemas/status.js';
import { readHealth, readStatus } from '../src/symbols/status.js';
import { statusMarkdown } from '../src/format/status.js';
import { sendResult } from '../src/format/negotiate.js';

const statusRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get('/status', {
    schema: {
      summary: 'Index and language-server status',
      description: 'Whether the index is built, and each language server\'s state (stopped until first needed, starting, indexing with progress, ready, crashed), pid, restarts and the compile database clangd uses.',
      tags: ['status'],
      querystring: Type.Object({ format: FormatParam }),
      response: { 200: StatusResponse },
    },
  }, async (request, reply) => sendResult(request, reply, readStatus(app.plumb), statusMarkdown));

  app.get('/health', {
    schema: {
      summary: 'Liveness check',
      description: 'Answers 200 while the process serves requests. Needs no token.',
      tags: ['status'],
      response: { 200: HealthResponse },
    },
  }, async () => readHealth(app.plumb));
};

export default statusRoutes;
