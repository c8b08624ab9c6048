/**
 * The list envelope every list answer carries: limit, offset, totalMatches, truncated,
 * forwardDeclarations, and partial with its reason while the index builds. Use cases build it here.
 */
import type { Services } from '../services.js';
import { partialOf } from './search.js';

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
