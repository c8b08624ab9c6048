/**
 * What every use case's answer is made of: the list envelope every list answer carries (limit, offset,
 * totalMatches, truncated, forwardDeclarations), the limit checked, partial with its reason while the
 * index builds, and a stored symbol as answers show it. Use cases build them here.
 */
import type { IndexSymbol } from '../../schemas/symbols.js';
import { SEARCH_LIMIT_DEFAULT, SEARCH_LIMIT_MAX } from '../../schemas/symbols.js';
import { invalidParameter } from '../errors.js';
import type { StoredSymbol } from '../index/store.js';
import type { Services } from '../services.js';

export interface EnvelopeInput {
  limit: number;
  offset: number;
  /** Matches that are not forward declarations. */
  totalMatches: number;
  /** Results in this page. */
  returned: number;
  /** Forward declarations that matched (grouped out, or appended when asked for). */
  forwardDeclarations?: number;
  /** Whether the forward declarations are listed in results (include_forward_declarations=true). */
  forwardDeclarationsListed?: boolean;
}

export interface ListEnvelope {
  limit: number;
  offset: number;
  totalMatches: number;
  truncated: boolean;
  forwardDeclarations: number;
  partial?: true;
  reason?: string;
}

/** The envelope for one page; `services` adds partial/reason while the index builds. */
export function listEnvelope(input: EnvelopeInput, services?: Services): ListEnvelope {
  const forwardDeclarations = input.forwardDeclarations ?? 0;
  const listed = input.totalMatches + (input.forwardDeclarationsListed ? forwardDeclarations : 0);
  return {
    limit: input.limit,
    offset: input.offset,
    totalMatches: input.totalMatches,
    truncated: input.offset + input.returned < listed,
    forwardDeclarations,
    ...(services ? partialOf(services) : {}),
  };
}

/** One page of an in-memory list: the items from offset, at most limit. */
export function pageOf<T>(items: T[], offset: number, limit: number): T[] {
  return items.slice(offset, offset + limit);
}

/**
 * The limit with its default, checked in the use case as well: routes and MCP tools have refused a bad one
 * through the schema already, but a use case may also be called without it (by another use case, bench/, tests).
 */
export function checkLimit(limit: number | undefined, max = SEARCH_LIMIT_MAX, fallback = SEARCH_LIMIT_DEFAULT): number {
  if (limit === undefined) return fallback;
  if (!Number.isInteger(limit) || limit < 1) throw invalidParameter('limit', `must be an integer from 1 to ${max}`);
  if (limit > max) throw invalidParameter('limit', `must be at most ${max}`);
  return limit;
}

/** partial + reason while the first build runs: answers come from what is indexed so far. */
export function partialOf(services: Services): { partial?: true; reason?: string } {
  const status = services.index.status();
  if (status.state === 'ready') return {};
  const signatures = services.index.isFirstLoad ? '; CamelCase, substring and signature matches come when it is done' : '';
  return { partial: true, reason: `The index is still building (${status.filesIndexed} of ${status.filesTotal} files indexed); results may be incomplete${signatures}` };
}

/** A stored symbol as every answer shows it. */
export function toIndexSymbol(symbol: StoredSymbol): IndexSymbol {
  return { ...symbol };
}
