import type { FastifyBaseLogger } from 'fastify';
import type { PlumbConfig } from './config.js';
import type { Workspace } from './workspace.js';

/**
 * What the use cases need, built once by app.ts and handed to routes (app.plumb) and MCP tools.
 * Each layer adds its member here: the language-server pool (src/lsp/), the symbol index (src/index/).
 */
export interface Services {
  config: PlumbConfig;
  workspace: Workspace;
  cacheDir: string;
  logger: FastifyBaseLogger;
}
