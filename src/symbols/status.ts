import type { Services } from '../services.js';
import type { HealthResponse, StatusResponse } from '../../schemas/status.js';
import { VERSION } from '../version.js';

export async function readStatus(services: Services): Promise<StatusResponse> {
  // The store's answer first: what the index leaves out comes with it.
  const store = await services.index.storeStatus();
  const notIndexed = services.index.notIndexed();
  const index = { ...services.index.status(), ...services.index.pending(), ...(notIndexed ? { notIndexed } : {}), words: services.index.words.status() };
  return {
    ready: index.state === 'ready',
    root: services.workspace.root,
    version: VERSION,
    uptimeMs: Date.now() - services.startedAt,
    index,
    store,
    servers: services.lsp.status(),
    requestsCancelled: services.stats.requestsCancelled,
  };
}

export function readHealth(services: Services): HealthResponse {
  return { status: 'ok', uptimeMs: Date.now() - services.startedAt };
}
