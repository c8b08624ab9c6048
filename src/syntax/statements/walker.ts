/**
 * Builds a file's statement tree: the nodes of its syntax tree that its language's statement table
 * maps to a short name, each linked to its nearest mapped ancestor. Everything else is walked
 * through, so a node's children here are its nearest mapped descendants.
 *
 * Rules, the same in every language (README "Statements"):
 * - A `block` is kept only where it stands as a statement of its own (directly in a statement list:
 *   `{ ... }` in C, Python's `with`, C#'s `using`); the body of a function, `if` or loop is walked
 *   through, so `//method[Main]/if` finds the ifs directly in Main's body.
 * - An expression statement that only wraps a control statement (Rust's `if`/`match`/`loop` written
 *   as statements) is that statement.
 * - `local` is a declaration inside a function; at file or class level declarations are walked through.
 * - A function directly in a class is a `method`.
 * - depth 0 is a direct child of a method, function, lambda or class body (or of the file); each
 *   mapped node in between adds one.
 */
import type { Node, Tree, TreeCursor } from 'web-tree-sitter';
import type { LanguageId } from '../../index/types.js';
import { loadParser } from '../grammars.js';
import { LANGUAGE_SPECS } from '../languages/index.js';
import type { LanguageSpec, StatementTable } from '../languages/spec.js';
import { CALLABLE_SHORTS, STATEMENT_SHORTS, STRUCTURE_SHORTS, type ShortType, type StatementFile, type StatementNode } from './types.js';

const PARSE_BUDGET_MS = 1500;
const PARSE_BUDGET_PER_MB_MS = 5000;
/** Generated code nests binary expressions thousands deep; nothing below this is walked. */
const MAX_DEPTH = 400;
const ROOT = '\u0000root';

/** Whether the language has a statement table. */
export function hasStatements(language: LanguageId): boolean {
  return !!LANGUAGE_SPECS[language]?.statements;
}

/** The statement tree of `source` parsed as `language`; null when the language has no table or the parse failed. */
export async function parseStatements(language: LanguageId, source: string): Promise<StatementFile | null> {
  const spec = LANGUAGE_SPECS[language];
  if (!spec?.statements) return null;
  const parser = await loadParser(spec.grammar);
  // As the index does: a byte-order mark is not counted in columns.
  if (source.charCodeAt(0) === 0xfeff) source = source.slice(1);
  const deadline = performance.now() + PARSE_BUDGET_MS + (source.length / 1_000_000) * PARSE_BUDGET_PER_MB_MS;
  let tree: Tree | null;
  try {
    tree = parser.parse(source, null, { progressCallback: () => performance.now() > deadline });
  } catch {
    return null;
  }
  if (!tree) return null;
  try {
    return walkTree(tree, spec, spec.statements, source);
  } finally {
    tree.delete();
  }
}

function walkTree(tree: Tree, spec: LanguageSpec, table: StatementTable, source: string): StatementFile {
  const nodes: StatementNode[] = [];
  const roots: number[] = [];
  const counts = new Map<string, number>();
  const cursor = tree.walk();

  const shortOf = (type: string, node: () => Node): ShortType | null => {
    const entry = table.types[type];
    if (entry === undefined) return null;
    return typeof entry === 'function' ? entry(node()) : entry;
  };

  /** An expression statement wrapping only a control statement (Rust `if c {}`) stands for it. */
  const wrapsControl = (node: Node): boolean => {
    let inner: Node | null = null;
    for (const child of node.namedChildren) {
      if (spec.commentTypes.has(child.type)) continue;
      if (inner) return false;
      inner = child;
    }
    if (!inner) return false;
    const short = shortOf(inner.type, () => inner!);
    return short !== null && short !== 'expression' && STATEMENT_SHORTS.has(short);
  };

  const add = (short: ShortType, cur: TreeCursor, parent: number, statementPosition: boolean): number => {
    const index = nodes.length;
    const parentNode = parent >= 0 ? nodes[parent] : null;
    let start = cur.startIndex;
    let startPosition = cur.startPosition;
    let name: string | null = null;
    let headEnd = cur.endIndex;
    if (STRUCTURE_SHORTS.has(short) || short === 'call' || short === 'local') {
      const node = cur.currentNode;
      name = nameOf(node, short, table, spec);
      if (STRUCTURE_SHORTS.has(short)) {
        headEnd = node.childForFieldName('body')?.startIndex ?? cur.endIndex;
        // Decorators, template heads and `export` belong to the declaration they wrap.
        const wrapper = node.parent;
        if (wrapper && spec.wrappers.has(wrapper.type) && short !== 'lambda') {
          start = wrapper.startIndex;
          startPosition = wrapper.startPosition;
        }
      }
    }
    const key = `${parent}\u0000${short}`;
    const position = (counts.get(key) ?? 0) + 1;
    counts.set(key, position);
    let namePosition = 1;
    if (name !== null && STRUCTURE_SHORTS.has(short)) {
      const nameKey = `${key}\u0000${name}`;
      namePosition = (counts.get(nameKey) ?? 0) + 1;
      counts.set(nameKey, namePosition);
    }
    nodes.push({
      index,
      short,
      type: cur.nodeType,
      start,
      end: cur.endIndex,
      line: startPosition.row + 1,
      column: startPosition.column + 1,
      name,
      headEnd,
      parent,
      children: [],
      position,
      namePosition,
      statement: STATEMENT_SHORTS.has(short) || ((short === 'call' || short === 'assignment') && statementPosition),
      depth: !parentNode || STRUCTURE_SHORTS.has(parentNode.short) ? 0 : parentNode.depth + 1,
    });
    if (parentNode) parentNode.children.push(index);
    else roots.push(index);
    return index;
  };

  /** Visits the cursor's node; `rawParent` is the grammar type it stands in (for the block rule). */
  const visit = (parent: number, rawParent: string, inCallable: boolean, level: number): void => {
    if (!cursor.nodeIsNamed || level > MAX_DEPTH) return;
    const type = cursor.nodeType;
    const statementPosition = rawParent === ROOT || table.bodies.has(rawParent);
    let short = shortOf(type, () => cursor.currentNode);
    if (short === 'block' && !statementPosition) short = null;
    else if (short === 'local' && !inCallable) short = null;
    else if (short === 'function' && parent >= 0 && nodes[parent].short === 'class') short = 'method';
    let childRaw = type;
    if (short === 'expression' && wrapsControl(cursor.currentNode)) {
      short = null;
      // The wrapped statement stands where the wrapper stood.
      childRaw = rawParent;
    }
    let childParent = parent;
    let childInCallable = inCallable;
    if (short) {
      childParent = add(short, cursor, parent, statementPosition);
      if (CALLABLE_SHORTS.has(short)) childInCallable = true;
      else if (short === 'class') childInCallable = false;
    }
    if (cursor.gotoFirstChild()) {
      do visit(childParent, childRaw, childInCallable, level + 1);
      while (cursor.gotoNextSibling());
      cursor.gotoParent();
    }
  };

  try {
    if (cursor.gotoFirstChild()) {
      do visit(-1, ROOT, false, 1);
      while (cursor.gotoNextSibling());
    }
  } finally {
    cursor.delete();
  }
  return { nodes, roots, source, incomplete: tree.rootNode.hasError };
}

const CALLEE_FIELDS = ['function', 'name', 'macro', 'constructor', 'method'];
const BINDING_PARENTS = new Set(['variable_declarator', 'assignment', 'assignment_expression', 'let_declaration', 'init_declarator', 'short_var_declaration', 'pair', 'public_field_definition', 'field_definition']);
const BINDING_FIELDS = ['name', 'left', 'pattern', 'key', 'declarator', 'property'];

function nameOf(node: Node, short: ShortType, table: StatementTable, spec: LanguageSpec): string | null {
  const custom = table.name?.(node, short);
  if (custom !== undefined) return custom === null ? null : typeof custom === 'string' ? custom : lastSegment(custom.text);
  switch (short) {
    case 'method':
    case 'function':
    case 'class': {
      const nameNode = node.childForFieldName('name');
      return nameNode ? lastSegment(nameNode.text) : null;
    }
    case 'call': {
      for (const field of CALLEE_FIELDS) {
        const callee = node.childForFieldName(field);
        if (callee) return lastSegment(callee.text);
      }
      return null;
    }
    case 'lambda': {
      const parent = node.parent;
      if (!parent || !BINDING_PARENTS.has(parent.type)) return null;
      for (const field of BINDING_FIELDS) {
        const bound = parent.childForFieldName(field);
        if (bound && bound.id !== node.id && /identifier$/.test(bound.type)) return bound.text;
      }
      return null;
    }
    case 'local':
      return boundName(node, spec);
    default:
      return null;
  }
}

/** The first name a declaration binds: depth-first, types and values skipped. */
function boundName(node: Node, spec: LanguageSpec): string | null {
  const stack: Node[] = [node];
  for (let steps = 0; stack.length && steps < 40; steps++) {
    const current = stack.pop()!;
    if (current.type === 'identifier' && current.id !== node.id) return current.text;
    const skip = new Set<number>();
    for (const field of ['type', 'value', 'right', 'body']) {
      const child = current.childForFieldName(field);
      if (child) skip.add(child.id);
    }
    const children = current.namedChildren.filter((child) => !skip.has(child.id) && !spec.commentTypes.has(child.type));
    for (let i = children.length - 1; i >= 0; i--) stack.push(children[i]);
  }
  return null;
}

/** `obj.method`, `ns::f<T>`, `Foo!` → the last identifier. */
function lastSegment(text: string): string | null {
  const match = /([A-Za-z_$\u00c0-\uffff][\w$\u00c0-\uffff]*|operator\s*\S+|~\w+)\s*(?:<[^()]*>)?\s*!?\s*$/.exec(text.length > 300 ? text.slice(-300) : text);
  return match ? match[1] : text.trim() || null;
}
