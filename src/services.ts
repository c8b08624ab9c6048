import type { FastifyBaseLogger } from 'fastify';
import type { PlumbConfig } from './config.js';
import type { Workspace } from './workspace.js';
import type { LspPool } from './lsp/pool.js';
import type { SymbolIndex } from './index/symbol-index.js';

/**
 * What the use cases need, built once by app.ts and handed to routes (app.plumb) and MCP tools.
 * Each layer adds its member here: the language-server pool (src/lsp/), the symbol index (src/index/).
 */
export interface Services {
  config: PlumbConfig;
  workspace: Workspace;
  cacheDir: string;
  logger: FastifyBaseLogger;
  lsp: LspPool;
  startedAt: number;
  /** The symbol index (src/index/): the store the search use cases read, and build progress. */
  index: SymbolIndex;
}
