/**
 * GET /symbols/path (trace_calls): the shortest call path from one function to another. Breadth first over
 * find_callers' walk from `to` (the servers' call hierarchy where they serve it), level by level up to
 * `max_depth`; where that does not reach `from`, over find_callees' walk from `from`. Each step names where
 * it calls the next. None within the depth is a 404 saying how deep the walks went.
 */
import type { CallNode, CallSite, CallsResponse } from '../../schemas/calls.js';
import { CALLS_DEPTH_MAX } from '../../schemas/calls.js';
import { PATH_DEPTH_DEFAULT, PATH_DEPTH_MAX, type PathQuery, type PathResponse, type PathStep } from '../../schemas/path.js';
import { invalidParameter, PlumbError } from '../errors.js';
import type { Services } from '../services.js';
import { findCalls, type Direction } from './calls.js';
import { elapsedMs } from './elapsed.js';
import { listEnvelope, toIndexSymbol } from './envelope.js';
import { nodeKey } from './impact.js';
import { A_CALLABLE, resolveOne, type ResolvedSymbol } from './resolve-symbol.js';

/** find_callers / find_callees walks one search makes at most (each up to three levels). */
const WALKS_MAX = 30;
/** Results read per walk. */
const WALK_PAGE = 200;

interface Reached {
  node: CallNode;
  /** The node one step nearer the walk's start. */
  parent: string;
  calls: CallSite[];
  depth: number;
}

interface Walk {
  reached: Map<string, Reached>;
  found?: string;
  depth: number;
  complete: boolean;
  precision: 'semantic' | 'syntactic';
  notes: string[];
}

export async function traceCalls(services: Services, query: PathQuery, signal?: AbortSignal): Promise<PathResponse> {
  const started = performance.now();
  const maxDepth = query.max_depth ?? PATH_DEPTH_DEFAULT;
  if (!Number.isInteger(maxDepth) || maxDepth < 1 || maxDepth > PATH_DEPTH_MAX) throw invalidParameter('max_depth', `must be an integer from 1 to ${PATH_DEPTH_MAX}`);
  const from = await endpoint(services, query.from, query.from_id, query.language, 'from');
  const to = await endpoint(services, query.to, query.to_id, query.language, 'to');
  const fromIds = new Set(from.places.map((place) => place.id));
  const toIds = new Set(to.places.map((place) => place.id));

  let walk: Walk | undefined;
  let direction: Direction = 'incoming';
  if ([...fromIds].some((id) => toIds.has(id))) {
    walk = { reached: new Map(), found: to.symbol.id, depth: 0, complete: true, precision: 'semantic', notes: [] };
  } else {
    walk = await breadthFirst(services, to, fromIds, 'incoming', maxDepth, signal);
    if (!walk.found) {
      const forward = await breadthFirst(services, from, toIds, 'outgoing', maxDepth, signal);
      if (forward.found) {
        walk = forward;
        direction = 'outgoing';
      } else {
        const complete = walk.complete && forward.complete;
        const how = [...walk.notes, ...forward.notes];
        throw new PlumbError('not_found', `No call path from '${from.symbol.qualifiedName}' to '${to.symbol.qualifiedName}' within ${maxDepth} calls: the callers of '${to.symbol.name}' were followed ${walk.depth} deep and the callees of '${from.symbol.name}' ${forward.depth} deep${complete ? '' : `, not completely (${how.join('; ') || 'a budget was reached'})`}`, {
          details: { from: from.symbol.id, to: to.symbol.id, searchedDepth: Math.max(walk.depth, forward.depth), complete },
        });
      }
    }
  }

  const steps = stepsOf(walk, direction, from, to);
  return {
    from: toIndexSymbol(from.symbol),
    to: toIndexSymbol(to.symbol),
    results: steps,
    ...listEnvelope({ limit: steps.length, offset: 0, totalMatches: steps.length, returned: steps.length }, services),
    ...(walk.notes.length > 0 ? { reason: walk.notes.join('; ') } : {}),
    length: steps.length - 1,
    found: direction === 'incoming' ? 'callers' : 'callees',
    source: walk.precision === 'semantic' ? 'lsp' : 'index',
    precision: walk.precision,
    searchedDepth: walk.depth,
    elapsedMs: elapsedMs(started),
  };
}

/** One end of the path: a function or method, named or by id. */
async function endpoint(services: Services, name: string | undefined, id: string | undefined, language: PathQuery['language'], parameter: 'from' | 'to'): Promise<ResolvedSymbol> {
  if (!name?.trim() && !id?.trim()) throw invalidParameter(parameter, `or ${parameter}_id is required: the function the path ${parameter === 'from' ? 'starts' : 'ends'} at`);
  try {
    return await resolveOne(services, { symbol: name, id, language }, A_CALLABLE);
  } catch (error) {
    // Say which end a 404 or a 409 is about.
    if (error instanceof PlumbError && (error.code === 'symbol_not_found' || error.code === 'ambiguous_symbol')) {
      throw new PlumbError(error.code, `Parameter '${parameter}': ${error.message}`, { details: { ...error.details, parameter } });
    }
    throw error;
  }
}

/** find_callers (or find_callees) walks, three levels at a time, until a goal is reached or `maxDepth`. */
async function breadthFirst(services: Services, start: ResolvedSymbol, goals: Set<string>, direction: Direction, maxDepth: number, signal?: AbortSignal): Promise<Walk> {
  const walk: Walk = { reached: new Map(), depth: 0, complete: true, precision: 'semantic', notes: [] };
  const seen = new Set(start.places.map((place) => place.id));
  let frontier: Array<{ id: string; key: string; at: number }> = [{ id: start.symbol.id, key: start.symbol.id, at: 0 }];
  let walks = 0;
  while (frontier.length > 0 && !walk.found) {
    const next: typeof frontier = [];
    for (const root of frontier) {
      if (walks >= WALKS_MAX) {
        walk.complete = false;
        walk.notes.push(`a budget of ${WALKS_MAX} walks`);
        return walk;
      }
      walks++;
      const levels = Math.min(maxDepth - root.at, CALLS_DEPTH_MAX);
      let answer: CallsResponse;
      try {
        answer = await findCalls(services, { id: root.id, depth: levels, limit: WALK_PAGE }, direction, signal);
      } catch (error) {
        if (error instanceof PlumbError && error.code === 'request_cancelled') throw error;
        walk.complete = false;
        walk.notes.push(`${direction === 'incoming' ? 'find_callers' : 'find_callees'} failed: ${error instanceof Error ? error.message : String(error)}`);
        continue;
      }
      walk.depth = Math.max(walk.depth, root.at + levels);
      if (answer.precision === 'syntactic') walk.precision = 'syntactic';
      if (answer.totalMatches > answer.results.length || answer.omitted > 0 || answer.partial) {
        walk.complete = false;
        if (answer.reason && !walk.notes.includes(answer.reason)) walk.notes.push(answer.reason);
      }
      for (const result of answer.results) {
        const key = nodeKey(result.symbol);
        if (seen.has(key)) continue;
        seen.add(key);
        const parent = result.depth === 1 ? root.key : result.via?.id;
        if (!parent) continue;
        walk.reached.set(key, { node: result.symbol, parent, calls: result.calls, depth: root.at + result.depth });
        if (goals.has(key)) {
          walk.found = key;
          walk.precision = answer.precision;
          break;
        }
        // The walk's last level: the next round starts there (library code outside the workspace is not walked into).
        if (result.depth === levels && 'id' in result.symbol && !result.symbol.external && root.at + levels < maxDepth) next.push({ id: result.symbol.id, key, at: root.at + levels });
      }
      if (walk.found) break;
    }
    frontier = next;
  }
  return walk;
}

/** The path in call order: from the found end back through each parent to the start. */
function stepsOf(walk: Walk, direction: Direction, from: ResolvedSymbol, to: ResolvedSymbol): PathStep[] {
  if (walk.reached.size === 0) return [{ symbol: toIndexSymbol(from.symbol), step: 0, calls: [] }];
  const chain: Array<{ node: CallNode; calls: CallSite[] }> = [];
  const start = direction === 'incoming' ? to : from;
  for (let key: string | undefined = walk.found; key !== undefined;) {
    const reached = walk.reached.get(key);
    if (!reached) {
      chain.push({ node: toIndexSymbol(start.symbol), calls: [] });
      break;
    }
    chain.push({ node: reached.node, calls: reached.calls });
    key = reached.parent;
  }
  if (direction === 'incoming') {
    // from ... to: each caller's sites are where it calls the next; `to` calls nothing further.
    return chain.map((entry, step) => ({ symbol: entry.node, step, calls: step === chain.length - 1 ? [] : entry.calls }));
  }
  // Callees were reached from `from`: a callee's sites are in the function before it.
  const ordered = chain.reverse();
  return ordered.map((entry, step) => ({ symbol: entry.node, step, calls: ordered[step + 1]?.calls ?? [] }));
}
