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
import { Query, type Node, type Parser, type Tree } from 'web-tree-sitter';
import { loadParser, parseWithin } from '../grammars.js';
import type { LanguageSpec, StatementTable } from '../spec.js';
import { CALLABLE_SHORTS, STATEMENT_SHORTS, STRUCTURE_SHORTS, type ShortType, type StatementFile, type StatementNode } from './types.js';

const PARSE_BUDGET_MS = 1500;
const PARSE_BUDGET_PER_MB_MS = 5000;

/** Whether the language has a statement table. */
export function hasStatements(spec: LanguageSpec | undefined): boolean {
  return !!spec?.statements;
}

/** The statement tree of `source` parsed with `spec`'s grammar; null when the language has no table or the parse failed. */
export async function parseStatements(spec: LanguageSpec | undefined, source: string): Promise<StatementFile | null> {
  if (!spec?.statements) return null;
  const parser = await loadParser(spec.grammar);
  // As the index does: a byte-order mark is not counted in columns.
  if (source.charCodeAt(0) === 0xfeff) source = source.slice(1);
  const { tree } = parseWithin(parser, source, PARSE_BUDGET_MS + (source.length / 1_000_000) * PARSE_BUDGET_PER_MB_MS);
  if (!tree) return null;
  try {
    return walkTree(tree, parser, spec, spec.statements, source);
  } finally {
    tree.delete();
  }
}

/** One query per grammar capturing every node type its table maps: one call into the parser per file. */
const queries = new Map<string, Query>();

function queryFor(parser: Parser, spec: LanguageSpec, table: StatementTable): Query {
  let query = queries.get(spec.grammar);
  if (!query) {
    const language = parser.language!;
    // C shares C++'s table: node types its grammar lacks are left out.
    const types = Object.keys(table.types).filter((type) => language.idForNodeType(type, true) !== null);
    query = new Query(language, `[${types.map((type) => `(${type})`).join(' ')}] @n`);
    queries.set(spec.grammar, query);
  }
  return query;
}

function walkTree(tree: Tree, parser: Parser, spec: LanguageSpec, table: StatementTable, source: string): StatementFile {
  const nodes: StatementNode[] = [];
  const roots: number[] = [];
  const counts = new Map<string, number>();

  const shortOf = (node: Node): ShortType | null => {
    const entry = table.types[node.type];
    if (entry === undefined) return null;
    return typeof entry === 'function' ? entry(node) : entry;
  };

  /** An expression statement wrapping only a control statement (Rust `if c {}`) stands for it. */
  const wrapsControl = (node: Node): boolean => {
    if (node.namedChildCount !== 1) return false;
    const inner = node.firstNamedChild;
    const short = inner ? shortOf(inner) : null;
    return short !== null && short !== 'expression' && STATEMENT_SHORTS.has(short);
  };

  /** Whether the node stands in a statement list (a collapsed wrapper stands for it). */
  const inStatementPosition = (node: Node): boolean => {
    let parent = node.parent;
    if (parent && table.types[parent.type] === 'expression' && wrapsControl(parent)) parent = parent.parent;
    return !parent || parent.parent === null || table.bodies.has(parent.type);
  };

  const captured = queryFor(parser, spec, table).captures(tree.rootNode).map((capture) => capture.node);
  // Document order, outer before inner; a node with its parent's very range comes after it.
  captured.sort((a, b) => a.startIndex - b.startIndex || b.endIndex - a.endIndex || depthOf(a) - depthOf(b));

  /** Open kept nodes, outermost first: the parent of the next node is the innermost that holds it. */
  const open: OpenNode[] = [];
  let previousId = -1;
  for (const node of captured) {
    if (node.id === previousId) continue;
    previousId = node.id;
    while (open.length && !(open[open.length - 1].rawStart <= node.startIndex && node.endIndex <= open[open.length - 1].end)) open.pop();
    let short = shortOf(node);
    if (!short) continue;
    const parentNode = open.length ? open[open.length - 1] : null;
    if (short === 'block') {
      if (!inStatementPosition(node)) continue;
    } else if (short === 'local') {
      let inCallable = false;
      for (let i = open.length - 1; i >= 0; i--) {
        if (STRUCTURE_SHORTS.has(open[i].short)) {
          inCallable = CALLABLE_SHORTS.has(open[i].short);
          break;
        }
      }
      if (!inCallable) continue;
    } else if (short === 'function' && parentNode?.short === 'class') short = 'method';
    else if (short === 'expression' && wrapsControl(node)) continue;

    const index = nodes.length;
    const parent = parentNode ? parentNode.index : -1;
    let start = node.startIndex;
    let startPosition = node.startPosition;
    let name: string | null = null;
    let headEnd = node.endIndex;
    if (STRUCTURE_SHORTS.has(short) || short === 'call' || short === 'local') {
      name = nameOf(node, short, table, spec);
      if (STRUCTURE_SHORTS.has(short)) {
        headEnd = node.childForFieldName('body')?.startIndex ?? node.endIndex;
        // Decorators, template heads and `export` belong to the declaration they wrap.
        const wrapper = short === 'lambda' ? null : node.parent;
        if (wrapper && spec.wrappers.has(wrapper.type)) {
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
    const statement = STATEMENT_SHORTS.has(short) || ((short === 'call' || short === 'assignment') && inStatementPosition(node));
    const entry: OpenNode = {
      index,
      short,
      type: node.type,
      start,
      end: node.endIndex,
      rawStart: node.startIndex,
      line: startPosition.row + 1,
      column: startPosition.column + 1,
      name,
      headEnd,
      parent,
      children: [],
      position,
      namePosition,
      statement,
      depth: !parentNode || STRUCTURE_SHORTS.has(parentNode.short) ? 0 : parentNode.depth + 1,
    };
    nodes.push(entry);
    if (parentNode) parentNode.children.push(index);
    else roots.push(index);
    open.push(entry);
  }
  for (const node of nodes as OpenNode[]) delete (node as Partial<OpenNode>).rawStart;
  return { nodes, roots, source, incomplete: tree.rootNode.hasError };
}

/** A node being built: `rawStart` is its own start (a decorated definition's `start` is its decorators'). */
interface OpenNode extends StatementNode {
  rawStart: number;
}

/** Distance from the root, only asked for nodes sharing one range. */
function depthOf(node: Node): number {
  let depth = 0;
  for (let current = node.parent; current; current = current.parent) depth++;
  return depth;
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
