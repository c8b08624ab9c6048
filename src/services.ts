import type { FastifyBaseLogger } from 'fastify';
import { cacheDirectory, type PlumbConfig } from './config.js';
import { Workspace } from './workspace.js';
import { LspPool } from './lsp/pool.js';
import { SymbolIndex } from './index/symbol-index.js';
import { KeyedSemaphore } from './semaphore.js';
import { stopRegexRunner } from './syntax/statements/regex-runner.js';

/**
 * What the use cases need, built once by createServices and handed to the routes (app.plumb),
 * the MCP tools over HTTP, and `plumb mcp` over stdio (which starts no HTTP server).
 */
export interface Services {
  config: PlumbConfig;
  workspace: Workspace;
  cacheDir: string;
  logger: FastifyBaseLogger;
  lsp: LspPool;
  startedAt: number;
  /** Counters /status reports. */
  stats: { requestsCancelled: number };
  /** The symbol index (src/index/): its read-only store (`index.reader`) and build progress. */
  index: SymbolIndex;
  /**
   * Permits for expensive answers (outline, children), per language server: outline.concurrency at once for each,
   * the rest queue, at most lsp.requestTimeoutMs (the queue's time counts against the request's).
   */
  heavy: KeyedSemaphore;
  /** Stops the language servers and the index. */
  close(): Promise<void>;
}

export interface CreateServicesOptions {
  root: string;
  config: PlumbConfig;
  /** pino-compatible: Fastify's own logger when served over HTTP, a pino instance for stdio. */
  logger: FastifyBaseLogger;
  /** Start the first index build in the background (default true). */
  startIndex?: boolean;
}

export async function createServices(options: CreateServicesOptions): Promise<Services> {
  if (options.config.statements.cachedTextMb !== undefined) {
    options.logger.warn('statements.cachedTextMb is no longer used: file texts are kept once for every answer, within files.cacheMb');
  }
  const workspace = new Workspace(options.root, options.config.index.extraRoots, options.config.files.cacheMb * 1024 * 1024);
  const cacheDir = cacheDirectory(options.config);
  const lsp = new LspPool({ config: options.config, workspace, cacheDir, logger: options.logger });
  const index = await SymbolIndex.open({ root: workspace.root, config: options.config, cacheDir, logger: options.logger });
  const services: Services = {
    config: options.config,
    workspace,
    cacheDir,
    logger: options.logger,
    lsp,
    index,
    startedAt: Date.now(),
    stats: { requestsCancelled: 0 },
    heavy: new KeyedSemaphore(options.config.outline.concurrency, options.config.lsp.requestTimeoutMs),
    close: async () => {
      await Promise.all([lsp.shutdown(), index.close(), stopRegexRunner()]);
    },
  };
  // Searches are served from now on: on a large index the search threads start before the first search comes.
  index.reader.serveSearches?.();
  // The first build runs in the background: answers meanwhile say they are partial.
  if (options.startIndex !== false) index.start();
  return services;
}
