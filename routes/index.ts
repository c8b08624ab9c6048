import type { FastifyPluginAsync } from 'fastify';
import mcpRoutes from './mcp.js';
import { operationRoutes } from './operations.js';

/** Every route plugin, registered by app.ts in this order: the operations, then MCP's transport. */
export const routes: FastifyPluginAsync[] = [operationRoutes(), mcpRoutes];
