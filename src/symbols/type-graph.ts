/**
 * The type graph behind inheritors, hierarchy and implementations: a type's direct subtypes from the
 * index (./index-subtypes.ts: base names as written, confirmed through the deriving file's namespaces,
 * imports and includes) united with the language server's (./server-subtypes.ts: typeHierarchy/subtypes
 * where served, textDocument/implementation where not), and a type's bases resolved through the one base
 * resolver. One TypeGraph per request: it caches what it read and the server's answers.
 */
import type { StoredSymbol } from '../index/store.js';
import type { Services } from '../services.js';
import { languageById } from '../languages/index.js';
import { BaseResolver } from './base-resolver.js';
import { indexSubtypes } from './index-subtypes.js';
import type { ServerOutcome } from './server-conversation.js';
import { ServerSubtypes, type ServerSupertype } from './server-subtypes.js';

export type Source = 'index' | 'lsp' | 'both';

/** One direct subtype of a type. */
export interface SubtypeEdge {
  symbol: StoredSymbol;
  source: Source;
  /** The base as written in the subtype's declaration (index edges). */
  written?: string;
  /** The written base name could not be confirmed to be this type. */
  confidence?: 'name';
}

/** One base of a type: the index's type it names, or a name outside the index. */
export interface SupertypeEdge {
  written: string;
  symbol?: StoredSymbol;
  source: Source;
  confidence?: 'name';
  /** Where the server put a base outside the index. */
  location?: { file: string; line: number; column: number };
}

export class TypeGraph {
  /** The one resolver of written bases (members, hierarchy, inheritors and implementations share it). */
  readonly bases: BaseResolver;
  /** The server's side: its subtypes, supertypes and implementations, and how its requests went. */
  private readonly server: ServerSubtypes;
  private readonly subtypes = new Map<string, Promise<SubtypeEdge[]>>();

  /**
   * `useServer` false answers from the index alone; `serverSubtypesToo` false keeps the server for the
   * requests a caller makes itself (implementations) but walks subtypes through the index.
   */
  constructor(private readonly services: Services, signal: AbortSignal | undefined, useServer = true, serverSubtypesToo = true) {
    this.bases = new BaseResolver(services);
    this.server = new ServerSubtypes(services, signal, this.bases, useServer, serverSubtypesToo);
  }

  /** What the server did for the answer (the first language asked); undefined when none was asked. */
  get serverOutcome(): ServerOutcome | undefined {
    return this.server.outcome;
  }

  /** partial/reason for the answer when the server part is missing or incomplete. */
  partial(): { partial?: true; reason?: string } {
    return this.server.partial();
  }

  // ---- down: direct subtypes -------------------------------------------------------------------

  /** A type's direct subtypes: the index's candidates confirmed against the server's answer. Cached per type. */
  directSubtypes(type: StoredSymbol, places: StoredSymbol[] = [type]): Promise<SubtypeEdge[]> {
    let edges = this.subtypes.get(type.id);
    if (!edges) {
      edges = this.computeSubtypes(type, places);
      this.subtypes.set(type.id, edges);
    }
    return edges;
  }

  private async computeSubtypes(type: StoredSymbol, places: StoredSymbol[]): Promise<SubtypeEdge[]> {
    const [fromIndex, fromServer] = await Promise.all([indexSubtypes(this.services.index.reader, this.bases, type, places), this.server.subtypes(type)]);
    const byId = new Map<string, SubtypeEdge>();
    for (const edge of fromIndex) byId.set(edge.symbol.id, edge);
    for (const symbol of fromServer) {
      const known = byId.get(symbol.id);
      if (known) byId.set(symbol.id, { symbol: known.symbol, written: known.written, source: 'both' });
      else if (symbol.id !== type.id) byId.set(symbol.id, { symbol, source: 'lsp' });
    }
    return [...byId.values()].sort((a, b) => compareSymbols(a.symbol, b.symbol));
  }

  // ---- up: bases -------------------------------------------------------------------------------

  /** The bases of a type, each resolved through the index (external when no type of its name fits). */
  async supertypes(type: StoredSymbol): Promise<SupertypeEdge[]> {
    const edges: SupertypeEdge[] = [];
    for (const written of type.bases) {
      const resolved = await this.bases.resolve(type, written);
      if (resolved.best.length === 0) {
        edges.push({ written, source: 'index' });
        continue;
      }
      for (const group of resolved.best.slice(0, 5)) {
        edges.push({ written, symbol: group.symbol, source: 'index', ...(resolved.confirmed ? {} : { confidence: 'name' as const }) });
      }
    }
    return edges;
  }

  /** The server's supertypes of a type (typeHierarchy/supertypes), mapped to the index where it can; undefined when not served. */
  serverSupertypes(type: StoredSymbol): Promise<ServerSupertype[] | undefined> {
    return this.server.supertypes(type);
  }

  /** The server's implementations at a symbol's name, as index symbols of the given kinds; undefined when not served. */
  serverImplementations(symbol: StoredSymbol, kinds: readonly string[]): Promise<StoredSymbol[] | undefined> {
    return this.server.implementations(symbol, kinds);
  }
}

export function compareSymbols(a: StoredSymbol, b: StoredSymbol): number {
  return Number(a.external) - Number(b.external) || (a.file < b.file ? -1 : a.file > b.file ? 1 : 0) || a.line - b.line || a.column - b.column;
}

/**
 * Where the type's language has no inheritance (C): the outcome that says the server was not asked and why,
 * for inheritors, hierarchy and implementations to answer from the index at once.
 */
export function noInheritanceOutcome(symbol: StoredSymbol): ServerOutcome | undefined {
  const language = languageById(symbol.language);
  if (!language?.rules.noInheritance) return undefined;
  return { language: language.name, request: null, state: 'unsupported', reason: `${language.name} has no inheritance: nothing derives from a ${symbol.kind} and it derives from nothing, so the index answers without asking a server` };
}
