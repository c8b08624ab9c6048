/**
 * GET /symbols/implementations (find_implementations): the overrides of a virtual or abstract method and the
 * implementations of an interface method. The inheritors (every depth) of the method's type, then their members
 * of the same name, united with textDocument/implementation where the language's server serves it.
 */
import type { Implementation, ImplementationsQuery, ImplementationsResponse } from '../../schemas/hierarchy.js';
import { INHERITORS_LIMIT_DEFAULT, INHERITORS_LIMIT_MAX } from '../../schemas/hierarchy.js';
import type { StoredSymbol } from '../index/store.js';
import type { Services } from '../services.js';
import { elapsedMs } from './elapsed.js';
import { checkLimit, listEnvelope, pageOf, partialOf, toIndexSymbol } from './envelope.js';
import { walkInheritors, serverAnswered } from './inheritors.js';
import { A_CALLABLE, CALLABLE_KINDS, groupPlaces, resolveOne, TYPE_KINDS, type ResolvedSymbol } from './resolve-symbol.js';
import { compareSymbols, TypeGraph, type Source } from './type-graph.js';
import { languageById, rulesOf, sameFamily } from '../languages/index.js';
import { dirOf } from '../languages/names.js';

/** Members read per derived type's name. */
const MEMBER_CAP = 2000;

export async function findImplementations(services: Services, query: ImplementationsQuery, signal?: AbortSignal): Promise<ImplementationsResponse> {
  const started = performance.now();
  const limit = checkLimit(query.limit, INHERITORS_LIMIT_MAX, INHERITORS_LIMIT_DEFAULT);
  const offset = query.offset ?? 0;
  const method = await resolveOne(services, query, A_CALLABLE);
  // clangd's implementation request already lists the overrides; asking its type hierarchy level by level (a file
  // opened per type) costs seconds for nothing. Where types satisfy interfaces unnamed (Go), the walk needs the server.
  const listsOverrides = languageById(method.symbol.language)?.server?.implementationListsOverrides === true;
  const graph = new TypeGraph(services, signal, true, !listsOverrides);
  const found = new Map<string, { symbol: StoredSymbol; source: Source; depth: number; confidence?: 'name' }>();

  const owner = await owningType(services, method);
  if (owner) {
    const walked = await walkInheritors(graph, owner, Infinity);
    for (const inheritor of walked.results) {
      const members = await services.index.reader.symbolsInContainer(inheritor.symbol.name, MEMBER_CAP);
      const same = members.filter((m) => m.name === method.symbol.name && (CALLABLE_KINDS as readonly string[]).includes(m.kind) && belongsTo(m, inheritor.symbol));
      // A C++ override declared in its class and defined out of line is one implementation: its definition.
      for (const group of groupPlaces(same)) {
        if (found.has(group.symbol.id)) continue;
        found.set(group.symbol.id, { symbol: group.symbol, source: 'index', depth: inheritor.depth, ...(inheritor.confidence ? { confidence: inheritor.confidence } : {}) });
      }
    }
  }

  const served = await graph.serverImplementations(method.symbol, CALLABLE_KINDS);
  if (served) {
    const byKey = new Map([...found.values()].map((entry) => [placeKey(entry.symbol), entry]));
    for (const symbol of served) {
      if (method.places.some((p) => p.id === symbol.id)) continue;
      const known = found.get(symbol.id) ?? byKey.get(placeKey(symbol)) ?? sameOverride(found, symbol);
      if (known) {
        known.source = 'both';
        delete known.confidence;
      } else {
        found.set(symbol.id, { symbol, source: 'lsp', depth: 1 });
      }
    }
  }

  const all = [...found.values()].filter((e) => query.scope !== 'user' || !e.symbol.external)
    .sort((a, b) => a.depth - b.depth || compareSymbols(a.symbol, b.symbol));
  const results: Implementation[] = pageOf(all, offset, limit).map((e) => ({
    ...toIndexSymbol(e.symbol), source: e.source, depth: e.depth, ...(e.confidence ? { confidence: e.confidence } : {}),
  }));
  const reasons = [partialOf(services).reason, graph.partial().reason, owner ? undefined : `'${method.symbol.qualifiedName}' has no containing type in the index: only the server's implementations are listed`].filter(Boolean);
  return {
    symbol: toIndexSymbol(method.symbol),
    results,
    ...listEnvelope({ limit, offset, totalMatches: all.length, returned: results.length }),
    ...(reasons.length > 0 && (owner === undefined ? !served : true) ? { partial: true as const, reason: reasons.join('; ') } : {}),
    source: served && serverAnswered(graph) ? 'both' : 'index',
    ...(graph.serverOutcome ? { server: graph.serverOutcome } : {}),
    elapsedMs: elapsedMs(started),
  };
}

/** The type a method is declared in: its containingType resolved in the method's file first, then by qualified name. */
async function owningType(services: Services, method: ResolvedSymbol): Promise<ResolvedSymbol | undefined> {
  const container = method.symbol.containingType;
  if (!container) return undefined;
  const reader = services.index.reader;
  const qualified = method.symbol.qualifiedName.split(/::|\./).slice(0, -1).join('.');
  for (const place of method.places) {
    const inFile = (await reader.symbolsInFile(place.file)).filter((s) => s.name === container && (TYPE_KINDS as readonly string[]).includes(s.kind) && !s.forwardDeclaration);
    const holding = inFile.find((s) => s.range.start.line <= place.line && place.line <= s.range.end.line) ?? inFile.find((s) => s.qualifiedName.replace(/::/g, '.') === qualified);
    if (holding) return { symbol: holding, places: [holding] };
  }
  const page = await reader.search({ name: container, tiers: ['exact'], kinds: [...TYPE_KINDS], offset: 0, limit: 50, includeForwardDeclarations: false });
  const matches = groupPlaces(page.results.map((h) => h.symbol).filter((s) => s.language === method.symbol.language && s.qualifiedName.replace(/::/g, '.') === qualified));
  return matches.length === 1 ? matches[0] : undefined;
}

/** Whether a member named after a type belongs to that very type: declared in its range, or outside it where the language puts members (rules.membersLive). */
function belongsTo(member: StoredSymbol, type: StoredSymbol): boolean {
  if (member.file === type.file && member.range.start.line >= type.range.start.line && member.range.end.line <= type.range.end.line) return true;
  if (!sameFamily(member.language, type.language)) return false;
  const owner = member.qualifiedName.split(/::|\./).slice(0, -1).join('.');
  const typeName = type.qualifiedName.replace(/::/g, '.');
  switch (rulesOf(member.language)?.membersLive) {
    case 'anywhere':
      // C++ out-of-line definitions, qualified by the type's name or a shorter tail of it.
      return owner === typeName || owner.endsWith(`.${typeName}`);
    case 'directory':
      // Go methods: the receiver's package is the type's directory.
      return owner === typeName && dirOf(member.file) === dirOf(type.file);
    case 'package':
      return owner === typeName && member.package === type.package;
    default:
      return false;
  }
}

function placeKey(symbol: StoredSymbol): string {
  return `${symbol.file}\u0000${symbol.line}`;
}

/** A server result that is the declaration of an override the index found by its definition (or the other way). */
function sameOverride(found: Map<string, { symbol: StoredSymbol; source: Source; depth: number; confidence?: 'name' }>, symbol: StoredSymbol) {
  const key = symbol.qualifiedName.replace(/::/g, '.');
  for (const entry of found.values()) if (entry.symbol.qualifiedName.replace(/::/g, '.') === key && entry.symbol.language === symbol.language) return entry;
  return undefined;
}
