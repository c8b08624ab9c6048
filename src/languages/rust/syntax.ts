/**
 * Rust: modules, structs (and fields), enums (and variants), unions, traits (bounds as bases),
 * functions, methods of `impl` blocks (the implemented type is the container), type aliases,
 * consts, statics, macro_rules!.
 */
import type { Node } from 'web-tree-sitter';
import type { NormalizedKind } from '../../kinds.js';
import type { Parameter } from '../../syntax/types.js';
import { compact, named, nestedDeclarations, splitTopLevel, type NestedSearch } from '../../syntax/common.js';
import { blankBodies, type BodyRules } from '../../syntax/bodies.js';
import { BLOCK_COMMENT, LINE_COMMENT } from '../../syntax/tokens.js';
import type { Draft, ExtractContext, LanguageSpec, Scope, StatementTable } from '../../syntax/spec.js';

const TYPES: Record<string, NormalizedKind> = {
  struct_item: 'struct',
  union_item: 'struct',
  enum_item: 'enum',
  trait_item: 'interface',
};
const METHOD_PARENTS = new Set<NormalizedKind>(['struct', 'enum', 'interface', 'class']);
/** Items declared inside a function body, found by the grammar's own search. */
const NESTED = ['function_item', 'struct_item', 'enum_item', 'union_item', 'trait_item', 'impl_item', 'mod_item'];
const NESTED_SEARCH: NestedSearch = { types: NESTED, scopes: new Set(NESTED), words: ['fn ', 'struct', 'enum', 'union', 'trait', 'impl', 'mod '] };

function declare(node: Node, scope: Scope, ctx: ExtractContext, nodeType: string): Draft[] | undefined {
  const typeKind = TYPES[nodeType];
  if (typeKind) {
    const nameNode = node.childForFieldName('name');
    if (!nameNode) return undefined;
    const bounds = node.childForFieldName('bounds');
    const body = node.childForFieldName('body');
    return [{
      name: ctx.text(nameNode), kind: typeKind, node, nameNode, body,
      bases: bounds ? splitTopLevel(compact(ctx, bounds).replace(/^:\s*/, '')).flatMap((bound) => bound.split(/\s+\+\s+/)) : [],
    }];
  }
  switch (nodeType) {
    case 'mod_item': {
      const nameNode = node.childForFieldName('name');
      if (!nameNode) return undefined;
      const body = node.childForFieldName('body');
      return [{ name: ctx.text(nameNode), kind: 'module', node, nameNode, body, definition: true }];
    }
    case 'impl_item': {
      const type = node.childForFieldName('type');
      if (!type) return undefined;
      const name = compact(ctx, type.type === 'generic_type' ? type.childForFieldName('type') : type);
      // `impl Trait for Type`: the trait is a base of the type (inheritors and implementations of the trait find it).
      const trait = node.childForFieldName('trait');
      return [{ name, kind: 'struct', node, nameNode: type, body: node.childForFieldName('body'), scopeOnly: true, bases: trait ? [compact(ctx, trait)] : [] }];
    }
    case 'function_item':
    case 'function_signature_item': {
      const nameNode = node.childForFieldName('name');
      if (!nameNode) return undefined;
      const body = node.childForFieldName('body');
      const returnNode = node.childForFieldName('return_type');
      const inType = scope.parentKind !== null && METHOD_PARENTS.has(scope.parentKind);
      return [{
        name: ctx.text(nameNode), kind: inType ? 'method' : 'function', node, nameNode,
        parameters: parameters(node.childForFieldName('parameters'), ctx),
        returnType: returnNode ? compact(ctx, returnNode) : null,
        headEnd: body?.startIndex ?? node.endIndex,
        definition: !!body && scope.defining,
        members: nestedDeclarations(ctx, body, NESTED_SEARCH),
      }];
    }
    case 'field_declaration': {
      const nameNode = node.childForFieldName('name');
      const type = node.childForFieldName('type');
      return nameNode ? [{ name: ctx.text(nameNode), kind: 'field', node, nameNode, returnType: type ? compact(ctx, type) : null }] : undefined;
    }
    case 'enum_variant': {
      const nameNode = node.childForFieldName('name');
      return nameNode ? [{ name: ctx.text(nameNode), kind: 'enum_member', node, nameNode }] : undefined;
    }
    case 'type_item':
    case 'associated_type': {
      const nameNode = node.childForFieldName('name');
      return nameNode ? [{ name: ctx.text(nameNode), kind: 'type_alias', node, nameNode, headEnd: node.endIndex }] : undefined;
    }
    case 'const_item':
    case 'static_item': {
      const nameNode = node.childForFieldName('name');
      if (!nameNode) return undefined;
      const type = node.childForFieldName('type');
      const value = node.childForFieldName('value');
      return [{
        name: ctx.text(nameNode), kind: nodeType === 'const_item' ? 'constant' : 'variable', node, nameNode,
        returnType: type ? compact(ctx, type) : null,
        headEnd: value && value.endIndex - value.startIndex > 80 ? value.startIndex : node.endIndex,
      }];
    }
    case 'macro_definition': {
      const nameNode = node.childForFieldName('name');
      return nameNode ? [{ name: ctx.text(nameNode), kind: 'macro', node, nameNode, headEnd: nameNode.endIndex }] : undefined;
    }
    default:
      return undefined;
  }
}

function parameters(list: Node | null, ctx: ExtractContext): Parameter[] {
  const out: Parameter[] = [];
  for (const param of named(list)) {
    if (param.type === 'parameter') out.push({ name: compact(ctx, param.childForFieldName('pattern')), type: compact(ctx, param.childForFieldName('type')) });
    else if (param.type === 'self_parameter') out.push({ name: 'self', type: compact(ctx, param) });
    else if (param.type === 'variadic_parameter') out.push({ name: '...', type: '' });
  }
  return out;
}

/** Rust: the body of an `fn` item; `impl`, `trait`, `mod` and type bodies are searched, not blanked. */
export const RUST_BODIES: BodyRules = {
  rawStrings: 'hashed',
  multilineStrings: true,
  typeWords: new Set(['impl', 'trait', 'mod', 'struct', 'enum', 'union', 'macro_rules']),
  isBody: (head) => head.firstKeyword === 'fn',
  keepWords: NESTED_SEARCH.words,
};

/**
 * /statements: Rust node types as short names. Rust's control flow is expressions: `if`, `match`
 * (a `switch` with `case` arms), `loop` and `while` (`while`s), `for` (a `foreach`); an expression
 * statement holding one of them is that statement; `let` is a `local`; a macro call (`println!`) a call.
 */
const RUST_STATEMENTS: StatementTable = {
  types: {
    if_expression: 'if',
    while_expression: 'while',
    loop_expression: 'while',
    for_expression: 'foreach',
    match_expression: 'switch',
    match_arm: 'case',
    block: 'block',
    unsafe_block: 'block',
    async_block: 'block',
    const_block: 'block',
    try_block: 'block',
    expression_statement: 'expression',
    let_declaration: 'local',
    return_expression: 'return',
    break_expression: 'break',
    continue_expression: 'continue',
    call_expression: 'call',
    macro_invocation: 'call',
    assignment_expression: 'assignment',
    compound_assignment_expr: 'assignment',
    function_item: (node) => (node.childForFieldName('body') ? 'function' : null),
    struct_item: 'class',
    enum_item: 'class',
    trait_item: 'class',
    impl_item: 'class',
    closure_expression: 'lambda',
  },
  bodies: new Set(['source_file', 'block']),
  name: (node, short) => {
    if (short === 'call' && node.type === 'macro_invocation') return node.childForFieldName('macro');
    if (node.type === 'impl_item') return node.childForFieldName('type');
    return undefined;
  },
};

export const rust: LanguageSpec = {
  prepare: (source) => blankBodies(source, RUST_BODIES),
  grammar: 'rust',
  separator: '::',
  // `println!(...)`: the macro is named without its bang.
  calls: { call_expression: 'function', macro_invocation: 'macro' },
  // Raw strings r#"..."#; a lifetime ('a) is not a character literal: one character (or escape) then the quote.
  skippedTokens: [LINE_COMMENT, BLOCK_COMMENT, String.raw`(?<![\w$])b?r(#*)"[\s\S]*?"\2`, String.raw`"(?:[^"\\]|\\[\s\S])*"`, String.raw`'(?:[^'\\\n]|\\[^'\n]{1,10})'`],
  commentTypes: new Set(['line_comment', 'block_comment']),
  // Outer doc comments only: `//!` documents the enclosing module, not the next item.
  isDocComment: (text) => /^(\/\/\/(?!\/)|\/\*\*)/.test(text),
  docSkipTypes: new Set(['attribute_item']),
  leadingTypes: new Set(['attribute_item']),
  declare,
  descend: new Set(['source_file', 'declaration_list']),
  wrappers: new Set(['foreign_mod_item']),
  statements: RUST_STATEMENTS,
  wrapperScope: (node, scope) => (node.type === 'foreign_mod_item' ? { ...scope, defining: false } : scope),
};
