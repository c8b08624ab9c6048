import { DocumentSymbolRequest, type DocumentSymbol, type SymbolInformation } from 'vscode-languageserver-protocol';
import { invalidParameter, PlumbError } from '../errors.js';
import { kindFromLsp, type NormalizedKind } from '../kinds.js';
import { fromLspRange } from '../lsp/convert.js';
import type { Services } from '../services.js';
import type { WorkspaceFile } from '../workspace.js';
import type { Position, Range } from '../../schemas/common.js';

/** A document symbol in plumb's terms: 1-based ranges, normalized kind. */
export interface SymbolNode {
  name: string;
  kind: NormalizedKind;
  detail: string | null;
  range: Range;
  selectionRange: Range;
  children: SymbolNode[];
}

export interface FileSymbols {
  language: string;
  nodes: SymbolNode[];
}

/**
 * textDocument/documentSymbol for a workspace file, as a tree (flat SymbolInformation answers are nested by containment).
 * `since`: performance.now() when the caller began waiting; its time in queues counts against the request's timeout.
 */
export async function loadDocumentSymbols(services: Services, file: WorkspaceFile, signal?: AbortSignal, since?: number): Promise<FileSymbols> {
  const language = services.lsp.languageFor(file);
  const answer = await services.lsp.request(file, DocumentSymbolRequest.type, { textDocument: { uri: services.workspace.uriOf(file.absolute) } }, { signal, since, expectAnswer: true });
  return { language: language.id, nodes: toTree(answer ?? []) };
}

function toTree(answer: DocumentSymbol[] | SymbolInformation[]): SymbolNode[] {
  if (answer.length === 0) return [];
  if ('selectionRange' in answer[0]) return sortNodes((answer as DocumentSymbol[]).map(fromDocumentSymbol));
  return nestByContainment((answer as SymbolInformation[]).map((info) => ({
    name: info.name,
    kind: kindFromLsp(info.kind),
    detail: info.containerName ?? null,
    range: fromLspRange(info.location.range),
    selectionRange: fromLspRange(info.location.range),
    children: [],
  })));
}

function fromDocumentSymbol(symbol: DocumentSymbol): SymbolNode {
  return {
    name: symbol.name,
    kind: kindFromLsp(symbol.kind),
    detail: symbol.detail ? symbol.detail : null,
    range: fromLspRange(symbol.range),
    selectionRange: fromLspRange(symbol.selectionRange),
    children: sortNodes((symbol.children ?? []).map(fromDocumentSymbol)),
  };
}

/** Document order: servers do not all promise it. */
function sortNodes(nodes: SymbolNode[]): SymbolNode[] {
  return nodes.sort((a, b) => comparePositions(a.range.start, b.range.start) || comparePositions(a.selectionRange.start, b.selectionRange.start));
}

function nestByContainment(flat: SymbolNode[]): SymbolNode[] {
  const sorted = sortNodes(flat);
  const roots: SymbolNode[] = [];
  const stack: SymbolNode[] = [];
  for (const node of sorted) {
    while (stack.length > 0 && !rangeEncloses(stack[stack.length - 1].range, node.range)) stack.pop();
    (stack.length > 0 ? stack[stack.length - 1].children : roots).push(node);
    stack.push(node);
  }
  return roots;
}

export function comparePositions(a: Position, b: Position): number {
  return a.line - b.line || a.column - b.column;
}

/** Whether `outer` holds all of `inner` (nesting flat symbol lists). */
export function rangeEncloses(outer: Range, inner: Range): boolean {
  return comparePositions(outer.start, inner.start) <= 0 && comparePositions(inner.end, outer.end) <= 0;
}

/** Inclusive of the end, unlike convert.rangeContains (end exclusive, as LSP ranges): a cursor just after a name still points at it. */
export function rangeHolds(range: Range, position: Position): boolean {
  return comparePositions(range.start, position) <= 0 && comparePositions(position, range.end) <= 0;
}

export function rangeSize(range: Range): number {
  return (range.end.line - range.start.line) * 1_000_000 + (range.end.column - range.start.column);
}

/** The file's text split in lines (\n, \r\n), read through the workspace's containment check. */
export async function readLines(services: Services, file: WorkspaceFile): Promise<string[]> {
  const read = await services.workspace.files.textOrReason(file.absolute);
  if (read.ok) return read.text.split(/\r?\n/);
  if (read.reason === 'outside_root') {
    throw new PlumbError('path_outside_root', `File '${file.relative}' ${read.message}`, { details: { file: file.relative } });
  }
  if (read.reason === 'not_found') throw new PlumbError('file_not_found', `File '${file.relative}' ${read.message}`, { details: { file: file.relative } });
  throw invalidParameter('file', `names '${file.relative}', which ${read.message}`);
}

/** 400 unless line/column lie in the file; columns count UTF-16 code units, the end of a line included. */
export function checkPosition(lines: string[], position: Position): void {
  if (position.line > lines.length) throw invalidParameter('line', `must be between 1 and ${lines.length} (the file has ${lines.length} lines), got ${position.line}`);
  const width = lines[position.line - 1].length + 1;
  if (position.column > width) throw invalidParameter('column', `must be between 1 and ${width} on line ${position.line}, got ${position.column}`);
}
