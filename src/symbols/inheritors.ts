/**
 * GET /symbols/inheritors (find_inheritors): the types deriving from one type, to `depth` levels. The union
 * of the index's written base names and the language server's subtypes (type-graph.ts), walked breadth-first,
 * each type once (at its shallowest depth), safe against cycles.
 */
import type { Inheritor, InheritorsQuery, InheritorsResponse } from '../../schemas/hierarchy.js';
import { HIERARCHY_DEPTH_MAX, INHERITORS_LIMIT_DEFAULT, INHERITORS_LIMIT_MAX } from '../../schemas/hierarchy.js';
import { invalidParameter } from '../errors.js';
import type { StoredSymbol } from '../index/store.js';
import type { Services } from '../services.js';
import { elapsedMs } from './elapsed.js';
import { checkLimit, listEnvelope, pageOf, partialOf, toIndexSymbol } from './envelope.js';
import { A_TYPE, resolveOne, type ResolvedSymbol } from './resolve-symbol.js';
import { noInheritanceOutcome, TypeGraph, type Source } from './type-graph.js';

/** Types one walk visits at most (depth=all over a huge hierarchy). */
const WALK_CAP = 5000;

export interface InheritorsOptions {
  /** false answers from the index alone (benchmarks; the answer's server part says so). */
  useServer?: boolean;
}

/** `1`..`max` or `all` (Infinity); undefined gives the fallback. */
export function parseDepth(value: string | number | undefined, fallback: number, max = HIERARCHY_DEPTH_MAX, allowAll = true): number {
  if (value === undefined || value === '') return fallback;
  const text = String(value).trim();
  if (allowAll && text === 'all') return Infinity;
  if (!/^\d+$/.test(text) || Number(text) < 1 || Number(text) > max) {
    throw invalidParameter('depth', `must be an integer from 1 to ${max}${allowAll ? " or 'all'" : ''}, got '${text}'`);
  }
  return Number(text);
}

export interface WalkedInheritor {
  symbol: StoredSymbol;
  source: Source;
  depth: number;
  via?: StoredSymbol;
  written?: string;
  confidence?: 'name';
}

/** Breadth-first over direct subtypes: each type once, at its shallowest depth; `via` the type it was reached through. */
export async function walkInheritors(graph: TypeGraph, root: ResolvedSymbol, maxDepth: number, cap = WALK_CAP): Promise<{ results: WalkedInheritor[]; capped: boolean }> {
  const seen = new Set<string>(root.places.map((p) => p.id));
  const results: WalkedInheritor[] = [];
  let frontier: Array<{ symbol: StoredSymbol; places: StoredSymbol[] }> = [{ symbol: root.symbol, places: root.places }];
  let capped = false;
  for (let depth = 1; depth <= maxDepth && frontier.length > 0 && !capped; depth++) {
    const levels = await Promise.all(frontier.map(async (parent) => ({ parent, edges: await graph.directSubtypes(parent.symbol, parent.places) })));
    const next: typeof frontier = [];
    for (const { parent, edges } of levels) {
      for (const edge of edges) {
        if (seen.has(edge.symbol.id)) continue;
        if (results.length >= cap) {
          capped = true;
          break;
        }
        seen.add(edge.symbol.id);
        results.push({ symbol: edge.symbol, source: edge.source, depth, ...(depth > 1 ? { via: parent.symbol } : {}), ...(edge.written ? { written: edge.written } : {}), ...(edge.confidence ? { confidence: edge.confidence } : {}) });
        next.push({ symbol: edge.symbol, places: [edge.symbol] });
      }
    }
    frontier = next;
  }
  return { results, capped };
}

export async function findInheritors(services: Services, query: InheritorsQuery, signal?: AbortSignal, options: InheritorsOptions = {}): Promise<InheritorsResponse> {
  const started = performance.now();
  const limit = checkLimit(query.limit, INHERITORS_LIMIT_MAX, INHERITORS_LIMIT_DEFAULT);
  const offset = query.offset ?? 0;
  const maxDepth = parseDepth(query.depth, 1);
  const resolved = await resolveOne(services, query, A_TYPE);
  const noInheritance = noInheritanceOutcome(resolved.symbol);
  const graph = new TypeGraph(services, signal, options.useServer !== false && !noInheritance);
  const walked = await walkInheritors(graph, resolved, maxDepth);
  const kept = query.scope === 'user' ? walked.results.filter((r) => !r.symbol.external) : walked.results;
  const results: Inheritor[] = pageOf(kept, offset, limit).map(toInheritor);
  const serverPartial = graph.partial();
  const indexPartial = partialOf(services);
  const reasons = [indexPartial.reason, serverPartial.reason, walked.capped ? `The walk stopped after ${WALK_CAP} types` : undefined].filter(Boolean);
  return {
    symbol: toIndexSymbol(resolved.symbol),
    depth: maxDepth === Infinity ? 'all' : maxDepth,
    results,
    ...listEnvelope({ limit, offset, totalMatches: kept.length, returned: results.length }),
    ...(reasons.length > 0 ? { partial: true as const, reason: reasons.join('; ') } : {}),
    source: serverAnswered(graph) ? 'both' : 'index',
    ...(noInheritance ? { server: noInheritance } : graph.serverOutcome ? { server: graph.serverOutcome } : {}),
    elapsedMs: elapsedMs(started),
  };
}

/** Whether the server took part in the answer (it answered, possibly while still indexing). */
export function serverAnswered(graph: TypeGraph): boolean {
  const state = graph.serverOutcome?.state;
  return state === 'answered' || state === 'indexing';
}

function toInheritor(walked: WalkedInheritor): Inheritor {
  return {
    ...toIndexSymbol(walked.symbol),
    source: walked.source,
    depth: walked.depth,
    ...(walked.via ? { via: { id: walked.via.id, name: walked.via.name, qualifiedName: walked.via.qualifiedName } } : {}),
    ...(walked.written ? { base: walked.written } : {}),
    ...(walked.confidence ? { confidence: walked.confidence } : {}),
  };
}
