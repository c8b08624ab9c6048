import type { OutlineNode, OutlineQuery, OutlineResponse } from '../../schemas/outline.js';
import type { Services } from '../services.js';
import { loadDocumentSymbols, readLines, type SymbolNode } from './document-symbols.js';
import { elapsedMs } from './elapsed.js';

export interface OutlineOptions {
  file: string;
  displayCodeFor?: string;
  depth?: number;
  signal?: AbortSignal;
}

export function outlineOptionsFromQuery(query: OutlineQuery, signal?: AbortSignal): OutlineOptions {
  return { file: query.file, displayCodeFor: query.display_code_for, depth: query.depth, signal };
}

/** A file's symbol tree from the language server, with the source of the symbols asked for. */
export async function getOutline(services: Services, options: OutlineOptions): Promise<OutlineResponse> {
  const started = performance.now();
  const file = services.workspace.resolveFile('file', options.file);
  const { language, nodes } = await loadDocumentSymbols(services, file, options.signal);
  const wanted = parseNameList(options.displayCodeFor);
  const matches = new Map(wanted.map((path) => [path.join('.'), 0]));
  const lines = wanted.length > 0 ? await readLines(file) : [];

  const convert = (node: SymbolNode, ancestors: string[], level: number): OutlineNode => {
    const path = [...ancestors, node.name];
    const out: OutlineNode = {
      name: node.name,
      kind: node.kind,
      detail: node.detail,
      line: node.selectionRange.start.line,
      column: node.selectionRange.start.column,
      range: node.range,
      selectionRange: node.selectionRange,
      children: [],
    };
    if (options.depth !== undefined && level >= options.depth) {
      if (node.children.length > 0) out.omittedChildren = countDescendants(node);
    } else {
      out.children = node.children.map((child) => convert(child, path, level + 1));
    }
    for (const query of wanted) {
      if (pathMatches(path, query)) {
        out.symbolContent = wholeLines(lines, node);
        matches.set(query.join('.'), (matches.get(query.join('.')) ?? 0) + 1);
      }
    }
    return out;
  };

  const results = nodes.map((node) => convert(node, [], 1));
  return {
    file: file.relative,
    language,
    source: 'lsp',
    results,
    ...(wanted.length > 0 ? { displayCodeFor: wanted.map((path) => ({ query: path.join('.'), matches: matches.get(path.join('.')) ?? 0 })) } : {}),
    elapsedMs: elapsedMs(started),
  };
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
