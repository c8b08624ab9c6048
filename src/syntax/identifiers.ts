/**
 * Identifiers as the syntax layer sees them: the name under a position (tree-sitter), and every
 * occurrence of one name as an identifier token of a file, outside comments and string literals.
 *
 * The occurrence scan is lexical (one regular expression per language family that steps over
 * comments, strings, character literals and raw strings), not a parse: syntactic usages scan every
 * file holding the name, a thousand files of Go's std for a common name, and tree-sitter takes
 * milliseconds per file where the scan takes tens of microseconds. Tree-sitter classifies the hits
 * that are answered (usage-kind.ts). What the scan cannot see: identifiers inside template-literal
 * `${...}`, f-string or interpolated-string holes (they count as string), and code in `#if 0`.
 */
import type { Node, Tree } from 'web-tree-sitter';
import { loadParser, parseWithin } from './grammars.js';
import type { LanguageSpec } from './spec.js';

export interface Occurrence {
  /** 1-based line. */
  line: number;
  /** 1-based column in UTF-16 code units. */
  column: number;
}

const scanners = new Map<string, RegExp>();

function scannerFor(spec: LanguageSpec, name: string): RegExp {
  const key = `${spec.skippedTokens.join('\u0001')}\u0000${name}`;
  let regex = scanners.get(key);
  if (!regex) {
    const escaped = name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    // `hit` is group 1, so a raw string's delimiter is group 2 (its back-reference is \2).
    regex = new RegExp(`(?<hit>(?<![\\w$])${escaped}(?![\\w$]))|${spec.skippedTokens.join('|')}`, 'g');
    if (scanners.size > 256) scanners.clear();
    scanners.set(key, regex);
  }
  return regex;
}

/** Every occurrence of `name` as an identifier token in `text`, in document order (comments and strings skipped). */
export function scanOccurrences(spec: LanguageSpec, text: string, name: string): Occurrence[] {
  if (name === '' || !text.includes(name)) return [];
  const regex = scannerFor(spec, name);
  regex.lastIndex = 0;
  const result: Occurrence[] = [];
  let line = 1;
  let lineStart = 0;
  let counted = 0;
  for (let match = regex.exec(text); match; match = regex.exec(text)) {
    if (match.groups?.hit === undefined) {
      if (match[0].length === 0) regex.lastIndex++;
      continue;
    }
    // Count the newlines up to the hit, from where the last count stopped.
    for (let i = text.indexOf('\n', counted); i !== -1 && i < match.index; i = text.indexOf('\n', i + 1)) {
      line++;
      lineStart = i + 1;
    }
    counted = match.index;
    result.push({ line, column: match.index - lineStart + 1 });
  }
  return result;
}

/** Whether a tree-sitter node is a name token: `identifier`, `type_identifier`, `field_identifier`, `property_identifier`... */
export function isIdentifierNode(node: Node): boolean {
  return node.childCount === 0 && (node.type.endsWith('identifier') || node.type === 'name' || node.type === 'constant');
}

const PARSE_BUDGET_MS = 2000;

/** Parses a file's text with its language's grammar; null when the language has none or the parse gave up. The caller deletes the tree. */
export async function parseSource(spec: LanguageSpec | undefined, source: string): Promise<Tree | null> {
  if (!spec) return null;
  const parser = await loadParser(spec.grammar);
  return parseWithin(parser, source, PARSE_BUDGET_MS + (source.length / 1_000_000) * 5000).tree;
}

/** The identifier leaf at a 1-based position, or the one ending just before it (a cursor right after a name). */
export function identifierNodeAt(tree: Tree, position: Occurrence): Node | null {
  const row = position.line - 1;
  for (const column of [position.column - 1, position.column - 2]) {
    if (column < 0) continue;
    const node = tree.rootNode.descendantForPosition({ row, column });
    if (node && isIdentifierNode(node) && node.startPosition.row === row) return node;
  }
  return null;
}

export interface IdentifierAt {
  name: string;
  line: number;
  column: number;
}

/** The name under a position, from the syntax tree (`cached` hands out a tree its cache keeps): null where there is no identifier (whitespace, a keyword, a literal, a comment). */
export async function identifierAt(spec: LanguageSpec | undefined, source: string, position: Occurrence, cached?: (parse: () => Promise<Tree | null>) => Promise<Tree | null>): Promise<IdentifierAt | null> {
  const tree = cached ? await cached(() => parseSource(spec, source)) : await parseSource(spec, source);
  if (!tree) return wordAt(source, position);
  try {
    const node = identifierNodeAt(tree, position);
    return node ? { name: node.text, line: node.startPosition.row + 1, column: node.startPosition.column + 1 } : null;
  } finally {
    // A cached tree belongs to its cache.
    if (!cached) tree.delete();
  }
}

/** The word (letters, digits, `_`, `$`) at a position, for text no grammar parses. */
export function wordAt(source: string, position: Occurrence): IdentifierAt | null {
  const text = source.split(/\r?\n/)[position.line - 1];
  if (text === undefined) return null;
  const isWord = (c: string | undefined): boolean => c !== undefined && /[\w$]/.test(c);
  let start = position.column - 1;
  if (!isWord(text[start]) && isWord(text[start - 1])) start--;
  if (!isWord(text[start])) return null;
  while (start > 0 && isWord(text[start - 1])) start--;
  let end = start;
  while (isWord(text[end])) end++;
  const name = text.slice(start, end);
  return /^[A-Za-z_$]/.test(name) ? { name, line: position.line, column: start + 1 } : null;
}
