/**
 * Evaluates a parsed path over one file's statement tree, as XPath would: each step takes, for every
 * context node, its children (`/`) or the children of it and of each of its descendants (`//`) that
 * pass the node test, then filters each parent's list through the predicates in turn (a position
 * counts within the list the previous predicates left). The answer is in document order, each node once.
 */
import type { PathQuery, Predicate, Step } from './path-query.js';
import type { StatementFile, StatementNode } from './types.js';

/** The context a path starts from: the file (its top-level nodes are the root's children) or some nodes. */
export type PathContext = { kind: 'file' } | { kind: 'nodes'; nodes: number[] };

const ROOT = -1;

export function evaluatePath(file: StatementFile, query: PathQuery, context: PathContext = { kind: 'file' }): StatementNode[] {
  let current: number[] = context.kind === 'file' ? [ROOT] : context.nodes;
  for (const step of query.steps) {
    current = applyStep(file, step, current);
    if (current.length === 0) return [];
  }
  return current.map((index) => file.nodes[index]);
}

function childrenOf(file: StatementFile, index: number): number[] {
  return index === ROOT ? file.roots : file.nodes[index].children;
}

function applyStep(file: StatementFile, step: Step, context: number[]): number[] {
  const out = new Set<number>();
  const parents = new Set<number>();
  if (step.axis === 'child') for (const index of context) parents.add(index);
  else {
    // Every context node and every node below it is a parent whose children the test looks at.
    const stack = [...context];
    while (stack.length) {
      const index = stack.pop()!;
      if (parents.has(index)) continue;
      parents.add(index);
      for (const child of childrenOf(file, index)) stack.push(child);
    }
  }
  for (const parent of parents) {
    let group = childrenOf(file, parent).filter((index) => passesTest(file.nodes[index], step));
    for (const predicate of step.predicates) {
      const size = group.length;
      group = group.filter((index, i) => holds(file, file.nodes[index], predicate, i + 1, size));
    }
    for (const index of group) out.add(index);
  }
  // Node indices are document order (parents before children).
  return [...out].sort((a, b) => a - b);
}

function passesTest(node: StatementNode, step: Step): boolean {
  if (step.test === '*') return true;
  if (step.test === 'statement') return node.statement;
  return node.short === step.test;
}

function holds(file: StatementFile, node: StatementNode, predicate: Predicate, position: number, size: number): boolean {
  switch (predicate.kind) {
    case 'position':
      return position === predicate.value;
    case 'name':
      return node.name === predicate.value;
    case 'contains':
      return file.source.slice(node.start, node.end).includes(predicate.value);
    case 'type':
      return node.type === predicate.value;
    case 'word':
      return hasWord(file.source.slice(node.start, node.headEnd), predicate.value);
    case 'and':
      return holds(file, node, predicate.left, position, size) && holds(file, node, predicate.right, position, size);
    case 'or':
      return holds(file, node, predicate.left, position, size) || holds(file, node, predicate.right, position, size);
    case 'not':
      return !holds(file, node, predicate.operand, position, size);
  }
}

/** `word` as a whole word in `text` (`@async` in `async def`, `@staticmethod` in a decorator line). */
function hasWord(text: string, word: string): boolean {
  let from = 0;
  for (;;) {
    const at = text.indexOf(word, from);
    if (at < 0) return false;
    const before = at === 0 ? '' : text[at - 1];
    const after = text[at + word.length] ?? '';
    if (!/[\w$]/.test(before) && !/[\w$]/.test(after)) return true;
    from = at + 1;
  }
}
