/**
 * Java: classes, interfaces, enums (and constants), records, annotation types, methods,
 * constructors, fields; local and anonymous classes inside method bodies.
 */
import type { Node } from 'web-tree-sitter';
import type { NormalizedKind } from '../../kinds.js';
import type { Parameter } from '../../syntax/types.js';
import { compact, named, nestedDeclarations, type NestedSearch } from '../../syntax/common.js';
import { blankBodies, type BodyRules } from '../../syntax/bodies.js';
import { BLOCK_COMMENT, DOUBLE_QUOTED, LINE_COMMENT, SINGLE_QUOTED } from '../../syntax/tokens.js';
import type { Draft, ExtractContext, LanguageSpec, Scope, StatementTable } from '../../syntax/spec.js';

const TYPES: Record<string, NormalizedKind> = {
  class_declaration: 'class',
  interface_declaration: 'interface',
  enum_declaration: 'enum',
  record_declaration: 'class',
  annotation_type_declaration: 'interface',
};
const LOCAL = Object.keys(TYPES);

function declare(node: Node, scope: Scope, ctx: ExtractContext, nodeType: string): Draft[] | undefined {
  const typeKind = TYPES[nodeType];
  if (typeKind) {
    const nameNode = node.childForFieldName('name');
    if (!nameNode) return undefined;
    const bases: string[] = [];
    const superclass = node.childForFieldName('superclass');
    if (superclass) bases.push(...typeList(superclass, ctx));
    const interfaces = node.childForFieldName('interfaces') ?? named(node).find((child) => child.type === 'extends_interfaces') ?? null;
    if (interfaces) bases.push(...typeList(interfaces, ctx));
    const body = node.childForFieldName('body');
    // A record's components are its fields.
    const components = nodeType === 'record_declaration' ? named(node.childForFieldName('parameters')) : [];
    return [{ name: ctx.text(nameNode), kind: typeKind, node, nameNode, body, bases, members: components }];
  }
  switch (nodeType) {
    case 'method_declaration':
    case 'constructor_declaration':
    case 'compact_constructor_declaration':
    case 'annotation_type_element_declaration': {
      const nameNode = node.childForFieldName('name');
      if (!nameNode) return undefined;
      const body = node.childForFieldName('body');
      const type = node.childForFieldName('type');
      return [{
        name: ctx.text(nameNode),
        kind: nodeType === 'method_declaration' || nodeType === 'annotation_type_element_declaration' ? 'method' : 'constructor',
        node, nameNode,
        parameters: parameters(node.childForFieldName('parameters'), ctx),
        returnType: type ? compact(ctx, type) : null,
        headEnd: body?.startIndex ?? node.endIndex,
        definition: !!body,
        members: localClasses(body, ctx),
      }];
    }
    case 'field_declaration':
    case 'constant_declaration': {
      const type = node.childForFieldName('type');
      const constant = nodeType === 'constant_declaration' || /\bstatic\b[^=]*\bfinal\b|\bfinal\b[^=]*\bstatic\b/.test(compact(ctx, named(node).find((c) => c.type === 'modifiers')));
      return node.childrenForFieldName('declarator').flatMap((declarator) => {
        const nameNode = declarator.childForFieldName('name');
        if (!nameNode) return [];
        const value = declarator.childForFieldName('value');
        return [{
          name: ctx.text(nameNode), kind: constant ? 'constant' as const : 'field' as const, node, nameNode,
          returnType: type ? compact(ctx, type) : null,
          headEnd: value && value.endIndex - value.startIndex > 80 ? value.startIndex : node.endIndex,
        }];
      });
    }
    case 'formal_parameter': {
      const nameNode = node.childForFieldName('name');
      const type = node.childForFieldName('type');
      return nameNode && node.parent?.parent?.type === 'record_declaration'
        ? [{ name: ctx.text(nameNode), kind: 'field', node, nameNode, returnType: type ? compact(ctx, type) : null, doc: null }]
        : undefined;
    }
    case 'enum_constant': {
      const nameNode = node.childForFieldName('name');
      if (!nameNode) return undefined;
      return [{ name: ctx.text(nameNode), kind: 'enum_member', node, nameNode, body: node.childForFieldName('body'), headEnd: node.childForFieldName('body')?.startIndex ?? node.endIndex }];
    }
    default:
      return undefined;
  }
}

/** Classes declared in a method body, and anonymous classes' methods under their enclosing method. */
const LOCAL_SEARCH: NestedSearch = {
  types: [...LOCAL, 'class_body'],
  scopes: new Set([...LOCAL, 'class_body', 'lambda_expression']),
  words: ['class', 'interface', 'enum', 'record', 'new'],
};

function localClasses(body: Node | null, ctx: ExtractContext): Node[] {
  if (!body) return [];
  const found = nestedDeclarations(ctx, body, LOCAL_SEARCH);
  return found.flatMap((node) => (node.type === 'class_body' ? named(node) : [node]));
}

function typeList(node: Node, ctx: ExtractContext): string[] {
  const list = named(node).find((child) => child.type === 'type_list');
  const items = list ? named(list) : named(node);
  return items.filter((item) => item.type !== 'comment').map((item) => compact(ctx, item));
}

function parameters(list: Node | null, ctx: ExtractContext): Parameter[] {
  const out: Parameter[] = [];
  for (const param of named(list)) {
    if (param.type === 'formal_parameter') {
      out.push({ name: compact(ctx, param.childForFieldName('name')), type: compact(ctx, param.childForFieldName('type')) + compact(ctx, param.childForFieldName('dimensions')) });
    } else if (param.type === 'spread_parameter') {
      const declarator = named(param).find((child) => child.type === 'variable_declarator');
      const type = named(param).find((child) => child.type !== 'variable_declarator' && child.type !== 'modifiers');
      out.push({ name: compact(ctx, declarator?.childForFieldName('name')), type: `${compact(ctx, type)}...` });
    }
  }
  return out;
}

/**
 * Java: a method or constructor body (a type and a name, or modifiers and a name, before the
 * parameters; `A(1) {` is an enum constant's class body). A body that may declare a local or
 * anonymous class is parsed whole.
 */
export const JAVA_BODIES: BodyRules = {
  rawStrings: 'text-block',
  typeWords: new Set(['class', 'interface', 'enum', 'record', 'new']),
  isBody: (head) => head.paren && !head.typeWord && head.words >= 2,
  // LOCAL_SEARCH's words, `new` only where it opens an anonymous class body.
  keepWords: LOCAL_SEARCH.words.filter((word) => word !== 'new'),
  keepPattern: /\bnew\b[^;]*?\)\s*\{/,
};

/** /statements: Java node types as short names (try-with-resources is a `try`, `synchronized` a `block`). */
const JAVA_STATEMENTS: StatementTable = {
  types: {
    if_statement: 'if',
    while_statement: 'while',
    for_statement: 'for',
    enhanced_for_statement: 'foreach',
    do_statement: 'do',
    switch_expression: 'switch',
    switch_block_statement_group: 'case',
    switch_rule: 'case',
    try_statement: 'try',
    try_with_resources_statement: 'try',
    catch_clause: 'catch',
    block: 'block',
    synchronized_statement: 'block',
    expression_statement: 'expression',
    assert_statement: 'expression',
    local_variable_declaration: 'local',
    return_statement: 'return',
    yield_statement: 'return',
    throw_statement: 'throw',
    break_statement: 'break',
    continue_statement: 'continue',
    method_invocation: 'call',
    explicit_constructor_invocation: 'call',
    object_creation_expression: 'call',
    assignment_expression: 'assignment',
    method_declaration: 'method',
    constructor_declaration: 'method',
    compact_constructor_declaration: 'method',
    class_declaration: 'class',
    interface_declaration: 'class',
    enum_declaration: 'class',
    record_declaration: 'class',
    lambda_expression: 'lambda',
  },
  bodies: new Set(['program', 'block', 'constructor_body', 'switch_block_statement_group', 'labeled_statement']),
  name: (node, short) => {
    if (short !== 'call') return undefined;
    if (node.type === 'object_creation_expression') return node.childForFieldName('type');
    if (node.type === 'explicit_constructor_invocation') return node.childForFieldName('constructor');
    return node.childForFieldName('name');
  },
};

export const java: LanguageSpec = {
  grammar: 'java',
  calls: { method_invocation: 'name', object_creation_expression: 'type' },
  prepare: (source) => blankBodies(source, JAVA_BODIES),
  separator: '.',
  skippedTokens: [LINE_COMMENT, BLOCK_COMMENT, '"""[\\s\\S]*?"""', DOUBLE_QUOTED, SINGLE_QUOTED],
  commentTypes: new Set(['block_comment', 'line_comment']),
  declare,
  descend: new Set(['program', 'enum_body_declarations']),
  wrappers: new Set(),
  statements: JAVA_STATEMENTS,
};
