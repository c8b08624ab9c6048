/**
 * Python: classes (bases), functions and methods (decorators in the range), nested definitions,
 * docstrings, module-level variables and constants, class attributes as fields.
 */
import type { Node } from 'web-tree-sitter';
import type { NormalizedKind } from '../../kinds.js';
import type { Parameter } from '../../syntax/types.js';
import { compact, containsWord, dedent, holdsText, looksConstant, named } from '../../syntax/common.js';
import { DOUBLE_QUOTED, SINGLE_QUOTED } from '../../syntax/tokens.js';
import { readPythonImports } from './imports.js';
import type { Draft, ExtractContext, LanguageSpec, Scope, StatementTable } from '../../syntax/spec.js';

function declare(node: Node, scope: Scope, ctx: ExtractContext, nodeType: string): Draft[] | undefined {
  switch (nodeType) {
    case 'class_definition': {
      const nameNode = node.childForFieldName('name');
      if (!nameNode) return undefined;
      const body = node.childForFieldName('body');
      const bases = named(node.childForFieldName('superclasses'))
        .filter((arg) => arg.type !== 'keyword_argument' && arg.type !== 'comment')
        .map((arg) => compact(ctx, arg));
      return [{ name: ctx.text(nameNode), kind: 'class', node, nameNode, body, bases, doc: docstring(body, ctx) }];
    }
    case 'function_definition': {
      const nameNode = node.childForFieldName('name');
      if (!nameNode) return undefined;
      const body = node.childForFieldName('body');
      const returnNode = node.childForFieldName('return_type');
      const kind: NormalizedKind = scope.parentKind === 'class' ? 'method' : 'function';
      const name = ctx.text(nameNode);
      const params = parameters(node.childForFieldName('parameters'), ctx);
      return [{
        name, kind, node, nameNode,
        // The head ends where the body starts; the body is walked only if it can hold a symbol (a nested def or class,
        // a lambda bound to a name, a `type` alias): most bodies hold none, and walking each statement is a call per node.
        headEnd: body?.startIndex,
        body: body && containsWord(ctx.source, body.startIndex, body.endIndex, BODY_DECLARATION_WORDS) ? body : null,
        parameters: params,
        returnType: returnNode ? compact(ctx, returnNode) : null,
        doc: docstring(body, ctx),
        // A stub (`...` body, as in .pyi files and Protocols) or an @overload signature declares without defining.
        definition: !isStub(body, ctx) && !isOverload(node, ctx),
      }, ...(kind === 'method' && name === '__init__' ? instanceFields(node, body, params[0]?.name, ctx) : [])];
    }
    case 'expression_statement':
      return assignment(node, scope, ctx);
    case 'type_alias_statement': {
      const left = node.childForFieldName('left');
      const nameNode = left?.type === 'identifier' ? left : left ? named(left).find((child) => child.type === 'identifier') ?? null : null;
      return nameNode ? [{ name: ctx.text(nameNode), kind: 'type_alias', node, nameNode, headEnd: node.endIndex }] : undefined;
    }
    default:
      return undefined;
  }
}

/** The words without one of which a function body declares nothing the index keeps. */
const BODY_DECLARATION_WORDS = ['def', 'class', 'lambda', 'type'];

function assignment(node: Node, scope: Scope, ctx: ExtractContext): Draft[] | undefined {
  // Variables live at module and class level only; a local is a symbol only when it names a lambda. The statements of
  // every function body come here: one without the word `lambda` is passed over without a call into the tree.
  const local = scope.parentKind !== null && scope.parentKind !== 'class';
  if (local && !holdsText(ctx, node, 'lambda')) return undefined;
  const assign = node.firstNamedChild;
  if (!assign || assign.type !== 'assignment') return undefined;
  const value = assign.childForFieldName('right');
  const lambda = value?.type === 'lambda';
  if (local && !lambda) return undefined;
  const drafts: Draft[] = [];
  const typeNode = assign.childForFieldName('type');
  for (const target of targets(assign)) {
    const name = ctx.text(target);
    if (lambda) {
      drafts.push({
        name, kind: scope.parentKind === 'class' ? 'method' : 'function', node, nameNode: target,
        parameters: parameters(value.childForFieldName('parameters'), ctx),
        headEnd: value.childForFieldName('body')?.startIndex ?? node.endIndex, doc: null,
      });
      continue;
    }
    const kind: NormalizedKind = scope.parentKind === 'class' ? 'field' : looksConstant(name) ? 'constant' : 'variable';
    const short = value && value.endIndex - value.startIndex <= 80 && !ctx.text(value).includes('\n');
    drafts.push({
      name, kind, node, nameNode: target,
      returnType: typeNode ? compact(ctx, typeNode) : null,
      headEnd: !value || short ? node.endIndex : value.startIndex,
      doc: null,
    });
  }
  return drafts.length ? drafts : undefined;
}

/**
 * `self.x = ...` in `__init__`: the instance's fields, once each, unless the class body already
 * declares them. Emitted beside `__init__`, so they belong to the class.
 */
function instanceFields(init: Node, body: Node | null, self: string | undefined, ctx: ExtractContext): Draft[] {
  if (!body || !self) return [];
  const classBody = (init.parent?.type === 'decorated_definition' ? init.parent.parent : init.parent) ?? null;
  const declared = new Set<string>();
  for (const statement of named(classBody)) {
    const assign = statement.type === 'expression_statement' ? statement.firstNamedChild : null;
    if (assign?.type === 'assignment') for (const target of targets(assign)) declared.add(ctx.text(target));
  }
  const drafts: Draft[] = [];
  for (const statement of body.descendantsOfType('expression_statement')) {
    const assign = statement.firstNamedChild;
    if (assign?.type !== 'assignment') continue;
    const left = assign.childForFieldName('left');
    if (left?.type !== 'attribute' || ctx.text(left.childForFieldName('object')) !== self) continue;
    const attribute = left.childForFieldName('attribute');
    const name = ctx.text(attribute);
    if (!attribute || declared.has(name)) continue;
    declared.add(name);
    const type = assign.childForFieldName('type');
    drafts.push({ name, kind: 'field', node: statement, nameNode: attribute, returnType: type ? compact(ctx, type) : null, headEnd: assign.childForFieldName('right')?.startIndex ?? statement.endIndex, doc: null });
  }
  return drafts;
}

/** Names bound by `a = b = 1`, `a, b = ...`, `a: int = 1`. */
function targets(assign: Node): Node[] {
  const out: Node[] = [];
  let current: Node | null = assign;
  for (let guard = 0; current && current.type === 'assignment' && guard < 16; guard++) {
    const left = current.childForFieldName('left');
    if (left?.type === 'identifier') out.push(left);
    else if (left && (left.type === 'pattern_list' || left.type === 'tuple_pattern')) out.push(...named(left).filter((child) => child.type === 'identifier'));
    current = current.childForFieldName('right');
  }
  return out;
}

function parameters(list: Node | null, ctx: ExtractContext): Parameter[] {
  const out: Parameter[] = [];
  for (const param of named(list)) {
    switch (param.type) {
      case 'identifier':
        out.push({ name: ctx.text(param), type: '' });
        break;
      case 'typed_parameter': {
        const inner = named(param).find((child) => child.type !== 'type') ?? null;
        out.push({ name: compact(ctx, inner), type: compact(ctx, param.childForFieldName('type')) });
        break;
      }
      case 'default_parameter':
      case 'typed_default_parameter':
        out.push({ name: compact(ctx, param.childForFieldName('name')), type: compact(ctx, param.childForFieldName('type')) });
        break;
      case 'list_splat_pattern':
      case 'dictionary_splat_pattern':
        out.push({ name: compact(ctx, param), type: '' });
        break;
      default:
        break;
    }
  }
  return out;
}

function docstring(body: Node | null, ctx: ExtractContext): string | null {
  const first = body?.namedChild(0);
  if (!first || first.type !== 'expression_statement') return null;
  const string = first.namedChild(0);
  if (!string || string.type !== 'string') return null;
  const raw = ctx.original.slice(string.startIndex, string.endIndex);
  const inner = raw.replace(/^[rRuUbBfF]*("""|'''|"|')/, '').replace(/("""|'''|"|')$/, '');
  const text = dedent(inner).trim();
  return text || null;
}

function isStub(body: Node | null, ctx: ExtractContext): boolean {
  if (!body) return true;
  const statements = named(body).filter((child) => child.type !== 'comment');
  const last = statements[statements.length - 1];
  if (!last || statements.length > 2) return false;
  if (statements.length === 2 && !isString(statements[0])) return false;
  return last.type === 'expression_statement' && ctx.text(last).trim() === '...';
}

function isOverload(definition: Node, ctx: ExtractContext): boolean {
  const decorated = definition.parent;
  if (decorated?.type !== 'decorated_definition') return false;
  return named(decorated).some((child) => child.type === 'decorator' && /^@\s*(typing\.)?overload\s*$/.test(ctx.text(child)));
}

function isString(node: Node): boolean {
  return node.type === 'expression_statement' && node.namedChild(0)?.type === 'string';
}

/**
 * /statements: Python node types as short names. `for x in y` is a `foreach`; `with` is a `block`;
 * `raise` a `throw`; `except` a `catch`; `match`/`case` a `switch`/`case`; `pass`, `assert`, `del`,
 * `global`, `nonlocal` and imports are simple (`expression`) statements; a `def` inside a class is a
 * method (its decorators belong to it).
 */
const PYTHON_STATEMENTS: StatementTable = {
  types: {
    if_statement: 'if',
    while_statement: 'while',
    for_statement: 'foreach',
    match_statement: 'switch',
    case_clause: 'case',
    try_statement: 'try',
    except_clause: 'catch',
    except_group_clause: 'catch',
    with_statement: 'block',
    expression_statement: 'expression',
    pass_statement: 'expression',
    assert_statement: 'expression',
    delete_statement: 'expression',
    global_statement: 'expression',
    nonlocal_statement: 'expression',
    import_statement: 'expression',
    import_from_statement: 'expression',
    print_statement: 'expression',
    exec_statement: 'expression',
    return_statement: 'return',
    raise_statement: 'throw',
    break_statement: 'break',
    continue_statement: 'continue',
    call: 'call',
    assignment: 'assignment',
    augmented_assignment: 'assignment',
    function_definition: 'function',
    class_definition: 'class',
    lambda: 'lambda',
  },
  bodies: new Set(['module', 'block']),
};

/** From this many comment-only lines in a row, tree-sitter-python's time grows with the square of the run. */
const LONG_COMMENT_RUN = 64;
const COMMENT_LINE = /^[ \t]*#[^\n]*(?:\n|$)/gm;

/**
 * Long runs of comment-only lines blanked, offsets kept: tree-sitter-python parses a run of n comment lines in time
 * growing as n² (1,000 lines 0.8 s, 4,000 lines 11.5 s, a generated file's 64,000 past any budget), and a comment is
 * no symbol nor doc in Python. Runs shorter than LONG_COMMENT_RUN are left as they are.
 */
export function blankLongCommentRuns(source: string): string {
  let out: string[] | undefined;
  let copied = 0;
  let runStart = -1;
  let runEnd = -1;
  let runLines = 0;
  const flush = (): void => {
    if (runLines >= LONG_COMMENT_RUN) {
      (out ??= []).push(source.slice(copied, runStart), source.slice(runStart, runEnd).replace(/[^\n]/g, ' '));
      copied = runEnd;
    }
    runLines = 0;
  };
  for (const match of source.matchAll(COMMENT_LINE)) {
    if (match[0] === '') break;
    if (runLines > 0 && match.index !== runEnd) flush();
    if (runLines === 0) runStart = match.index;
    runEnd = match.index + match[0].length;
    runLines++;
  }
  flush();
  if (!out) return source;
  out.push(source.slice(copied));
  return out.join('');
}

export const python: LanguageSpec = {
  grammar: 'python',
  calls: { call: 'function' },
  prepare: blankLongCommentRuns,
  separator: '.',
  skippedTokens: [String.raw`#[^\n]*`, '"""[\\s\\S]*?(?:"""|$)', "'''[\\s\\S]*?(?:'''|$)", DOUBLE_QUOTED, SINGLE_QUOTED],
  readImports: readPythonImports,
  importsRename: true,
  commentTypes: new Set(['comment']),
  // Python's documentation is the docstring; a comment above is no doc.
  isDocComment: () => false,
  declare,
  descend: new Set([
    'module', 'block', 'if_statement', 'elif_clause', 'else_clause', 'try_statement', 'except_clause', 'except_group_clause',
    'finally_clause', 'with_statement', 'for_statement', 'while_statement', 'match_statement', 'case_clause',
  ]),
  wrappers: new Set(['decorated_definition']),
  statements: PYTHON_STATEMENTS,
};
