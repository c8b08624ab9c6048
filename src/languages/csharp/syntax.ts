/**
 * C#: namespaces (block and file-scoped), classes, structs, interfaces, records, enums, delegates,
 * methods, constructors, properties, fields, events; bases from the base list.
 */
import type { Node } from 'web-tree-sitter';
import type { NormalizedKind } from '../../kinds.js';
import type { Parameter } from '../../syntax/types.js';
import { childOfType, compact, named, nestedDeclarations, type NestedSearch } from '../../syntax/common.js';
import { BLOCK_COMMENT, DOUBLE_QUOTED, LINE_COMMENT, SINGLE_QUOTED } from '../../syntax/tokens.js';
import type { Draft, ExtractContext, LanguageSpec, Scope, StatementTable } from '../../syntax/spec.js';

const TYPES: Record<string, NormalizedKind> = {
  class_declaration: 'class',
  struct_declaration: 'struct',
  interface_declaration: 'interface',
  record_declaration: 'class',
  record_struct_declaration: 'struct',
  enum_declaration: 'enum',
};
const METHODS: Record<string, NormalizedKind> = {
  method_declaration: 'method',
  constructor_declaration: 'constructor',
  destructor_declaration: 'method',
  operator_declaration: 'method',
  conversion_operator_declaration: 'method',
  local_function_statement: 'function',
};

/** Local functions inside a method body. */
const LOCAL_FUNCTIONS: NestedSearch = { types: ['local_function_statement'], scopes: new Set(['local_function_statement']), words: ['('] };

function declare(node: Node, _scope: Scope, ctx: ExtractContext, nodeType: string): Draft[] | undefined {
  const typeKind = TYPES[nodeType];
  if (typeKind) {
    const nameNode = node.childForFieldName('name');
    if (!nameNode) return undefined;
    const baseList = named(node).find((child) => child.type === 'base_list');
    // A record's base may pass constructor arguments: `: Shape("circle")` → `Shape`.
    const bases = named(baseList).filter((base) => base.type !== 'comment' && base.type !== 'argument_list')
      .map((base) => compact(ctx, base).replace(/\s*\(.*\)$/s, ''));
    const body = node.childForFieldName('body') ?? named(node).find((child) => child.type === 'declaration_list' || child.type === 'enum_member_declaration_list') ?? null;
    // A record's primary constructor parameters are its properties.
    const positional = nodeType.startsWith('record') ? named(node.childForFieldName('parameters') ?? named(node).find((child) => child.type === 'parameter_list')) : [];
    return [{ name: ctx.text(nameNode), kind: typeKind, node, nameNode, body, bases, definition: true, members: positional }];
  }
  const methodKind = METHODS[nodeType];
  if (methodKind) {
    const nameNode = node.childForFieldName('name') ?? node.childForFieldName('operator') ?? node.childForFieldName('type');
    if (!nameNode) return undefined;
    let name = ctx.text(nameNode);
    if (nodeType === 'destructor_declaration') name = `~${name}`;
    else if (nodeType === 'operator_declaration' || nodeType === 'conversion_operator_declaration') name = `operator ${name}`;
    const body = node.childForFieldName('body') ?? named(node).find((child) => child.type === 'arrow_expression_clause') ?? null;
    // Constructors and destructors have no return type; operators keep theirs in `type`.
    const returns = node.childForFieldName('returns') ?? (methodKind !== 'constructor' && nodeType !== 'destructor_declaration' ? node.childForFieldName('type') : null);
    return [{
      name, kind: methodKind, node, nameNode,
      parameters: parameters(node.childForFieldName('parameters'), ctx),
      returnType: returns ? compact(ctx, returns) : null,
      headEnd: body?.startIndex ?? node.endIndex,
      definition: !!body,
      members: nestedDeclarations(ctx, body, LOCAL_FUNCTIONS),
    }];
  }
  switch (nodeType) {
    case 'namespace_declaration':
    case 'file_scoped_namespace_declaration': {
      const nameNode = node.childForFieldName('name');
      if (!nameNode) return undefined;
      const parts = ctx.text(nameNode).split('.').map((part) => part.trim());
      const name = parts.pop() ?? '';
      const body = node.childForFieldName('body') ?? named(node).find((child) => child.type === 'declaration_list') ?? null;
      const fileScoped = nodeType === 'file_scoped_namespace_declaration';
      return [{
        name, kind: 'namespace', node, nameNode, qualifiers: parts, containingType: null,
        // A file-scoped namespace holds what follows it; older grammars leave those as siblings.
        body: fileScoped ? (named(node).some((child) => child.type !== 'qualified_name' && child.type !== 'identifier') ? node : null) : body,
        headEnd: fileScoped ? node.childForFieldName('name')?.endIndex : body?.startIndex,
      }];
    }
    case 'delegate_declaration': {
      const nameNode = node.childForFieldName('name');
      if (!nameNode) return undefined;
      const returns = node.childForFieldName('returns') ?? node.childForFieldName('type');
      return [{ name: ctx.text(nameNode), kind: 'type_alias', node, nameNode, parameters: parameters(node.childForFieldName('parameters'), ctx), returnType: returns ? compact(ctx, returns) : null }];
    }
    case 'property_declaration':
    case 'event_declaration':
    case 'indexer_declaration': {
      const nameNode = node.childForFieldName('name') ?? childOfType(node, 'this');
      if (!nameNode) return undefined;
      const type = node.childForFieldName('type');
      const accessors = node.childForFieldName('accessors') ?? named(node).find((child) => child.type === 'accessor_list' || child.type === 'arrow_expression_clause') ?? null;
      return [{
        name: nodeType === 'indexer_declaration' ? 'this[]' : ctx.text(nameNode), kind: 'property', node, nameNode,
        parameters: nodeType === 'indexer_declaration' ? parameters(node.childForFieldName('parameters'), ctx) : [],
        returnType: type ? compact(ctx, type) : null,
        headEnd: accessors?.startIndex ?? node.endIndex,
      }];
    }
    case 'field_declaration':
    case 'event_field_declaration': {
      const declaration = named(node).find((child) => child.type === 'variable_declaration');
      if (!declaration) return undefined;
      const type = declaration.childForFieldName('type');
      const modifiers = named(node).filter((child) => child.type === 'modifier').map((child) => ctx.text(child));
      const constant = modifiers.includes('const');
      return named(declaration).filter((child) => child.type === 'variable_declarator').flatMap((declarator) => {
        const nameNode = declarator.childForFieldName('name') ?? named(declarator).find((child) => child.type === 'identifier') ?? null;
        if (!nameNode) return [];
        return [{ name: ctx.text(nameNode), kind: constant ? 'constant' as const : 'field' as const, node, nameNode, returnType: type ? compact(ctx, type) : null }];
      });
    }
    case 'parameter': {
      const nameNode = node.childForFieldName('name');
      const type = node.childForFieldName('type');
      return nameNode && node.parent?.parent?.type.startsWith('record')
        ? [{ name: ctx.text(nameNode), kind: 'property', node, nameNode, returnType: type ? compact(ctx, type) : null, doc: null }]
        : undefined;
    }
    case 'enum_member_declaration': {
      const nameNode = node.childForFieldName('name');
      return nameNode ? [{ name: ctx.text(nameNode), kind: 'enum_member', node, nameNode }] : undefined;
    }
    default:
      return undefined;
  }
}

function parameters(list: Node | null, ctx: ExtractContext): Parameter[] {
  const out: Parameter[] = [];
  for (const param of named(list)) {
    if (param.type !== 'parameter') continue;
    out.push({ name: compact(ctx, param.childForFieldName('name')), type: compact(ctx, param.childForFieldName('type')) });
  }
  return out;
}

/** Declarations after `namespace X;` belong to X when the grammar leaves them as siblings. */
function siblingScope(node: Node, scope: Scope, ctx: ExtractContext): Scope | undefined {
  if (node.type !== 'file_scoped_namespace_declaration') return undefined;
  const nameNode = node.childForFieldName('name');
  if (!nameNode || named(node).some((child) => child.type !== 'qualified_name' && child.type !== 'identifier')) return undefined;
  return { ...scope, containers: [...scope.containers, ...ctx.text(nameNode).split('.').map((part) => part.trim())], parentKind: 'namespace' };
}

/** /statements: C# node types as short names (`using`, `lock`, `fixed`, `checked`, `unsafe` blocks are `block`s). */
const CSHARP_STATEMENTS: StatementTable = {
  types: {
    if_statement: 'if',
    while_statement: 'while',
    for_statement: 'for',
    foreach_statement: 'foreach',
    do_statement: 'do',
    switch_statement: 'switch',
    switch_expression: 'switch',
    switch_section: 'case',
    switch_expression_arm: 'case',
    try_statement: 'try',
    catch_clause: 'catch',
    block: 'block',
    using_statement: 'block',
    lock_statement: 'block',
    fixed_statement: 'block',
    checked_statement: 'block',
    unsafe_statement: 'block',
    expression_statement: 'expression',
    goto_statement: 'expression',
    empty_statement: 'expression',
    local_declaration_statement: 'local',
    return_statement: 'return',
    yield_statement: 'return',
    throw_statement: 'throw',
    break_statement: 'break',
    continue_statement: 'continue',
    invocation_expression: 'call',
    object_creation_expression: 'call',
    assignment_expression: 'assignment',
    method_declaration: 'method',
    constructor_declaration: 'method',
    destructor_declaration: 'method',
    operator_declaration: 'method',
    conversion_operator_declaration: 'method',
    local_function_statement: 'function',
    class_declaration: 'class',
    struct_declaration: 'class',
    record_declaration: 'class',
    interface_declaration: 'class',
    lambda_expression: 'lambda',
    anonymous_method_expression: 'lambda',
  },
  bodies: new Set(['compilation_unit', 'block', 'switch_section', 'global_statement', 'labeled_statement']),
  name: (node, short) => (short === 'call' && node.type === 'object_creation_expression' ? node.childForFieldName('type') : undefined),
};

export const csharp: LanguageSpec = {
  grammar: 'c_sharp',
  calls: { invocation_expression: 'function', object_creation_expression: 'type' },
  separator: '.',
  skippedTokens: [LINE_COMMENT, BLOCK_COMMENT, '"""[\\s\\S]*?"""', String.raw`@"(?:[^"]|"")*"`, DOUBLE_QUOTED, SINGLE_QUOTED],
  commentTypes: new Set(['comment']),
  docSkipTypes: new Set(['attribute_list']),
  declare,
  siblingScope,
  descend: new Set(['compilation_unit', 'declaration_list', 'preproc_if', 'preproc_else', 'preproc_elif', 'preproc_region', 'global_statement']),
  wrappers: new Set(),
  statements: CSHARP_STATEMENTS,
};
