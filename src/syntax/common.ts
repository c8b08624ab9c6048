/** Small helpers shared by the language modules. */
import type { Node } from 'web-tree-sitter';
import type { ExtractContext } from './spec.js';

/** Text with whitespace collapsed, for types and bases. */
export function compact(ctx: ExtractContext, node: Node | null | undefined): string {
  return ctx.text(node).replace(/\s+/g, ' ').trim();
}

/** `UPPER_CASE` names read as constants. */
export function looksConstant(name: string): boolean {
  return /^[A-Z][A-Z0-9_]*$/.test(name) && /[A-Z]/.test(name) && name.length > 1;
}

// `node.child(i)` walks the siblings from the first each time; the array getters fetch them in one call.

/** Named children of a node. */
export function named(node: Node | null | undefined): Node[] {
  return node ? node.namedChildren : [];
}

/** All children (named or not). */
export function childrenOf(node: Node | null | undefined): Node[] {
  return node ? node.children : [];
}

/** First child of one of `types`. */
export function childOfType(node: Node | null | undefined, ...types: string[]): Node | null {
  if (!node) return null;
  for (const child of node.children) if (types.includes(child.type)) return child;
  return null;
}

/**
 * Whether the source of `node` (up to `end`) holds `text`. A child that starts with a token of its own (`:` of a base
 * clause, `->` of a trailing return type, `(` of a parameter list) can only be there if it does: this text search
 * spares fetching the children from the tree (each a call into WASM and a new Node) where it cannot.
 */
export function holdsText(ctx: ExtractContext, node: Node, text: string, end = node.endIndex): boolean {
  return ctx.source.slice(node.startIndex, end).includes(text);
}

/** Source text of `node` with `cut` (a name, a default value) removed, whitespace collapsed. */
export function textWithout(ctx: ExtractContext, node: Node, cuts: (Node | null | undefined)[]): string {
  let text = '';
  let at = node.startIndex;
  const sorted = cuts.filter((cut): cut is Node => !!cut).sort((a, b) => a.startIndex - b.startIndex);
  for (const cut of sorted) {
    if (cut.startIndex < at) continue;
    text += ctx.source.slice(at, cut.startIndex);
    at = cut.endIndex;
  }
  text += ctx.source.slice(at, node.endIndex);
  return text.replace(/\s+/g, ' ').replace(/\s*=\s*$/, '').trim();
}

/** Strips a leading `:` or `->` from an annotation (`: number` → `number`). */
export function stripAnnotation(text: string): string {
  return text.replace(/^\s*(:|->)\s*/, '').trim();
}

/** Removes the indentation shared by every line after the first. */
export function dedent(text: string): string {
  const lines = text.split('\n');
  let indent = Infinity;
  for (const line of lines.slice(1)) {
    if (!line.trim()) continue;
    indent = Math.min(indent, line.length - line.trimStart().length);
  }
  if (indent === Infinity || indent === 0) return text;
  return [lines[0], ...lines.slice(1).map((line) => line.slice(indent))].join('\n');
}

/** What to look for inside a body: node types, the types that end the search, and words one of which must occur. */
export interface NestedSearch {
  types: string[];
  scopes: ReadonlySet<string>;
  /** A body without any of these words holds none of the types: skip the tree search. */
  words: string[];
  keep?: (node: Node) => boolean;
}

/**
 * Declarations inside a body (local classes, nested functions) that no other function or type in
 * between encloses: found by the grammar's own search, not a JS walk.
 */
export function nestedDeclarations(ctx: ExtractContext, body: Node | null, search: NestedSearch): Node[] {
  if (!body || !containsWord(ctx.source, body.startIndex, body.endIndex, search.words)) return [];
  const { scopes, keep } = search;
  return body.descendantsOfType(search.types).filter((node) => {
    if (keep && !keep(node)) return false;
    for (let up = node.parent; up && up.id !== body.id; up = up.parent) if (scopes.has(up.type) && (!keep || keep(up))) return false;
    return true;
  });
}

/** Whether the source between two offsets contains one of the words. */
export function containsWord(source: string, from: number, to: number, words: readonly string[]): boolean {
  // Search the body only: `indexOf(word, from)` would run on to the end of the file for each body.
  const body = source.slice(from, to);
  return words.some((word) => body.includes(word));
}

/** Splits a list at commas outside brackets. */
export function splitTopLevel(text: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '<' || c === '(' || c === '[' || c === '{') depth++;
    else if ((c === '>' && text[i - 1] !== '=') || c === ')' || c === ']' || c === '}') depth--;
    else if (c === ',' && depth === 0) {
      parts.push(text.slice(start, i).trim());
      start = i + 1;
    }
  }
  parts.push(text.slice(start).trim());
  return parts.filter(Boolean);
}
