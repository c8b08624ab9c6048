/**
 * The path language of /statements: a tokenizer and a recursive-descent parser (no eval).
 *
 *   path      := step+
 *   step      := ('/' | '//') test predicate*        `/` children, `//` descendants
 *   test      := SHORT | 'statement' | '*'           a short name (if, method, call...), any statement, anything
 *   predicate := '[' or ']'
 *   or        := and ('or' and)*
 *   and       := unary ('and' unary)*
 *   unary     := 'not' '(' or ')' | '(' or ')' | primary
 *   primary   := INTEGER                             position among the step's matches under one parent (1-based)
 *              | NAME | STRING                       the node's name (method, function, class, callee, bound variable)
 *              | '@' NAME ('=' STRING)?              @contains='text', @name='n', @type='grammar_type', or @word:
 *                                                    `word` stands in the node's head (async, static, a decorator)
 *   NAME      := [A-Za-z_$~][A-Za-z0-9_$~]*          STRING := '...' | "..." (no escapes)
 *
 * A malformed pattern throws PathSyntaxError with the 1-based character position and what was expected.
 */
import { SHORT_TYPES, type ShortType } from './types.js';

export type NodeTest = ShortType | 'statement' | '*';

export type Predicate =
  | { kind: 'position'; value: number }
  | { kind: 'name'; value: string }
  | { kind: 'contains'; value: string }
  | { kind: 'type'; value: string }
  | { kind: 'word'; value: string }
  | { kind: 'and' | 'or'; left: Predicate; right: Predicate }
  | { kind: 'not'; operand: Predicate };

export interface Step {
  axis: 'child' | 'descendant';
  test: NodeTest;
  predicates: Predicate[];
}

export interface PathQuery {
  steps: Step[];
}

export class PathSyntaxError extends Error {
  /** 1-based character position of the fault. */
  readonly position: number;
  readonly expected: string;
  constructor(position: number, expected: string, found: string) {
    super(`Malformed path at character ${position}: expected ${expected}, found ${found}`);
    this.name = 'PathSyntaxError';
    this.position = position;
    this.expected = expected;
  }
}

type TokenKind = '/' | '//' | '[' | ']' | '(' | ')' | '@' | '=' | '*' | 'name' | 'number' | 'string' | 'end';
interface Token {
  kind: TokenKind;
  text: string;
  /** 0-based offset in the pattern. */
  at: number;
}

const MAX_PATTERN = 1000;
const MAX_NESTING = 32;
const TESTS = new Set<string>([...SHORT_TYPES, 'statement', '*']);

export function tokenize(pattern: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  while (i < pattern.length) {
    const c = pattern[i];
    if (c === ' ' || c === '\t' || c === '\n' || c === '\r') {
      i++;
      continue;
    }
    if (c === '/') {
      if (pattern[i + 1] === '/') {
        tokens.push({ kind: '//', text: '//', at: i });
        i += 2;
      } else tokens.push({ kind: '/', text: '/', at: i++ });
      continue;
    }
    if ('[]()@=*'.includes(c)) {
      tokens.push({ kind: c as TokenKind, text: c, at: i++ });
      continue;
    }
    if (c === '\'' || c === '"') {
      const close = pattern.indexOf(c, i + 1);
      if (close < 0) throw new PathSyntaxError(pattern.length + 1, `a closing ${c} for the string opened at character ${i + 1}`, 'the end of the pattern');
      tokens.push({ kind: 'string', text: pattern.slice(i + 1, close), at: i });
      i = close + 1;
      continue;
    }
    if (c >= '0' && c <= '9') {
      let j = i;
      while (j < pattern.length && pattern[j] >= '0' && pattern[j] <= '9') j++;
      tokens.push({ kind: 'number', text: pattern.slice(i, j), at: i });
      i = j;
      continue;
    }
    if (/[A-Za-z_$~]/.test(c)) {
      let j = i + 1;
      while (j < pattern.length && /[A-Za-z0-9_$~]/.test(pattern[j])) j++;
      tokens.push({ kind: 'name', text: pattern.slice(i, j), at: i });
      i = j;
      continue;
    }
    throw new PathSyntaxError(i + 1, 'one of / // [ ] ( ) @ = * a name, a number or a quoted string', `'${c}'`);
  }
  tokens.push({ kind: 'end', text: '', at: pattern.length });
  return tokens;
}

export function parsePath(pattern: string): PathQuery {
  if (pattern.length > MAX_PATTERN) throw new PathSyntaxError(MAX_PATTERN + 1, `a pattern of at most ${MAX_PATTERN} characters`, 'more');
  const tokens = tokenize(pattern);
  let at = 0;
  let nesting = 0;
  const peek = (): Token => tokens[at];
  const describe = (token: Token): string => (token.kind === 'end' ? 'the end of the pattern' : token.kind === 'string' ? `the string '${token.text}'` : `'${token.text}'`);
  const fail = (expected: string): never => {
    throw new PathSyntaxError(peek().at + 1, expected, describe(peek()));
  };
  const expect = (kind: TokenKind, expected: string): Token => {
    if (peek().kind !== kind) fail(expected);
    return tokens[at++];
  };

  const primary = (): Predicate => {
    const token = peek();
    if (token.kind === 'number') {
      at++;
      const value = Number(token.text);
      if (!Number.isSafeInteger(value) || value < 1) throw new PathSyntaxError(token.at + 1, 'a position of 1 or more', `'${token.text}'`);
      return { kind: 'position', value };
    }
    if (token.kind === 'name' || token.kind === 'string') {
      at++;
      return { kind: 'name', value: token.text };
    }
    if (token.kind === '@') {
      at++;
      const attribute = expect('name', 'an attribute name after @ (contains, name, type, or a word such as async)');
      if (peek().kind !== '=') {
        if (attribute.text === 'contains' || attribute.text === 'name' || attribute.text === 'type') fail(`= and a quoted string after @${attribute.text}`);
        return { kind: 'word', value: attribute.text };
      }
      at++;
      const value = expect('string', `a quoted string after @${attribute.text}=`);
      switch (attribute.text) {
        case 'contains':
          if (value.text === '') throw new PathSyntaxError(value.at + 1, 'a non-empty string for @contains', 'an empty string');
          return { kind: 'contains', value: value.text };
        case 'name':
          return { kind: 'name', value: value.text };
        case 'type':
          return { kind: 'type', value: value.text };
        default:
          throw new PathSyntaxError(attribute.at + 1, "@contains, @name or @type before '=' (a bare @word tests a word of the head)", `'@${attribute.text}'`);
      }
    }
    return fail("a predicate: a position (2), a name (Main or 'Main'), @contains='text', @name='n', @type='t', @word, not(...) or (...)");
  };

  const unary = (): Predicate => {
    const token = peek();
    if (token.kind === 'name' && token.text === 'not' && tokens[at + 1].kind === '(') {
      at += 2;
      const operand = nested();
      expect(')', "')' to close not(");
      return { kind: 'not', operand };
    }
    if (token.kind === '(') {
      at++;
      const inner = nested();
      expect(')', "')' to close '('");
      return inner;
    }
    return primary();
  };

  const nested = (): Predicate => {
    if (++nesting > MAX_NESTING) fail(`at most ${MAX_NESTING} nested parentheses`);
    const result = or();
    nesting--;
    return result;
  };

  const and = (): Predicate => {
    let left = unary();
    while (peek().kind === 'name' && peek().text === 'and') {
      at++;
      left = { kind: 'and', left, right: unary() };
    }
    return left;
  };

  const or = (): Predicate => {
    let left = and();
    while (peek().kind === 'name' && peek().text === 'or') {
      at++;
      left = { kind: 'or', left, right: and() };
    }
    return left;
  };

  const steps: Step[] = [];
  while (peek().kind !== 'end') {
    const slash = peek();
    if (slash.kind !== '/' && slash.kind !== '//') fail(steps.length ? "'/' or '//' before the next step, or the end of the pattern" : "'/' or '//' at the start (as in //if or //method[Main]//call)");
    at++;
    const test = peek();
    if ((test.kind !== 'name' && test.kind !== '*') || !TESTS.has(test.text)) {
      fail(`a node name after '${slash.text}': one of ${SHORT_TYPES.join(', ')}, statement or *`);
    }
    at++;
    const predicates: Predicate[] = [];
    while (peek().kind === '[') {
      at++;
      predicates.push(nested());
      expect(']', "']' to close the predicate, or 'and'/'or' to go on");
    }
    steps.push({ axis: slash.kind === '//' ? 'descendant' : 'child', test: test.text as NodeTest, predicates });
  }
  if (steps.length === 0) fail('a path such as //if, //method[Main]//call or //class[UserService]/method');
  return { steps };
}

/**
 * Texts every file with a match must contain: names and @contains values that the pattern requires
 * (not under `or` or `not`). Used to skip files before parsing them.
 */
export function requiredTexts(query: PathQuery): string[] {
  const out = new Set<string>();
  const collect = (predicate: Predicate): void => {
    if (predicate.kind === 'name' || predicate.kind === 'contains' || predicate.kind === 'word') {
      if (predicate.value) out.add(predicate.value);
    } else if (predicate.kind === 'and') {
      collect(predicate.left);
      collect(predicate.right);
    }
  };
  for (const step of query.steps) for (const predicate of step.predicates) collect(predicate);
  return [...out];
}
