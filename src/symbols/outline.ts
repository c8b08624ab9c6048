import type { OutlineNode, OutlineQuery, OutlineResponse } from '../../schemas/outline.js';
import type { Services } from '../services.js';
import { loadFileSymbols, readLines, type SymbolNode } from './document-symbols.js';
import { elapsedMs } from './elapsed.js';
import { yieldToEventLoop } from '../semaphore.js';

export interface OutlineOptions {
  file: string;
  displayCodeFor?: string;
  depth?: number;
  signal?: AbortSignal;
}

export function outlineOptionsFromQuery(query: OutlineQuery, signal?: AbortSignal): OutlineOptions {
  return { file: query.file, displayCodeFor: query.display_code_for, depth: query.depth, signal };
}

/** Nodes visited between yields to the event loop while a large answer is chosen. */
const CHUNK = 2000;

/**
 * A file's symbol tree from the language server, with the source of the symbols asked for. At most
 * outline.maxSymbols symbols, chosen breadth first (top levels before what they nest); each kept symbol
 * counts the descendants left out below it, and the answer the symbols left out in all.
 */
export async function getOutline(services: Services, options: OutlineOptions): Promise<OutlineResponse> {
  const started = performance.now();
  const file = services.workspace.resolveFile('file', options.file);
  // Per language server, and the time waiting for a permit counts against the server request's budget.
  return services.heavy.run(services.lsp.languageFor(file).id, async () => {
    const { language, nodes, source, reason } = await loadFileSymbols(services, file, options.signal, started);
    const wanted = parseNameList(options.displayCodeFor);
    const matches = new Map(wanted.map((path) => [path.join('.'), 0]));
    const lines = wanted.length > 0 ? await readLines(services, file) : [];
    const depth = options.depth ?? Infinity;
    const cap = services.config.outline.maxSymbols;

    // Breadth first within depth: which symbols the answer keeps, and how many there were in all.
    const kept = new Set<SymbolNode>();
    let withinDepth = 0;
    let level = nodes;
    for (let at = 1; at <= depth && level.length > 0; at++) {
      const next: SymbolNode[] = [];
      for (const node of level) {
        withinDepth++;
        if (kept.size < cap) kept.add(node);
        if (at < depth) next.push(...node.children);
        if (withinDepth % CHUNK === 0) await yieldToEventLoop();
      }
      level = next;
    }

    const convert = (node: SymbolNode, ancestors: string[], at: number): OutlineNode => {
      // `List.Len` finds gopls's `(*List).Len`, `Widget::draw` clangd's out-of-line definition.
      const path = [...ancestors, ...(node.qualifier ?? []), node.name];
      const out: OutlineNode = {
        name: node.name,
        ...(node.serverName !== undefined ? { serverName: node.serverName } : {}),
        kind: node.kind,
        detail: node.detail,
        line: node.selectionRange.start.line,
        column: node.selectionRange.start.column,
        range: node.range,
        selectionRange: node.selectionRange,
        children: [],
      };
      let omitted = 0;
      for (const child of node.children) {
        if (at < depth && kept.has(child)) out.children.push(convert(child, path, at + 1));
        else omitted += 1 + countDescendants(child);
      }
      if (omitted > 0) out.omittedChildren = omitted;
      for (const query of wanted) {
        if (pathMatches(path, query)) {
          out.symbolContent = wholeLines(lines, node);
          matches.set(query.join('.'), (matches.get(query.join('.')) ?? 0) + 1);
        }
      }
      return out;
    };

    const results = nodes.filter((node) => kept.has(node)).map((node) => convert(node, [], 1));
    const omittedSymbols = withinDepth - kept.size;
    return {
      file: file.relative,
      language,
      source,
      ...(reason ? { reason } : {}),
      results,
      ...(wanted.length > 0 ? { displayCodeFor: wanted.map((path) => ({ query: path.join('.'), matches: matches.get(path.join('.')) ?? 0 })) } : {}),
      ...(omittedSymbols > 0 ? { truncated: true, omittedSymbols } : {}),
      elapsedMs: elapsedMs(started),
    };
  }, options.signal);
}

function countDescendants(node: SymbolNode): number {
  return node.children.reduce((sum, child) => sum + 1 + countDescendants(child), 0);
}

/** `User, User.save, ns::Widget::draw` → [['User'], ['User','save'], ['ns','Widget','draw']]. */
export function parseNameList(value: string | undefined): string[][] {
  if (!value) return [];
  return value
    .split(',')
    .map((item) => item.trim())
    .filter((item) => item.length > 0)
    .map((item) => item.split(/::|\./).filter((part) => part.length > 0));
}

/**
 * A query path matches a symbol path on its tail: `save` and `User.save` both match User→save.
 * Names are split on `::` and `.` too, since servers may put a qualified name in `name` (clangd's out-of-line `Foo::bar`).
 */
export function pathMatches(symbolPath: string[], query: string[]): boolean {
  const segments = symbolPath.flatMap((name) => name.split(/::|\./).filter((part) => part.length > 0));
  if (query.length === 0 || query.length > segments.length) return false;
  const tail = segments.slice(segments.length - query.length);
  return tail.every((part, i) => part === query[i]);
}

/** The symbol's whole lines: code reads better with its indentation than cut at a column. */
function wholeLines(lines: string[], node: SymbolNode): string {
  const { start, end } = node.range;
  const last = end.column === 1 && end.line > start.line ? end.line - 1 : end.line;
  return lines.slice(start.line - 1, last).join('\n');
}
