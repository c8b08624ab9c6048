/**
 * Call expressions as tree-sitter sees them: every call in a source text (or in one range of it) with the
 * name it calls, its callee's last identifier (`a.b.run(x)` → `run`, `ns::f<int>()` → `f`, `new Foo()` →
 * `Foo`). Syntactic only: which `run` is meant is for the caller to guess.
 */
import type { Node } from 'web-tree-sitter';
import { loadParser, parseWithin } from './grammars.js';
import type { LanguageSpec } from './spec.js';

export interface CallHit {
  /** The callee's last identifier. */
  name: string;
  /** Where that identifier is, 1-based (columns in UTF-16 code units). */
  line: number;
  column: number;
}

const NAME_FIELDS = ['name', 'property', 'field', 'attribute'];
const INNER_FIELDS = ['function', 'constructor', 'type', 'macro', 'expression'];

const PARSE_BUDGET_MS = 2000;
/** Calls one text may give; a generated file past this is not read further. */
export const CALL_HITS_MAX = 20_000;

/**
 * Calls whose callee's identifier starts within [fromLine, toLine] (1-based, inclusive; whole text when absent), as
 * the language's spec names its calls (LanguageSpec.calls); undefined when it names none.
 */
export async function callsIn(spec: LanguageSpec | undefined, source: string, lines?: { from: number; to: number }): Promise<CallHit[] | undefined> {
  const calls = spec?.calls;
  if (!spec || !calls) return undefined;
  const parser = await loadParser(spec.grammar);
  if (source.charCodeAt(0) === 0xfeff) source = source.slice(1);
  const { tree } = parseWithin(parser, source, PARSE_BUDGET_MS + (source.length / 1_000_000) * 5000);
  if (!tree) return undefined;
  try {
    const hits: CallHit[] = [];
    const from = (lines?.from ?? 1) - 1;
    const to = (lines?.to ?? Number.MAX_SAFE_INTEGER) - 1;
    const stack: Node[] = [tree.rootNode];
    while (stack.length > 0 && hits.length < CALL_HITS_MAX) {
      const node = stack.pop()!;
      if (node.endPosition.row < from || node.startPosition.row > to) continue;
      const field = calls[node.type];
      if (field) {
        const callee = node.childForFieldName(field) ?? (node.type === 'macro_invocation' ? node.namedChild(0) : null);
        const name = callee ? nameNode(callee, 0) : null;
        if (name && name.startPosition.row >= from && name.startPosition.row <= to) {
          hits.push({ name: name.text, line: name.startPosition.row + 1, column: name.startPosition.column + 1 });
        }
      }
      for (let i = node.namedChildCount - 1; i >= 0; i--) {
        const child = node.namedChild(i);
        if (child) stack.push(child);
      }
    }
    hits.sort((a, b) => a.line - b.line || a.column - b.column);
    return hits;
  } finally {
    tree.delete();
  }
}

/** The identifier a callee expression ends in: `a.b.c` → c, `ns::f<T>` → f, `(*fp)` → none. */
function nameNode(node: Node, depth: number): Node | null {
  if (depth > 8) return null;
  // `ns::f` is a qualified_identifier: its name field names it (`f`), not its whole text.
  if ((/identifier$/.test(node.type) && node.type !== 'qualified_identifier') || node.type === 'name' || node.type === 'operator_name' || node.type === 'destructor_name') return node;
  for (const field of NAME_FIELDS) {
    const child = node.childForFieldName(field);
    if (child) return nameNode(child, depth + 1);
  }
  for (const field of INNER_FIELDS) {
    const child = node.childForFieldName(field);
    if (child) return nameNode(child, depth + 1);
  }
  // generic_name, scoped_type_identifier and the like: the first identifier child names it.
  if (/generic|template|scoped|qualified/.test(node.type)) {
    for (let i = node.namedChildCount - 1; i >= 0; i--) {
      const child = node.namedChild(i);
      if (child && /identifier$/.test(child.type)) return child;
    }
  }
  return null;
}
