import { HoverRequest, MarkupContent, type Hover, type MarkedString } from 'vscode-languageserver-protocol';
import { forEachLimit } from '../map-limit.js';
import { PlumbError } from '../errors.js';
import { toLspPosition } from '../lsp/convert.js';
import type { Services } from '../services.js';
import type { ChildSymbol, ChildrenQuery, ChildrenResponse } from '../../schemas/children.js';
import type { Position } from '../../schemas/common.js';
import type { WorkspaceFile } from '../workspace.js';
import { checkPosition, loadFileSymbols, rangeHolds, rangeSize, readLines, type SymbolNode } from './document-symbols.js';
import { elapsedMs } from './elapsed.js';

export interface ChildrenOptions {
  file: string;
  line: number;
  column: number;
  depth?: '1' | '2' | '3' | 'all';
  includeHover?: boolean;
  signal?: AbortSignal;
}

export function childrenOptionsFromQuery(query: ChildrenQuery, signal?: AbortSignal): ChildrenOptions {
  return { file: query.file, line: query.line, column: query.column, depth: query.depth, includeHover: query.include_hover, signal };
}

/** The symbol at a position and its descendants down to depth, flat in document order. */
export async function getChildren(services: Services, options: ChildrenOptions): Promise<ChildrenResponse> {
  const started = performance.now();
  const file = services.workspace.resolveFile('file', options.file);
  const position: Position = { line: options.line, column: options.column };
  checkPosition(await readLines(services, file), position);
  return services.heavy.run(services.lsp.languageFor(file).id, () => childrenAt(services, file, position, options, started), options.signal);
}

async function childrenAt(services: Services, file: WorkspaceFile, position: Position, options: ChildrenOptions, started: number): Promise<ChildrenResponse> {
  const { language, nodes, source, reason } = await loadFileSymbols(services, file, options.signal, started);
  const symbol = symbolAt(nodes, position);
  if (!symbol) {
    throw new PlumbError('no_symbol_at_position', `No symbol at ${file.relative}:${position.line}:${position.column} (parameters 'line' and 'column')`);
  }
  const maxDepth = options.depth === undefined ? 1 : options.depth === 'all' ? Infinity : Number(options.depth);
  // Document order up to outline.maxSymbols; the rest within depth only counted.
  const cap = services.config.outline.maxSymbols;
  const results: ChildSymbol[] = [];
  let omittedSymbols = 0;
  const walk = (parent: SymbolNode, level: number): void => {
    for (const child of parent.children) {
      if (results.length < cap) results.push({ ...fieldsOf(child), parent: parent.name, depth: level });
      else omittedSymbols++;
      if (level < maxDepth) walk(child, level + 1);
    }
  };
  walk(symbol, 1);

  const head: ChildrenResponse['symbol'] = fieldsOf(symbol);
  const hover: ChildrenResponse['hover'] = { requested: options.includeHover === true, skipped: false };
  if (options.includeHover) {
    const { maxSymbols, concurrency } = services.config.hover;
    if (results.length + 1 > maxSymbols) {
      hover.skipped = true;
      hover.reason = `${results.length} children exceed hover.maxSymbols (${maxSymbols}); ask for a smaller depth or a nested symbol`;
    } else {
      const targets: { selectionRange: ChildSymbol['selectionRange']; hover?: string | null }[] = [head, ...results];
      await forEachLimit(targets, concurrency, async (target) => {
        target.hover = await hoverText(services, file, target.selectionRange.start, options.signal);
      });
    }
  }
  return {
    file: file.relative,
    language,
    source,
    ...(reason ? { reason } : {}),
    symbol: head,
    depth: maxDepth === Infinity ? 'all' : maxDepth,
    results,
    hover,
    ...(omittedSymbols > 0 ? { truncated: true, omittedSymbols } : {}),
    elapsedMs: elapsedMs(started),
  };
}

/** A symbol as /children shows it: located by its name. */
function fieldsOf(node: SymbolNode): Omit<ChildSymbol, 'parent' | 'depth'> {
  const { name, serverName, kind, detail, range, selectionRange } = node;
  return { name, ...(serverName !== undefined ? { serverName } : {}), kind, detail, line: selectionRange.start.line, column: selectionRange.start.column, range, selectionRange };
}

/** Selection range (the name) first; else the innermost symbol whose range holds the position. */
export function symbolAt(nodes: SymbolNode[], position: Position): SymbolNode | undefined {
  let byName: SymbolNode | undefined;
  let innermost: SymbolNode | undefined;
  const visit = (node: SymbolNode): void => {
    if (rangeHolds(node.selectionRange, position) && (!byName || rangeSize(node.selectionRange) <= rangeSize(byName.selectionRange))) byName = node;
    if (rangeHolds(node.range, position)) {
      if (!innermost || rangeSize(node.range) <= rangeSize(innermost.range)) innermost = node;
      node.children.forEach(visit);
    } else {
      // Some servers give children ranges outside the parent's (macros, out-of-line members): still look.
      node.children.forEach(visit);
    }
  };
  nodes.forEach(visit);
  return byName ?? innermost;
}

async function hoverText(services: Services, file: WorkspaceFile, position: Position, signal?: AbortSignal): Promise<string | null> {
  try {
    const answer = await services.lsp.request(file, HoverRequest.type, {
      textDocument: { uri: services.workspace.uriOf(file.absolute) },
      position: toLspPosition(position),
    }, { signal });
    return answer ? hoverToText(answer) : null;
  } catch (error) {
    // A hover that fails must not sink the whole answer; a dead server does.
    if (error instanceof PlumbError && error.code === 'server_unavailable') throw error;
    return null;
  }
}

export function hoverToText(hover: Hover): string | null {
  const parts = Array.isArray(hover.contents) ? hover.contents : [hover.contents];
  const text = parts
    .map((part: MarkupContent | MarkedString) => (typeof part === 'string' ? part : MarkupContent.is(part) ? part.value : `\`\`\`${part.language}\n${part.value}\n\`\`\``))
    .join('\n\n')
    .trim();
  return text.length > 0 ? text : null;
}
