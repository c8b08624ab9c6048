/**
 * GET /symbols/hierarchy (type_hierarchy): a type's bases up and derived types down, as trees to `depth`.
 * Up: the bases as written, resolved through the index (type-graph.ts), with the server's supertypes where
 * it serves typeHierarchy (locations for bases outside the index). Down: the inheritors logic. A diamond's
 * shared base shows on each path; a type already on its path is marked `cycle` and not expanded; the tree
 * stops at NODE_CAP nodes, counting what it left out.
 */
import type { HierarchyNode, HierarchyQuery, HierarchyResponse } from '../../schemas/hierarchy.js';
import { HIERARCHY_DEPTH_DEFAULT } from '../../schemas/hierarchy.js';
import type { StoredSymbol } from '../index/store.js';
import type { Services } from '../services.js';
import { elapsedMs } from './elapsed.js';
import { parseDepth } from './inheritors.js';
import { A_TYPE, resolveOne } from './resolve-symbol.js';
import { partialOf, toIndexSymbol } from './envelope.js';
import { noInheritanceOutcome, TypeGraph, type SupertypeEdge } from './type-graph.js';

export const NODE_CAP = 500;

export async function typeHierarchy(services: Services, query: HierarchyQuery, signal?: AbortSignal): Promise<HierarchyResponse> {
  const started = performance.now();
  const depth = parseDepth(query.depth, HIERARCHY_DEPTH_DEFAULT, undefined, false);
  const direction = query.direction ?? 'both';
  const resolved = await resolveOne(services, query, A_TYPE);
  const noInheritance = noInheritanceOutcome(resolved.symbol);
  const graph = new TypeGraph(services, signal, !noInheritance);
  const budget = { nodes: 0, omitted: 0 };

  const take = (): boolean => {
    if (budget.nodes >= NODE_CAP) {
      budget.omitted++;
      return false;
    }
    budget.nodes++;
    return true;
  };

  const up = async (type: StoredSymbol, level: number, path: Set<string>, serverEdges?: SupertypeEdge[]): Promise<HierarchyNode[]> => {
    const edges = serverEdges ?? (await graph.supertypes(type));
    const nodes: HierarchyNode[] = [];
    for (const edge of edges) {
      if (!take()) continue;
      if (!edge.symbol) {
        nodes.push({
          name: edge.written,
          written: edge.written,
          external: true,
          source: edge.source,
          ...(edge.location ? { file: edge.location.file, line: edge.location.line, column: edge.location.column } : {}),
        });
        continue;
      }
      const node: HierarchyNode = { ...toIndexSymbol(edge.symbol), written: edge.written, source: edge.source, ...(edge.confidence ? { confidence: edge.confidence } : {}) };
      if (path.has(edge.symbol.id)) node.cycle = true;
      else if (level < depth) node.supertypes = await up(edge.symbol, level + 1, new Set([...path, edge.symbol.id]));
      nodes.push(node);
    }
    return nodes;
  };

  const down = async (type: StoredSymbol, places: StoredSymbol[], level: number, path: Set<string>): Promise<HierarchyNode[]> => {
    const edges = await graph.directSubtypes(type, places);
    const nodes: HierarchyNode[] = [];
    for (const edge of edges) {
      if (!take()) continue;
      const node: HierarchyNode = { ...toIndexSymbol(edge.symbol), source: edge.source, ...(edge.written ? { written: edge.written } : {}), ...(edge.confidence ? { confidence: edge.confidence } : {}) };
      if (path.has(edge.symbol.id)) node.cycle = true;
      else if (level < depth) node.subtypes = await down(edge.symbol, [edge.symbol], level + 1, new Set([...path, edge.symbol.id]));
      nodes.push(node);
    }
    return nodes;
  };

  const rootPath = new Set(resolved.places.map((p) => p.id));
  const supertypes = direction === 'down' ? [] : await up(resolved.symbol, 1, rootPath, await rootSupertypes(graph, resolved.symbol));
  const subtypes = direction === 'up' ? [] : await down(resolved.symbol, resolved.places, 1, rootPath);
  const reasons = [partialOf(services).reason, graph.partial().reason].filter(Boolean);
  return {
    symbol: toIndexSymbol(resolved.symbol),
    direction,
    depth,
    supertypes,
    subtypes,
    nodes: budget.nodes,
    omitted: budget.omitted,
    truncated: budget.omitted > 0,
    ...(reasons.length > 0 ? { partial: true as const, reason: reasons.join('; ') } : {}),
    ...(noInheritance ? { server: noInheritance } : graph.serverOutcome ? { server: graph.serverOutcome } : {}),
    elapsedMs: elapsedMs(started),
  };
}

/**
 * The root's bases: the written ones resolved through the index, merged with the server's supertypes where it
 * serves typeHierarchy (a base the index resolved and the server named is `both`; one only the server knows is
 * `lsp`, with the server's location when it lies outside the index).
 */
async function rootSupertypes(graph: TypeGraph, type: StoredSymbol): Promise<SupertypeEdge[]> {
  const written = await graph.supertypes(type);
  const served = await graph.serverSupertypes(type);
  if (!served) return written;
  const edges = [...written];
  for (const item of served) {
    const same = edges.findIndex((e) => (item.symbol && e.symbol?.id === item.symbol.id) || (!e.symbol && lastSegment(e.written) === lastSegment(item.name)));
    if (same >= 0) {
      const known = edges[same];
      edges[same] = { ...known, source: 'both', ...(item.symbol && !known.symbol ? { symbol: item.symbol } : {}), ...(known.symbol ? {} : { location: item.location }) };
      if (item.symbol) delete edges[same].confidence;
      // Other candidates of the same written name the server did not pick are not this base.
      for (let i = edges.length - 1; i >= 0; i--) {
        if (i !== same && edges[i].written === known.written && edges[i].confidence) edges.splice(i, 1);
      }
    } else {
      edges.push({ written: item.name, source: 'lsp', ...(item.symbol ? { symbol: item.symbol } : { location: item.location }) });
    }
  }
  return edges;
}

function lastSegment(name: string): string {
  return name.replace(/<.*$/s, '').split(/::|\./).pop() ?? name;
}
