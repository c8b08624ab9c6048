/**
 * What a reference does, read from the syntax tree at its position: a call, a read, a write, an
 * import, a type position, an inheritance clause, or other (a hit that is not an identifier token:
 * a macro argument clangd maps back, a name inside a comment). Calls are the language's own (LanguageSpec.calls:
 * Python's `call` names its callee in `function`, Ruby's in `method`); the other node names of every indexed language
 * are listed together here, none of them meaning something else in another grammar.
 */
import type { Node, Tree } from 'web-tree-sitter';
import type { LanguageSpec } from './spec.js';
import { identifierNodeAt, parseSource, type Occurrence } from './identifiers.js';

export const USAGE_KINDS = ['call', 'read', 'write', 'import', 'type', 'inheritance', 'other'] as const;
export type UsageKind = (typeof USAGE_KINDS)[number];

/** Statements that bring names in: imports, includes of names, `use`, `using`. */
const IMPORTS = new Set([
  'import_statement', 'import_from_statement', 'future_import_statement', 'import_declaration', 'import_spec', 'import_clause',
  'import_specifier', 'namespace_import', 'named_imports', 'import_require_clause', 'using_directive', 'use_declaration',
  'using_declaration', 'extern_crate_declaration', 'package_clause',
]);

/** Base-type clauses. */
const INHERITANCE = new Set([
  'base_class_clause', 'class_heritage', 'extends_clause', 'implements_clause', 'extends_type_clause', 'superclass', 'super_interfaces',
  'extends_interfaces', 'base_list', 'trait_bounds',
]);

/** Nodes that call what they hold without a field naming it: Python's and TypeScript's decorators. */
const APPLIED = new Set(['decorator']);

/** Nodes that name something through a path whose last part is the name: `a.b`, `ns::f`, `f<T>`, `pkg.F`. */
const PATHS = new Set([
  'member_expression', 'field_expression', 'selector_expression', 'attribute', 'scoped_identifier', 'qualified_identifier',
  'template_function', 'template_type', 'generic_name', 'generic_function', 'member_access_expression', 'nested_type_identifier',
  'qualified_type', 'scoped_type_identifier', 'field_access', 'parenthesized_expression', 'instantiation_expression',
]);

/** Assignments and updates, with the field holding their target. */
const WRITES: Record<string, string> = {
  assignment_expression: 'left', augmented_assignment_expression: 'left', assignment: 'left', augmented_assignment: 'left',
  compound_assignment_expr: 'left', assignment_statement: 'left', short_var_declaration: 'left', update_expression: 'argument',
  inc_statement: '', dec_statement: '', postfix_unary_expression: '', prefix_unary_expression: '', for_in_clause: 'left',
};

/** Where a type is expected. */
const TYPE_POSITIONS = new Set([
  'type_annotation', 'type', 'generic_type', 'type_arguments', 'template_argument_list', 'type_descriptor', 'qualified_type',
  'pointer_type', 'array_type', 'slice_type', 'map_type', 'reference_type', 'nullable_type', 'predefined_type', 'type_parameter',
  'type_constraint', 'constraint_elem', 'return_type', 'union_type', 'intersection_type', 'type_list', 'catch_type', 'cast_expression',
  'sizeof_expression', 'type_conversion_expression', 'type_assertion_expression', 'composite_literal', 'type_spec', 'type_alias',
]);

const TYPE_LEAVES = new Set(['type_identifier', 'namespace_identifier', 'package_identifier', 'primitive_type']);

/** The kind of the reference whose name starts at `position`; `calls` is the language's (LanguageSpec.calls). */
export function classifyNode(node: Node | null, calls: Readonly<Record<string, string>> = {}): UsageKind {
  if (!node) return 'other';
  for (let up: Node | null = node.parent, depth = 0; up && depth < 8; up = up.parent, depth++) {
    if (IMPORTS.has(up.type)) return 'import';
    if (up.type === 'export_statement' && up.childForFieldName('source')) return 'import';
    if (INHERITANCE.has(up.type)) return 'inheritance';
    if (up.type === 'argument_list' && up.parent?.type === 'class_definition' && sameNode(up.parent.childForFieldName('superclasses'), up)) return 'inheritance';
    if (up.type === 'impl_item' && isWithin(node, up.childForFieldName('trait'))) return 'inheritance';
    if (/(statement|declaration|definition|_item|block|body)$/.test(up.type) && !IMPORTS.has(up.type)) break;
  }
  // The name, widened to the path it ends (`obj.method`, `ns::f`, `pkg.F`, `f<T>`).
  let target = node;
  while (target.parent && PATHS.has(target.parent.type) && endsWith(target.parent, target)) target = target.parent;
  const parent = target.parent;
  if (parent) {
    const field = calls[parent.type];
    if (APPLIED.has(parent.type) || (field !== undefined && (sameNode(parent.childForFieldName(field), target) || (parent.type === 'method_invocation' && sameNode(parent.childForFieldName('name'), node))))) return 'call';
    const written = WRITES[parent.type];
    if (written !== undefined && (written === '' ? isOperand(parent, target) : isWithin(target, parent.childForFieldName(written)))) return 'write';
    // Go's `a, b = ...`: the target sits in an expression_list on the left.
    if (parent.type === 'expression_list' && parent.parent && WRITES[parent.parent.type] !== undefined && sameNode(parent.parent.childForFieldName('left'), parent)) return 'write';
  }
  if (TYPE_LEAVES.has(node.type)) return 'type';
  for (let up: Node | null = node.parent, depth = 0; up && depth < 4; up = up.parent, depth++) {
    if (TYPE_POSITIONS.has(up.type)) return up.type === 'cast_expression' && !sameNode(up.childForFieldName('type'), node) ? 'read' : 'type';
    if (!PATHS.has(up.type) && up.type !== 'type_arguments' && up.type !== 'template_argument_list') break;
  }
  return 'read';
}

/** Classifies each reference position in one file's tree, read with `spec` (its calls). */
export function classifyPositions(tree: Tree, positions: Occurrence[], spec: LanguageSpec | undefined): UsageKind[] {
  return positions.map((position) => classifyNode(identifierNodeAt(tree, position), spec?.calls));
}

/** Parses and classifies; every position is `other` when the language has no grammar. */
export async function classifySource(spec: LanguageSpec | undefined, source: string, positions: Occurrence[]): Promise<UsageKind[]> {
  const tree = await parseSource(spec, source);
  if (!tree) return positions.map(() => 'other');
  try {
    return classifyPositions(tree, positions, spec);
  } finally {
    tree.delete();
  }
}

function sameNode(a: Node | null | undefined, b: Node | null | undefined): boolean {
  return !!a && !!b && a.startIndex === b.startIndex && a.endIndex === b.endIndex && a.type === b.type;
}

function isWithin(node: Node, outer: Node | null | undefined): boolean {
  return !!outer && outer.startIndex <= node.startIndex && node.endIndex <= outer.endIndex;
}

/** Whether `child` is the last part of `path` (its named field, property or name), not its object or scope. */
function endsWith(path: Node, child: Node): boolean {
  for (const field of ['field', 'property', 'name', 'attribute', 'function', 'type']) {
    const part = path.childForFieldName(field);
    if (part) return sameNode(part, child);
  }
  // No named last part (parenthesized, template_function's name first): the first named child leads.
  return path.type === 'parenthesized_expression' || path.type === 'template_function' || path.type === 'template_type' || path.type === 'generic_name' || path.type === 'instantiation_expression' ? sameNode(path.namedChild(0), child) : false;
}

/** `x++` and `--x`: the operand of an increment or decrement (not of `-x` or `!x`). */
function isOperand(update: Node, target: Node): boolean {
  const text = update.text;
  return (text.includes('++') || text.includes('--')) && isWithin(target, update);
}

/**
 * The last few parsed trees, keyed by the caller (a path with its mtime and size), so asking again about
 * the same files reparses nothing. Bounded by count; an evicted tree's memory is freed at once.
 */
export class TreeCache {
  private readonly trees = new Map<string, Promise<Tree | null>>();

  constructor(private readonly capacity = 24) {}

  get(key: string, spec: LanguageSpec | undefined, source: () => string): Promise<Tree | null> {
    return this.getOrParse(key, () => parseSource(spec, source()));
  }

  getOrParse(key: string, parse: () => Promise<Tree | null>): Promise<Tree | null> {
    let tree = this.trees.get(key);
    if (tree) {
      this.trees.delete(key);
      this.trees.set(key, tree);
      return tree;
    }
    tree = parse();
    this.trees.set(key, tree);
    while (this.trees.size > this.capacity) {
      const [oldest, evicted] = this.trees.entries().next().value as [string, Promise<Tree | null>];
      this.trees.delete(oldest);
      // A tree still in use by a request finishes its synchronous walk before this runs.
      void evicted.then((old) => setImmediate(() => old?.delete()));
    }
    return tree;
  }
}

/** One cache for the process: usages classify, resolve finds the name under a position, on the same files. */
export const sharedTrees = new TreeCache();
