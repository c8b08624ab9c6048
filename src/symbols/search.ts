/**
 * GET /symbols and get_symbol: solution-wide search by name and signature text over the index,
 * ranked by the tiers docs/API.md lists, with the list envelope and partial answers while the index builds.
 */
import { invalidParameter, PlumbError } from '../errors.js';
import { SYMBOL_KINDS, type NormalizedKind } from '../kinds.js';
import type { Services } from '../services.js';
import { parseQuery } from '../index/ranking.js';
import { MATCH_TIERS, type MatchTier, type SearchSpec, type SymbolReader } from '../index/store.js';
import type { SymbolSearchQuery, SymbolSearchResponse } from '../../schemas/symbols.js';
import { elapsedMs } from './elapsed.js';
import { checkLimit, partialOf, toIndexSymbol } from './envelope.js';

const EXACT_TIERS: readonly MatchTier[] = ['exact', 'exact_case_insensitive'];
const QUALIFIED_TIERS: readonly MatchTier[] = ['exact', 'exact_case_insensitive', 'prefix'];
const QUALIFIED_PREFIX_MIN = 3;

export async function searchSymbols(services: Services, query: SymbolSearchQuery): Promise<SymbolSearchResponse> {
  const started = performance.now();
  const store = services.index.reader;
  const limit = checkLimit(query.limit);
  const offset = query.offset ?? 0;
  const includeForwardDeclarations = query.include_forward_declarations ?? false;

  if (query.id !== undefined && query.id !== '') {
    const symbol = await store.symbolById(query.id);
    if (!symbol) throw new PlumbError('symbol_not_found', `Symbol with id '${query.id}' not found (the file changed or left the index); search by name again`, { details: { id: query.id } });
    const results = offset === 0 ? [toIndexSymbol(symbol)] : [];
    return { query: query.query ?? '', results, limit, offset, totalMatches: 1, truncated: false, forwardDeclarations: 0, ...partialOf(services), source: 'index', elapsedMs: elapsedMs(started) };
  }

  const text = query.query?.trim() ?? '';
  if (text === '') throw new PlumbError('invalid_parameter', 'Search query must not be empty', { details: { parameter: 'query' } });
  const { name, qualifier } = parseQuery(text);
  const exact = query.match === 'exact';
  const spec: Omit<SearchSpec, 'tiers'> = {
    name,
    qualifier,
    kinds: parseKinds(query.kind),
    packages: query.package !== undefined ? [await resolvePackageName(store, query.package)] : undefined,
    language: query.language,
    userOnly: query.scope === 'user',
    containingType: query.containingType?.trim() || undefined,
    offset,
    limit,
    includeForwardDeclarations,
  };
  // match=exact: the case-sensitive matches when there are any (the class `DataSource`, not also every
  // `dataSource` variable), else the case-insensitive ones.
  let page = await store.search({
    ...spec,
    // A qualified name is specific: its last segment matches exactly, or as a prefix once it has three characters
    // (`testing.T` means T, not every name under `testing` starting with T).
    tiers: exact ? ['exact'] : qualifier ? (name.length >= QUALIFIED_PREFIX_MIN ? QUALIFIED_TIERS : EXACT_TIERS) : MATCH_TIERS,
  });
  if (exact && page.totalMatches === 0 && page.forwardDeclarations === 0) page = await store.search({ ...spec, tiers: ['exact_case_insensitive'] });
  if (exact && page.totalMatches === 0 && page.forwardDeclarations === 0) {
    // Not found yet is not not found: while the first build runs, say so and ask to retry.
    const partial = partialOf(services);
    const message = partial.reason ? `Symbol '${text}' not found. ${partial.reason}` : `Symbol '${text}' not found`;
    throw new PlumbError('symbol_not_found', message, { details: { symbol: text, ...partial } });
  }
  const listed = page.totalMatches + (includeForwardDeclarations ? page.forwardDeclarations : 0);
  return {
    query: text,
    results: page.results.map((hit) => ({ ...toIndexSymbol(hit.symbol), match: hit.tier })),
    limit,
    offset,
    totalMatches: page.totalMatches,
    truncated: offset + page.results.length < listed,
    forwardDeclarations: page.forwardDeclarations,
    ...(page.countsCapped ? { countsCapped: true } : {}),
    ...partialOf(services),
    source: 'index',
    elapsedMs: elapsedMs(started),
  };
}

/** `class` or `class,struct` → the kinds; an unknown kind is a 400 listing the allowed ones. */
export function parseKinds(kind: string | undefined): NormalizedKind[] | undefined {
  if (kind === undefined || kind.trim() === '') return undefined;
  const kinds = kind.split(',').map((k) => k.trim().toLowerCase()).filter((k) => k !== '');
  const unknown = kinds.filter((k) => !(SYMBOL_KINDS as readonly string[]).includes(k));
  if (unknown.length > 0) throw invalidParameter('kind', `must be one or more of: ${SYMBOL_KINDS.join(', ')} (got '${unknown.join("', '")}')`);
  return kinds as NormalizedKind[];
}

/** A package name as stored: exact first, else the one case-insensitive match; otherwise 404. */
export async function resolvePackageName(store: SymbolReader, name: string): Promise<string> {
  const candidates = await store.packageNamesLike(name);
  if (candidates.includes(name)) return name;
  if (candidates.length === 1) return candidates[0];
  if (candidates.length > 1) {
    throw new PlumbError('package_not_found', `Package '${name}' not found; names differing only in case: ${candidates.join(', ')}`, { details: { package: name, candidates } });
  }
  throw new PlumbError('package_not_found', `Package '${name}' not found`, { details: { package: name } });
}
