/**
 * The type graph's server side: a type's direct subtypes as its language's server gives them
 * (typeHierarchy/subtypes where served, textDocument/implementation where not), its supertypes
 * (typeHierarchy/supertypes) and a method's implementations, each mapped to the index's symbols. Its
 * requests are one ServerConversation (a budget of SERVER_REQUEST_BUDGET, a few at a time); one session per
 * language family, the first one's outcome the answer's `server`.
 */
import path from 'node:path';
import {
  ImplementationRequest, TypeHierarchyPrepareRequest, TypeHierarchySubtypesRequest, TypeHierarchySupertypesRequest,
  type Location, type LocationLink, type TypeHierarchyItem,
} from 'vscode-languageserver-protocol';
import type { Position } from '../../schemas/common.js';
import type { StoredSymbol } from '../index/store.js';
import { rulesOf } from '../languages/index.js';
import { fromLspPosition, toLspPosition } from '../lsp/convert.js';
import type { Services } from '../services.js';
import type { WorkspaceFile } from '../workspace.js';
import type { BaseResolver } from './base-resolver.js';
import { comparePositions, rangeHolds } from './document-symbols.js';
import { TYPE_KINDS } from './resolve-symbol.js';
import {
  IMPLEMENTATION, indexingReason, ServerConversation, TYPE_HIERARCHY, type ServerOutcome, type ServerSession,
} from './server-conversation.js';

/** Server requests one answer may make; past it the answer is the index's, and says so. */
const SERVER_REQUEST_BUDGET = 60;
/** Types past the first a server is asked to prepare (each opens its file: an AST build in clangd). */
const PREPARE_BUDGET = 4;
/** No new prepare this long after the answer started: the index answers the rest. */
const PREPARE_WINDOW_MS = 3000;
/** Server requests one answer has in flight at once. */
const SERVER_CONCURRENCY = 4;

type ServerMode = 'typeHierarchy' | 'implementation' | 'none';

interface ServerInfo {
  /** What the server serves for the hierarchy, as opened (the outcome's request changes when one fails). */
  mode: ServerMode;
  session: ServerSession;
}

export interface ServerSupertype {
  symbol?: StoredSymbol;
  name: string;
  location: { file: string; line: number; column: number };
}

export class ServerSubtypes {
  private readonly conversation: ServerConversation;
  private readonly servers = new Map<string, Promise<ServerInfo>>();
  private readonly fileSymbols = new Map<string, Promise<StoredSymbol[]>>();
  /** Server type hierarchy items by index symbol id, and the open file their requests go through. */
  private readonly items = new Map<string, TypeHierarchyItem>();
  private anchor: WorkspaceFile | undefined;
  private prepares = 0;
  private readonly started = performance.now();
  /** Set once a budget made the server part incomplete. */
  private note: string | undefined;
  /** The server outcome for the first language asked (the one the answer is about). */
  outcome: ServerOutcome | undefined;

  /**
   * `enabled` false answers nothing (the index alone); `subtypesToo` false keeps the server for the requests a
   * caller makes itself (implementations) but leaves subtypes to the index.
   */
  constructor(private readonly services: Services, signal: AbortSignal | undefined, private readonly bases: BaseResolver, private readonly enabled = true, private readonly subtypesToo = true) {
    this.conversation = new ServerConversation(services, signal, { concurrency: SERVER_CONCURRENCY, budget: SERVER_REQUEST_BUDGET });
  }

  /** partial/reason for the answer when the server part is missing or incomplete. */
  partial(): { partial?: true; reason?: string } {
    const outcome = this.outcome;
    if (!outcome) return {};
    if (outcome.state === 'unavailable' || outcome.state === 'failed') {
      return { partial: true, reason: `From the index only: the ${outcome.language} server could not confirm or add results (${outcome.reason ?? outcome.state})` };
    }
    const indexing = indexingReason(outcome);
    if (indexing) return { partial: true, reason: indexing };
    if (this.note) return { partial: true, reason: this.note };
    return {};
  }

  /** The server's direct subtypes of a type, as index symbols; [] when no server can say. */
  async subtypes(type: StoredSymbol): Promise<StoredSymbol[]> {
    if (!this.enabled || !this.subtypesToo) return [];
    const file = this.workspaceFile(type);
    if (!file) return [];
    const { mode, session } = await this.server(type, file);
    if (mode === 'none') return [];
    if (this.conversation.remaining <= 0) {
      this.note ??= `The server confirmed the first ${SERVER_REQUEST_BUDGET} requests' types; deeper levels come from the index only`;
      return [];
    }
    if (mode === 'typeHierarchy') {
      // Items from an earlier subtypes answer go straight back (clangd finds their subtypes in its index);
      // a type the server did not name needs a prepare, which opens its file (an AST build): a few only.
      let item = this.items.get(type.id);
      let via = this.anchor ?? file;
      if (!item) {
        if (this.anchor && (this.prepares >= PREPARE_BUDGET || performance.now() - this.started > PREPARE_WINDOW_MS)) {
          this.note ??= `The server was asked about the types it named itself and at most ${PREPARE_BUDGET} others (each opens a file); the subtypes of the rest come from the index only`;
          return [];
        }
        if (this.anchor) this.prepares++;
        item = (await this.prepare(session, type, file))?.[0];
        if (!item) return [];
        this.anchor ??= file;
        via = file;
      }
      const subs = await this.conversation.tryAsk(session, TypeHierarchySubtypesRequest.type, { item }, { via });
      const out: StoredSymbol[] = [];
      for (const sub of subs ?? []) {
        const symbol = await this.symbolAt(sub.uri, fromLspPosition(sub.selectionRange.start), TYPE_KINDS);
        if (!symbol) continue;
        this.items.set(symbol.id, sub);
        out.push(symbol);
      }
      return out;
    }
    const answer = await this.conversation.tryAsk(session, ImplementationRequest.type, {
      textDocument: { uri: this.services.workspace.uriOf(file.absolute) },
      position: toLspPosition(type.selectionRange.start),
    }, { via: file });
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

  /** The server's supertypes of a type (typeHierarchy/supertypes), mapped to the index where it can; undefined when not served. */
  async supertypes(type: StoredSymbol): Promise<ServerSupertype[] | undefined> {
    const file = this.workspaceFile(type);
    if (!file || !this.enabled) return undefined;
    const { mode, session } = await this.server(type, file);
    if (mode !== 'typeHierarchy') return undefined;
    const items = await this.prepare(session, type, file);
    if (!items || items.length === 0) return undefined;
    const supers = await this.conversation.tryAsk(session, TypeHierarchySupertypesRequest.type, { item: items[0] }, { via: file });
    if (!supers) return undefined;
    const out: ServerSupertype[] = [];
    for (const item of supers) {
      const location = this.locationOf(item.uri, item.selectionRange.start);
      const symbol = await this.symbolAt(item.uri, fromLspPosition(item.selectionRange.start), TYPE_KINDS);
      out.push({ symbol, name: item.name, location });
    }
    return out;
  }

  /**
   * The server's implementations at a symbol's name (textDocument/implementation), as index symbols of the given
   * kinds; undefined when its server does not serve them or failed. The answer then rests on that request.
   */
  async implementations(symbol: StoredSymbol, kinds: readonly string[]): Promise<StoredSymbol[] | undefined> {
    if (!this.enabled) return undefined;
    const file = this.workspaceFile(symbol);
    if (!file) return undefined;
    const { session } = await this.server(symbol, file);
    if (!session.serves(IMPLEMENTATION)) return undefined;
    const answer = await this.conversation.tryAsk(session, ImplementationRequest.type, {
      textDocument: { uri: this.services.workspace.uriOf(file.absolute) },
      position: toLspPosition(symbol.selectionRange.start),
    }, { via: file });
    if (answer === undefined) return undefined;
    session.restsOn(IMPLEMENTATION);
    const out: StoredSymbol[] = [];
    for (const location of asLocations(answer)) {
      const found = await this.symbolAt(location.uri, fromLspPosition(location.range.start), kinds);
      if (found && found.id !== symbol.id) out.push(found);
    }
    return out;
  }

  private prepare(session: ServerSession, type: StoredSymbol, file: WorkspaceFile): Promise<TypeHierarchyItem[] | null | undefined> {
    return this.conversation.tryAsk(session, TypeHierarchyPrepareRequest.type, {
      textDocument: { uri: this.services.workspace.uriOf(file.absolute) },
      position: toLspPosition(type.selectionRange.start),
    }, { via: file });
  }

  /** What the language's server serves for the hierarchy, once per language family (and the answer's outcome for the first). */
  private server(symbol: StoredSymbol, file: WorkspaceFile): Promise<ServerInfo> {
    const key = rulesOf(symbol.language)?.family ?? symbol.language;
    let info = this.servers.get(key);
    if (!info) {
      info = this.conversation.open(file, symbol.language, [TYPE_HIERARCHY, IMPLEMENTATION]).then((session): ServerInfo => {
        this.outcome ??= session.outcome;
        const mode = !session.usable ? 'none' : session.outcome.request === TYPE_HIERARCHY.method ? 'typeHierarchy' : 'implementation';
        return { mode, session };
      });
      this.servers.set(key, info);
    }
    return info;
  }

  /** The index symbol (of the given kinds) named at a server position: its name holds the position, else the innermost holding it. */
  private async symbolAt(uri: string, position: Position, kinds: readonly string[]): Promise<StoredSymbol | undefined> {
    const absolute = this.services.workspace.pathOfUri(uri);
    if (!absolute) return undefined;
    const stored = this.services.workspace.contains(absolute) ? this.services.workspace.relative(absolute) : absolute;
    let symbols = this.fileSymbols.get(stored);
    if (!symbols) {
      symbols = this.services.index.reader.symbolsInFile(stored);
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
  private workspaceFile(symbol: StoredSymbol): WorkspaceFile | undefined {
    if (path.isAbsolute(symbol.file)) return undefined;
    return { absolute: path.join(this.services.workspace.root, symbol.file), relative: symbol.file };
  }
}

function asLocations(answer: Location | Location[] | LocationLink[] | null | undefined): Location[] {
  if (!answer) return [];
  const list = Array.isArray(answer) ? answer : [answer];
  return list.map((item) => ('targetUri' in item ? { uri: item.targetUri, range: item.targetSelectionRange } : item));
}
