/**
 * A store opened when it can be: a replica may start before its database is up or before a writer
 * has made the schema. Until the store opens, every call fails with why (store_unavailable, 503)
 * and the next call tries again (at most once per `retryMs`); once open, calls go straight to it.
 * `now` is the clock the retry interval is measured on (tests pass their own).
 */
import { PlumbError } from '../errors.js';
import type { SymbolStore } from './store.js';

export function deferredStore(open: () => Promise<SymbolStore>, location: string, retryMs = 1000, now: () => number = Date.now): SymbolStore {
  let store: SymbolStore | undefined;
  let opening: Promise<SymbolStore> | undefined;
  let lastError: unknown;
  let lastTry = 0;
  let closed = false;
  const listeners = new Set<(version: number) => void>();
  const unsubscribes: Array<() => void> = [];

  const ready = (): Promise<SymbolStore> => {
    if (store) return Promise.resolve(store);
    if (closed) return Promise.reject(unavailable('it is closed'));
    if (!opening) {
      if (lastError !== undefined && now() - lastTry < retryMs) return Promise.reject(asUnavailable(lastError));
      lastTry = now();
      opening = open().then(
        (opened) => {
          store = opened;
          opening = undefined;
          for (const listener of listeners) unsubscribes.push(opened.onChange(listener));
          // A replica that waited learns the store's state as a change.
          void opened.storeInfo().then((info) => listeners.forEach((listener) => listener(info.version)), () => undefined);
          return opened;
        },
        (error: unknown) => {
          lastError = error;
          opening = undefined;
          throw asUnavailable(error);
        },
      );
    }
    return opening;
  };

  const unavailable = (reason: string): PlumbError =>
    new PlumbError('store_unavailable', `Index store ${location} is unavailable: ${reason}`, { retryAfter: Math.ceil(retryMs / 1000), details: { store: location } });
  const asUnavailable = (error: unknown): PlumbError =>
    error instanceof PlumbError ? error : unavailable(error instanceof Error ? error.message : String(error));

  return new Proxy({} as SymbolStore, {
    get(_target, property: string | symbol) {
      // Not a thenable, nor anything else a caller may probe for.
      if (typeof property !== 'string' || property === 'then') return undefined;
      if (property === 'onChange') {
        return (listener: (version: number) => void) => {
          listeners.add(listener);
          const off = store?.onChange(listener);
          return () => {
            listeners.delete(listener);
            off?.();
          };
        };
      }
      if (property === 'serveSearches') {
        // Synchronous and optional: the opened store's, when it has one (a store not open yet starts its threads at its first search).
        return () => store?.serveSearches?.();
      }
      if (property === 'close') {
        return async () => {
          closed = true;
          for (const off of unsubscribes) off();
          const opened = store ?? (await opening?.catch(() => undefined));
          await opened?.close();
        };
      }
      return async (...args: unknown[]) => {
        const opened = await ready();
        const method = opened[property as keyof SymbolStore] as unknown as (...a: unknown[]) => Promise<unknown>;
        return method.apply(opened, args);
      };
    },
  });
}
