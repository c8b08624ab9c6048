import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { PlumbApp } from '../../src/app.js';
import { indexReady } from '../wait.js';

/** Listens on a free loopback port (once per app) and connects the SDK's own client to /mcp. */
export async function connectHttp(
  t: { teardown(fn: () => Promise<void> | void): void },
  app: PlumbApp,
  headers: Record<string, string> = {},
): Promise<{ client: Client; transport: StreamableHTTPClientTransport; url: URL }> {
  if (!app.server.listening) await app.listen({ host: '127.0.0.1', port: 0 });
  const address = app.server.address();
  const port = typeof address === 'object' && address !== null ? address.port : 0;
  const url = new URL(`http://127.0.0.1:${port}/mcp`);
  const transport = new StreamableHTTPClientTransport(url, { requestInit: { headers } });
  const client = new Client({ name: 'plumb-test', version: '0.0.0' });
  await client.connect(transport);
  t.teardown(async () => {
    await client.close();
    await indexSettled(app);
  });
  return { client, transport, url };
}

/** A tool result's text content, joined. */
export function textOf(result: CallToolResult): string {
  return result.content.map((part) => (part.type === 'text' ? part.text : '')).join('\n');
}

/** callTool's result typed as a tool result (the SDK's union also allows the old toolResult shape). */
export async function call(client: Client, name: string, args: Record<string, unknown>): Promise<CallToolResult> {
  return (await client.callTool({ name, arguments: args })) as CallToolResult;
}

/** A tool result's structuredContent, as the test expects it to be shaped. */
export function structured<T>(result: CallToolResult): T {
  return result.structuredContent as unknown as T;
}

/**
 * Waits (up to a minute) for the index's first build to finish, so the app is not closed mid-build:
 * SymbolIndex.close() during a build can wait forever for parse jobs of the closed worker pool.
 */
export function indexSettled(app: PlumbApp): Promise<void> {
  return indexReady(app, 60_000);
}
