/**
 * GET /symbols/callers and /symbols/callees (find_callers, find_callees): the server's call hierarchy
 * (prepare at the name, then incomingCalls/outgoingCalls, level by level up to `depth`), each caller or
 * callee mapped to the index. Where no server answers (none for the language, not installed, failing, no
 * callHierarchyProvider), a syntactic answer: callers are the call expressions naming the function in the
 * indexed files of its language, callees the call expressions in its body resolved by name through the index.
 */
import path from 'node:path';
import {
  CallHierarchyIncomingCallsRequest, CallHierarchyOutgoingCallsRequest, CallHierarchyPrepareRequest, SymbolKind,
  type CallHierarchyItem, type Range as LspRange,
} from 'vscode-languageserver-protocol';
import {
  CALLS_DEPTH_MAX, CALLS_LIMIT_DEFAULT, CALLS_LIMIT_MAX,
  type CallNode, type CallResult, type CallSite, type CallsQuery, type CallsResponse,
} from '../../schemas/calls.js';
import type { Position } from '../../schemas/common.js';
import { invalidParameter } from '../errors.js';
import { stripBom } from '../files.js';
import type { IndexedFileInfo, StoredSymbol } from '../index/store.js';
import { fromLspPosition, toLspPosition } from '../lsp/convert.js';
import type { Services } from '../services.js';
import { callsIn, type CallHit } from '../syntax/calls.js';
import { scanOccurrences } from '../syntax/identifiers.js';
import { languageById, languageOfPath, rulesOf } from '../languages/index.js';
import type { LanguageId } from '../syntax/types.js';
import type { WorkspaceFile } from '../workspace.js';
import { comparePositions, rangeHolds } from './document-symbols.js';
import { elapsedMs } from './elapsed.js';
import { checkLimit, listEnvelope, pageOf, partialOf, toIndexSymbol } from './envelope.js';
import { A_CALLABLE, CALLABLE_KINDS, resolveOne, type ResolvedSymbol } from './resolve-symbol.js';
import {
  INCOMING_CALLS, indexingReason, OUTGOING_CALLS, semanticOr, ServerConversation, ServerRequestFailure, unparsedReason, type ServerSession,
} from './server-conversation.js';
import { SourceLines } from './source-lines.js';
import { sameFamily } from '../languages/index.js';

export type Direction = 'incoming' | 'outgoing';

/** Callers or callees one answer holds at most (every depth); past it they are counted in `omitted`. */
const NODE_CAP = 1000;
/** Server requests one answer makes at most (one per node expanded). */
const REQUEST_BUDGET = 120;
/** Server requests in flight at once. */
const CONCURRENCY = 4;
/**
 * Syntactic fallback: files parsed (those holding a call of the name), and the time the search may take. Every
 * indexed file of the language is read for the name until the budget runs out; what it did not read is said.
 */
const PARSE_FILES_MAX = 600;
const SCAN_BUDGET_MS = 15_000;
/** The largest file the index parses: a file it holds is read for calls as well. */
const FILE_BYTES_MAX = 64 * 1024 * 1024;

interface Found {
  key: string;
  node: CallNode;
  /** The index symbol behind the node, for expanding syntactically. */
  symbol?: StoredSymbol;
  item?: CallHierarchyItem;
  sites: CallSite[];
  depth: number;
  via?: { id?: string; name: string };
}

interface Walk {
  found: Found[];
  omitted: number;
  notes: string[];
}

export async function findCalls(services: Services, query: CallsQuery, direction: Direction, signal?: AbortSignal): Promise<CallsResponse> {
  const started = performance.now();
  const limit = checkLimit(query.limit, CALLS_LIMIT_MAX, CALLS_LIMIT_DEFAULT);
  const offset = query.offset ?? 0;
  if (!Number.isInteger(offset) || offset < 0) throw invalidParameter('offset', 'must be an integer of 0 or more');
  const depth = query.depth ?? 1;
  if (!Number.isInteger(depth) || depth < 1 || depth > CALLS_DEPTH_MAX) throw invalidParameter('depth', `must be an integer from 1 to ${CALLS_DEPTH_MAX}`);
  const target = await resolveOne(services, query, A_CALLABLE);
  const conversation = new ServerConversation(services, signal, { concurrency: CONCURRENCY, budget: REQUEST_BUDGET });
  const session = await conversation.open(workspaceFile(services, target.symbol) ?? target.symbol.file, target.symbol.language, [direction === 'incoming' ? INCOMING_CALLS : OUTGOING_CALLS]);
  const context = new CallContext(services, conversation, session);

  const syntactic = (): Promise<Walk> => (direction === 'incoming' ? context.syntacticCallers(target, depth) : context.syntacticCallees(target, depth));
  let { answer: walk, precision } = await semanticOr(session, () => context.semantic(target, direction, depth), syntactic);
  const server = session.outcome;
  let source: 'lsp' | 'index' | 'both' = precision === 'semantic' ? 'lsp' : 'index';
  if (precision === 'semantic') {
    // clangd starts indexing once the first file is open: the answer came while it was indexing.
    conversation.settle(session);
    // A server that could not parse the function's file (its includes not found, macros it never saw defined: an
    // Unreal module without the engine) misses calls a reader sees: its answer is merged with the source's.
    const unparsed = await unparsedReason(services, session, workspaceFile(services, target.symbol));
    if (unparsed) {
      const fromSource = await syntactic();
      walk = mergeWalks(walk, fromSource);
      precision = 'syntactic';
      source = 'both';
      server.reason = `${unparsed}: its ${direction === 'incoming' ? 'callers' : 'callees'} are merged with the call expressions in the source`;
    } else if (walk.found.length === 0 && direction === 'incoming') {
      // A server sees the callers its project holds: the TypeScript server without a tsconfig.json covering the
      // file knows only the open files and their imports. No caller at all is checked against the source.
      const fromSource = await context.syntacticCallers(target, depth);
      if (fromSource.found.length > 0) {
        precision = 'syntactic';
        source = 'index';
        server.reason = `the ${server.language} server found no callers, but calls of the name were found in the source (the server's project may not cover the files calling it)`;
        walk = fromSource;
      }
    }
  }

  const all = walk.found;
  const page = pageOf(all, offset, limit);
  const results: CallResult[] = await Promise.all(page.map(async (entry) => ({
    symbol: entry.node,
    calls: await context.withText(entry.sites),
    depth: entry.depth,
    ...(entry.via ? { via: entry.via } : {}),
  })));
  const reasons = [
    partialOf(services).reason,
    indexingReason(server),
    precision === 'syntactic' ? `Syntactic: ${server.reason ?? 'no server answered'}; ${direction === 'incoming' ? 'callers are the call expressions naming it (and the places taking it as a pointer, `&Type::Function`)' : 'callees are the call expressions in its body, resolved by name'}, so functions sharing its name are not told apart` : undefined,
    ...walk.notes,
  ].filter((r): r is string => Boolean(r));
  const partial = reasons.length > 0 && (server.state === 'indexing' || walk.notes.length > 0 || partialOf(services).partial === true);
  return {
    symbol: toIndexSymbol(target.symbol),
    direction,
    depth,
    results,
    ...listEnvelope({ limit, offset, totalMatches: all.length, returned: results.length }),
    ...(partial ? { partial: true as const } : {}),
    ...(reasons.length > 0 ? { reason: reasons.join('; ') } : {}),
    source,
    precision,
    server,
    omitted: walk.omitted,
    elapsedMs: elapsedMs(started),
  } as CallsResponse;
}

/** One answer's reads: the server's call hierarchy, the index's symbols per file, file texts, the calls each parsed file holds. */
class CallContext {
  private readonly fileSymbols = new Map<string, Promise<StoredSymbol[]>>();
  private readonly texts = new Map<string, Promise<string | undefined>>();
  private readonly parsed = new Map<string, Promise<CallHit[] | undefined>>();
  /** The language the index read each file in (a `.h` is C or C++ by its tree), where known. */
  private readonly languages = new Map<string, LanguageId>();
  private readonly sources: SourceLines;
  private parses = 0;

  constructor(private readonly services: Services, private readonly conversation: ServerConversation, private readonly session: ServerSession) {
    this.sources = new SourceLines(services);
  }

  // ---- the server ------------------------------------------------------------------------------

  /**
   * The server's call hierarchy, breadth first; undefined (the session says why) when it found no function at the
   * name. A failure of the first level's requests is thrown (the answer falls back); of a deeper level, noted.
   */
  async semantic(target: ResolvedSymbol, direction: Direction, depth: number): Promise<Walk | undefined> {
    let root: CallHierarchyItem | undefined;
    for (const place of target.places) {
      const file = workspaceFile(this.services, place);
      if (!file) continue;
      const items = await this.conversation.ask(this.session, CallHierarchyPrepareRequest.type, {
        textDocument: { uri: this.services.workspace.uriOf(file.absolute) },
        position: toLspPosition(place.selectionRange.start),
      }, { via: file });
      if (items && items.length > 0) {
        root = items[0];
        break;
      }
    }
    if (!root) {
      const prepare = CallHierarchyPrepareRequest.method;
      this.session.gaveNothing(prepare, `the ${this.session.outcome.language} server found no function at the name (${prepare} answered nothing)`);
      return undefined;
    }
    const walk: Walk = { found: [], omitted: 0, notes: [] };
    const seen = new Set<string>([itemKey(root)]);
    const byKey = new Map<string, { entry: Found; depth: number; parentKey: string }>();
    let level: Array<{ item: CallHierarchyItem; via?: { id?: string; name: string } }> = [{ item: root }];
    for (let d = 1; d <= depth && level.length > 0; d++) {
      const next: typeof level = [];
      const asked = level.slice(0, this.conversation.remaining);
      if (asked.length < level.length) walk.notes.push(`${level.length - asked.length} functions at depth ${d - 1} were not expanded (a budget of ${REQUEST_BUDGET} server requests)`);
      let answers;
      try {
        answers = await Promise.all(asked.map(({ item }) => this.expand(item, direction)));
      } catch (error) {
        if (d === 1 || !(error instanceof ServerRequestFailure)) throw error;
        walk.notes.push(`depth ${d} is incomplete: the server failed (${error.message})`);
        break;
      }
      for (let i = 0; i < asked.length; i++) {
        const parent = asked[i].item;
        const calls = (answers[i] ?? []).slice().sort((a, b) => itemOrder(a.item, b.item));
        for (const call of calls) {
          const key = itemKey(call.item);
          const sitesUri = direction === 'incoming' ? call.item.uri : parent.uri;
          // A server may list one function twice (one entry per call): its sites join the first entry.
          const same = byKey.get(key);
          if (same && same.depth === d && same.parentKey === itemKey(parent)) {
            same.entry.sites.push(...call.ranges.map((r) => this.site(sitesUri, r)));
            continue;
          }
          // A function once, at its shallowest depth; the symbol itself (recursion) only at depth 1.
          if (seen.has(key) && !(d === 1 && key === itemKey(root))) continue;
          seen.add(key);
          if (walk.found.length >= NODE_CAP) {
            walk.omitted++;
            continue;
          }
          const mapped = await this.mapItem(call.item);
          const via = d > 1 ? viaOf(await this.mapItem(parent)) : undefined;
          const entry: Found = { key, node: mapped.node, symbol: mapped.symbol, item: call.item, sites: call.ranges.map((r) => this.site(sitesUri, r)), depth: d, ...(via ? { via } : {}) };
          walk.found.push(entry);
          byKey.set(key, { entry, depth: d, parentKey: itemKey(parent) });
          // Library code (outside the workspace) is listed, not walked into.
          const inWorkspace = this.services.workspace.pathOfUri(call.item.uri);
          if (key !== itemKey(root) && inWorkspace && this.services.workspace.contains(inWorkspace)) next.push({ item: call.item });
        }
      }
      level = next;
    }
    if (walk.omitted > 0) walk.notes.push(`${walk.omitted} more functions past the cap of ${NODE_CAP} were left out`);
    return walk;
  }

  /** One item's calls, asked through the symbol's own file (the server has it open). */
  private async expand(item: CallHierarchyItem, direction: Direction): Promise<Array<{ item: CallHierarchyItem; ranges: LspRange[] }>> {
    if (direction === 'incoming') {
      const calls = await this.conversation.ask(this.session, CallHierarchyIncomingCallsRequest.type, { item });
      return (calls ?? []).map((c) => ({ item: c.from, ranges: c.fromRanges }));
    }
    const calls = await this.conversation.ask(this.session, CallHierarchyOutgoingCallsRequest.type, { item });
    return (calls ?? []).map((c) => ({ item: c.to, ranges: c.fromRanges }));
  }

  /** The index symbol a server item names (its name holds the item's name position, else the innermost symbol holding it). */
  private async mapItem(item: CallHierarchyItem): Promise<{ node: CallNode; symbol?: StoredSymbol }> {
    const absolute = this.services.workspace.pathOfUri(item.uri);
    const position = fromLspPosition(item.selectionRange.start);
    if (!absolute) return { node: unindexed(item.name, kindName(item.kind), item.uri, position, true, item.detail) };
    const inside = this.services.workspace.contains(absolute);
    const stored = inside ? this.services.workspace.relative(absolute) : absolute;
    const symbol = await this.symbolAt(stored, position, true);
    if (symbol) return { node: toIndexSymbol(symbol), symbol };
    return { node: unindexed(item.name, kindName(item.kind), stored, position, !inside, item.detail) };
  }

  private site(uri: string, range: LspRange): CallSite {
    const absolute = this.services.workspace.pathOfUri(uri) ?? uri;
    const file = this.services.workspace.contains(absolute) ? this.services.workspace.relative(absolute) : absolute;
    const start = fromLspPosition(range.start);
    return { file, line: start.line, column: start.column, text: null };
  }

  /** The call sites with their line text, trimmed. */
  async withText(sites: CallSite[]): Promise<CallSite[]> {
    return Promise.all(sites.map(async (site) => {
      const read = await this.sources.read(site.file);
      const line = 'lines' in read ? read.lines[site.line - 1] : undefined;
      return { ...site, text: line === undefined ? null : clip(line.trim()) };
    }));
  }

  /** The symbol of a file whose name holds the position (byName) or, failing that, the innermost holding it. */
  private async symbolAt(file: string, position: Position, byName: boolean): Promise<StoredSymbol | undefined> {
    let symbols = this.fileSymbols.get(file);
    if (!symbols) {
      symbols = this.services.index.reader.symbolsInFile(file);
      this.fileSymbols.set(file, symbols);
    }
    const all = (await symbols).filter((s) => !s.forwardDeclaration);
    if (byName) {
      const named = all.find((s) => rangeHolds(s.selectionRange, position) && isCallable(s)) ?? all.find((s) => rangeHolds(s.selectionRange, position));
      if (named) return named;
    }
    // The innermost function holding it, else the innermost symbol of any kind (a field's initializer, a class body).
    return innermost(all.filter(isCallable), position) ?? innermost(all, position);
  }

  // ---- the syntactic fallback --------------------------------------------------------------------

  /** Callers: call expressions naming the function in the indexed files of its language family, by enclosing symbol. */
  async syntacticCallers(target: ResolvedSymbol, depth: number): Promise<Walk> {
    const walk: Walk = { found: [], omitted: 0, notes: [] };
    const started = performance.now();
    // Each file in the language the index read it in: a `.h` the index decided is C is parsed as C.
    const scanned: IndexedFileInfo[] = [];
    for (const info of await this.services.index.reader.indexedFileInfos({})) {
      if (!sameFamily(info.language, target.symbol.language) || !languageById(info.language)) continue;
      this.languages.set(info.file, info.language);
      scanned.push(info);
    }
    scanned.sort((a, b) => (a.file < b.file ? -1 : a.file > b.file ? 1 : 0));
    const seen = new Set<string>(target.places.map((p) => p.id));
    let level: Array<{ symbol: StoredSymbol; via?: { id?: string; name: string } }> = [{ symbol: target.symbol }];
    for (let d = 1; d <= depth && level.length > 0; d++) {
      const next: typeof level = [];
      for (const { symbol: callee } of level) {
        if (performance.now() - started > SCAN_BUDGET_MS) {
          walk.notes.push(`the syntactic search stopped after ${SCAN_BUDGET_MS / 1000} s at depth ${d}`);
          return walk;
        }
        const name = callName(callee);
        const via = d > 1 ? { id: callee.id, name: callee.qualifiedName || callee.name } : undefined;
        const byCaller = new Map<string, Found>();
        // Only the files the word index does not show without the name are read.
        const mentioning = this.services.index.words.narrow(scanned, name).files.map((info) => info.file);
        for (const file of await this.filesMentioning(mentioning, name, started, walk)) {
          const hits = [...(await this.callsOf(file, walk) ?? []).filter((hit) => hit.name === name), ...await this.pointersTo(file, name)];
          for (const hit of hits) {
            const caller = await this.symbolAt(file, { line: hit.line, column: hit.column }, false);
            const key = caller ? caller.id : `${file}\u0000top`;
            let entry = byCaller.get(key);
            if (!entry) {
              const node: CallNode = caller ? toIndexSymbol(caller) : unindexed('(top level)', 'module', file, { line: 1, column: 1 }, path.isAbsolute(file));
              entry = { key, node, symbol: caller, sites: [], depth: d, ...(via ? { via } : {}) };
              byCaller.set(key, entry);
            }
            entry.sites.push({ file, line: hit.line, column: hit.column, text: null });
          }
        }
        for (const entry of byCaller.values()) {
          if (seen.has(entry.key) && !(d === 1 && target.places.some((p) => p.id === entry.key))) continue;
          seen.add(entry.key);
          if (walk.found.length >= NODE_CAP) {
            walk.omitted++;
            continue;
          }
          walk.found.push(entry);
          if (entry.symbol && isCallable(entry.symbol) && !target.places.some((p) => p.id === entry.key)) next.push({ symbol: entry.symbol, via });
        }
      }
      level = next;
    }
    if (walk.omitted > 0) walk.notes.push(`${walk.omitted} more callers past the cap of ${NODE_CAP} were left out`);
    return walk;
  }

  /** Callees: the call expressions in the function's body, each name resolved through the index. */
  async syntacticCallees(target: ResolvedSymbol, depth: number): Promise<Walk> {
    const walk: Walk = { found: [], omitted: 0, notes: [] };
    const seen = new Set<string>(target.places.map((p) => p.id));
    if (!target.symbol.definition) walk.notes.push(`'${target.symbol.qualifiedName}' has no body in the index (a declaration only): no calls to read`);
    let level: Array<{ symbol: StoredSymbol; via?: { id?: string; name: string } }> = target.symbol.definition ? [{ symbol: target.symbol }] : [];
    for (let d = 1; d <= depth && level.length > 0; d++) {
      const next: typeof level = [];
      for (const { symbol: caller } of level) {
        if (!this.languages.has(caller.file) && languageById(caller.language as LanguageId)) this.languages.set(caller.file, caller.language as LanguageId);
        const hits = await this.callsOf(caller.file, walk, caller.range.start.line, caller.range.end.line);
        const via = d > 1 ? { id: caller.id, name: caller.qualifiedName || caller.name } : undefined;
        const byName = new Map<string, CallSite[]>();
        for (const hit of hits ?? []) {
          if (!rangeHolds(caller.range, { line: hit.line, column: hit.column }) || rangeHolds(caller.selectionRange, { line: hit.line, column: hit.column })) continue;
          const sites = byName.get(hit.name) ?? [];
          sites.push({ file: caller.file, line: hit.line, column: hit.column, text: null });
          byName.set(hit.name, sites);
        }
        for (const [name, sites] of byName) {
          const symbol = await this.resolveCallee(name, caller);
          const key = symbol ? symbol.id : `unresolved\u0000${name}`;
          if (seen.has(key) && !(d === 1 && symbol && target.places.some((p) => p.id === symbol.id))) continue;
          seen.add(key);
          if (walk.found.length >= NODE_CAP) {
            walk.omitted++;
            continue;
          }
          const node = symbol ? toIndexSymbol(symbol) : unindexed(name, 'function', null, null, true, 'no symbol of this name in the index');
          walk.found.push({ key, node, symbol, sites, depth: d, ...(via ? { via } : {}) });
          if (symbol?.definition && isCallable(symbol) && !target.places.some((p) => p.id === symbol.id)) next.push({ symbol, via });
        }
      }
      level = next;
    }
    if (walk.omitted > 0) walk.notes.push(`${walk.omitted} more callees past the cap of ${NODE_CAP} were left out`);
    return walk;
  }

  /** A called name's symbol: callables of that name in the caller's language family, the same file first, then package. */
  private async resolveCallee(name: string, caller: StoredSymbol): Promise<StoredSymbol | undefined> {
    const page = await this.services.index.reader.search({
      name, tiers: ['exact'], kinds: [...CALLABLE_KINDS, 'class', 'struct'], offset: 0, limit: 200, includeForwardDeclarations: false,
    });
    const candidates = page.results.map((hit) => hit.symbol).filter((s) => sameFamily(s.language, caller.language) && !s.forwardDeclaration);
    if (candidates.length === 0) return undefined;
    const score = (s: StoredSymbol): number => (s.file === caller.file ? 4 : 0) + (s.package === caller.package ? 2 : 0)
      + (s.language === caller.language ? 1 : 0) + (isCallable(s) ? 0.5 : 0) + (s.definition ? 0.25 : 0) - (s.external ? 0.1 : 0);
    return candidates.reduce((best, s) => (score(s) > score(best) ? s : best));
  }

  /**
   * The files whose text has the name followed by a call's `(` (templates and generics between), or taken as a
   * pointer (`&f`, `Type::f`), read in the index's order until the search's time budget runs out; the walk's notes say
   * what was not read (files past the budget, files that could not be read).
   */
  private async filesMentioning(files: string[], name: string, started: number, walk: Walk): Promise<string[]> {
    const escaped = escapeRegExp(name);
    const pattern = new RegExp(`(?<![\\w$])${escaped}!?\\s*(?:<[^;{}()]*>\\s*)?\\(|(?:::|&)\\s*${escaped}(?![\\w$])`);
    const out: string[] = [];
    const read = new Set<string>();
    const unread: string[] = [];
    const stop = (): boolean => performance.now() - started > SCAN_BUDGET_MS;
    const found = (file: string, text: string): void => {
      if (text.includes(name) && pattern.test(text)) out.push(file);
    };
    // Texts this answer read already, then the rest: a file without the name is neither decoded nor kept.
    const fresh: string[] = [];
    for (const file of files) {
      const known = this.texts.get(file);
      if (!known) {
        fresh.push(file);
        continue;
      }
      read.add(file);
      const text = await known;
      if (text === undefined) unread.push(file);
      else found(file, text);
    }
    await this.services.workspace.files.scan(fresh.map((file) => this.absoluteOf(file)), name, FILE_BYTES_MAX, (i, scanned) => {
      const file = fresh[i];
      read.add(file);
      if (!scanned.ok) unread.push(file);
      else if (scanned.text !== null) {
        const text = stripBom(scanned.text);
        // Only the texts of the files holding the name are kept for the parse: the kernel's 55,000 files are 1.2 GB.
        this.texts.set(file, Promise.resolve(text));
        found(file, text);
      }
    }, stop);
    if (read.size < files.length) {
      const first = files.find((file) => !read.has(file));
      const note = `the syntactic search ran out of its ${SCAN_BUDGET_MS / 1000} s budget: ${files.length - read.size} of ${files.length} files were not searched for '${name}' (from ${first} on, in the index's order)`;
      walk.notes.push(note);
    }
    if (unread.length > 0) {
      unread.sort();
      walk.notes.push(`${unread.length} file${unread.length === 1 ? ' was' : 's were'} not read for '${name}' (unreadable, binary or over ${FILE_BYTES_MAX / 1024 / 1024} MB): ${unread.slice(0, 5).join(', ')}${unread.length > 5 ? ', ...' : ''}`);
    }
    return out.sort();
  }

  /**
   * Where a file takes the function without calling it, as a pointer or a reference to it: `&f`, `&Type::f`,
   * `Type::f` passed as an argument (a server's incoming calls count these references too). Identifier tokens
   * outside comments and strings, preceded by `::` or `&` and not followed by a call.
   */
  private async pointersTo(file: string, name: string): Promise<CallHit[]> {
    const known = this.languages.get(file);
    const language = known ? languageById(known) : languageOfPath(file);
    const text = await this.textOf(file);
    if (!language || text === undefined || !text.includes(name)) return [];
    const lines = text.split('\n');
    const hits: CallHit[] = [];
    for (const at of scanOccurrences(language.syntax, text, name)) {
      const line = lines[at.line - 1] ?? '';
      const before = line.slice(0, at.column - 1).trimEnd();
      const after = line.slice(at.column - 1 + name.length).trimStart();
      if (!(before.endsWith('::') || before.endsWith('&')) || before.endsWith('&&')) continue;
      if (after.startsWith('(') || after.startsWith('<')) continue;
      // `Type::f` in its own declarations and definitions (`void Type::f()` is followed by `(` above; `Type::f;` in a using-declaration is no use).
      if (/^\busing\b/.test(before.trimStart())) continue;
      hits.push({ name, line: at.line, column: at.column });
    }
    return hits;
  }

  private absoluteOf(file: string): string {
    return this.services.workspace.absolute(file);
  }

  private textOf(file: string): Promise<string | undefined> {
    let text = this.texts.get(file);
    if (!text) {
      text = this.services.workspace.files.text(this.absoluteOf(file), FILE_BYTES_MAX);
      this.texts.set(file, text);
    }
    return text;
  }

  /** The calls a file holds (all of them, or those in a line range), parsed once per answer; bounded in files. */
  private async callsOf(file: string, walk: Walk, from?: number, to?: number): Promise<CallHit[] | undefined> {
    const language = this.languages.get(file) ?? languageOfPath(file)?.id;
    if (!language) return undefined;
    const key = from === undefined ? file : `${file}\u0000${from}\u0000${to}`;
    let hits = this.parsed.get(key) ?? (from !== undefined ? this.parsed.get(file) : undefined);
    if (!hits) {
      if (this.parses >= PARSE_FILES_MAX) {
        if (!walk.notes.some((n) => n.startsWith('only the first'))) walk.notes.push(`only the first ${PARSE_FILES_MAX} files holding the name were parsed`);
        return undefined;
      }
      this.parses++;
      hits = this.textOf(file).then((text) => (text === undefined ? undefined : callsIn(languageById(language as LanguageId)?.syntax, text, from !== undefined ? { from, to: to ?? from } : undefined)));
      this.parsed.set(key, hits);
    }
    return hits;
  }
}

/**
 * The server's walk and the source's, one entry per function: an entry both found keeps the server's and gains the
 * call sites only the source saw; the source's other entries follow. Depths and `via` as each found them.
 */
function mergeWalks(server: Walk, source: Walk): Walk {
  const found = server.found.map((entry) => ({ ...entry, sites: [...entry.sites] }));
  const byId = new Map<string, Found>();
  for (const entry of found) if (entry.symbol) byId.set(entry.symbol.id, entry);
  for (const entry of source.found) {
    const same = entry.symbol ? byId.get(entry.symbol.id) : undefined;
    if (!same) {
      found.push(entry);
      continue;
    }
    const seen = new Set(same.sites.map((site) => `${site.file}:${site.line}`));
    for (const site of entry.sites) if (!seen.has(`${site.file}:${site.line}`)) same.sites.push(site);
  }
  found.sort((a, b) => a.depth - b.depth);
  return { found, omitted: server.omitted + source.omitted, notes: [...server.notes, ...source.notes] };
}

function workspaceFile(services: Services, symbol: StoredSymbol): WorkspaceFile | undefined {
  if (path.isAbsolute(symbol.file)) return undefined;
  return { absolute: path.join(services.workspace.root, symbol.file), relative: symbol.file };
}

function isCallable(symbol: StoredSymbol): boolean {
  return (CALLABLE_KINDS as readonly string[]).includes(symbol.kind);
}

function innermost(symbols: StoredSymbol[], position: Position): StoredSymbol | undefined {
  let inner: StoredSymbol | undefined;
  for (const s of symbols) {
    if (rangeHolds(s.range, position) && (!inner || comparePositions(s.range.start, inner.range.start) >= 0)) inner = s;
  }
  return inner;
}

/** The name calls spell: a constructor declared under a name of its language's `rules.constructorNames` is called by its class's name. */
function callName(symbol: StoredSymbol): string {
  if (symbol.kind === 'constructor' && symbol.containingType && rulesOf(symbol.language)?.constructorNames?.includes(symbol.name)) return symbol.containingType;
  return symbol.name;
}

function unindexed(name: string, kind: string, file: string | null, position: Position | null, external: boolean, detail?: string): CallNode {
  return { indexed: false, name, kind, file, line: position?.line ?? null, column: position?.column ?? null, external, ...(detail ? { detail } : {}) };
}

function viaOf(mapped: { node: CallNode }): { id?: string; name: string } {
  const node = mapped.node;
  return 'id' in node ? { id: node.id, name: node.qualifiedName || node.name } : { name: node.name };
}

function itemKey(item: CallHierarchyItem): string {
  return `${item.uri}\u0000${item.selectionRange.start.line}:${item.selectionRange.start.character}`;
}

function itemOrder(a: CallHierarchyItem, b: CallHierarchyItem): number {
  return a.uri < b.uri ? -1 : a.uri > b.uri ? 1 : a.selectionRange.start.line - b.selectionRange.start.line || a.selectionRange.start.character - b.selectionRange.start.character;
}

const KIND_NAMES = new Map<number, string>(Object.entries(SymbolKind).map(([name, value]) => [value as number, name.toLowerCase()]));

function kindName(kind: SymbolKind): string {
  return KIND_NAMES.get(kind) ?? 'function';
}

function clip(text: string): string {
  return text.length > 300 ? `${text.slice(0, 299)}…` : text;
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
