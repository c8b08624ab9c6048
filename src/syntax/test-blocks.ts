/**
 * Named test blocks as test frameworks write them: calls such as `describe('Subject', () => ...)` and
 * `it('emits once', ...)` whose first argument is a string. Which call names open a block is the language's
 * (`LanguageRules.tests.blockCalls`); this only reads the syntax tree.
 */
import type { Node } from 'web-tree-sitter';
import { parseSource } from './identifiers.js';
import type { LanguageSpec } from './spec.js';

export interface TestBlock {
  /** The block's name: its first argument, unquoted. */
  name: string;
  /** Where the call is, 1-based. */
  line: number;
  column: number;
}

/** Call node types with the field naming what is called (the grammars with string-named test blocks). */
const CALLS: Record<string, string> = { call_expression: 'function', call: 'function', method_invocation: 'name', invocation_expression: 'function' };
const STRINGS = new Set(['string', 'template_string', 'string_literal', 'interpreted_string_literal', 'raw_string_literal']);

/**
 * For each position, the test blocks holding it, outermost first (`[describe, it]`); an empty list where none does.
 * Positions are 1-based; undefined when the text cannot be parsed.
 */
export async function testBlocksAt(spec: LanguageSpec | undefined, source: string, positions: ReadonlyArray<{ line: number; column: number }>, calls: readonly string[]): Promise<TestBlock[][] | undefined> {
  if (source.charCodeAt(0) === 0xfeff) source = source.slice(1);
  const tree = await parseSource(spec, source);
  if (!tree) return undefined;
  try {
    const names = new Set(calls);
    return positions.map((position) => {
      const blocks: TestBlock[] = [];
      let node: Node | null = tree.rootNode.descendantForPosition({ row: position.line - 1, column: Math.max(0, position.column - 1) });
      for (; node; node = node.parent) {
        const block = blockOf(node, names);
        if (block) blocks.unshift(block);
      }
      return blocks;
    });
  } finally {
    tree.delete();
  }
}

/** The block a call opens: `it('x', ...)`, `it.only('x', ...)`, `describe.skip('x', ...)`; undefined for any other node. */
function blockOf(node: Node, names: Set<string>): TestBlock | undefined {
  const field = CALLS[node.type];
  if (!field) return undefined;
  const callee = node.childForFieldName(field);
  if (!callee) return undefined;
  // `it.only`, `describe.skip`, `test.concurrent`: the object names the block.
  const head = callee.type === 'member_expression' || callee.type === 'attribute' ? callee.childForFieldName('object') : callee;
  if (!head || !names.has(head.text)) return undefined;
  const args = node.childForFieldName('arguments');
  const first = args?.namedChild(0);
  if (!first || !STRINGS.has(first.type)) return undefined;
  return { name: unquote(first.text), line: node.startPosition.row + 1, column: node.startPosition.column + 1 };
}

function unquote(text: string): string {
  const inner = /^(['"`])([\s\S]*)\1$/.exec(text);
  const name = (inner ? inner[2] : text).replace(/\s+/g, ' ').trim();
  return name.length > 200 ? `${name.slice(0, 199)}…` : name;
}
