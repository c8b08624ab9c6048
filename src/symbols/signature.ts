/**
 * GET /symbols/signature (get_signature) and GET /symbols/doc (get_doc), from the index first.
 * Signature: for every symbol a name matches (every overload), each place's declaration head from the
 * source: its lines from the range start (template heads, decorators, attributes) to where the body
 * begins, indentation kept; plus the language server's hover at the name where one serves the language.
 * Doc: the stored doc comment as plain text.
 */
import { rulesOf } from '../languages/index.js';
import path from 'node:path';
import { HoverRequest, type Hover as LspHover, type MarkedString, type MarkupContent } from 'vscode-languageserver-protocol';
import {
  CALLS_LIMIT_DEFAULT, CALLS_LIMIT_MAX, HEAD_LINES_MAX,
  type DocQuery, type DocResponse, type DocResult, type HeadText, type SignatureQuery, type SignatureResponse, type SignatureResult,
} from '../../schemas/calls.js';
import { invalidParameter, isCancelled } from '../errors.js';
import type { StoredSymbol } from '../index/store.js';
import { toLspPosition } from '../lsp/convert.js';
import type { Services } from '../services.js';
import { elapsedMs } from './elapsed.js';
import { checkLimit, listEnvelope, pageOf, toIndexSymbol } from './envelope.js';
import { findMatches, groupPlaces, notFound, type ResolvedSymbol } from './resolve-symbol.js';
import { SourceLines } from './source-lines.js';

/** Lines read past a declaration's start looking for where its head ends. */
const HEAD_SCAN_LINES = 400;
const HOVER_CHARS_MAX = 8000;

async function matchedGroups(services: Services, query: SignatureQuery | DocQuery): Promise<{ asked: string; groups: ResolvedSymbol[]; forward: number }> {
  const matches = await findMatches(services, query);
  if (matches.symbols.length === 0) {
    if (matches.forwardDeclarations.length > 0) {
      const where = matches.forwardDeclarations.slice(0, 3).map((s) => `${s.file}:${s.line}`).join(', ');
      throw notFound(services, matches.asked, ` (only forward declarations, at ${where}; the definition is outside the index)`);
    }
    throw notFound(services, matches.asked);
  }
  return { asked: matches.asked, groups: groupPlaces(matches.symbols), forward: matches.forwardDeclarations.length };
}

function paging(query: { limit?: number; offset?: number }): { limit: number; offset: number } {
  const limit = checkLimit(query.limit, CALLS_LIMIT_MAX, CALLS_LIMIT_DEFAULT);
  const offset = query.offset ?? 0;
  if (!Number.isInteger(offset) || offset < 0) throw invalidParameter('offset', 'must be an integer of 0 or more');
  return { limit, offset };
}

export async function findSignature(services: Services, query: SignatureQuery, signal?: AbortSignal): Promise<SignatureResponse> {
  const started = performance.now();
  const { limit, offset } = paging(query);
  const { asked, groups, forward } = await matchedGroups(services, query);
  const page = pageOf(groups, offset, limit);
  const sources = new SourceLines(services);
  const includeHover = query.include_hover ?? true;
  // Hovers one at a time: a page of overloads must not flood the server.
  const results: SignatureResult[] = [];
  for (const group of page) {
    const heads = await Promise.all(group.places.map((place) => headOf(sources, place)));
    const hover = includeHover ? await hoverOf(services, group.symbol, signal) : { hover: null, note: 'not asked (include_hover=false)' };
    results.push({
      ...toIndexSymbol(group.symbol),
      heads: heads.filter((h): h is HeadText => h !== undefined),
      hover: hover.hover,
      ...(hover.note ? { hoverNote: hover.note } : {}),
    });
  }
  return {
    symbol: asked,
    results,
    ...listEnvelope({ limit, offset, totalMatches: groups.length, returned: results.length, forwardDeclarations: forward }, services),
    source: results.some((r) => r.hover) ? 'both' : 'index',
    elapsedMs: elapsedMs(started),
  } as SignatureResponse;
}

export async function findDoc(services: Services, query: DocQuery): Promise<DocResponse> {
  const started = performance.now();
  const { limit, offset } = paging(query);
  const { asked, groups, forward } = await matchedGroups(services, query);
  const results: DocResult[] = pageOf(groups, offset, limit).map((group) => {
    // A C++ function is often documented at its declaration in the header, not at its definition.
    const documented = group.places.find((p) => p.doc && p.doc.trim() !== '');
    const doc = documented ? plainDoc(documented.doc!) : null;
    return {
      ...toIndexSymbol(group.symbol),
      doc: doc || null,
      ...(documented && documented.id !== group.symbol.id ? { docFile: documented.file, docLine: documented.line } : {}),
    };
  });
  return {
    symbol: asked,
    results,
    ...listEnvelope({ limit, offset, totalMatches: groups.length, returned: results.length, forwardDeclarations: forward }, services),
    source: 'index',
    elapsedMs: elapsedMs(started),
  };
}

/**
 * A declaration's head: its lines from the range start to where the extractor's one-line signature ends
 * (found in the source ignoring whitespace), so template heads, decorators, attributes and multi-line
 * parameter lists come whole and the body stays out.
 */
export async function headOf(sources: SourceLines, symbol: StoredSymbol): Promise<HeadText | undefined> {
  const read = await sources.read(symbol.file);
  if ('error' in read) return undefined;
  const lines = read.lines;
  const first = Math.max(1, symbol.range.start.line);
  if (first > lines.length) return undefined;
  const last = Math.min(lines.length, symbol.range.end.line, first + HEAD_SCAN_LINES - 1);
  const text = lines.slice(first - 1, last).join('\n');
  const nameOffset = offsetOf(text, symbol.selectionRange.end.line - first, symbol.selectionRange.end.column - 1);
  const matched = headEnd(text, symbol.signature);
  // A signature clipped at its length cap, or one not found (a head with preprocessor lines): from the
  // name on, up to the body's opening (`{`, `;`, Python's `:`) at bracket depth 0.
  const end = matched && !matched.clipped ? matched.end
    : scanToBody(text, Math.max(nameOffset, matched?.end ?? 0), rulesOf(symbol.language)?.colonEndsHead === true) ?? lineEndOffset(text, Math.max(0, symbol.selectionRange.end.line - first));
  let head = text.slice(0, end).replace(/[ \t]+$/gm, '').trimEnd();
  let headLines = head.split('\n');
  let truncated = false;
  if (headLines.length > HEAD_LINES_MAX) {
    headLines = headLines.slice(0, HEAD_LINES_MAX);
    truncated = true;
  }
  head = headLines.join('\n');
  return {
    file: symbol.file, startLine: first, endLine: first + headLines.length - 1, text: head, definition: symbol.definition,
    ...(truncated ? { truncated: true } : {}),
  };
}

/** The offset in `text` right after the signature's last character, matching without whitespace; undefined when it does not match. */
function headEnd(text: string, signature: string): { end: number; clipped: boolean } | undefined {
  const clipped = signature.endsWith('…');
  const wanted = (clipped ? signature.slice(0, -1) : signature).replace(/\s+/g, '');
  if (wanted === '') return undefined;
  const compact: string[] = [];
  const offsets: number[] = [];
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === ' ' || c === '\t' || c === '\n' || c === '\r') continue;
    compact.push(c);
    offsets.push(i);
  }
  const joined = compact.join('');
  for (const candidate of [wanted, wanted.replace(/^(type|const|var)(?=\w)/, '')]) {
    const at = joined.indexOf(candidate);
    if (at >= 0) return { end: offsets[at + candidate.length - 1] + 1, clipped };
  }
  return undefined;
}

/** Where a declaration's body opens after `from`: `{` or `;` (Python: `:`) outside brackets, strings and comments. */
function scanToBody(text: string, from: number, python: boolean): number | undefined {
  let depth = 0;
  for (let i = from; i < text.length; i++) {
    const c = text[i];
    if (c === '"' || c === "'" || c === '`') {
      const triple = python && text.startsWith(c.repeat(3), i);
      const close = triple ? text.indexOf(c.repeat(3), i + 3) : findClose(text, i + 1, c);
      if (close < 0) return undefined;
      i = triple ? close + 2 : close;
    } else if (c === '#' && python) {
      const eol = text.indexOf('\n', i);
      if (eol < 0) return undefined;
      i = eol;
    } else if (c === '/' && text[i + 1] === '/' && !python) {
      const eol = text.indexOf('\n', i);
      if (eol < 0) return undefined;
      i = eol;
    } else if (c === '/' && text[i + 1] === '*') {
      const close = text.indexOf('*/', i + 2);
      if (close < 0) return undefined;
      i = close + 1;
    } else if (c === '(' || c === '[') depth++;
    else if (c === ')' || c === ']') depth = Math.max(0, depth - 1);
    else if (depth === 0 && (python ? c === ':' : c === '{' || c === ';')) return i;
  }
  return undefined;
}

function findClose(text: string, from: number, quote: string): number {
  for (let i = from; i < text.length; i++) {
    if (text[i] === '\\') i++;
    else if (text[i] === quote) return i;
    else if (text[i] === '\n' && quote !== '`') return -1;
  }
  return -1;
}

function offsetOf(text: string, lineIndex: number, column: number): number {
  const start = lineIndex <= 0 ? 0 : lineEndOffset(text, lineIndex - 1) + 1;
  return Math.min(text.length, start + Math.max(0, column));
}

function lineEndOffset(text: string, lineIndex: number): number {
  let offset = 0;
  for (let i = 0; i < lineIndex; i++) {
    const next = text.indexOf('\n', offset);
    if (next < 0) return text.length;
    offset = next + 1;
  }
  const end = text.indexOf('\n', offset);
  return end < 0 ? text.length : end;
}

/** The server's hover at the symbol's name; failures only drop it, with the reason. */
async function hoverOf(services: Services, symbol: StoredSymbol, signal?: AbortSignal): Promise<{ hover: SignatureResult['hover']; note?: string }> {
  if (path.isAbsolute(symbol.file)) return { hover: null, note: 'outside the workspace, where no language server looks' };
  const file = { absolute: path.join(services.workspace.root, symbol.file), relative: symbol.file };
  try {
    services.lsp.languageFor(file);
  } catch {
    return { hover: null, note: `no language server is configured for ${symbol.language}` };
  }
  try {
    const answer = await services.lsp.request(file, HoverRequest.type, {
      textDocument: { uri: services.workspace.uriOf(file.absolute) },
      position: toLspPosition(symbol.selectionRange.start),
    }, { signal });
    const hover = hoverText(answer);
    return hover ? { hover } : { hover: null, note: 'the server had no hover at the name' };
  } catch (error) {
    if (isCancelled(error)) throw error;
    return { hover: null, note: `the server gave no hover: ${error instanceof Error ? error.message : String(error)}` };
  }
}

function hoverText(answer: LspHover | null): SignatureResult['hover'] {
  if (!answer) return null;
  const parts = Array.isArray(answer.contents) ? answer.contents : [answer.contents];
  let markdown = false;
  const texts = parts.map((part: MarkupContent | MarkedString) => {
    if (typeof part === 'string') {
      markdown = true;
      return part;
    }
    if ('kind' in part) {
      if (part.kind === 'markdown') markdown = true;
      return part.value;
    }
    markdown = true;
    return `\`\`\`${part.language}\n${part.value}\n\`\`\``;
  }).filter((t) => t.trim() !== '');
  if (texts.length === 0) return null;
  let text = texts.join('\n\n---\n\n').trim();
  if (text.length > HOVER_CHARS_MAX) text = `${text.slice(0, HOVER_CHARS_MAX - 1)}…`;
  return { format: markdown ? 'markdown' : 'plaintext', text };
}

/**
 * A stored doc comment as plain text: comment markers (`/**`, `*`, `///`, `//!`, `#`), docstring quotes
 * and the common indentation removed, blank lines at either end dropped.
 */
export function plainDoc(doc: string): string {
  let text = doc.replace(/\r\n?/g, '\n').trim();
  text = text.replace(/^[rRuUbBfF]*("""|''')/, '').replace(/("""|''')$/, '');
  if (text.startsWith('/*')) text = text.replace(/^\/\*+!?/, '').replace(/\*+\/$/, '');
  let lines = text.split('\n');
  // Markers the extractor left (a block of `*` lines, `///` lines).
  if (lines.length > 1 && lines.slice(1).filter((l) => l.trim() !== '').every((l) => /^\s*\*(?!\/)/.test(l))) lines = lines.map((l, i) => (i === 0 ? l : l.replace(/^\s*\* ?/, '')));
  if (lines.every((l) => l.trim() === '' || /^\s*(\/\/[/!]?|#)/.test(l))) lines = lines.map((l) => l.replace(/^\s*(\/\/[/!]?|#+) ?/, ''));
  const indents = lines.slice(1).filter((l) => l.trim() !== '').map((l) => /^[ \t]*/.exec(l)![0].length);
  const common = indents.length > 0 ? Math.min(...indents) : 0;
  if (common > 0) lines = lines.map((l, i) => (i === 0 ? l : l.slice(Math.min(common, /^[ \t]*/.exec(l)![0].length))));
  return lines.map((l) => l.trimEnd()).join('\n').replace(/^\n+|\n+$/g, '').trim();
}
