/**
 * GET /symbols/resolve (resolve_position): what the name at file:line:column refers to, as Ctrl+Click.
 * textDocument/definition, else textDocument/declaration, mapped to the index symbol whose name the
 * target is, answered with its places and their code. Where no server serves the language or it
 * fails, the index by the name under the position: same file first, then same package, then same
 * language (`source: "index"`).
 */
import path from 'node:path';
import { DeclarationRequest, DefinitionRequest, type Declaration, type DeclarationLink, type Definition, type DefinitionLink, type Location, type LocationLink } from 'vscode-languageserver-protocol';
import type { Position, Range } from '../../schemas/common.js';
import { RESOLVE_CONTEXT_DEFAULT, RESOLVE_CONTEXT_MAX, type Place, type ResolveQuery, type ResolveResponse } from '../../schemas/usages.js';
import { PlumbError } from '../errors.js';
import type { StoredSymbol } from '../index/store.js';
import { fromLspRange, toLspPosition } from '../lsp/convert.js';
import type { Services } from '../services.js';
import { languageById, languageOfPath, sameFamily } from '../languages/index.js';
import type { LanguageId } from '../syntax/types.js';
import { identifierAt, wordAt, type IdentifierAt } from '../syntax/identifiers.js';
import type { WorkspaceFile } from '../workspace.js';
import { checkPosition, rangeHolds } from './document-symbols.js';
import { elapsedMs } from './elapsed.js';
import { sharedTrees } from '../syntax/usage-kind.js';
import { findMatches, groupPlaces, type ResolvedSymbol } from './resolve-symbol.js';
import { toIndexSymbol } from './envelope.js';
import { DECLARATION, DEFINITION, indexingReason, semanticOr, ServerConversation, type ServerSession } from './server-conversation.js';
import { checkContextLines, snippetAround } from './usages.js';

const TEXT_MAX = 300;

interface Target {
  absolute: string;
  range: Range;
}

export async function resolvePosition(services: Services, query: ResolveQuery, signal?: AbortSignal): Promise<ResolveResponse> {
  const started = performance.now();
  const contextLines = checkContextLines(query.context_lines, RESOLVE_CONTEXT_MAX, RESOLVE_CONTEXT_DEFAULT);
  const file = services.workspace.resolveFile('file', query.file);
  const source = (await services.workspace.files.text(file.absolute)) ?? '';
  const position: Position = { line: query.line, column: query.column };
  checkPosition(source.split(/\r?\n/), position);
  // In the language the index read the file in, where it holds any of its symbols: a `.h` in a C tree is C.
  const indexed = (await services.index.reader.symbolsInFile(file.relative))[0]?.language;
  const syntax = (indexed ? languageById(indexed as LanguageId) : undefined) ?? languageOfPath(file.absolute);
  const language = syntax?.id;
  const identifier = syntax
    ? await identifierAt(syntax.syntax, source, position, (parse) => sharedTrees.getOrParse(services.workspace.files.stamp(file.absolute), parse))
    : wordAt(source, position);
  if (!identifier) {
    throw new PlumbError('no_symbol_at_position', `No identifier at ${file.relative}:${position.line}:${position.column} (parameters 'line' and 'column'): point at a name`, {
      details: { file: file.relative, line: position.line, column: position.column },
    });
  }

  // One request is the answer: a server that runs out of time is a 504, not a silent fallback.
  const conversation = new ServerConversation(services, signal, { timeouts: 'fail' });
  const session = await conversation.open(file, language ?? path.extname(file.relative), [DEFINITION, DECLARATION]);
  const resolved = await semanticOr(session, async () => {
    const target = await definitionOf(services, conversation, session, file, identifier, signal);
    if (!target) {
      session.gaveNothing(session.outcome.request ?? DEFINITION.method, `the ${session.outcome.language} server found no definition or declaration of '${identifier.name}'`);
      return undefined;
    }
    return fromTarget(services, target, contextLines);
  }, async (reason) => ({ ...(await fromIndex(services, file, identifier, contextLines)), reason: `Resolved by name from the index: ${reason}` }));
  if (resolved.precision === 'syntactic') return { identifier, ...resolved.answer, source: 'index', server: session.outcome, elapsedMs: elapsedMs(started) };
  conversation.settle(session);
  const indexing = indexingReason(session.outcome);
  return { identifier, ...resolved.answer, source: 'lsp', server: session.outcome, ...(indexing ? { partial: true, reason: indexing } : {}), elapsedMs: elapsedMs(started) };
}

/** textDocument/definition at the identifier, else textDocument/declaration; the first target, one in a workspace file preferred. */
async function definitionOf(services: Services, conversation: ServerConversation, session: ServerSession, file: WorkspaceFile, identifier: IdentifierAt, signal?: AbortSignal): Promise<Target | undefined> {
  const params = { textDocument: { uri: services.workspace.uriOf(file.absolute) }, position: toLspPosition(identifier) };
  if (session.serves(DEFINITION)) {
    let definition = targetsOf(services, await conversation.ask(session, DefinitionRequest.type, params));
    if (definition.length === 0 && (await services.lsp.waitLoaded(file, services.config.lsp.startTimeoutMs, signal))) {
      definition = targetsOf(services, await conversation.ask(session, DefinitionRequest.type, params));
    }
    if (definition.length > 0) return preferred(services, definition);
  }
  if (!session.serves(DECLARATION)) return undefined;
  const declaration = targetsOf(services, await conversation.ask(session, DeclarationRequest.type, params));
  if (declaration.length === 0) return undefined;
  session.restsOn(DECLARATION);
  return preferred(services, declaration);
}

function targetsOf(services: Services, answer: Definition | DefinitionLink[] | Declaration | DeclarationLink[] | null): Target[] {
  if (!answer) return [];
  const list: Array<Location | LocationLink> = Array.isArray(answer) ? answer : [answer];
  const targets: Target[] = [];
  for (const item of list) {
    const uri = 'targetUri' in item ? item.targetUri : item.uri;
    const absolute = services.workspace.pathOfUri(uri);
    if (!absolute) continue;
    targets.push({ absolute, range: fromLspRange('targetUri' in item ? item.targetSelectionRange : item.range) });
  }
  return targets;
}

function preferred(services: Services, targets: Target[]): Target {
  return targets.find((target) => services.index.placeOf(target.absolute)) ?? targets[0];
}

/** The index symbol named at the target, with every place of it; the target alone when the index holds no symbol there. */
async function fromTarget(services: Services, target: Target, contextLines: number): Promise<Omit<ResolveResponse, 'identifier' | 'source' | 'server' | 'elapsedMs'>> {
  const place = services.index.placeOf(target.absolute);
  const start = target.range.start;
  // A file outside the workspace and its extra roots (a system header, the TypeScript lib) is named, never read.
  const lineText = place ? await lineOf(services, target.absolute, start.line) : '';
  const shown = {
    file: place ? place.stored : target.absolute,
    line: start.line,
    column: start.column,
    text: lineText,
    external: !place || place.external,
  };
  if (!place) return { symbol: null, results: [], target: shown };
  const symbols = await services.index.reader.symbolsInFile(place.stored);
  const symbol = symbolNamedAt(symbols, start);
  if (!symbol) return { symbol: null, results: [], target: shown };
  const resolved = await placesOf(services, symbol);
  return { symbol: toIndexSymbol(resolved.symbol), results: await withSnippets(services, resolved.places, contextLines), target: shown };
}

/** The symbol whose name (selectionRange) holds the position; else one whose name starts on that line. */
function symbolNamedAt(symbols: StoredSymbol[], position: Position): StoredSymbol | undefined {
  const named = symbols.filter((s) => rangeHolds(s.selectionRange, position));
  if (named.length > 0) return named[named.length - 1];
  return symbols.find((s) => s.selectionRange.start.line === position.line);
}

/** Every place of one symbol: its declarations and definitions grouped as resolveOne groups them. */
async function placesOf(services: Services, symbol: StoredSymbol): Promise<ResolvedSymbol> {
  try {
    const matches = await findMatches(services, { symbol: symbol.qualifiedName, language: symbol.language as LanguageId, kind: symbol.kind });
    const group = groupPlaces(matches.symbols).find((g) => g.places.some((p) => p.id === symbol.id));
    if (group) return group;
  } catch {
    // A qualified name the search does not take back: the symbol alone.
  }
  return { symbol, places: [symbol] };
}

/** The index by name: same file, then same package, then same language, then the rest. */
async function fromIndex(services: Services, file: WorkspaceFile, identifier: IdentifierAt, contextLines: number): Promise<Omit<ResolveResponse, 'identifier' | 'source' | 'server' | 'elapsedMs'>> {
  const matches = await findMatches(services, { symbol: identifier.name });
  const groups = groupPlaces(matches.symbols);
  if (groups.length === 0) {
    throw new PlumbError('symbol_not_found', `Symbol '${identifier.name}' not found in the index (a local or a parameter is not indexed)`, { details: { symbol: identifier.name } });
  }
  const here = (await services.index.reader.symbolsInFile(file.relative))[0];
  const language = languageOfPath(file.absolute)?.id;
  const rank = (group: ResolvedSymbol): number => {
    const places = group.places;
    if (places.some((p) => p.file === file.relative)) return 0;
    if (here && places.some((p) => p.package === here.package)) return 1;
    if (language && places.some((p) => sameFamily(p.language, language))) return 2;
    return 3;
  };
  const best = [...groups].sort((a, b) => rank(a) - rank(b))[0];
  return {
    symbol: toIndexSymbol(best.symbol),
    results: await withSnippets(services, best.places, contextLines),
    target: null,
    candidates: groups.length,
  };
}

async function withSnippets(services: Services, places: StoredSymbol[], contextLines: number): Promise<Place[]> {
  return Promise.all(places.map(async (place) => {
    const absolute = path.isAbsolute(place.file) ? place.file : path.join(services.workspace.root, place.file);
    const lines = (await services.workspace.files.text(absolute))?.split(/\r?\n/) ?? [];
    return {
      ...toIndexSymbol(place),
      context: place.definition ? 'definition' as const : 'declaration' as const,
      snippet: snippetAround(lines, place.line, contextLines),
    };
  }));
}

async function lineOf(services: Services, absolute: string, line: number): Promise<string> {
  const text = (await services.workspace.files.text(absolute))?.split(/\r?\n/)[line - 1] ?? '';
  const trimmed = text.trim();
  return trimmed.length > TEXT_MAX ? `${trimmed.slice(0, TEXT_MAX)}…` : trimmed;
}
