/**
 * The type graph behind inheritors, hierarchy and implementations: a type's direct subtypes from the
 * index (base names as written, confirmed through the deriving file's namespaces, imports and includes)
 * united with the language server's (typeHierarchy/subtypes where served, textDocument/implementation
 * where not), and a type's bases resolved through the index. One TypeGraph per request: it caches what
 * it read (files' imports, types by name, server answers) and counts the server requests it made.
 */
import path from 'node:path';
import {
  ImplementationRequest, TypeHierarchyPrepareRequest, TypeHierarchySubtypesRequest, TypeHierarchySupertypesRequest,
  type Location, type LocationLink, type ServerCapabilities, type TypeHierarchyItem,
} from 'vscode-languageserver-protocol';
import type { Position } from '../../schemas/common.js';
import type { ServerPart } from '../../schemas/hierarchy.js';
import { PlumbError } from '../errors.js';
import type { StoredSymbol } from '../index/store.js';
import type { LanguageId } from '../syntax/types.js';
import { fromLspPosition, toLspPosition } from '../lsp/convert.js';
import type { Services } from '../services.js';
import { BaseResolver } from './base-resolver.js';
import { rulesOf, sameFamily } from '../languages/index.js';
import type { WorkspaceFile } from '../workspace.js';
import { comparePositions, rangeHolds } from './document-symbols.js';
import { groupPlaces, TYPE_KINDS, type ResolvedSymbol } from './resolve-symbol.js';

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

/** Server requests one answer may make; past it the answer is the index's, and says so. */
const SERVER_REQUEST_BUDGET = 60;
/** Types past the first a server is asked to prepare (each opens its file: an AST build in clangd). */
const PREPARE_BUDGET = 4;
/** No new prepare this long after the answer started: the index answers the rest. */
const PREPARE_WINDOW_MS = 3000;
/** Server requests one answer has in flight at once. */
const SERVER_CONCURRENCY = 4;
/** Types of one name read to tell them apart. */
const SAME_NAME_CAP = 200;
/** Candidate subtypes of one name read from the index. */
const CANDIDATE_CAP = 5000;

type ServerMode = 'typeHierarchy' | 'implementation' | 'none';

interface ServerInfo {
  mode: ServerMode;
  part: ServerPart;
}

export class TypeGraph {
  private readonly reader;
  /** The one resolver of written bases (members, hierarchy, inheritors and implementations share it). */
  readonly bases: BaseResolver;
  private readonly fileSymbols = new Map<string, Promise<StoredSymbol[]>>();
  private readonly subtypes = new Map<string, Promise<SubtypeEdge[]>>();
  private readonly servers = new Map<string, Promise<ServerInfo>>();
  private inFlight = 0;
  /** Server type hierarchy items by index symbol id, and the open file their requests go through. */
  private readonly items = new Map<string, TypeHierarchyItem>();
  private anchor: WorkspaceFile | undefined;
  private prepares = 0;
  private readonly started = performance.now();
  private readonly waiting: Array<() => void> = [];
  /** Server requests made so far. */
  requests = 0;
  /** Set once a budget, a failure or indexing made the server part incomplete. */
  private serverNote: string | undefined;
  /** The server part of the answer for the first language asked (the one the answer is about). */
  serverPart: ServerPart | undefined;

  /**
   * `useServer` false answers from the index alone; `serverSubtypesToo` false keeps the server for the
   * requests a caller makes itself (implementations) but walks subtypes through the index.
   */
  constructor(private readonly services: Services, private readonly signal: AbortSignal | undefined, private readonly useServer = true, private readonly serverSubtypesToo = true) {
    this.reader = services.index.reader;
    this.bases = new BaseResolver(services);
  }

  /** partial/reason for the answer when the server part is missing or incomplete. */
  partial(): { partial?: true; reason?: string } {
    const part = this.serverPart;
    if (!part) return {};
    if (part.state === 'unavailable' || part.state === 'failed') {
      return { partial: true, reason: `From the index only: the ${part.language} server could not confirm or add results (${part.message ?? part.state})` };
    }
    if (part.state === 'indexing') return { partial: true, reason: `The ${part.language} server was still indexing: its results may be incomplete${part.message ? ` (${part.message})` : ''}` };
    if (this.serverNote) return { partial: true, reason: this.serverNote };
    return {};
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
    const [fromIndex, fromServer] = await Promise.all([this.indexSubtypes(type, places), this.serverSubtypes(type)]);
    const byId = new Map<string, SubtypeEdge>();
    for (const edge of fromIndex) byId.set(edge.symbol.id, edge);
    for (const symbol of fromServer) {
      const known = byId.get(symbol.id);
      if (known) byId.set(symbol.id, { symbol: known.symbol, written: known.written, source: 'both' });
      else if (symbol.id !== type.id) byId.set(symbol.id, { symbol, source: 'lsp' });
    }
    return [...byId.values()].sort((a, b) => compareSymbols(a.symbol, b.symbol));
  }

  /** Types whose written bases name this type, kept when their file's scope or imports do not say they mean another. */
  private async indexSubtypes(type: StoredSymbol, places: StoredSymbol[]): Promise<SubtypeEdge[]> {
    const ids = new Set(places.map((p) => p.id));
    const candidates = (await this.reader.symbolsWithBase(type.name, CANDIDATE_CAP))
      .filter((c) => !c.forwardDeclaration && sameFamily(c.language, type.language) && !ids.has(c.id));
    const edges: SubtypeEdge[] = [];
    for (const candidate of candidates) {
      for (const written of candidate.bases) {
        const named = await this.bases.nameOf(candidate, written);
        if (named !== type.name) continue;
        const resolved = await this.bases.resolve(candidate, written);
        if (!resolved.best.some((group) => group.places.some((p) => ids.has(p.id)))) continue;
        edges.push({ symbol: candidate, source: 'index', written, ...(resolved.confirmed ? {} : { confidence: 'name' as const }) });
        break;
      }
    }
    return edges;
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
  async serverSupertypes(type: StoredSymbol): Promise<Array<{ symbol?: StoredSymbol; name: string; location: { file: string; line: number; column: number } }> | undefined> {
    const file = this.workspaceFile(type);
    if (!file || !this.useServer) return undefined;
    const info = await this.server(type, file);
    if (info.mode !== 'typeHierarchy') return undefined;
    const items = await this.prepare(type, file, info);
    if (!items || items.length === 0) return undefined;
    const supers = await this.ask(info, () => this.services.lsp.request(file, TypeHierarchySupertypesRequest.type, { item: items[0] }, { signal: this.signal }));
    if (!supers) return undefined;
    const out = [];
    for (const item of supers) {
      const located = this.locationOf(item.uri, item.selectionRange.start);
      const symbol = await this.symbolAt(item.uri, fromLspPosition(item.selectionRange.start), TYPE_KINDS);
      out.push({ symbol, name: item.name, location: located });
    }
    return out;
  }

  // ---- the server --------------------------------------------------------------------------------

  /** The server's direct subtypes of a type, as index symbols; [] when no server can say. */
  private async serverSubtypes(type: StoredSymbol): Promise<StoredSymbol[]> {
    if (!this.useServer || !this.serverSubtypesToo) return [];
    const file = this.workspaceFile(type);
    if (!file) return [];
    const info = await this.server(type, file);
    if (info.mode === 'none') return [];
    if (this.requests >= SERVER_REQUEST_BUDGET) {
      this.serverNote ??= `The server confirmed the first ${SERVER_REQUEST_BUDGET} requests' types; deeper levels come from the index only`;
      return [];
    }
    if (info.mode === 'typeHierarchy') {
      // Items from an earlier subtypes answer go straight back (clangd finds their subtypes in its index);
      // a type the server did not name needs a prepare, which opens its file (an AST build): a few only.
      let item = this.items.get(type.id);
      let via = this.anchor ?? file;
      if (!item) {
        if (this.anchor && (this.prepares >= PREPARE_BUDGET || performance.now() - this.started > PREPARE_WINDOW_MS)) {
          this.serverNote ??= `The server was asked about the types it named itself and at most ${PREPARE_BUDGET} others (each opens a file); the subtypes of the rest come from the index only`;
          return [];
        }
        if (this.anchor) this.prepares++;
        item = (await this.prepare(type, file, info))?.[0];
        if (!item) return [];
        this.anchor ??= file;
        via = file;
      }
      const known = item;
      const subs = await this.ask(info, () => this.services.lsp.request(via, TypeHierarchySubtypesRequest.type, { item: known }, { signal: this.signal }));
      const out: StoredSymbol[] = [];
      for (const sub of subs ?? []) {
        const symbol = await this.symbolAt(sub.uri, fromLspPosition(sub.selectionRange.start), TYPE_KINDS);
        if (!symbol) continue;
        this.items.set(symbol.id, sub);
        out.push(symbol);
      }
      return out;
    }
    const answer = await this.ask(info, () => this.services.lsp.request(file, ImplementationRequest.type, {
      textDocument: { uri: this.services.workspace.uriOf(file.absolute) },
      position: toLspPosition(type.selectionRange.start),
    }, { signal: this.signal }));
    const out: StoredSymbol[] = [];
    for (const location of asLocations(answer)) {
      const symbol = await this.symbolAt(location.uri, fromLspPosition(location.range.start), TYPE_KINDS);
      if (!symbol || symbol.id === type.id) continue;
      // The TypeScript server answers every level at once: keep those deriving from this type directly
      // (their written bases name it), and any whose bases say nothing of it only where types satisfy
      // interfaces structurally (Go).
      const direct = rulesOf(symbol.language)?.structuralTypes === true || (await Promise.all(symbol.bases.map((b) => this.bases.nameOf(symbol, b)))).includes(type.name);
      if (direct) out.push(symbol);
    }
    return out;
  }

  /** Server locations (implementation answers) for a position of a symbol, as index symbols of the given kinds. */
  async serverImplementations(symbol: StoredSymbol, kinds: readonly string[]): Promise<StoredSymbol[] | undefined> {
    if (!this.useServer) return undefined;
    const file = this.workspaceFile(symbol);
    if (!file) return undefined;
    const info = await this.server(symbol, file);
    if (!info.part.request && info.mode === 'none') return undefined;
    const capabilities = await this.capabilitiesOf(file);
    if (!capabilities?.implementationProvider) return undefined;
    const answer = await this.ask(info, () => this.services.lsp.request(file, ImplementationRequest.type, {
      textDocument: { uri: this.services.workspace.uriOf(file.absolute) },
      position: toLspPosition(symbol.selectionRange.start),
    }, { signal: this.signal }));
    if (answer === undefined) return undefined;
    const out: StoredSymbol[] = [];
    for (const location of asLocations(answer)) {
      const found = await this.symbolAt(location.uri, fromLspPosition(location.range.start), kinds);
      if (found && found.id !== symbol.id) out.push(found);
    }
    return out;
  }

  private async prepare(type: StoredSymbol, file: WorkspaceFile, info: ServerInfo): Promise<TypeHierarchyItem[] | null | undefined> {
    return this.ask(info, () => this.services.lsp.request(file, TypeHierarchyPrepareRequest.type, {
      textDocument: { uri: this.services.workspace.uriOf(file.absolute) },
      position: toLspPosition(type.selectionRange.start),
    }, { signal: this.signal }));
  }

  /** One server request, counted; a failure marks the server part failed and answers undefined. */
  private async ask<T>(info: ServerInfo, run: () => Promise<T>): Promise<T | undefined> {
    this.requests++;
    // A few at a time: a level of forty types must not flood the server (nor the caller's abort signal).
    while (this.inFlight >= SERVER_CONCURRENCY) await new Promise<void>((resolve) => this.waiting.push(resolve));
    this.inFlight++;
    try {
      return await run();
    } catch (error) {
      if (error instanceof PlumbError && error.details?.cancelled) throw error;
      info.part.state = error instanceof PlumbError && error.code === 'server_unavailable' ? 'unavailable' : 'failed';
      info.part.message = error instanceof Error ? error.message : String(error);
      return undefined;
    } finally {
      this.inFlight--;
      this.waiting.shift()?.();
    }
  }

  private async capabilitiesOf(file: WorkspaceFile): Promise<ServerCapabilities | undefined> {
    try {
      return (await this.services.lsp.serverFor(file, this.signal)).capabilities;
    } catch {
      return undefined;
    }
  }

  /** What the language's server serves for the hierarchy, once per language (and the answer's server part for the first). */
  private server(symbol: StoredSymbol, file: WorkspaceFile): Promise<ServerInfo> {
    const key = rulesOf(symbol.language)?.family ?? symbol.language;
    let info = this.servers.get(key);
    if (!info) {
      info = this.probe(symbol, file);
      this.servers.set(key, info);
      void info.then((found) => {
        this.serverPart ??= found.part;
      });
    }
    return info;
  }

  private async probe(symbol: StoredSymbol, file: WorkspaceFile): Promise<ServerInfo> {
    let language = symbol.language as string;
    try {
      language = this.services.lsp.languageFor(file).name;
    } catch {
      return { mode: 'none', part: { language, request: null, state: 'unsupported', message: `No language server is configured for ${symbol.language}` } };
    }
    try {
      const server = await this.services.lsp.serverFor(file, this.signal);
      const capabilities = server.capabilities ?? {};
      const state = server.indexing ? 'indexing' as const : 'answered' as const;
      const message = server.indexing ? (server.progress ?? 'indexing') : undefined;
      if (capabilities.typeHierarchyProvider) return { mode: 'typeHierarchy', part: { language, request: 'typeHierarchy/subtypes', state, ...(message ? { message } : {}) } };
      if (capabilities.implementationProvider) return { mode: 'implementation', part: { language, request: 'textDocument/implementation', state, ...(message ? { message } : {}) } };
      return { mode: 'none', part: { language, request: null, state: 'unsupported', message: `${server.name} serves neither typeHierarchy nor textDocument/implementation` } };
    } catch (error) {
      if (error instanceof PlumbError && error.details?.cancelled) throw error;
      return { mode: 'none', part: { language, request: null, state: 'unavailable', message: error instanceof Error ? error.message : String(error) } };
    }
  }

  // ---- mapping server answers to index symbols ---------------------------------------------------

  /** The index symbol (of the given kinds) named at a server position: its name holds the position, else the innermost holding it. */
  async symbolAt(uri: string, position: Position, kinds: readonly string[]): Promise<StoredSymbol | undefined> {
    const absolute = this.services.workspace.pathOfUri(uri);
    if (!absolute) return undefined;
    const stored = this.services.workspace.contains(absolute) ? this.services.workspace.relative(absolute) : absolute;
    let symbols = this.fileSymbols.get(stored);
    if (!symbols) {
      symbols = this.reader.symbolsInFile(stored);
      this.fileSymbols.set(stored, symbols);
    }
    const fitting = (await symbols).filter((s) => kinds.includes(s.kind) && !s.forwardDeclaration);
    const byName = fitting.find((s) => rangeHolds(s.selectionRange, position));
    if (byName) return byName;
    let inner: StoredSymbol | undefined;
    for (const s of fitting) {
      if (rangeHolds(s.range, position) && (!inner || comparePositions(s.range.start, inner.range.start) >= 0)) inner = s;
    }
    return inner;
  }

  private locationOf(uri: string, start: { line: number; character: number }): { file: string; line: number; column: number } {
    const absolute = this.services.workspace.pathOfUri(uri) ?? uri;
    const file = this.services.workspace.contains(absolute) ? this.services.workspace.relative(absolute) : absolute;
    return { file, line: start.line + 1, column: start.character + 1 };
  }

  /** The symbol's file as the pool takes it, when it lies in the workspace (extra roots have no server). */
  workspaceFile(symbol: StoredSymbol): WorkspaceFile | undefined {
    if (path.isAbsolute(symbol.file)) return undefined;
    return { absolute: path.join(this.services.workspace.root, symbol.file), relative: symbol.file };
  }

  private absoluteOf(file: string): string {
    return path.isAbsolute(file) ? file : path.join(this.services.workspace.root, file);
  }
}

function asLocations(answer: Location | Location[] | LocationLink[] | null | undefined): Location[] {
  if (!answer) return [];
  const list = Array.isArray(answer) ? answer : [answer];
  return list.map((item) => ('targetUri' in item ? { uri: item.targetUri, range: item.targetSelectionRange } : item));
}

export function compareSymbols(a: StoredSymbol, b: StoredSymbol): number {
  return Number(a.external) - Number(b.external) || (a.file < b.file ? -1 : a.file > b.file ? 1 : 0) || a.line - b.line || a.column - b.column;
}
