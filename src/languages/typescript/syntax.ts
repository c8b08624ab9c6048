/**
 * TypeScript, TSX and JavaScript: classes, interfaces, type aliases, enums, functions (overload
 * signatures and `declare` are declarations), members, namespaces, module-level variables.
 */
import type { Node } from 'web-tree-sitter';
import type { NormalizedKind } from '../../kinds.js';
import type { Parameter } from '../../syntax/types.js';
import { childOfType, compact, looksConstant, named, nestedDeclarations, splitTopLevel, stripAnnotation, type NestedSearch } from '../../syntax/common.js';
import { BLOCK_COMMENT, DOUBLE_QUOTED, LINE_COMMENT, SINGLE_QUOTED } from '../../syntax/tokens.js';
import { readScriptImports } from './imports.js';
import type { Draft, ExtractContext, LanguageSpec, Scope, StatementTable } from '../../syntax/spec.js';

const FUNCTION_VALUES = new Set(['arrow_function', 'function_expression', 'function', 'generator_function']);
const CLASS_VALUES = new Set(['class', 'class_expression']);
/** Found inside function bodies (nested functions, local classes), as ctags does. */
const NESTED = ['function_declaration', 'generator_function_declaration', 'class_declaration', 'abstract_class_declaration', 'interface_declaration', 'enum_declaration', 'function_expression'];
/** A function expression counts (as declaration and as scope) only when it has a name (`return function build() {}`). */
const NESTED_SEARCH: NestedSearch = {
  types: NESTED,
  scopes: new Set([...NESTED, 'method_definition', 'class_body']),
  words: ['function', 'class', 'interface', 'enum'],
  keep: (node) => node.type !== 'function_expression' || !!node.childForFieldName('name'),
};

function declare(node: Node, scope: Scope, ctx: ExtractContext, nodeType: string): Draft[] | undefined {
  switch (nodeType) {
    case 'class_declaration':
    case 'abstract_class_declaration':
    case 'class':
      return classDraft(node, node.childForFieldName('name'), scope, ctx);
    case 'interface_declaration': {
      const nameNode = node.childForFieldName('name');
      if (!nameNode) return undefined;
      const extendsClause = childOfType(node, 'extends_type_clause', 'extends_clause');
      return [{
        name: ctx.text(nameNode), kind: 'interface', node, nameNode,
        body: node.childForFieldName('body'),
        bases: extendsClause ? splitTopLevel(afterKeyword(ctx, extendsClause)) : [],
        definition: true,
      }];
    }
    case 'type_alias_declaration': {
      const nameNode = node.childForFieldName('name');
      if (!nameNode) return undefined;
      const value = node.childForFieldName('value');
      return [{ name: ctx.text(nameNode), kind: 'type_alias', node, nameNode, headEnd: shortValueEnd(value, node, ctx), definition: scope.defining }];
    }
    case 'enum_declaration': {
      const nameNode = node.childForFieldName('name');
      if (!nameNode) return undefined;
      return [{ name: ctx.text(nameNode), kind: 'enum', node, nameNode, body: node.childForFieldName('body'), definition: scope.defining }];
    }
    case 'enum_assignment':
    case 'property_identifier':
    case 'string': {
      if (scope.parentKind !== 'enum') return undefined;
      const nameNode = nodeType === 'enum_assignment' ? node.childForFieldName('name') : node;
      if (!nameNode) return undefined;
      return [{ name: ctx.text(nameNode).replace(/^['"]|['"]$/g, ''), kind: 'enum_member', node, nameNode, headEnd: node.endIndex }];
    }
    case 'function_expression':
    case 'function_declaration':
    case 'generator_function_declaration':
    case 'function_signature': {
      const nameNode = node.childForFieldName('name');
      const draft = functionLike(node, node, nameNode, nameNode ? ctx.text(nameNode) : 'default', 'function', ctx);
      draft.definition = scope.defining && nodeType !== 'function_signature';
      return [draft];
    }
    case 'construct_signature': {
      const draft = functionLike(node, node, null, 'new', 'constructor', ctx);
      draft.definition = false;
      return [draft];
    }
    case 'method_definition':
    case 'method_signature':
    case 'abstract_method_signature': {
      const draft = method(node, scope, ctx);
      return draft.kind === 'constructor' ? [draft, ...parameterProperties(node, ctx)] : [draft];
    }
    case 'public_field_definition':
    case 'field_definition':
    case 'property_signature': {
      const nameNode = node.childForFieldName('name') ?? node.childForFieldName('property');
      if (!nameNode) return undefined;
      const type = node.childForFieldName('type');
      return [{
        name: ctx.text(nameNode), kind: 'property', node, nameNode,
        returnType: type ? stripAnnotation(ctx.text(type)) : null,
        headEnd: shortValueEnd(node.childForFieldName('value'), node, ctx),
        definition: scope.defining,
      }];
    }
    case 'lexical_declaration':
    case 'variable_declaration':
      return variables(node, scope, ctx);
    case 'pair':
      // Only reached for object literals handed over as members (valueMembers, `module.exports = {...}`).
      return pairFunction(node, scope, ctx);
    case 'expression_statement':
      return assignedFunction(node, scope, ctx);
    case 'internal_module':
    case 'module': {
      const nameNode = node.childForFieldName('name');
      if (!nameNode) return undefined;
      const raw = ctx.text(nameNode);
      const parts = nodeType === 'internal_module' ? raw.split('.').map((part) => part.trim()) : [raw.replace(/^['"]|['"]$/g, '')];
      const name = parts.pop() ?? raw;
      return [{
        name, kind: nodeType === 'internal_module' ? 'namespace' : 'module', node, nameNode, qualifiers: parts, containingType: null,
        body: node.childForFieldName('body'), definition: scope.defining,
      }];
    }
    default:
      return undefined;
  }
}

function classDraft(node: Node, nameNode: Node | null, scope: Scope, ctx: ExtractContext, name?: string): Draft[] | undefined {
  const className = name ?? (nameNode ? ctx.text(nameNode) : node.parent?.type === 'export_statement' ? 'default' : undefined);
  if (!className) return undefined;
  const bases: string[] = [];
  for (const clause of named(childOfType(node, 'class_heritage'))) {
    bases.push(...splitTopLevel(afterKeyword(ctx, clause)));
  }
  // JavaScript puts the extends clause straight under the class.
  const heritage = childOfType(node, 'class_heritage');
  if (heritage && !named(heritage).length) bases.push(...splitTopLevel(afterKeyword(ctx, heritage)));
  return [{ name: className, kind: 'class', node, nameNode, body: node.childForFieldName('body'), bases, definition: scope.defining }];
}

function method(node: Node, scope: Scope, ctx: ExtractContext): Draft {
  const nameNode = node.childForFieldName('name');
  const name = nameNode ? ctx.text(nameNode) : '';
  const accessor = childrenTokens(node).some((token) => token === 'get' || token === 'set');
  const kind: NormalizedKind = name === 'constructor' && scope.parentKind === 'class' ? 'constructor'
    : accessor ? 'property' : scope.parentKind === null ? 'function' : 'method';
  const draft = functionLike(node, node, nameNode, name, kind, ctx);
  draft.definition = scope.defining && node.type === 'method_definition' && !!node.childForFieldName('body');
  return draft;
}

/** `constructor(private readonly name: string)`: a parameter with a modifier is also a property of the class. */
function parameterProperties(constructor: Node, ctx: ExtractContext): Draft[] {
  const drafts: Draft[] = [];
  for (const param of named(constructor.childForFieldName('parameters'))) {
    if (param.type !== 'required_parameter' && param.type !== 'optional_parameter') continue;
    if (!named(param).some((child) => child.type === 'accessibility_modifier' || child.type === 'override_modifier') && !childOfType(param, 'readonly')) continue;
    const pattern = param.childForFieldName('pattern');
    if (!pattern || pattern.type !== 'identifier') continue;
    const type = param.childForFieldName('type');
    drafts.push({ name: ctx.text(pattern), kind: 'property', node: param, nameNode: pattern, returnType: type ? stripAnnotation(ctx.text(type)) : null, doc: null });
  }
  return drafts;
}

/** Keywords (unnamed children) before the name: `get`, `set`, `static`, `async`. */
function childrenTokens(node: Node): string[] {
  const tokens: string[] = [];
  for (const child of node.children) {
    if (child.isNamed) {
      if (child.type === 'property_identifier' || child.type === 'private_property_identifier' || child.type === 'computed_property_name') break;
      continue;
    }
    tokens.push(child.type);
  }
  return tokens;
}

function functionLike(node: Node, fn: Node, nameNode: Node | null, name: string, kind: NormalizedKind, ctx: ExtractContext): Draft {
  const returnNode = fn.childForFieldName('return_type');
  return {
    name,
    kind,
    node,
    nameNode,
    parameters: parameters(fn.childForFieldName('parameters') ?? fn.childForFieldName('parameter'), ctx),
    returnType: returnNode ? stripAnnotation(ctx.text(returnNode)) : null,
    headEnd: fn.childForFieldName('body')?.startIndex ?? node.endIndex,
    members: nestedDeclarations(ctx, fn.childForFieldName('body'), NESTED_SEARCH),
  };
}

function variables(node: Node, scope: Scope, ctx: ExtractContext): Draft[] | undefined {
  const drafts: Draft[] = [];
  const isConst = ctx.text(node).startsWith('const');
  for (const declarator of named(node)) {
    if (declarator.type !== 'variable_declarator') continue;
    const nameNode = declarator.childForFieldName('name');
    if (!nameNode || nameNode.type !== 'identifier') continue;
    const name = ctx.text(nameNode);
    const value = declarator.childForFieldName('value');
    if (value && FUNCTION_VALUES.has(value.type)) {
      const draft = functionLike(node, value, nameNode, name, 'function', ctx);
      draft.definition = scope.defining;
      drafts.push(draft);
      continue;
    }
    if (value && CLASS_VALUES.has(value.type)) {
      drafts.push(...(classDraft(value, nameNode, scope, ctx, name) ?? []).map((draft) => ({ ...draft, node })));
      continue;
    }
    const type = declarator.childForFieldName('type');
    drafts.push({
      name,
      kind: isConst && looksConstant(name) ? 'constant' : 'variable',
      node,
      nameNode,
      returnType: type ? stripAnnotation(ctx.text(type)) : null,
      headEnd: shortValueEnd(value, node, ctx),
      definition: scope.defining,
      members: valueMembers(value, ctx),
    });
  }
  return drafts.length ? drafts : undefined;
}

const VALUE_WRAPPERS = new Set(['as_expression', 'satisfies_expression', 'parenthesized_expression', 'non_null_expression']);

/** An object literal's methods become the variable's members; elsewhere, functions declared inside the value. */
function valueMembers(value: Node | null, ctx: ExtractContext): Node[] {
  let inner = value;
  while (inner && VALUE_WRAPPERS.has(inner.type)) inner = inner.firstNamedChild;
  if (!inner) return [];
  if (inner.type === 'object') return named(inner).filter((member) => member.type === 'method_definition' || member.type === 'pair');
  return nestedDeclarations(ctx, inner, NESTED_SEARCH);
}

/** `key: function () {}` / `key: () => {}` in an object literal. */
function pairFunction(node: Node, scope: Scope, ctx: ExtractContext): Draft[] | undefined {
  const key = node.childForFieldName('key');
  let value = node.childForFieldName('value');
  while (value && VALUE_WRAPPERS.has(value.type)) value = value.firstNamedChild;
  if (!key || !value) return undefined;
  if (FUNCTION_VALUES.has(value.type)) return [functionLike(node, value, key, ctx.text(key).replace(/^['"]|['"]$/g, ''), scope.parentKind ? 'method' : 'function', ctx)];
  if (value.type === 'object') {
    // A nested object of methods (`handlers: { onX() {} }`) keeps its methods under its key.
    const members = valueMembers(value, ctx);
    return members.length ? [{ name: ctx.text(key).replace(/^['"]|['"]$/g, ''), kind: 'property', node, nameNode: key, members, headEnd: value.startIndex }] : undefined;
  }
  return undefined;
}

/** `A.prototype.f = function`, `A.f = () => {}`, `exports.f = function`: functions assigned to members. */
function assignedFunction(node: Node, scope: Scope, ctx: ExtractContext): Draft[] | undefined {
  const assignment = node.firstNamedChild;
  if (!assignment || assignment.type !== 'assignment_expression') return undefined;
  const left = assignment.childForFieldName('left');
  let right = assignment.childForFieldName('right');
  while (right && VALUE_WRAPPERS.has(right.type)) right = right.firstNamedChild;
  if (!left || left.type !== 'member_expression' || !right) return undefined;
  const property = left.childForFieldName('property');
  if (!property) return undefined;
  const path = ctx.text(left.childForFieldName('object')).split('.').map((part) => part.trim());
  const owner = path.filter((part) => part !== 'prototype' && part !== 'module' && part !== 'exports' && part !== 'this');
  if (path.includes('this') || owner.length > 1) return undefined;
  // `module.exports = function build() {}` exports a function by its own name.
  const exported = ctx.text(left) === 'module.exports' || ctx.text(left) === 'exports';
  const ownName = right.childForFieldName('name');
  if (exported && !ownName) return undefined;
  const name = exported && ownName ? ctx.text(ownName) : ctx.text(property);
  const nameNode = exported && ownName ? ownName : property;
  if (FUNCTION_VALUES.has(right.type)) {
    const draft = functionLike(node, right, nameNode, name, owner.length ? 'method' : 'function', ctx);
    draft.qualifiers = owner;
    draft.definition = scope.defining;
    return [draft];
  }
  if (CLASS_VALUES.has(right.type)) return classDraft(right, nameNode, scope, ctx, name)?.map((draft) => ({ ...draft, node, qualifiers: owner }));
  return undefined;
}

function parameters(list: Node | null, ctx: ExtractContext): Parameter[] {
  if (!list) return [];
  // An arrow function's lone unparenthesized parameter.
  if (list.type === 'identifier') return [{ name: ctx.text(list), type: '' }];
  const out: Parameter[] = [];
  for (const param of named(list)) {
    switch (param.type) {
      case 'required_parameter':
      case 'optional_parameter': {
        const pattern = param.childForFieldName('pattern') ?? param.childForFieldName('name');
        const type = param.childForFieldName('type');
        const name = compact(ctx, pattern) || compact(ctx, childOfType(param, 'this'));
        out.push({ name: param.type === 'optional_parameter' ? `${name}?` : name, type: type ? stripAnnotation(ctx.text(type)) : '' });
        break;
      }
      case 'assignment_pattern':
        out.push({ name: compact(ctx, param.childForFieldName('left')), type: '' });
        break;
      case 'comment':
      case 'decorator':
        break;
      default:
        out.push({ name: compact(ctx, param), type: '' });
    }
  }
  return out;
}

/** Text of a clause after its keyword (`extends A, B<C>` → `A, B<C>`). */
function afterKeyword(ctx: ExtractContext, clause: Node): string {
  return compact(ctx, clause).replace(/^(extends|implements)\s+/, '');
}

/** Keeps a short one-line value in the signature (`const X = 5`), cuts a long one at its start. */
function shortValueEnd(value: Node | null, node: Node, ctx: ExtractContext): number {
  if (!value) return node.endIndex;
  const text = ctx.text(value);
  return text.length <= 80 && !text.includes('\n') ? node.endIndex : value.startIndex;
}

/**
 * /statements: TypeScript, TSX and JavaScript node types as short names. `for...of`/`for...in` are
 * `foreach`es; `const`/`let`/`var` inside a function are `local`s; arrow functions and function
 * expressions are `lambda`s; `new X()` is a call of `X`; `with` and class static blocks are `block`s.
 */
const TS_STATEMENTS: StatementTable = {
  types: {
    if_statement: 'if',
    while_statement: 'while',
    for_statement: 'for',
    for_in_statement: 'foreach',
    do_statement: 'do',
    switch_statement: 'switch',
    switch_case: 'case',
    switch_default: 'case',
    try_statement: 'try',
    catch_clause: 'catch',
    statement_block: 'block',
    with_statement: 'block',
    class_static_block: 'block',
    expression_statement: 'expression',
    debugger_statement: 'expression',
    empty_statement: 'expression',
    lexical_declaration: 'local',
    variable_declaration: 'local',
    return_statement: 'return',
    throw_statement: 'throw',
    break_statement: 'break',
    continue_statement: 'continue',
    call_expression: 'call',
    new_expression: 'call',
    assignment_expression: 'assignment',
    augmented_assignment_expression: 'assignment',
    function_declaration: 'function',
    generator_function_declaration: 'function',
    method_definition: 'method',
    class_declaration: 'class',
    abstract_class_declaration: 'class',
    class: 'class',
    arrow_function: 'lambda',
    function_expression: 'lambda',
    function: 'lambda',
    generator_function: 'lambda',
  },
  bodies: new Set(['program', 'statement_block', 'switch_case', 'switch_default', 'labeled_statement']),
  name: (node, short) => (short === 'call' && node.type === 'new_expression' ? node.childForFieldName('constructor') : undefined),
};

export const typescript: LanguageSpec = {
  grammar: 'typescript',
  calls: { call_expression: 'function', new_expression: 'constructor' },
  separator: '.',
  skippedTokens: [LINE_COMMENT, BLOCK_COMMENT, DOUBLE_QUOTED, SINGLE_QUOTED, '`(?:[^`\\\\]|\\\\[\\s\\S])*`'],
  readImports: readScriptImports,
  importsRename: true,
  commentTypes: new Set(['comment']),
  isDocComment: (text) => text.startsWith('/**'),
  docSkipTypes: new Set(['decorator']),
  leadingTypes: new Set(['decorator']),
  declare,
  descend: new Set(['program', 'expression_statement', 'statement_block']),
  // Test files declare classes and functions inside `describe(..., () => {...})` callbacks.
  hidden: (node, _scope, ctx, nodeType) => {
    if (nodeType !== 'expression_statement') return undefined;
    const first = node.firstNamedChild;
    if (first?.type === 'assignment_expression') return valueMembers(first.childForFieldName('right'), ctx);
    return first?.type === 'call_expression' ? nestedDeclarations(ctx, node, NESTED_SEARCH) : undefined;
  },
  wrappers: new Set(['export_statement', 'ambient_declaration']),
  statements: TS_STATEMENTS,
  wrapperScope: (node, scope) => (node.type === 'ambient_declaration' ? { ...scope, defining: false } : scope),
};

export const tsx: LanguageSpec = { ...typescript, grammar: 'tsx' };
export const javascript: LanguageSpec = { ...typescript, grammar: 'javascript' };
