/**
 * GET /symbols/usages (find_usages): every reference to one symbol. Semantic where a language server
 * serves the symbol's language (textDocument/references from its definition's name, its own
 * declarations and definitions left out); syntactic otherwise, or when the server is missing or fails:
 * every identifier token with the symbol's name in the indexed files of its language family. Files the
 * workspace ignores are dropped; each answered usage gets its line, enclosing symbol and usage kind.
 */
import path from 'node:path';
import { ReferencesRequest, type Location } from 'vscode-languageserver-protocol';
import type { Position, ServerOutcome } from '../../schemas/common.js';
import { CONTEXT_LINES_MAX, USAGES_LIMIT_DEFAULT, USAGES_LIMIT_MAX, type Snippet, type Usage, type UsagesQuery, type UsagesResponse } from '../../schemas/usages.js';
import { invalidParameter, PlumbError } from '../errors.js';
import type { StoredSymbol } from '../index/store.js';
import { fromLspPosition, rangeContains, toLspPosition } from '../lsp/convert.js';
import { rangeHolds } from './document-symbols.js';
import type { Services } from '../services.js';
import { languageById, languageOfPath, sameFamily } from '../languages/index.js';
import type { LanguageId } from '../syntax/types.js';
import { scanOccurrences } from '../syntax/identifiers.js';
import { classifyPositions, sharedTrees as trees, type UsageKind } from '../syntax/usage-kind.js';
import type { WorkspaceFile } from '../workspace.js';
import { elapsedMs } from './elapsed.js';
import { checkLimit, listEnvelope, toIndexSymbol } from './envelope.js';
import { stripBom } from '../files.js';
import { resolveOne, type ResolvedSymbol } from './resolve-symbol.js';
import { indexingReason, REFERENCES, semanticOr, ServerConversation, unparsedReason, type ServerSession } from './server-conversation.js';
import { MAX_PARSED_BYTES } from '../index/parse-pool.js';

/** A reference before it is answered: where it is. */
interface Hit {
  /** Stored path (root-relative, or absolute under an extra root). */
  file: string;
  absolute: string;
  external: boolean;
  line: number;
  column: number;
}

interface Found {
  hits: Hit[];
  source: 'lsp' | 'index' | 'both';
  precision: 'semantic' | 'syntactic';
  reason?: string;
  partial?: { reason: string };
  filesScanned?: number;
  filesPassedOver?: number;
  droppedIgnored: number;
}

interface Answered extends Found {
  server: ServerOutcome;
}

const TEXT_MAX = 300;

export async function findUsages(services: Services, query: UsagesQuery, signal?: AbortSignal): Promise<UsagesResponse> {
  const started = performance.now();
  const limit = checkLimit(query.limit, USAGES_LIMIT_MAX, USAGES_LIMIT_DEFAULT);
  const offset = checkOffset(query.offset);
  const contextLines = checkContextLines(query.context_lines, CONTEXT_LINES_MAX, 0);
  const userOnly = query.scope === 'user';
  const resolved = await resolveOne(services, query);

  const found = await semanticOrSyntactic(services, resolved, userOnly, signal);
  const declared = await declarationSpots(services, resolved.symbol);
  const hits = found.hits
    .filter((hit) => !userOnly || !hit.external)
    .filter((hit) => !isOwnPlace(hit, resolved.places) && !declared.has(spot(hit.file, hit)));
  hits.sort((a, b) => (a.file < b.file ? -1 : a.file > b.file ? 1 : a.line - b.line || a.column - b.column));
  const unique = hits.filter((hit, i) => i === 0 || hit.file !== hits[i - 1].file || hit.line !== hits[i - 1].line || hit.column !== hits[i - 1].column);
  const page = unique.slice(offset, offset + limit);
  const results = await describe(services, page, contextLines);

  const envelope = listEnvelope({ limit, offset, totalMatches: unique.length, returned: results.length }, services);
  const reasons = [found.partial?.reason, envelope.reason, found.reason].filter((r): r is string => !!r);
  return {
    symbol: toIndexSymbol(resolved.symbol),
    results,
    ...envelope,
    ...(found.partial || envelope.partial ? { partial: true as const } : {}),
    ...(reasons.length > 0 ? { reason: reasons.join('. ') } : {}),
    source: found.source,
    precision: found.precision,
    server: found.server,
    ...(found.filesScanned !== undefined ? { filesScanned: found.filesScanned, filesPassedOver: found.filesPassedOver ?? 0 } : {}),
    droppedIgnored: found.droppedIgnored,
    elapsedMs: elapsedMs(started),
  };
}

/** The server's references when one serves the language and answers; identifier matches otherwise, saying why. */
async function semanticOrSyntactic(services: Services, resolved: ResolvedSymbol, userOnly: boolean, signal?: AbortSignal): Promise<Answered> {
  const { symbol } = resolved;
  // One request is the answer: a server that runs out of time is a 504, not a silent fallback.
  const conversation = new ServerConversation(services, signal, { timeouts: 'fail' });
  const session = await conversation.open(fileOfSymbol(services, symbol) ?? symbol.file, symbol.language, [REFERENCES]);
  const { answer, precision } = await semanticOr(
    session,
    () => semantic(services, conversation, session, resolved, signal),
    (reason) => syntactic(services, symbol, userOnly, `identifier matches of '${symbol.name}' (not in comments or strings), since ${reason}: other symbols with the same name are included`, signal),
  );
  if (precision === 'syntactic') return { ...answer, server: session.outcome };
  return { ...await checkedAgainstSource(services, session, answer, resolved, userOnly, signal), server: session.outcome };
}

/**
 * The server's references where they can be trusted; where they evidently cannot, merged with or replaced by the
 * identifier matches, saying why: the server could not parse the symbol's file (its includes not found, macros it
 * never saw defined: an Unreal module without the engine), so its references miss what a reader sees — merged; or it
 * found none, while the source uses the name — the name's matches, since the server may not read the files using it.
 */
async function checkedAgainstSource(services: Services, session: ServerSession, answer: Found, resolved: ResolvedSymbol, userOnly: boolean, signal?: AbortSignal): Promise<Found> {
  const { symbol } = resolved;
  const unparsed = await unparsedReason(services, session);
  const declared = unparsed ? undefined : await declarationSpots(services, symbol);
  const used = answer.hits.filter((hit) => !isOwnPlace(hit, resolved.places) && !declared?.has(spot(hit.file, hit)));
  if (!unparsed && used.length > 0) return answer;
  const matches = `identifier matches of '${symbol.name}' (not in comments or strings; other symbols with the same name are included)`;
  const scan = await syntactic(services, symbol, userOnly, matches, signal);
  const partial = [answer.partial?.reason, scan.partial?.reason].filter((r): r is string => Boolean(r));
  const common = { filesScanned: scan.filesScanned, filesPassedOver: scan.filesPassedOver, droppedIgnored: answer.droppedIgnored, ...(partial.length > 0 ? { partial: { reason: partial.join('; ') } } : {}) };
  if (unparsed) {
    session.outcome.reason = unparsed;
    const reason = `${unparsed}: its ${answer.hits.length} reference${answer.hits.length === 1 ? '' : 's'} are merged with the ${matches}`;
    return { ...common, hits: [...answer.hits, ...scan.hits], source: 'both', precision: 'syntactic', reason };
  }
  const spots = await declarationSpots(services, symbol);
  const seen = scan.hits.filter((hit) => !isOwnPlace(hit, resolved.places) && !spots.has(spot(hit.file, hit)));
  if (seen.length === 0) return answer;
  const reason = `the ${session.outcome.language} server found no references, but the source uses the name ${seen.length} time${seen.length === 1 ? '' : 's'} (the server may not parse the files using it): ${matches}`;
  session.outcome.reason = `the ${session.outcome.language} server found no references`;
  return { ...common, hits: scan.hits, source: 'index', precision: 'syntactic', reason };
}

async function semantic(services: Services, conversation: ServerConversation, session: ServerSession, resolved: ResolvedSymbol, signal?: AbortSignal): Promise<Found> {
  const { symbol } = resolved;
  const file = session.file!;
  const ask = (): Promise<Location[] | null> => conversation.ask(session, ReferencesRequest.type, {
    textDocument: { uri: services.workspace.uriOf(file.absolute) },
    position: toLspPosition(symbol.selectionRange.start),
    // Declarations included: the TypeScript server and pyright count an import as one, and imports are usages.
    // The symbol's own declarations and definitions, and any other declaration of the name, are dropped after.
    context: { includeDeclaration: true },
    // At a name the index holds: a server failing it is failing.
  }, { expectAnswer: true });
  let locations = await ask();
  // A server that had not found its project's files yet answered for the open files only: ask again once it has.
  if (await services.lsp.waitLoaded(file, services.config.lsp.startTimeoutMs, signal)) locations = await ask();
  const hits: Hit[] = [];
  let dropped = 0;
  const places = new Map<string, { stored: string; external: boolean } | undefined>();
  for (const location of locations ?? []) {
    const absolute = services.workspace.pathOfUri(location.uri);
    if (!absolute) {
      dropped++;
      continue;
    }
    if (!places.has(absolute)) places.set(absolute, services.index.placeOf(absolute));
    const place = places.get(absolute);
    if (!place) {
      dropped++;
      continue;
    }
    const start = fromLspPosition(location.range.start);
    hits.push({ file: place.stored, absolute, external: place.external, line: start.line, column: start.column });
  }
  // Indexing when asked (clangd's background index, a project loading), or once answered: references may be missing.
  conversation.settle(session);
  const indexing = indexingReason(session.outcome);
  return { hits, source: 'lsp', precision: 'semantic', ...(indexing ? { partial: { reason: indexing } } : {}), droppedIgnored: dropped };
}

/** Identifier tokens equal to the symbol's name in every indexed file of its language family. */
async function syntactic(services: Services, symbol: StoredSymbol, userOnly: boolean, reason: string, signal?: AbortSignal): Promise<Found> {
  // Each file in the language the index read it in: a `.h` the index decided is C (header-language.ts) is read as C.
  const languages = new Map<string, LanguageId>();
  const family = (await services.index.reader.indexedFileInfos(userOnly ? { userOnly } : {})).filter((info) => sameFamily(info.language, symbol.language) && languageById(info.language));
  for (const info of family) languages.set(info.file, info.language);
  // Only the files the word index does not show without the name are read (all of them for a name that is not a plain word).
  const narrowed = services.index.words.narrow(family, symbol.name);
  const files = narrowed.files.map((info) => info.file).sort();
  const hits: Hit[] = [];
  // Files that could not be read (too large, a link leading out of the workspace) are said, not dropped silently.
  const unread: string[] = [];
  const absolutes = files.map((stored) => services.workspace.absolute(stored));
  // Up to the size the index parses (a kernel's 24 MB register header uses names too), as syntactic callers read.
  await services.workspace.files.scan(absolutes, symbol.name, MAX_PARSED_BYTES, (i, read) => {
    const stored = files[i];
    if (!read.ok) {
      if (read.reason !== 'not_found') unread.push(`${stored} (${read.message})`);
      return;
    }
    if (read.text === null) return;
    const language = languageById(languages.get(stored)!);
    for (const occurrence of scanOccurrences(language.syntax, stripBom(read.text), symbol.name)) hits.push({ file: stored, absolute: absolutes[i], external: path.isAbsolute(stored), ...occurrence });
  }, () => !!signal?.aborted);
  if (signal?.aborted) throw cancelled();
  const partial = unread.length > 0
    ? { reason: `${unread.length} file${unread.length === 1 ? ' was' : 's were'} not read: ${unread.sort().slice(0, 5).join('; ')}${unread.length > 5 ? '; ...' : ''}` }
    : undefined;
  return { hits, source: 'index', precision: 'syntactic', reason, ...(partial ? { partial } : {}), filesScanned: files.length, filesPassedOver: narrowed.passedOver, droppedIgnored: 0 };
}

function cancelled(): PlumbError {
  return new PlumbError('request_cancelled', 'Usages were cancelled: the caller went away');
}

/** The symbol's file as the pool takes it: a workspace file, or a file of an extra root. */
function fileOfSymbol(services: Services, symbol: StoredSymbol): WorkspaceFile | undefined {
  if (!path.isAbsolute(symbol.file)) return { absolute: path.join(services.workspace.root, symbol.file), relative: symbol.file };
  return services.index.placeOf(symbol.file) ? { absolute: symbol.file, relative: symbol.file } : undefined;
}

/**
 * Where the index has a declaration of the symbol's name (any symbol so named): a reference the server
 * gives there is a declaration (a redeclaration, a prototype, a Python field assigned in __init__), not a usage.
 */
async function declarationSpots(services: Services, symbol: StoredSymbol): Promise<Set<string>> {
  const page = await services.index.reader.search({ name: symbol.name, tiers: ['exact'], offset: 0, limit: 2000, includeForwardDeclarations: true });
  return new Set(page.results.map((hit) => spot(hit.symbol.file, hit.symbol.selectionRange.start)));
}

function spot(file: string, position: Position): string {
  return `${file}\u0000${position.line}\u0000${position.column}`;
}

/** A hit on the name of one of the symbol's own declarations or definitions. */
function isOwnPlace(hit: Hit, places: StoredSymbol[]): boolean {
  return places.some((place) => place.file === hit.file && rangeContains(place.selectionRange, hit));
}

/** Line text, context, enclosing symbol and usage kind for one page of hits (files read once each). */
async function describe(services: Services, page: Hit[], contextLines: number): Promise<Usage[]> {
  const byFile = new Map<string, Hit[]>();
  for (const hit of page) {
    const list = byFile.get(hit.file);
    if (list) list.push(hit);
    else byFile.set(hit.file, [hit]);
  }
  const described = new Map<Hit, Usage>();
  await Promise.all([...byFile.values()].map(async (hits) => {
    const { file, absolute, external } = hits[0];
    const [text, symbols] = await Promise.all([services.workspace.files.text(absolute), services.index.reader.symbolsInFile(file)]);
    const lines = text?.split(/\r?\n/) ?? [];
    const kinds = text !== undefined ? await usageKinds(services.workspace.files.stamp(absolute), file, symbols[0]?.language, text, hits) : hits.map((): UsageKind => 'other');
    hits.forEach((hit, i) => {
      const usage: Usage = {
        file,
        line: hit.line,
        column: hit.column,
        text: clip((lines[hit.line - 1] ?? '').trim()),
        enclosingSymbol: enclosing(symbols, hit),
        usageKind: kinds[i],
        external,
      };
      if (contextLines > 0 && lines.length > 0) usage.context = snippetAround(lines, hit.line, contextLines);
      described.set(hit, usage);
    });
  }));
  return page.map((hit) => described.get(hit)!);
}

/** The usages' kinds from the file's syntax tree, parsed in the language the index read it in (its symbols' language) where it holds any. */
async function usageKinds(stamp: string, stored: string, indexedLanguage: string | undefined, text: string, hits: Hit[]): Promise<UsageKind[]> {
  const language = (indexedLanguage ? languageById(indexedLanguage as LanguageId) : undefined) ?? languageOfPath(stored);
  if (!language) return hits.map(() => 'other');
  const tree = await trees.get(stamp, language.syntax, () => text);
  return tree ? classifyPositions(tree, hits, language.syntax) : hits.map(() => 'other');
}

/** The innermost indexed symbol whose range holds the position. */
function enclosing(symbols: StoredSymbol[], position: Position): Usage['enclosingSymbol'] {
  let best: StoredSymbol | undefined;
  for (const symbol of symbols) {
    if (!rangeHolds(symbol.range, position)) continue;
    if (!best || size(symbol.range) <= size(best.range)) best = symbol;
  }
  return best ? { name: best.name, kind: best.kind, qualifiedName: best.qualifiedName, id: best.id } : null;
}

function size(range: { start: Position; end: Position }): number {
  return (range.end.line - range.start.line) * 1_000_000 + (range.end.column - range.start.column);
}

/** Lines around a line, 1-based inclusive bounds. */
export function snippetAround(lines: string[], line: number, around: number): Snippet {
  const startLine = Math.max(1, line - around);
  const endLine = Math.min(lines.length, line + around);
  return { startLine, endLine, text: lines.slice(startLine - 1, endLine).join('\n') };
}

function clip(text: string): string {
  return text.length > TEXT_MAX ? `${text.slice(0, TEXT_MAX)}…` : text;
}

function checkOffset(offset: number | undefined): number {
  if (offset === undefined) return 0;
  if (!Number.isInteger(offset) || offset < 0) throw invalidParameter('offset', 'must be an integer of 0 or more');
  return offset;
}

/** context_lines, checked here too because MCP tools call the use case without the route's schema. */
export function checkContextLines(value: number | undefined, max: number, fallback: number): number {
  if (value === undefined) return fallback;
  if (!Number.isInteger(value) || value < 0 || value > max) throw invalidParameter('context_lines', `must be an integer from 0 to ${max}`);
  return value;
}
