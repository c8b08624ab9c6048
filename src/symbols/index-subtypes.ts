/**
 * The type graph's index side, downwards: a type's direct subtypes are the types whose written bases name it,
 * kept when the deriving file's scope, imports and includes (the BaseResolver, by each language's rules) do not
 * say the base means another type of that name; `confidence: 'name'` where nothing confirmed which one.
 */
import type { SymbolReader, StoredSymbol } from '../index/store.js';
import { sameFamily } from '../languages/index.js';
import type { BaseResolver } from './base-resolver.js';
import type { SubtypeEdge } from './type-graph.js';

/** Candidate subtypes of one name read from the index. */
const CANDIDATE_CAP = 5000;

/** Types whose written bases name this type (any of its places), in its language family. */
export async function indexSubtypes(reader: SymbolReader, bases: BaseResolver, type: StoredSymbol, places: StoredSymbol[]): Promise<SubtypeEdge[]> {
  const ids = new Set(places.map((p) => p.id));
  const candidates = (await reader.symbolsWithBase(type.name, CANDIDATE_CAP))
    .filter((c) => !c.forwardDeclaration && sameFamily(c.language, type.language) && !ids.has(c.id));
  const edges: SubtypeEdge[] = [];
  for (const candidate of candidates) {
    for (const written of candidate.bases) {
      const named = await bases.nameOf(candidate, written);
      if (named !== type.name) continue;
      const resolved = await bases.resolve(candidate, written);
      if (!resolved.best.some((group) => group.places.some((p) => ids.has(p.id)))) continue;
      edges.push({ symbol: candidate, source: 'index', written, ...(resolved.confirmed ? {} : { confidence: 'name' as const }) });
      break;
    }
  }
  return edges;
}
