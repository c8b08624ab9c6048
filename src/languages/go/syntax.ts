/**
 * Go: functions, methods (the receiver type is the container), structs and their fields,
 * interfaces and their methods, other named types, constants and variables.
 */
import type { Node } from 'web-tree-sitter';
import type { NormalizedKind } from '../../kinds.js';
import type { Parameter } from '../../syntax/types.js';
import { compact, looksConstant, named } from '../../syntax/common.js';
import { blankBodies, type BodyRules } from '../../syntax/bodies.js';
import { BLOCK_COMMENT, DOUBLE_QUOTED, LINE_COMMENT, SINGLE_QUOTED } from '../../syntax/tokens.js';
import { readGoImports } from './imports.js';
import type { Draft, ExtractContext, LanguageSpec, Scope, StatementTable } from '../../syntax/spec.js';

function declare(node: Node, scope: Scope, ctx: ExtractContext, nodeType: string): Draft[] | undefined {
  switch (nodeType) {
    case 'function_declaration':
    case 'method_declaration': {
      const nameNode = node.childForFieldName('name');
      if (!nameNode) return undefined;
      const receiver = nodeType === 'method_declaration' ? receiverType(node.childForFieldName('receiver'), ctx) : null;
      const body = node.childForFieldName('body');
      return [{
        name: ctx.text(nameNode),
        kind: receiver ? 'method' : 'function',
        node, nameNode,
        qualifiers: receiver ? [receiver] : [],
        parameters: parameters(node.childForFieldName('parameters'), ctx),
        returnType: result(node, ctx),
        headEnd: body?.startIndex ?? node.endIndex,
        definition: !!body,
      }];
    }
    case 'type_declaration':
      return named(node).flatMap((spec) => typeSpec(spec, ctx));
    case 'const_declaration':
    case 'var_declaration':
      return valueSpecs(node, nodeType === 'const_declaration', scope, ctx);
    case 'field_declaration':
      return field(node, ctx);
    case 'method_elem':
    case 'method_spec': {
      const nameNode = node.childForFieldName('name');
      if (!nameNode) return undefined;
      return [{
        name: ctx.text(nameNode), kind: 'method', node, nameNode,
        parameters: parameters(node.childForFieldName('parameters'), ctx),
        returnType: result(node, ctx),
        definition: false,
      }];
    }
    default:
      return undefined;
  }
}

function typeSpec(spec: Node, ctx: ExtractContext): Draft[] {
  if (spec.type !== 'type_spec' && spec.type !== 'type_alias') return [];
  const nameNode = spec.childForFieldName('name');
  const type = spec.childForFieldName('type');
  if (!nameNode) return [];
  const name = ctx.text(nameNode);
  const signaturePrefix = 'type ';
  if (spec.type === 'type_alias' || !type) return [{ name, kind: 'type_alias', node: spec, nameNode, headEnd: spec.endIndex, signaturePrefix }];
  if (type.type === 'struct_type') {
    const fields = named(type).find((child) => child.type === 'field_declaration_list') ?? null;
    // Embedded fields are Go's way to inherit: they are the bases.
    const bases = named(fields).filter((f) => f.type === 'field_declaration' && !f.childForFieldName('name'))
      .map((f) => compact(ctx, f.childForFieldName('type')).replace(/^\*/, ''));
    return [{ name, kind: 'struct', node: spec, nameNode, body: fields, bases, headEnd: type.startIndex + 'struct'.length, signaturePrefix }];
  }
  if (type.type === 'interface_type') {
    const bases = named(type).filter((child) => child.type === 'type_elem' || child.type === 'constraint_elem' || child.type === 'interface_type_name' || child.type === 'qualified_type' || child.type === 'type_identifier')
      .map((child) => compact(ctx, child));
    return [{ name, kind: 'interface', node: spec, nameNode, body: type, bases, headEnd: type.startIndex + 'interface'.length, signaturePrefix }];
  }
  return [{ name, kind: 'type_alias', node: spec, nameNode, headEnd: spec.endIndex, signaturePrefix }];
}

function valueSpecs(node: Node, constant: boolean, scope: Scope, ctx: ExtractContext): Draft[] {
  const specs: Node[] = [];
  for (const child of named(node)) {
    if (child.type === 'const_spec' || child.type === 'var_spec') specs.push(child);
    else if (child.type === 'var_spec_list' || child.type === 'const_spec_list') specs.push(...named(child).filter((c) => c.type.endsWith('_spec')));
  }
  const drafts: Draft[] = [];
  for (const spec of specs) {
    const type = spec.childForFieldName('type');
    const value = spec.childForFieldName('value');
    for (const nameNode of spec.childrenForFieldName('name')) {
      const name = ctx.text(nameNode);
      if (name === '_') continue;
      const kind: NormalizedKind = constant || looksConstant(name) ? 'constant' : 'variable';
      drafts.push({
        name, kind, node: spec, nameNode,
        returnType: type ? compact(ctx, type) : null,
        headEnd: value && value.endIndex - value.startIndex > 80 ? value.startIndex : spec.endIndex,
        signaturePrefix: constant ? 'const ' : 'var ',
        definition: scope.defining,
      });
    }
  }
  return drafts;
}

function field(node: Node, ctx: ExtractContext): Draft[] | undefined {
  const type = node.childForFieldName('type');
  const names = node.childrenForFieldName('name');
  if (!names.length) {
    // An embedded field is named after its type.
    if (!type) return undefined;
    const typeName = compact(ctx, type).replace(/^\*/, '').replace(/\[.*$/, '').split('.').pop() ?? '';
    return typeName ? [{ name: typeName, kind: 'field', node, nameNode: type, returnType: compact(ctx, type) }] : undefined;
  }
  return names.map((nameNode) => ({ name: ctx.text(nameNode), kind: 'field' as const, node, nameNode, returnType: type ? compact(ctx, type) : null }));
}

/** `(s *Server)` → `Server`; `(l List[T])` → `List`. */
function receiverType(receiver: Node | null, ctx: ExtractContext): string | null {
  const param = named(receiver).find((child) => child.type === 'parameter_declaration');
  let type = param?.childForFieldName('type') ?? null;
  for (let guard = 0; type && guard < 8; guard++) {
    if (type.type === 'pointer_type' || type.type === 'parenthesized_type') type = named(type)[0] ?? null;
    else if (type.type === 'generic_type') type = type.childForFieldName('type');
    else break;
  }
  return type ? compact(ctx, type) : null;
}

function parameters(list: Node | null, ctx: ExtractContext): Parameter[] {
  const out: Parameter[] = [];
  for (const param of named(list)) {
    if (param.type !== 'parameter_declaration' && param.type !== 'variadic_parameter_declaration') continue;
    const type = compact(ctx, param.childForFieldName('type'));
    const names = param.childrenForFieldName('name');
    const shown = param.type === 'variadic_parameter_declaration' ? `...${type}` : type;
    if (!names.length) out.push({ name: '', type: shown });
    for (const name of names) out.push({ name: ctx.text(name), type: shown });
  }
  return out;
}

function result(node: Node, ctx: ExtractContext): string | null {
  const result = node.childForFieldName('result');
  return result ? compact(ctx, result) : null;
}

/** Go: the body of a `func` declaration (nothing inside a Go body is indexed). */
export const GO_BODIES: BodyRules = {
  rawStrings: 'backtick',
  newlineEnds: true,
  typeWords: new Set(),
  isBody: (head) => head.firstWord === 'func' && head.lastWord !== 'interface' && head.lastWord !== 'struct',
  literalTypes: new Set(['interface', 'struct']),
  keepWords: [],
};

/**
 * /statements: Go node types as short names. `for x := range y` is a `foreach`, `for cond {}` and
 * `for {}` a `while`, the three-clause form a `for`; every switch form and `select` are `switch`es
 * with `case`s; `go`, `defer`, `x++`, sends and labels' targets are simple (`expression`) statements.
 */
const GO_STATEMENTS: StatementTable = {
  types: {
    if_statement: 'if',
    for_statement: (node) => {
      for (const child of node.namedChildren) {
        if (child.type === 'range_clause') return 'foreach';
        if (child.type === 'for_clause') return 'for';
      }
      return 'while';
    },
    expression_switch_statement: 'switch',
    type_switch_statement: 'switch',
    select_statement: 'switch',
    expression_case: 'case',
    type_case: 'case',
    default_case: 'case',
    communication_case: 'case',
    block: 'block',
    expression_statement: 'expression',
    go_statement: 'expression',
    defer_statement: 'expression',
    inc_statement: 'expression',
    dec_statement: 'expression',
    send_statement: 'expression',
    goto_statement: 'expression',
    fallthrough_statement: 'expression',
    short_var_declaration: 'local',
    var_declaration: 'local',
    const_declaration: 'local',
    return_statement: 'return',
    break_statement: 'break',
    continue_statement: 'continue',
    call_expression: 'call',
    assignment_statement: 'assignment',
    function_declaration: 'function',
    method_declaration: 'method',
    func_literal: 'lambda',
  },
  bodies: new Set(['source_file', 'block', 'statement_list', 'expression_case', 'type_case', 'default_case', 'communication_case', 'labeled_statement']),
};

export const go: LanguageSpec = {
  prepare: (source) => blankBodies(source, GO_BODIES),
  grammar: 'go',
  calls: { call_expression: 'function' },
  separator: '.',
  skippedTokens: [LINE_COMMENT, BLOCK_COMMENT, DOUBLE_QUOTED, '`[^`]*`', SINGLE_QUOTED],
  readImports: readGoImports,
  commentTypes: new Set(['comment']),
  declare,
  descend: new Set(['source_file']),
  wrappers: new Set(),
  statements: GO_STATEMENTS,
};
