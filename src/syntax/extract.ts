/**
 * The generic part of extraction: walks a tree with a language module's rules and turns its
 * drafts into ExtractedSymbols (containers, ranges, signature, doc).
 */
import type { Node, Tree } from 'web-tree-sitter';
import type { ExtractedSymbol, LanguageId, Parameter } from './types.js';
import type { Range } from '../../schemas/common.js';
import type { Draft, ExtractContext, LanguageSpec, Scope, TextDeclaration } from './spec.js';
import { dedent } from './common.js';

const MAX_SIGNATURE = 300;
/** Deeply nested input (generated code, minified bundles) must not blow the stack. */
const MAX_DEPTH = 200;

export function extractFromTree(tree: Tree, spec: LanguageSpec, language: LanguageId, source: string, original: string): ExtractedSymbol[] {
  const symbols: ExtractedSymbol[] = [];
  const ctx: ExtractContext = {
    source,
    original,
    text: (node) => (node ? source.slice(node.startIndex, node.endIndex) : ''),
    parentOf: (node) => parents.get(node.id) ?? node.parent,
    namespaces: new Set(),
  };
  const siblings: Siblings = new Map();
  const parents = new Map<number, Node>();
  /** Scope-only declarations that name bases (Rust `impl Trait for Type`): their bases join the type's. */
  const scopeBases: ExtractedSymbol[] = [];
  const root: Scope = { containers: [], containingType: null, parentKind: null, outer: null, defining: true };

  const walkChildren = (node: Node, scope: Scope, depth: number): void => {
    let current = scope;
    // One call for all children: `child(i)` would walk the siblings again for each i.
    const children = node.children;
    // What comes before each child, for the doc and decorators above a declaration without a call into the tree per step.
    for (let i = 0; i < children.length; i++) {
      siblings.set(children[i].id, children[i - 1] ?? null);
      parents.set(children[i].id, node);
    }
    for (const child of children) {
      walk(child, current, depth + 1);
      if (spec.siblingScope) current = spec.siblingScope(child, current, ctx) ?? current;
    }
  };

  const walk = (node: Node, scope: Scope, depth: number): void => {
    if (depth > MAX_DEPTH) return;
    try {
      visit(node, scope, depth);
    } catch {
      // A shape the rules did not foresee: skip this node and keep going with the rest of the file.
    }
  };

  const visit = (node: Node, scope: Scope, depth: number): void => {
    const type = node.type;
    const drafts = spec.declare(node, scope, ctx, type);
    if (drafts) {
      for (const draft of drafts) {
        const symbol = toSymbol(draft, node, scope, spec, language, ctx, siblings);
        if (!draft.scopeOnly) symbols.push(symbol);
        else if (symbol.bases.length > 0) scopeBases.push(symbol);
        if (!draft.body && !draft.members?.length) continue;
        const isType = TYPE_KINDS.has(draft.kind);
        const inner: Scope = {
          containers: [...symbol.containers, draft.name],
          containingType: isType ? draft.name : symbol.containingType,
          parentKind: draft.kind,
          outer: null,
          defining: scope.defining,
        };
        if (draft.body) walkChildren(draft.body, inner, depth);
        for (const member of draft.members ?? []) walk(member, inner, depth + 1);
      }
      return;
    }
    const hidden = spec.hidden?.(node, scope, ctx, type);
    if (hidden) {
      for (const inner of hidden) walk(inner, scope, depth + 1);
      return;
    }
    if (spec.wrappers.has(type)) {
      const wrapped = { ...scope, outer: scope.outer ?? node };
      walkChildren(node, spec.wrapperScope ? spec.wrapperScope(node, wrapped) : wrapped, depth);
    } else if (spec.descend.has(type) || type === 'ERROR') {
      walkChildren(node, scope.outer ? { ...scope, outer: null } : scope, depth);
    }
  };

  walkChildren(tree.rootNode, root, 0);
  if (spec.textDeclarations) {
    const found = spec.textDeclarations(ctx, symbols);
    if (found.length) {
      const lines = lineStarts(source);
      for (const declaration of found) symbols.push(textSymbol(declaration, original, lines, language));
    }
  }
  for (const scopeOnly of scopeBases) {
    const type = symbols.find((symbol) => symbol.qualifiedName === scopeOnly.qualifiedName && TYPE_KINDS.has(symbol.kind));
    if (type) type.bases = [...new Set([...type.bases, ...scopeOnly.bases])];
  }
  // Range starts put a container before its members (a typedef'd struct starts before its fields).
  symbols.sort((a, b) => a.range.start.line - b.range.start.line || a.range.start.column - b.range.start.column);
  return symbols;
}

const TYPE_KINDS = new Set(['class', 'struct', 'interface', 'enum']);

/**
 * The sibling before a node, as its parent's children list has it: filled as the walker lists children. Keyed by the
 * node's id (unique in its tree, a plain number): a Node object as key costs a hash of its own.
 */
type Siblings = Map<number, Node | null>;

function previousOf(node: Node, siblings: Siblings): Node | null {
  const known = siblings.get(node.id);
  return known !== undefined ? known : node.previousSibling;
}

function toSymbol(draft: Draft, declared: Node, scope: Scope, spec: LanguageSpec, language: LanguageId, ctx: ExtractContext, siblings: Siblings): ExtractedSymbol {
  const base = draft.global ? [] : scope.containers;
  const containers = draft.qualifiers?.length ? [...base, ...draft.qualifiers] : base;
  const containingType = draft.global ? null : draft.containingType !== undefined ? draft.containingType
    : draft.qualifiers?.length ? draft.qualifiers[draft.qualifiers.length - 1] : scope.containingType;
  const outer = scope.outer;
  const startNode = outer && outer.startIndex < draft.node.startIndex ? outer : draft.node;
  const rangeStart = spec.leadingTypes ? leadingStart(outer ?? declared, startNode, spec.leadingTypes, siblings) : startNode;
  const endNode = outer && outer.endIndex > draft.node.endIndex ? outer : draft.node;
  const nameNode = draft.nameNode ?? draft.node;
  const headEnd = draft.headEnd ?? draft.body?.startIndex ?? draft.node.endIndex;
  return {
    name: draft.name,
    kind: draft.kind,
    containers,
    qualifiedName: [...containers, draft.name].join(spec.separator),
    containingType,
    range: { start: point(rangeStart.startPosition), end: point(endNode.endPosition) },
    selectionRange: { start: point(nameNode.startPosition), end: point(nameNode.endPosition) },
    signature: (draft.signaturePrefix ?? '') + oneLine(ctx.source.slice(startNode.startIndex, Math.max(headEnd, startNode.startIndex))),
    parameters: draft.parameters?.map(clipParameter) ?? [],
    returnType: draft.returnType ? clipType(draft.returnType) : null,
    doc: normalizeNewlines(draft.doc !== undefined ? draft.doc : docAbove(outer ?? declared, spec, ctx, siblings)),
    definition: draft.definition ?? true,
    forwardDeclaration: draft.forwardDeclaration ?? false,
    bases: draft.bases ?? [],
    language,
  };
}

/** A declaration the language read from the text as written: positions from its offsets, no containers, no doc. */
function textSymbol(declaration: TextDeclaration, source: string, lines: number[], language: LanguageId): ExtractedSymbol {
  const at = (offset: number): Range['start'] => {
    let low = 0;
    let high = lines.length - 1;
    while (low < high) {
      const mid = (low + high + 1) >> 1;
      if (lines[mid] <= offset) low = mid;
      else high = mid - 1;
    }
    return { line: low + 1, column: offset - lines[low] + 1 };
  };
  return {
    name: declaration.name,
    kind: declaration.kind,
    containers: [],
    qualifiedName: declaration.name,
    containingType: null,
    range: { start: at(declaration.start), end: at(declaration.end) },
    selectionRange: { start: at(declaration.nameStart), end: at(declaration.nameEnd) },
    signature: oneLine(source.slice(declaration.start, declaration.headEnd)),
    parameters: declaration.parameters ?? [],
    returnType: null,
    doc: null,
    definition: true,
    forwardDeclaration: false,
    bases: [],
    language,
  };
}

/** The offset each line starts at. */
function lineStarts(source: string): number[] {
  const starts = [0];
  for (let i = source.indexOf('\n'); i >= 0; i = source.indexOf('\n', i + 1)) starts.push(i + 1);
  return starts;
}

/**
 * Types as one readable line, capped like signatures: an inferred object type can run to
 * 100 KB (`declare const icons: { ... }`), which no answer should carry.
 */
export function clipType(text: string): string {
  const line = text.length > MAX_SIGNATURE || /\s\s|[\t\r\n]/.test(text) ? text.replace(/\s+/g, ' ').trim() : text;
  return line.length > MAX_SIGNATURE ? `${line.slice(0, MAX_SIGNATURE - 1)}…` : line;
}

function clipParameter(parameter: Parameter): Parameter {
  return parameter.type && parameter.type.length > MAX_SIGNATURE ? { ...parameter, type: clipType(parameter.type) } : parameter;
}

/** The first of the decorator-like siblings right before `anchor`, else `fallback`. */
function leadingStart(anchor: Node, fallback: Node, types: ReadonlySet<string>, siblings: Siblings): Node {
  let first = fallback;
  for (let prev = previousOf(anchor, siblings); prev && types.has(prev.type); prev = previousOf(prev, siblings)) first = prev;
  return first.startIndex < fallback.startIndex ? first : fallback;
}

/** Docs read the same from CRLF files. */
function normalizeNewlines(doc: string | null): string | null {
  return doc && doc.includes('\r') ? doc.replace(/\r\n?/g, '\n') : doc;
}

function point(p: { row: number; column: number }): Range['start'] {
  return { line: p.row + 1, column: p.column + 1 };
}

/** Collapses whitespace and drops what ends a head (`{`, `;`, `:`, `=>`), capped to one readable line. */
export function oneLine(text: string): string {
  // Preprocessor lines and whole-line comments inside a head (after its first line) are not part of it.
  const firstBreak = text.indexOf('\n');
  const code = firstBreak >= 0 && text.includes('#', firstBreak)
    ? text.slice(0, firstBreak) + text.slice(firstBreak).replace(/^[ \t]*#.*$/gm, '')
    : text;
  let line = collapsedAlready(code) ?? code.replace(/\s+/g, ' ').trim();
  // One ending taken off (`=>` whole), and the space before it: what /\s*(\{|;|:|=>|=)\s*$/ took, without a regular
  // expression tried at every space of the line.
  const last = line.charCodeAt(line.length - 1);
  if (line.endsWith('=>')) line = line.slice(0, -2).trimEnd();
  else if (last === 123 || last === 59 || last === 58 || last === 61) line = line.slice(0, -1).trimEnd();
  if (line.length > MAX_SIGNATURE) line = `${line.slice(0, MAX_SIGNATURE - 1)}…`;
  return line;
}

/**
 * What `text.replace(/\s+/g, ' ').trim()` gives, when the text is printable ASCII with single spaces between words and
 * at most spaces and tabs after the last one (a `#define`'s head, most one-line declarations): read without the
 * regular expression and the copies; undefined for any other text.
 */
function collapsedAlready(text: string): string | undefined {
  let end = text.length;
  while (end > 0 && (text.charCodeAt(end - 1) === 32 || text.charCodeAt(end - 1) === 9)) end--;
  if (end === 0 || text.charCodeAt(0) === 32) return undefined;
  for (let i = 0; i < end; i++) {
    const c = text.charCodeAt(i);
    if (c > 32 && c < 127) continue;
    if (c !== 32 || text.charCodeAt(i - 1) === 32) return undefined;
  }
  return end === text.length ? text : text.slice(0, end);
}

/** The comment block right above `anchor`: adjacent comments with no blank line between. */
function docAbove(anchor: Node, spec: LanguageSpec, ctx: ExtractContext, siblings: Siblings): string | null {
  const parts: string[] = [];
  let below = anchor;
  let prev = previousOf(anchor, siblings);
  while (prev) {
    const type = prev.type;
    if (spec.docSkipTypes?.has(type)) {
      below = prev;
      prev = previousOf(prev, siblings);
      continue;
    }
    if (!spec.commentTypes.has(type)) break;
    const end = prev.endIndex;
    if (!adjacent(ctx.original, contentEnd(ctx.original, prev.startIndex, end), below.startIndex) || !startsLine(ctx.original, prev.startIndex)) break;
    const text = ctx.original.slice(prev.startIndex, end);
    if (spec.isDocComment && !spec.isDocComment(text)) break;
    parts.unshift(text);
    below = prev;
    prev = previousOf(prev, siblings);
  }
  if (!parts.length) return null;
  const doc = parts.map(cleanComment).join('\n').trim();
  return doc || null;
}

/** Where a comment's text ends, before the newline some grammars make part of a line comment. */
function contentEnd(text: string, start: number, commentEnd: number): number {
  let end = commentEnd;
  while (end > start && (text.charCodeAt(end - 1) === 10 || text.charCodeAt(end - 1) === 13)) end--;
  return end;
}

/** No blank line in the original text between two points. */
export function adjacent(text: string, from: number, to: number): boolean {
  const gap = text.slice(from, to);
  const lines = gap.split('\n');
  for (let i = 1; i < lines.length - 1; i++) if (!lines[i].trim()) return false;
  return true;
}

/** Only whitespace before `index` on its line (a trailing comment documents the line it ends). */
function startsLine(text: string, index: number): boolean {
  for (let i = index - 1; i >= 0; i--) {
    const c = text.charCodeAt(i);
    if (c === 10) return true;
    if (c !== 32 && c !== 9 && c !== 13) return false;
  }
  return true;
}

export function cleanComment(comment: string): string {
  const trimmed = comment.trim();
  if (trimmed.startsWith('/*')) {
    const body = trimmed.slice(trimmed[2] === '*' || trimmed[2] === '!' ? 3 : 2, trimmed.endsWith('*/') ? -2 : undefined);
    return dedent(body.replace(/^[ \t]*\*(?!\/) ?/gm, '')).trim();
  }
  return trimmed.replace(/^[ \t]*(\/\/[/!]?|#+) ?/gm, '').trimEnd();
}
