import type { Services } from '../services.js';
import type { HealthResponse, StatusResponse } from '../../schemas/status.js';
import { VERSION } from '../version.js';

export async function readStatus(services: Services): Promise<StatusResponse> {
  const index = { ...services.index.status(), ...services.index.pending() };
  return {
    ready: index.state === 'ready',
    root: services.workspace.root,
    version: VERSION,
    uptimeMs: Date.now() - services.startedAt,
    index,
    store: await services.index.storeStatus(),
    servers: services.lsp.status(),
    requestsCancelled: services.stats.requestsCancelled,
  };
}

export function readHealth(services: Services): HealthResponse {
  return { status: 'ok', uptimeMs: Date.now() - services.startedAt };
}
