import type { FastifyPluginAsync } from 'fastify';
import statusRoutes from './status.js';
import outlineRoutes from './outline.js';
import childrenRoutes from './children.js';
import mcpRoutes from './mcp.js';
import symbolRoutes from './symbols.js';
import packageRoutes from './packages.js';

/** Every route plugin, registered by app.ts in this order. */
export const routes: FastifyPluginAsync[] = [statusRoutes, outlineRoutes, childrenRoutes, symbolRoutes, packageRoutes, mcpRoutes];
