/**
 * GET /symbols/declaration (find_declaration): every definition and declaration of the symbols a name
 * (or id) matches, with their code, from the index and the files on disk; no language server needed.
 * One symbol's places stay together (a C++ method declared in its class and defined out of line is one
 * symbol with two places), definitions first; forward declarations are counted, and listed last on request.
 */
import { rulesOf } from '../languages/index.js';
import { invalidParameter } from '../errors.js';
import type { StoredSymbol } from '../index/store.js';
import type { Services } from '../services.js';
import {
  BODY_LINES_MAX, CONTEXT_LINES_DEFAULT, CONTEXT_LINES_MAX,
  type DeclarationPlace, type DeclarationQuery, type DeclarationResponse, type Snippet,
} from '../../schemas/navigation.js';
import { elapsedMs } from './elapsed.js';
import { checkLimit, listEnvelope, pageOf, toIndexSymbol } from './envelope.js';
import { findMatches, groupPlaces, notFound, type ResolvedSymbol } from './resolve-symbol.js';
import { SourceLines } from './source-lines.js';

/** A line longer than this (minified code) is clipped in a snippet. */
const LINE_CHARS_MAX = 1000;

export async function findDeclaration(services: Services, query: DeclarationQuery): Promise<DeclarationResponse> {
  const started = performance.now();
  const limit = checkLimit(query.limit);
  const offset = query.offset ?? 0;
  if (!Number.isInteger(offset) || offset < 0) throw invalidParameter('offset', 'must be an integer of 0 or more');
  const contextLines = query.context_lines ?? CONTEXT_LINES_DEFAULT;
  if (!Number.isInteger(contextLines) || contextLines < 0 || contextLines > CONTEXT_LINES_MAX) throw invalidParameter('context_lines', `must be an integer from 0 to ${CONTEXT_LINES_MAX}`);
  const includeBody = query.include_body ?? false;
  const includeForward = query.include_forward_declarations ?? false;

  const matches = await findMatches(services, query);
  if (matches.symbols.length === 0 && matches.forwardDeclarations.length === 0) throw notFound(services, matches.asked);
  const groups = query.id?.trim() ? await placesOfId(services, matches.symbols) : groupPlaces(matches.symbols);
  const places = groups.flatMap((group) => group.places);
  const listed = includeForward ? [...places, ...matches.forwardDeclarations] : places;
  const page = pageOf(listed, offset, limit);

  const sources = new SourceLines(services);
  const results = await Promise.all(page.map((symbol) => placeOf(symbol, sources, includeBody, contextLines)));
  return {
    symbol: matches.asked,
    symbols: groups.length,
    results,
    ...listEnvelope({
      limit, offset, totalMatches: places.length, returned: results.length,
      forwardDeclarations: matches.forwardDeclarations.length, forwardDeclarationsListed: includeForward,
    }, services),
    source: 'index',
    elapsedMs: elapsedMs(started),
  };
}

/** An id names one place; its symbol's other places (a C++ declaration and its definition) come with it. */
async function placesOfId(services: Services, symbols: StoredSymbol[]): Promise<ResolvedSymbol[]> {
  const symbol = symbols[0];
  if (!symbol || !rulesOf(symbol.language)?.separateDeclarations) return groupPlaces(symbols);
  const namesakes = await findMatches(services, { symbol: symbol.qualifiedName });
  const group = groupPlaces(namesakes.symbols).find((candidate) => candidate.places.some((place) => place.id === symbol.id));
  return group ? [group] : groupPlaces(symbols);
}

async function placeOf(symbol: StoredSymbol, sources: SourceLines, includeBody: boolean, contextLines: number): Promise<DeclarationPlace> {
  const place = { ...toIndexSymbol(symbol), context: symbol.definition ? 'definition' as const : 'declaration' as const };
  const read = await sources.read(symbol.file);
  if ('error' in read) return { ...place, snippet: null, snippetError: read.error };
  return { ...place, snippet: includeBody ? bodySnippet(read.lines, symbol) : contextSnippet(read.lines, symbol.line, contextLines) };
}

/** `context` lines before and after `line`, within the file. */
export function contextSnippet(lines: string[], line: number, context: number): Snippet {
  const count = lineCount(lines);
  const start = Math.max(1, Math.min(line, count) - context);
  const end = Math.max(start, Math.min(count, line + context));
  return snippetOf(lines, start, end);
}

/** The declaration's whole range, cut after BODY_LINES_MAX lines. */
export function bodySnippet(lines: string[], symbol: Pick<StoredSymbol, 'range'>, maxLines = BODY_LINES_MAX): Snippet {
  const count = lineCount(lines);
  const start = Math.max(1, Math.min(symbol.range.start.line, count));
  // An end at column 1 is the start of the next line: the range stops before it.
  const rangeEnd = symbol.range.end.column === 1 && symbol.range.end.line > symbol.range.start.line ? symbol.range.end.line - 1 : symbol.range.end.line;
  const wholeEnd = Math.max(start, Math.min(count, rangeEnd));
  const end = Math.min(wholeEnd, start + maxLines - 1);
  const snippet = snippetOf(lines, start, end);
  if (end < wholeEnd) return { ...snippet, truncated: true, omittedLines: wholeEnd - end };
  return snippet;
}

function snippetOf(lines: string[], start: number, end: number): Snippet {
  let clipped = false;
  const text = lines.slice(start - 1, end).map((line) => {
    if (line.length <= LINE_CHARS_MAX) return line;
    clipped = true;
    return `${line.slice(0, LINE_CHARS_MAX)}…`;
  }).join('\n');
  return clipped ? { startLine: start, endLine: end, text, truncated: true } : { startLine: start, endLine: end, text };
}

/** Lines of the file, not counting the empty one after a final newline. */
function lineCount(lines: string[]): number {
  return lines.length > 1 && lines[lines.length - 1] === '' ? lines.length - 1 : Math.max(1, lines.length);
}
