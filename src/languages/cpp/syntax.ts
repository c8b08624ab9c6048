/**
 * C and C++: namespaces, classes/structs/unions/enums (forward declarations too), functions and
 * methods (out-of-line `A::f` belongs to A), prototypes, fields, typedefs/usings, macros.
 */
import type { Node } from 'web-tree-sitter';
import type { NormalizedKind } from '../../kinds.js';
import type { Parameter } from '../../syntax/types.js';
import { childOfType, compact, holdsText, named, nestedDeclarations, textWithout, type NestedSearch } from '../../syntax/common.js';
import { blankBodies, type BodyRules } from '../../syntax/bodies.js';
import { blankDeclarationHeads, blankMacroRules } from './macros.js';
import { definesOfDirectives } from './defines.js';
import { BLOCK_COMMENT, DOUBLE_QUOTED, LINE_COMMENT, SINGLE_QUOTED } from '../../syntax/tokens.js';
import { readCppImports } from './imports.js';
import type { Draft, ExtractContext, LanguageSpec, Scope, StatementTable, TextDeclaration } from '../../syntax/spec.js';
import type { ExtractedSymbol } from '../../syntax/types.js';
import { lexSpans, type CLexOptions } from '../../syntax/c-lexer.js';

const TYPE_SPECIFIERS: Record<string, NormalizedKind> = {
  class_specifier: 'class',
  struct_specifier: 'struct',
  union_specifier: 'struct',
  enum_specifier: 'enum',
};
const TYPE_PARENTS = new Set<NormalizedKind>(['class', 'struct']);
const FUNCTION_KINDS = new Set<NormalizedKind>(['function', 'method', 'constructor']);
/** A variable or field of an unnamed struct or union type (`struct { int a; } v;`): its body's declarations are fields. */
const ANONYMOUS_HOLDERS = new Set<NormalizedKind>(['field', 'variable', 'constant']);
/** Declarator wrappers between a declaration and its name. */
const DECLARATOR_WRAPPERS = new Set(['pointer_declarator', 'reference_declarator', 'array_declarator', 'parenthesized_declarator', 'attributed_declarator', 'init_declarator']);

function declare(node: Node, scope: Scope, ctx: ExtractContext, nodeType: string): Draft[] | undefined {
  switch (nodeType) {
    case 'namespace_definition':
      return namespace(node, ctx);
    case 'class_specifier':
    case 'struct_specifier':
    case 'union_specifier':
    case 'enum_specifier': {
      const type = typeSpecifier(node, ctx, true);
      return type ? [type] : undefined;
    }
    case 'function_definition':
      return functionDefinition(node, scope, ctx);
    case 'compound_statement':
      return bodyAtFileScope(node, ctx);
    case 'friend_declaration': {
      // A friend defined in the class body is a free function; a friend declaration alone declares nothing new.
      const inner = named(node).find((child) => child.type === 'function_definition');
      const drafts = inner ? functionDefinition(inner, { ...scope, parentKind: 'namespace', containingType: null }, ctx) : undefined;
      return drafts?.map((draft) => ({ ...draft, containingType: draft.qualifiers?.length ? draft.containingType : null }));
    }
    case 'declaration':
    case 'field_declaration':
      return declaration(node, scope, ctx);
    case 'template_instantiation': {
      // `template const X& use_facet<X>(const locale&);`: an explicit instantiation declares the function (not a type).
      const drafts = declaration(node, scope, ctx)?.filter((draft) => FUNCTION_KINDS.has(draft.kind));
      return drafts?.length ? drafts : undefined;
    }
    case 'type_definition':
      return typeDefinition(node, ctx);
    case 'alias_declaration': {
      const name = node.childForFieldName('name');
      return name ? [{ name: ctx.text(name), kind: 'type_alias', node, nameNode: name, headEnd: node.endIndex }] : undefined;
    }
    case 'preproc_def':
    case 'preproc_function_def':
      return macro(node, nodeType, ctx);
    case 'enumerator': {
      const name = node.childForFieldName('name');
      return name ? [{ name: ctx.text(name), kind: 'enum_member', node, nameNode: name }] : undefined;
    }
    case 'ERROR':
      // After a directive the grammar does not take in an enum (`A,` `#define A A` `B,`), the next enumerators come as errors.
      return ctx.parentOf(node)?.type === 'enumerator_list' ? strayEnumerators(node, ctx) : undefined;
    default:
      return undefined;
  }
}

/** Enumerators in an error node of an enum body: each identifier at the start or after a comma (`B`, `C = 3`). */
function strayEnumerators(node: Node, ctx: ExtractContext): Draft[] | undefined {
  const drafts: Draft[] = [];
  let expecting = true;
  for (const child of node.children) {
    if (child.type === 'comment' || child.type.startsWith('preproc')) continue;
    if (expecting && child.type === 'identifier') drafts.push({ name: ctx.text(child), kind: 'enum_member', node: child, nameNode: child });
    expecting = child.type === ',';
  }
  return drafts.length ? drafts : undefined;
}

function namespace(node: Node, ctx: ExtractContext): Draft[] | undefined {
  const nameNode = node.childForFieldName('name');
  const body = node.childForFieldName('body');
  // Anonymous namespaces add no container; their members are walked through `descend`.
  if (!nameNode) return undefined;
  const parts = ctx.text(nameNode).split('::').map((part) => part.replace(/^\s*inline\s+/, '').trim()).filter(Boolean);
  for (const part of parts) ctx.namespaces.add(part);
  const name = parts.pop() ?? ctx.text(nameNode);
  const drafts: Draft[] = [];
  // `namespace a::b {` (C++17) opens `a`, then `b` in it: each is a namespace, as `namespace a { namespace b {` declares
  // them (ctags and clangd see both). The outer ones have nothing of their own to walk.
  const identifiers = nameNode.type === 'nested_namespace_specifier' ? nameNode.descendantsOfType(['namespace_identifier', 'identifier']) : [];
  if (identifiers.length === parts.length + 1) {
    parts.forEach((part, i) => drafts.push({ name: part, kind: 'namespace', node, nameNode: identifiers[i], qualifiers: parts.slice(0, i), containingType: null, headEnd: body?.startIndex }));
  }
  drafts.push({ name, kind: 'namespace', node, nameNode, qualifiers: parts, containingType: null, body, headEnd: body?.startIndex });
  return drafts;
}

/** A class/struct/union/enum specifier; `standalone` when it is the whole declaration (so no body = forward). */
function typeSpecifier(node: Node, ctx: ExtractContext, standalone: boolean): Draft | undefined {
  const nameNode = node.childForFieldName('name');
  const body = node.childForFieldName('body');
  if (!nameNode || (!body && !standalone)) return undefined;
  const { name, qualifiers, selection } = splitQualified(nameNode, ctx);
  const bases: string[] = [];
  const baseClause = holdsText(ctx, node, ':', body?.startIndex) ? childOfType(node, 'base_class_clause') : null;
  for (const base of named(baseClause)) {
    if (base.type === 'access_specifier' || base.type === 'comment' || base.type === 'virtual') continue;
    bases.push(compact(ctx, base));
  }
  const underlying = node.type === 'enum_specifier' ? node.childForFieldName('base') : null;
  return {
    name,
    kind: TYPE_SPECIFIERS[node.type],
    node,
    nameNode: selection,
    qualifiers,
    body,
    bases: underlying ? [compact(ctx, underlying)] : bases,
    definition: !!body,
    forwardDeclaration: !body,
  };
}

/**
 * A body the grammar finds at file scope: after a macro call with a body (`TEST_F(mount_setattr, extensibility)` / `{`,
 * read as a call missing its `;`), or after a K&R function's parameter declarations (`decode_06(ir,fpregs)` /
 * `u_int ir;` / `{`). No symbol, but the types it defines are the file's, as in any function body: walked under
 * the call's or the function's name.
 */
function bodyAtFileScope(node: Node, ctx: ExtractContext): Draft[] | undefined {
  const members = localTypes(node, ctx);
  if (!members.length) return undefined;
  let before = node.previousNamedSibling;
  // K&R parameter declarations (no function declarator in them) stand between the head and the body.
  for (let guard = 0; before && guard < 32 && (before.type === 'comment' || (before.type === 'declaration' && !functionDeclarator(before.childForFieldName('declarator')))); guard++) before = before.previousNamedSibling;
  let nameNode: Node | null = null;
  if (before?.type === 'expression_statement' && before.firstNamedChild?.type === 'call_expression') nameNode = before.firstNamedChild.childForFieldName('function');
  else if (before?.type === 'declaration') nameNode = functionDeclarator(before.childForFieldName('declarator'))?.childForFieldName('declarator') ?? null;
  if (!nameNode || !/identifier$/.test(nameNode.type)) return undefined;
  return [{ name: ctx.text(nameNode), kind: 'function', node, nameNode, scopeOnly: true, members }];
}

function functionDefinition(node: Node, scope: Scope, ctx: ExtractContext): Draft[] | undefined {
  const declarator = node.childForFieldName('declarator');
  const fn = functionDeclarator(declarator) ?? returnsFunctionPointer(declarator, ctx);
  const type = node.childForFieldName('type');
  // `TEST(ruleset_fd_transfer) {`: a macro with a body, read as a function of type TEST named in parentheses. No
  // symbol (ctags' macro-call-as-function), but the types its body defines are the file's, under the macro's name.
  if (!fn && declarator?.type === 'parenthesized_declarator' && type?.type === 'type_identifier') {
    const members = localTypes(node.childForFieldName('body'), ctx);
    return members.length ? [{ name: ctx.text(type), kind: 'function', node, nameNode: type, scopeOnly: true, members }] : undefined;
  }
  if (!fn) return undefined;
  const draft = functionDraft(node, type, fn, declarator, scope, ctx);
  if (!draft) return undefined;
  const body = node.childForFieldName('body');
  // A constructor's head stops before its member initializers.
  const initializers = holdsText(ctx, node, ':', body?.startIndex) ? childOfType(node, 'field_initializer_list') : null;
  draft.headEnd = initializers?.startIndex ?? body?.startIndex ?? node.endIndex;
  draft.definition = scope.defining;
  draft.members = localTypes(body, ctx);
  // A type defined in the return type (`static struct mock_fence { ... } *to_mock_fence(struct dma_fence *f) {`) is the file's too.
  const spec = type && TYPE_SPECIFIERS[type.type] && type.childForFieldName('body') ? typeSpecifier(type, ctx, false) : undefined;
  return spec ? [spec, draft] : [draft];
}

function declaration(node: Node, scope: Scope, ctx: ExtractContext): Draft[] | undefined {
  const drafts: Draft[] = [];
  const type = node.childForFieldName('type');
  const declarators = node.childrenForFieldName('declarator');
  /** `struct { int a; } v;`: the unnamed type's body, walked with the first declarator as container. */
  let anonymousBody: Node | null = null;
  if (type && TYPE_SPECIFIERS[type.type]) {
    const spec = typeSpecifier(type, ctx, declarators.length === 0);
    if (spec) {
      // The declaration's own range covers `class X {...};` but the type's range stops at its brace.
      drafts.push(spec);
    } else if (declarators.length && !type.childForFieldName('name')) {
      const body = type.childForFieldName('body');
      // An unnamed enum's enumerators belong to the enclosing scope, as C and C++ declare them.
      if (type.type === 'enum_specifier') drafts.push(...enumerators(body, ctx));
      else anonymousBody = body;
    }
  }
  if (scope.parentKind !== null && FUNCTION_KINDS.has(scope.parentKind)) {
    // A local variable of an unnamed struct type (`union { u64 ll; struct { u32 low, high; } l; } rl;`): not a symbol,
    // but its type's fields are, under its name, as a local class's would be.
    const name = declarators.length ? declaratorName(declarators[0]) : null;
    if (!anonymousBody || !name) return drafts.length ? drafts : undefined;
    return [...drafts, { name: ctx.text(name), kind: 'variable', node, nameNode: name, scopeOnly: true, body: anonymousBody }];
  }
  const constant = holdsText(ctx, node, 'const') && named(node).some((child) => child.type === 'type_qualifier' && /^(const|constexpr|constinit)$/.test(ctx.text(child)));
  const inType = scope.parentKind !== null && (TYPE_PARENTS.has(scope.parentKind) || ANONYMOUS_HOLDERS.has(scope.parentKind));
  for (const declarator of declarators) {
    const initialized = declarator.type === 'init_declarator';
    // `void f(int) = delete;` at namespace scope comes as an initialized declarator whose inner one is a function's.
    const deleted = initialized && /^(delete|default)\b/.test(ctx.text(declarator.childForFieldName('value')).trim());
    const inner = deleted ? declarator.childForFieldName('declarator') : declarator;
    const fn = initialized && !deleted ? null : functionDeclarator(inner) ?? returnsFunctionPointer(inner, ctx);
    if (fn) {
      const draft = functionDraft(node, type, fn, inner, scope, ctx);
      if (!draft) continue;
      draft.definition = false;
      draft.headEnd = node.endIndex;
      drafts.push(draft);
      continue;
    }
    // `void f(void (*fp)());` read as a variable initialized with arguments: nothing can be a void variable, so it is a function.
    if (initialized && declarator.childForFieldName('value')?.type === 'argument_list' && type?.type === 'primitive_type' && ctx.text(type) === 'void') {
      const name = declarator.childForFieldName('declarator');
      if (name && /identifier$/.test(name.type)) {
        const method = inType && scope.containingType !== null;
        drafts.push({ name: ctx.text(name), kind: method ? 'method' : 'function', node, nameNode: name, headEnd: node.endIndex, returnType: 'void', parameters: [], definition: false });
        continue;
      }
    }
    const target = declaratorTarget(declarator);
    if (!target) continue;
    // `int Foo::count_ = 0;`: a static member defined out of line is a field of Foo (of a namespace, a variable in it).
    const targetType = target.type;
    const { qualifiers, selection: nameNode } = targetType === 'qualified_identifier' ? splitQualified(target, ctx) : { qualifiers: [] as string[], selection: target };
    const nameType = nameNode === target ? targetType : nameNode.type;
    if (!/identifier$/.test(nameType) || nameType === 'qualified_identifier') continue;
    const member = qualifiers.length > 0 && !qualifiers.every((q) => ctx.namespaces.has(q));
    const kind: NormalizedKind = inType || member ? 'field' : constant ? 'constant' : 'variable';
    const value = initialized ? declarator.childForFieldName('value') : node.childForFieldName('default_value');
    drafts.push({
      name: ctx.text(nameNode),
      kind,
      node,
      nameNode,
      ...(qualifiers.length ? { qualifiers, containingType: member ? qualifiers[qualifiers.length - 1] : scope.containingType } : {}),
      headEnd: value ? value.startIndex : node.endIndex,
      returnType: type ? variableType(node, declarator, target, value, declarators, ctx) : null,
      definition: scope.defining,
      ...(anonymousBody ? { body: anonymousBody } : {}),
    });
    anonymousBody = null;
  }
  return drafts.length ? drafts : undefined;
}

/** An enum body's enumerators as drafts of the scope the enum stands in. */
function enumerators(body: Node | null, ctx: ExtractContext): Draft[] {
  const drafts: Draft[] = [];
  for (const child of named(body)) {
    if (child.type === 'ERROR') drafts.push(...strayEnumerators(child, ctx) ?? []);
    if (child.type !== 'enumerator') continue;
    const name = child.childForFieldName('name');
    if (name) drafts.push({ name: ctx.text(name), kind: 'enum_member', node: child, nameNode: name });
  }
  return drafts;
}

/** The (possibly qualified) name a declarator declares: an identifier, or `A::b`. */
function declaratorTarget(declarator: Node | null): Node | null {
  let node = declarator;
  for (let guard = 0; node && guard < 32; guard++) {
    if (/identifier$/.test(node.type)) return node;
    node = node.childForFieldName('declarator') ?? named(node).find((child) => child.type.endsWith('declarator') || /identifier$/.test(child.type)) ?? null;
  }
  return null;
}

/** `static const char *name = ...` → `const char *`: the declaration minus storage, name, value and other declarators. */
function variableType(node: Node, declarator: Node, nameNode: Node, value: Node | null, declarators: Node[], ctx: ExtractContext): string {
  const noise = named(node).filter((child) => NOT_TYPE.has(child.type));
  const cuts = [nameNode, value, ...noise, ...declarators.filter((other) => other !== declarator)];
  return textWithout(ctx, node, cuts).replace(/[\s;,=]+$/, '').replace(/^[\s,]+/, '');
}

const NOT_TYPE = new Set(['storage_class_specifier', 'virtual', 'attribute_specifier', 'attribute_declaration', 'ms_declspec_modifier', 'comment']);

function typeDefinition(node: Node, ctx: ExtractContext): Draft[] | undefined {
  const drafts: Draft[] = [];
  const type = node.childForFieldName('type');
  const declarators = node.childrenForFieldName('declarator');
  let anonymousNamed = false;
  if (type && TYPE_SPECIFIERS[type.type] && type.childForFieldName('body')) {
    const spec = typeSpecifier(type, ctx, false);
    if (spec) {
      drafts.push(spec);
    } else {
      // `typedef struct { ... } Name;`: the struct takes the typedef's name.
      const first = declarators[0] ? (declarators[0].type === 'primitive_type' ? declarators[0] : declaratorName(declarators[0])) : null;
      if (first) {
        drafts.push({ name: ctx.text(first), kind: TYPE_SPECIFIERS[type.type], node, nameNode: first, body: type.childForFieldName('body'), headEnd: type.childForFieldName('body')?.startIndex });
        anonymousNamed = true;
      }
    }
  }
  declarators.forEach((declarator, index) => {
    if (anonymousNamed && index === 0) return;
    // `typedef _Bool bool;`, `typedef unsigned long uintptr_t;`: names the grammar takes for primitive types.
    const nameNode = declarator.type === 'primitive_type' ? declarator : sizedFunctionTypeName(declarator) ?? declaratorName(declarator);
    if (!nameNode) return;
    drafts.push({ name: ctx.text(nameNode), kind: 'type_alias', node, nameNode, headEnd: node.endIndex });
  });
  return drafts.length ? drafts : undefined;
}

/**
 * `typedef unsigned long (probes_check_cc)(unsigned long);`: C's grammar takes `long` for the declarator of a
 * function `unsigned (long)(probes_check_cc)` and the parenthesized name for its one parameter's type; the name is that type.
 */
function sizedFunctionTypeName(declarator: Node): Node | null {
  if (declarator.type !== 'function_declarator') return null;
  const inner = declarator.childForFieldName('declarator');
  if (inner?.type !== 'function_declarator' || inner.childForFieldName('declarator')?.type !== 'primitive_type') return null;
  const parameters = named(inner.childForFieldName('parameters')).filter((child) => child.type !== 'comment');
  const only = parameters.length === 1 && parameters[0].type === 'parameter_declaration' && !parameters[0].childForFieldName('declarator') ? parameters[0].childForFieldName('type') : null;
  return only?.type === 'type_identifier' ? only : null;
}

function macro(node: Node, nodeType: string, ctx: ExtractContext): Draft[] | undefined {
  const nameNode = node.childForFieldName('name');
  if (!nameNode) return undefined;
  const nameEnd = nameNode.endIndex;
  const name = ctx.source.slice(nameNode.startIndex, nameEnd);
  // A definition the grammar misread names something else than the line does: the line is read instead (macrosFromText).
  if (DEFINE.exec(ctx.source.slice(node.startIndex, nameEnd))?.[1] !== name) return undefined;
  // Only a function-like macro (preproc_function_def) has parameters; the head of any other ends before its value.
  const params = nodeType === 'preproc_function_def' ? node.childForFieldName('parameters') : null;
  const parameters: Parameter[] = named(params).filter((p) => p.type === 'identifier').map((p) => ({ name: ctx.text(p), type: '' }));
  const value = params ? null : node.childForFieldName('value');
  return [{
    name,
    kind: 'macro',
    node,
    nameNode,
    global: true,
    parameters,
    headEnd: params ? params.endIndex : value ? value.startIndex : nameEnd,
  }];
}

/**
 * The lines `/^[ \t]*#[ \t]*define[ \t]/m` matches, counted from each `define` in the text: the pattern tried at every
 * line start was a tenth of C's extract time.
 */
function defineLines(text: string): number {
  let lines = 0;
  for (let at = text.indexOf('define'); at >= 0; at = text.indexOf('define', at + 6)) {
    const after = text.charCodeAt(at + 6);
    if (after !== 32 && after !== 9) continue;
    let i = at - 1;
    while (i >= 0 && isBlank(text.charCodeAt(i))) i--;
    if (i < 0 || text.charCodeAt(i) !== 35) continue;
    i--;
    while (i >= 0 && isBlank(text.charCodeAt(i))) i--;
    if (i < 0 || isLineTerminator(text.charCodeAt(i))) lines++;
  }
  return lines;
}

const isBlank = (c: number): boolean => c === 32 || c === 9;
/** What ends a line for `^` in a multiline pattern. */
const isLineTerminator = (c: number): boolean => c === 10 || c === 13 || c === 0x2028 || c === 0x2029;
const DEFINE = /^#[ \t]*define[ \t]+([A-Za-z_$][\w$]*)(\([^)]*\))?/;
const DIRECTIVES: CLexOptions = { rawStrings: 'delimited', directives: true };
const CONDITIONAL_HEAD = /^#[ \t]*(if|ifdef|ifndef|elif|elifdef|elifndef|else|endif)\b(.*)/;

/**
 * `#define`s the walk found no node for, read from the text as written: inside an initializer, an argument list
 * or an enum the grammar has no room for a directive (it is blanked for the parse, heads.ts), yet the macro is
 * defined for the rest of the file. Those in an `#if 0` branch are not read (nor indexed by ctags).
 */
function macrosFromText(ctx: ExtractContext, found: readonly ExtractedSymbol[]): TextDeclaration[] {
  const source = ctx.original;
  const known = new Set<string>();
  for (const symbol of found) if (symbol.kind === 'macro') known.add(`${symbol.selectionRange.start.line}:${symbol.name}`);
  // Every `#define` line found (the usual case): nothing to read.
  if (defineLines(source) <= known.size) return [];
  const out: TextDeclaration[] = [];
  let line = 1;
  let counted = 0;
  /** Per open conditional: whether it is (or its branch is) `#if 0`. */
  const zeros: boolean[] = [];
  for (const span of lexSpans(source, DIRECTIVES)) {
    if (span.kind !== 'directive') continue;
    const head = source.slice(span.start, Math.min(span.end, span.start + 4096));
    const conditional = CONDITIONAL_HEAD.exec(head);
    if (conditional) {
      if (conditional[1].startsWith('if')) zeros.push(/^if\s+0\b/.test(`${conditional[1]} ${conditional[2].trim()}`));
      else if (conditional[1] === 'endif') zeros.pop();
      else if (zeros.length) zeros[zeros.length - 1] = false;
      continue;
    }
    const match = DEFINE.exec(head);
    if (!match || zeros.includes(true)) continue;
    for (let i = source.indexOf('\n', counted); i >= 0 && i < span.start; i = source.indexOf('\n', i + 1)) line++;
    counted = span.start;
    if (known.has(`${line}:${match[1]}`)) continue;
    const nameStart = span.start + match[0].length - (match[2]?.length ?? 0) - match[1].length;
    const parameters = match[2] ? match[2].slice(1, -1).split(',').map((name) => name.trim()).filter(Boolean).map((name) => ({ name, type: '' })) : [];
    out.push({ name: match[1], kind: 'macro', start: span.start, end: span.end, nameStart, nameEnd: nameStart + match[1].length, headEnd: span.start + match[0].length, parameters });
  }
  return out;
}

const LOCAL_TYPES = ['class_specifier', 'struct_specifier', 'union_specifier', 'enum_specifier'];
/** What a function body may declare that the index keeps: local types, local type aliases, and macros (`#define` in a body is file-wide). */
const LOCAL_DECLARATIONS = [...LOCAL_TYPES, 'type_definition', 'alias_declaration', 'preproc_def', 'preproc_function_def', 'declaration'];
const LOCAL_SEARCH: NestedSearch = {
  types: LOCAL_DECLARATIONS,
  scopes: new Set([...LOCAL_TYPES, 'function_definition']),
  words: ['class', 'struct', 'union', 'enum', 'typedef', 'using', 'define'],
};

/** Classes, type aliases and macros declared inside a function body, a lambda's in it included (`enum _ReduceType` in pstl's algorithm_impl.h), not inside another local class. */
function localTypes(body: Node | null, ctx: ExtractContext): Node[] {
  if (!body || body.type !== 'compound_statement') return [];
  return nestedDeclarations(ctx, body, LOCAL_SEARCH).filter((node) => {
    // An unnamed local enum (`enum { S_CLOCK = 1 << 3 };`) declares its enumerators in the function, as a named one does.
    if (LOCAL_TYPES.includes(node.type)) return node.childForFieldName('body') && (node.childForFieldName('name') || node.type === 'enum_specifier');
    if (node.type !== 'declaration') return true;
    // Local variables are no symbols; one of an unnamed struct type holds its type's fields.
    const type = node.childForFieldName('type');
    return !!type && LOCAL_TYPES.includes(type.type) && !type.childForFieldName('name') && !!type.childForFieldName('body');
  });
}

/** The function_declarator under a declarator, unless it declares a pointer to a function. */
function functionDeclarator(declarator: Node | null): Node | null {
  let node = declarator;
  while (node) {
    const type = node.type;
    if (type === 'operator_cast') return node;
    if (type === 'qualified_identifier') {
      // `A::operator bool()`: the conversion operator sits under the qualified name.
      let name = node.childForFieldName('name');
      while (name?.type === 'qualified_identifier') name = name.childForFieldName('name');
      return name?.type === 'operator_cast' ? node : null;
    }
    if (type === 'function_declarator') {
      const inner = node.childForFieldName('declarator');
      return inner?.type === 'parenthesized_declarator' ? null : node;
    }
    if (!DECLARATOR_WRAPPERS.has(type) || type === 'init_declarator') return null;
    node = node.childForFieldName('declarator') ?? named(node).find((child) => child.type.endsWith('declarator')) ?? null;
  }
  return null;
}

/** `void (*(f(void)))(int) {}`: a definition returning a function pointer; its own declarator is the innermost one naming it. */
function returnsFunctionPointer(declarator: Node | null, ctx: ExtractContext): Node | null {
  // A function declarator holds a parameter list: a declarator without `(` (`*p`, `a[N]`, most variables) has none to search for.
  if (!declarator || !holdsText(ctx, declarator, '(')) return null;
  const candidates = declarator.descendantsOfType('function_declarator');
  return candidates.find((candidate) => /identifier$/.test(candidate.childForFieldName('declarator')?.type ?? '')) ?? null;
}

/** The identifier a (possibly pointer/array/init) declarator declares. */
function declaratorName(declarator: Node | null): Node | null {
  let node = declarator;
  for (let guard = 0; node && guard < 32; guard++) {
    const type = node.type;
    if (/identifier$/.test(type) || type === 'destructor_name' || type === 'operator_name') return node;
    if (type === 'qualified_identifier' || type === 'template_function') {
      node = node.childForFieldName('name');
      continue;
    }
    const next: Node | null = node.childForFieldName('declarator') ?? named(node).find((child) => child.type.endsWith('declarator') || /identifier$/.test(child.type)) ?? null;
    node = next;
  }
  return null;
}

/** `type` is the declaration's type field (`node.childForFieldName('type')`), which its caller has read already. */
function functionDraft(node: Node, type: Node | null, found: Node, declarator: Node | null, scope: Scope, ctx: ExtractContext): Draft | undefined {
  // A conversion operator carries its own name; its parameters sit in the abstract declarator under it.
  const isCast = found.type === 'operator_cast' || found.type === 'qualified_identifier';
  const target = isCast ? found : found.childForFieldName('declarator');
  if (!target) return undefined;
  const { name, qualifiers, selection } = splitQualified(target, ctx);
  const cast = isCast ? (selection.type === 'operator_cast' ? selection : null) : null;
  const fn = cast ? castParameters(cast) ?? cast : found;
  if (!name) return undefined;
  // `ns::f` where every qualifier is a namespace of this file is a function, not a method.
  const typeQualified = qualifiers.length > 0 && !qualifiers.every((q) => ctx.namespaces.has(q));
  const containingType = typeQualified ? qualifiers[qualifiers.length - 1] : scope.containingType;
  const inType = typeQualified || (scope.parentKind !== null && TYPE_PARENTS.has(scope.parentKind));
  const bareType = containingType?.replace(/<.*$/, '');
  const kind: NormalizedKind = !inType ? 'function' : name === bareType ? 'constructor' : 'method';
  return {
    name,
    kind,
    node,
    nameNode: selection,
    qualifiers,
    containingType,
    parameters: parameters(fn.childForFieldName('parameters'), ctx),
    returnType: cast ? compact(ctx, cast.childForFieldName('type')) : returnType(node, type, fn, declarator, ctx),
  };
}

/** The abstract function declarator holding a conversion operator's parameters. */
function castParameters(cast: Node): Node | null {
  let node = cast.childForFieldName('declarator');
  for (let guard = 0; node && guard < 8; guard++) {
    if (node.type === 'abstract_function_declarator') return node;
    node = node.childForFieldName('declarator') ?? named(node).find((child) => child.type.startsWith('abstract_')) ?? null;
  }
  return null;
}

/** Splits `a::B<T>::f` into name `f` and qualifiers ['a', 'B']. */
function splitQualified(node: Node, ctx: ExtractContext): { name: string; qualifiers: string[]; selection: Node } {
  const qualifiers: string[] = [];
  let current: Node | null = node;
  for (let guard = 0; current && guard < 32; guard++) {
    const type = current.type;
    if (type === 'qualified_identifier' || type === 'nested_namespace_specifier') {
      const scopeNode: Node | null = current.childForFieldName('scope');
      if (scopeNode) qualifiers.push(...qualifierNames(scopeNode, ctx));
      const next: Node | null = current.childForFieldName('name');
      if (!next) break;
      current = next;
      continue;
    }
    if (type === 'attributed_declarator') {
      // `operator()[[nodiscard]](_Tp&& __t)` (libstdc++'s ranges_base.h), `int f [[deprecated]] (int)`: the attribute
      // appertains to what is declared; it is no part of its name.
      current = named(current).find((child) => child.type !== 'attribute_declaration') ?? null;
      continue;
    }
    if (type === 'operator_cast') {
      // `operator T*()`: the name runs up to the parameter list, pointer included.
      const params = castParameters(current);
      const end = params?.childForFieldName('parameters')?.startIndex ?? current.endIndex;
      return { name: ctx.source.slice(current.startIndex, end).replace(/\s+/g, ' ').replace(/\s*([*&])\s*/g, '$1').trim(), qualifiers, selection: current };
    }
    if (type === 'template_function' || type === 'template_type' || type === 'template_method') {
      const inner = current.childForFieldName('name');
      return { name: ctx.text(inner), qualifiers, selection: inner ?? current };
    }
    return { name: ctx.text(current).replace(/\s+/g, ' ').trim(), qualifiers, selection: current };
  }
  return { name: ctx.text(node), qualifiers, selection: node };
}

function qualifierNames(node: Node, ctx: ExtractContext): string[] {
  if (node.type === 'qualified_identifier' || node.type === 'nested_namespace_specifier') {
    const scopeNode = node.childForFieldName('scope');
    const nameNode = node.childForFieldName('name');
    return [...(scopeNode ? qualifierNames(scopeNode, ctx) : []), ...(nameNode ? qualifierNames(nameNode, ctx) : [])];
  }
  if (node.type === 'template_type') return [ctx.text(node.childForFieldName('name'))];
  return [ctx.text(node)];
}

function parameters(list: Node | null, ctx: ExtractContext): Parameter[] {
  const out: Parameter[] = [];
  for (const param of named(list)) {
    const paramType = param.type;
    if (paramType === 'comment') continue;
    if (paramType === 'variadic_parameter') {
      out.push({ name: '...', type: '' });
      continue;
    }
    const declarator = param.childForFieldName('declarator');
    const nameNode = declaratorName(declarator);
    // Only an optional parameter (`int x = 0`) has a default value.
    const value = paramType === 'optional_parameter_declaration' ? param.childForFieldName('default_value') : null;
    const type = textWithout(ctx, param, [nameNode, value]);
    if (!nameNode && type === 'void') continue;
    out.push({ name: nameNode ? ctx.text(nameNode) : '', type });
  }
  return out;
}

function returnType(node: Node, type: Node | null, fn: Node, declarator: Node | null, ctx: ExtractContext): string | null {
  const trailing = holdsText(ctx, fn, '->') ? childOfType(fn, 'trailing_return_type') : null;
  if (trailing) return compact(ctx, trailing).replace(/^->\s*/, '');
  if (!type) return null;
  let suffix = '';
  for (let d = declarator; d && d !== fn; d = d.childForFieldName('declarator') ?? named(d).find((c) => c.type.endsWith('declarator')) ?? null) {
    const wrapper = d.type;
    if (wrapper === 'pointer_declarator') suffix += '*';
    else if (wrapper === 'reference_declarator') suffix += ctx.text(d).trimStart().startsWith('&&') ? '&&' : '&';
  }
  const qualifiers = named(node).filter((c) => c.startIndex < type.startIndex && c.type === 'type_qualifier').map((c) => ctx.text(c));
  return [...qualifiers, compact(ctx, type)].join(' ') + suffix;
}

const DESCEND = new Set([
  'translation_unit', 'declaration_list', 'preproc_if', 'preproc_ifdef', 'preproc_else', 'preproc_elif', 'preproc_elifdef',
  'linkage_specification', 'namespace_definition', 'export_declaration',
]);

/** `enum { kMax = 10 };`, `union { int a; float b; };`: the members of an anonymous type belong to the enclosing scope. */
function anonymousMembers(node: Node, _scope: Scope, _ctx: ExtractContext, nodeType: string): Node[] | undefined {
  const type = nodeType === 'declaration' || nodeType === 'field_declaration'
    ? (node.childForFieldName('declarator') ? null : node.childForFieldName('type'))
    : TYPE_SPECIFIERS[nodeType] ? node : null;
  if (!type || !TYPE_SPECIFIERS[type.type] || type.childForFieldName('name')) return undefined;
  return type.childForFieldName('body')?.children;
}

/**
 * /statements: C and C++ node types as short names. A function definition inside a class, or whose
 * declarator is qualified (`void A::f() {}`), is a method; a class/struct/union without a body is a
 * type reference, not a class; `goto` counts as a simple (`expression`) statement.
 */
const CPP_STATEMENTS: StatementTable = {
  types: {
    if_statement: 'if',
    while_statement: 'while',
    for_statement: 'for',
    for_range_loop: 'foreach',
    do_statement: 'do',
    switch_statement: 'switch',
    case_statement: 'case',
    try_statement: 'try',
    seh_try_statement: 'try',
    catch_clause: 'catch',
    seh_except_clause: 'catch',
    compound_statement: 'block',
    expression_statement: 'expression',
    goto_statement: 'expression',
    declaration: 'local',
    return_statement: 'return',
    co_return_statement: 'return',
    co_yield_statement: 'return',
    throw_statement: 'throw',
    break_statement: 'break',
    seh_leave_statement: 'break',
    continue_statement: 'continue',
    call_expression: 'call',
    new_expression: 'call',
    assignment_expression: 'assignment',
    function_definition: (node) => (node.childForFieldName('body') ? (qualifiedDeclarator(node) ? 'method' : 'function') : null),
    class_specifier: (node) => (node.childForFieldName('body') ? 'class' : null),
    struct_specifier: (node) => (node.childForFieldName('body') ? 'class' : null),
    union_specifier: (node) => (node.childForFieldName('body') ? 'class' : null),
    lambda_expression: 'lambda',
  },
  bodies: new Set(['translation_unit', 'compound_statement', 'case_statement', 'declaration_list', 'labeled_statement']),
  name: (node, short) => {
    if (short === 'function' || short === 'method') return statementDeclarator(node);
    if (short === 'call' && node.type === 'new_expression') return node.childForFieldName('type');
    return undefined;
  },
};

/** The innermost name of a function definition's declarator (`A::f` → `A::f`; the caller keeps the last segment). */
function statementDeclarator(node: Node): Node | null {
  let current: Node | null = node.childForFieldName('declarator');
  for (let guard = 0; current && guard < 16; guard++) {
    const inner = current.childForFieldName('declarator');
    if (!inner) return current;
    current = inner;
  }
  return current;
}

function qualifiedDeclarator(node: Node): boolean {
  return statementDeclarator(node)?.type === 'qualified_identifier';
}

/** C and C++: a parenthesized head without class/struct/union/enum/namespace/extern at its top level. */
export const CPP_BODIES: BodyRules = {
  directives: true,
  rawStrings: 'delimited',
  typeWords: new Set(['class', 'struct', 'union', 'enum', 'namespace', 'extern', 'concept']),
  isBody: (head) => head.paren && !head.typeWord,
  memberInitializers: true,
  // `static const struct pci_device_id ids[] = { ... };`: a fifth of the kernel's text left after its bodies are blanked.
  initializers: true,
  keepWords: [],
  // A body is kept for what LOCAL_DECLARATIONS finds: a type defined there (`struct x {`, `union {`, `enum class E : int {`;
  // not `struct foo *p`, `(struct foo *)x`, `sizeof(struct foo)`, `struct foo x = {`, `M(struct foo, "{1,}")` or `M(struct foo, 0, {...})`), a typedef
  // starting a statement (not one in a comment), a local alias (`using T = ...;`). A body kept for a mere mention of
  // `struct` was parsed for nothing, and its statement macros (`if (x) for_each_set_bit(i, m, n) { ... } else`,
  // `CRITBEGIN`) cost the functions after it (sound/soc/intel/avs/skl.c). A `#define` stays in a blanked body.
  keepPattern: /\b(?:class|struct|union|enum)\b[^;{}()="',:]*(?::[^;{}()="']*)?\{|(?:^|[;{}:])[ \t]*typedef\b|\busing\s+[A-Za-z_]\w*\s*=/m,
  keepDirective: /^#\s*define\b/,
  filler: 'x;',
};

export const cpp: LanguageSpec = {
  grammar: 'cpp',
  separator: '::',
  // R"delim( ... )delim" before the plain string; a character literal cannot span a line.
  skippedTokens: [LINE_COMMENT, BLOCK_COMMENT, String.raw`(?<![\w$])(?:u8|[uUL])?R"([^()\\\s]{0,16})\([\s\S]*?\)\2"`, DOUBLE_QUOTED, SINGLE_QUOTED],
  readImports: readCppImports,
  commentTypes: new Set(['comment']),
  // Macro rules first (they balance `#if` branches holding two heads for one body), then bodies and initializers, then the
  // declaration heads, read on what is left: far less text than the whole file (the prepare step of drivers/net, fs and
  // kernel, alternated at load 2-3: 22.2-27.0 s before, 14.4-23.5 s after).
  prepare: (source) => blankDeclarationHeads(blankBodies(blankMacroRules(source), CPP_BODIES)),
  // Blanked bodies are long runs of blank lines: the parse leaves out their inside (a third less parse time).
  blankRunsSkippable: true,
  readWithoutParse: definesOfDirectives,
  declare,
  hidden: anonymousMembers,
  textDeclarations: macrosFromText,
  descend: DESCEND,
  wrappers: new Set(['template_declaration']),
  statements: CPP_STATEMENTS,
  calls: { call_expression: 'function' },
};

export const c: LanguageSpec = { ...cpp, grammar: 'c' };
