/**
 * GET /packages and GET /packages/{name}/symbols: the packages the index knows (named by their
 * manifests) and a package's symbols in file order.
 */
import type { Services } from '../services.js';
import type { PackageSymbolsQuery, PackageSymbolsResponse, PackagesQuery, PackagesResponse } from '../../schemas/packages.js';
import { checkLimit, partialOf, toIndexSymbol } from './envelope.js';
import { parseKinds, resolvePackageName } from './search.js';
import { elapsedMs } from './elapsed.js';

export async function listPackages(services: Services, query: PackagesQuery): Promise<PackagesResponse> {
  const started = performance.now();
  const limit = checkLimit(query.limit);
  const offset = query.offset ?? 0;
  const needle = query.query?.trim().toLowerCase() ?? '';
  const all = (await services.index.reader.listPackages())
    .filter((p) => (query.scope !== 'user' || !p.external) && (needle === '' || p.name.toLowerCase().includes(needle)));
  const results = all.slice(offset, offset + limit);
  return {
    results,
    limit,
    offset,
    totalMatches: all.length,
    truncated: offset + results.length < all.length,
    forwardDeclarations: 0,
    ...partialOf(services),
    source: 'index',
    elapsedMs: elapsedMs(started),
  };
}

export async function getPackageSymbols(services: Services, name: string, query: PackageSymbolsQuery): Promise<PackageSymbolsResponse> {
  const started = performance.now();
  const store = services.index.reader;
  const limit = checkLimit(query.limit);
  const offset = query.offset ?? 0;
  const includeForwardDeclarations = query.include_forward_declarations ?? false;
  const kinds = parseKinds(query.kind);
  const packageName = await resolvePackageName(store, name);
  const page = await store.packageSymbols({ packageName, kinds, offset, limit, includeForwardDeclarations });
  const listed = page.total + (includeForwardDeclarations ? page.forwardDeclarations : 0);
  return {
    package: packageName,
    results: page.results.map(toIndexSymbol),
    limit,
    offset,
    totalMatches: page.total,
    truncated: offset + page.results.length < listed,
    forwardDeclarations: page.forwardDeclarations,
    ...partialOf(services),
    source: 'index',
    elapsedMs: elapsedMs(started),
  };
}
