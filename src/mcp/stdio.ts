import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import type { Services } from '../services.js';
import { createMcpServer } from './server.js';

/**
 * Serves the MCP tools on stdin/stdout over the services (no HTTP listener);
 * the process ends when the client closes stdin or sends a signal, with the language servers shut down.
 */
export async function serveMcpOverStdio(services: Services): Promise<void> {
  const server = createMcpServer(services);
  let closing = false;
  const stop = (reason: string): void => {
    if (closing) return;
    closing = true;
    services.logger.info({ reason }, 'MCP stdio session ending');
    const force = setTimeout(() => process.exit(1), 10_000);
    force.unref();
    Promise.allSettled([server.close(), services.close()]).then(() => process.exit(0));
  };
  server.onclose = () => stop('transport closed');
  process.stdin.once('end', () => stop('stdin closed'));
  process.once('SIGINT', () => stop('SIGINT'));
  process.once('SIGTERM', () => stop('SIGTERM'));
  await server.connect(new StdioServerTransport());
}
