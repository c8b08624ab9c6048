import { DocumentSymbolRequest, type DocumentSymbol, type SymbolInformation } from 'vscode-languageserver-protocol';
import { invalidParameter, PlumbError } from '../errors.js';
import { kindFromLsp, type NormalizedKind } from '../kinds.js';
import { fromLspRange } from '../lsp/convert.js';
import path from 'node:path';
import type { StoredSymbol } from '../index/store.js';
import type { Services } from '../services.js';
import type { WorkspaceFile } from '../workspace.js';
import type { Position, Range } from '../../schemas/common.js';

/** A document symbol in plumb's terms: 1-based ranges, normalized kind, the index's bare name. */
export interface SymbolNode {
  name: string;
  /** The name as the server gave it, where it decorated the bare name (bareName). */
  serverName?: string;
  /** What the decoration put in front of the name: the receiver or class it belongs to (`List`, `TestPartResult`). */
  qualifier?: string[];
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

/** A file's symbol tree as /outline and /children answer it: the server's, or the index's where the server's is evidently poor. */
export interface AnsweredSymbols extends FileSymbols {
  source: 'lsp' | 'index';
  /** Why the index's tree answers instead of the server's. */
  reason?: string;
}

/** Kinds that are types: the index reading one where the server reports a variable or a function says the server misread the file. */
const TYPE_KINDS = new Set<NormalizedKind>(['class', 'struct', 'interface', 'enum']);

/**
 * The server's document symbols, unless they are evidently poor next to what the index read from the same file:
 * none at all where the index holds symbols, or a type the index holds at a name that the server reports as a
 * variable or a function (clangd without a file's includes reads `class MYGAME_API UMyComponent : public
 * UActorComponent` as a variable, UCLASS(...) as a function). Then the index's tree answers, saying why.
 */
export async function loadFileSymbols(services: Services, file: WorkspaceFile, signal?: AbortSignal, since?: number): Promise<AnsweredSymbols> {
  const served = await loadDocumentSymbols(services, file, signal, since);
  const indexed = (await services.index.reader.symbolsInFile(file.relative)).filter((symbol) => !path.isAbsolute(symbol.file));
  if (indexed.length === 0) return { ...served, source: 'lsp' };
  const server = services.lsp.languageFor(file).name;
  let reason: string | undefined;
  if (served.nodes.length === 0) {
    reason = `the ${server} server gave no symbols for ${file.relative}, where the index holds ${indexed.length}`;
  } else {
    const byName = new Map<string, SymbolNode>();
    const visit = (node: SymbolNode): void => {
      byName.set(`${node.selectionRange.start.line}:${node.selectionRange.start.column}`, node);
      node.children.forEach(visit);
    };
    served.nodes.forEach(visit);
    const misread = indexed.filter((symbol) => {
      if (!TYPE_KINDS.has(symbol.kind as NormalizedKind) || symbol.forwardDeclaration) return false;
      const node = byName.get(`${symbol.selectionRange.start.line}:${symbol.selectionRange.start.column}`);
      return node !== undefined && !TYPE_KINDS.has(node.kind) && node.kind !== 'type_alias';
    });
    if (misread.length > 0) {
      const first = misread[0];
      const node = byName.get(`${first.selectionRange.start.line}:${first.selectionRange.start.column}`)!;
      const more = misread.length > 1 ? ` (and ${misread.length - 1} more type${misread.length === 2 ? '' : 's'})` : '';
      reason = `the ${server} server misread ${file.relative}: it reports ${first.kind} ${first.name} (line ${first.line}) as a ${node.kind}${more}, likely for headers or macros it could not find`;
    }
  }
  if (!reason) return { ...served, source: 'lsp' };
  return { language: served.language, nodes: indexTree(indexed), source: 'index', reason: `${reason}: the index's tree of the file answers instead` };
}

/** The index's symbols of one file as a tree, nested by range; a member defined outside its type keeps the type as qualifier (`UMyComponent::AddScore`). */
function indexTree(symbols: StoredSymbol[]): SymbolNode[] {
  const flat = symbols.map((symbol): SymbolNode & { containingType: string | null } => ({
    name: symbol.name,
    kind: symbol.kind as NormalizedKind,
    detail: symbol.signature ?? null,
    range: symbol.range,
    selectionRange: symbol.selectionRange,
    children: [],
    containingType: symbol.containingType,
  }));
  const roots = nestByContainment(flat);
  const qualify = (nodes: SymbolNode[], parent: string | undefined): void => {
    for (const node of nodes) {
      const owner = (node as SymbolNode & { containingType: string | null }).containingType;
      delete (node as Partial<SymbolNode & { containingType: string | null }>).containingType;
      if (owner && owner !== parent && !owner.endsWith(`::${parent}`)) node.qualifier = owner.split('::');
      qualify(node.children, node.name);
    }
  };
  qualify(roots, undefined);
  return roots;
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
    ...named(info.name),
    kind: kindFromLsp(info.kind),
    detail: info.containerName ?? null,
    range: fromLspRange(info.location.range),
    selectionRange: fromLspRange(info.location.range),
    children: [],
  })));
}

function fromDocumentSymbol(symbol: DocumentSymbol): SymbolNode {
  return {
    ...named(symbol.name),
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

function named(written: string): Pick<SymbolNode, 'name' | 'serverName' | 'qualifier'> {
  const bare = bareName(written);
  return bare ? { name: bare.name, serverName: written, qualifier: bare.qualifier } : { name: written };
}

const IDENTIFIER = /^[A-Za-z_$][\w$]*$/;
/** A Go method as gopls names it: `(*List).Len`, `(T).M`, `(*Map[K, V]).Load`. */
const GO_RECEIVER = /^\(\*?\s*([A-Za-z_]\w*)(?:\[[^\]]*\])?\)\.([A-Za-z_]\w*)$/;

/**
 * The bare name the index records, from a name a language server decorated, and what stood in front of
 * it; undefined for a name that is bare already (or that this does not recognize, left as it is):
 * - gopls names a method by its receiver: `(*DemoStruct).Value` is `Value` of `DemoStruct`;
 * - clangd names a definition outside its class by its qualified name and a template specialization
 *   with its arguments: `TestPartResult::ExtractSummary` is `ExtractSummary` of `TestPartResult`,
 *   `Foo::~Foo` is `~Foo`, `FormatForComparison<char *, Other>` is `FormatForComparison`.
 * pyright and the TypeScript server give bare names.
 */
export function bareName(written: string): { name: string; qualifier: string[] } | undefined {
  const go = GO_RECEIVER.exec(written);
  if (go) return { name: go[2], qualifier: [go[1]] };
  const parts = scopeParts(written);
  if (!parts) return undefined;
  const last = parts[parts.length - 1];
  const qualifier = parts.slice(0, -1).map(withoutArguments);
  if (qualifier.some((part) => part === undefined || !IDENTIFIER.test(part))) return undefined;
  const name = last.startsWith('operator') ? last : withoutArguments(last);
  if (name === undefined || !(IDENTIFIER.test(name) || /^~[A-Za-z_]\w*$/.test(name) || /^operator\W/.test(name) || /^operator\s+\S/.test(name))) return undefined;
  if (name === written) return undefined;
  return { name, qualifier: qualifier as string[] };
}

/** `a::B<T>::c` → [a, B<T>, c], splitting on `::` outside template arguments and parentheses; an operator's name ends the split. */
function scopeParts(written: string): string[] | undefined {
  const parts: string[] = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < written.length; i++) {
    const c = written[i];
    if (written.startsWith('operator', i) && (i === start) && !/[\w$]/.test(written[i + 8] ?? '')) break;
    if (c === '<' || c === '(' || c === '[') depth++;
    else if (c === '>' || c === ')' || c === ']') depth = Math.max(0, depth - 1);
    else if (c === ':' && written[i + 1] === ':' && depth === 0) {
      parts.push(written.slice(start, i));
      start = i + 2;
      i++;
    }
  }
  parts.push(written.slice(start));
  return parts.every((part) => part.length > 0) ? parts : undefined;
}

/** `Foo<int, Bar>` → `Foo`; a name without arguments as it is; undefined when the arguments do not close at its end. */
function withoutArguments(part: string): string | undefined {
  const open = part.indexOf('<');
  if (open < 0) return part;
  if (!part.endsWith('>')) return undefined;
  return part.slice(0, open);
}
