/**
 * Which store holds the workspace's index: SQLite under the cache directory, or the shared PostgreSQL
 * store named by `store` (config, PLUMB_STORE, --store), keyed by `workspace` (default: the real root).
 */
import type { PlumbConfig } from '../config.js';
import { deferredStore } from './deferred-store.js';
import { SqliteSymbolStore } from './sqlite/store.js';
import { storeLocation, type SymbolStore } from './store.js';

export interface OpenStoreOptions {
  config: PlumbConfig;
  /** The workspace root (real path): the default workspace key. */
  root: string;
  /** The SQLite database file when no shared store is configured. */
  databaseFile: string;
}

export async function openStore(options: OpenStoreOptions): Promise<SymbolStore> {
  const { config } = options;
  if (!config.store) return SqliteSymbolStore.open({ file: options.databaseFile });
  const url = config.store;
  const { PostgresSymbolStore } = await import('./postgres/store.js');
  const open = (): Promise<SymbolStore> => PostgresSymbolStore.open({ url, workspace: config.workspace ?? options.root, readOnly: config.readOnly, timeoutMs: config.storeTimeoutMs });
  // A writer needs its store to start (it makes the schema); a replica may come up before the database
  // or before any writer, and answers store_unavailable until it can read the index.
  return config.readOnly ? deferredStore(open, storeLocation(url)) : open();
}
