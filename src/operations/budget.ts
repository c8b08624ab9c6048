/**
 * `max_tokens`: an answer cut until its markdown fits the budget. Every list in it keeps its first rows (lists
 * come most relevant first: ranked, nearest, in document order), code and other multi-line text keeps its first
 * lines, and the answer carries `budget` saying what was left out and how to get it; the markdown says the same
 * under its heading. Generic over the answers' shapes, so an operation gets budgets by having a markdown rendering.
 */
import type { BudgetList, TokenBudget } from '../../schemas/budget.js';
import { loadTokenCounter } from '../format/tokens.js';
import type { Operation } from './operation.js';

/** Lists below the top level that are cut like the top-level ones: trees' children, call sites. */
const NESTED_LISTS = new Set(['children', 'supertypes', 'subtypes', 'calls', 'sites', 'results']);
/** Line caps for code tried with every row kept, longest first; rows go only when the shortest does not fit. */
const CODE_LINES = [40, 20, 10, 5];
/** Code cut this short only when not one row fits with CODE_LINES' shortest. */
const LAST_RESORT_LINES = 2;
/**
 * Characters kept of a long one-line text (a reason naming every server's trouble) when no row fits at all: the
 * answer's heading and notes are all it shows then, and they must fit too. The text ends with `…` where it was cut.
 */
const LAST_RESORT_CHARS = [240, 80];
/** Parameters that narrow a question, named in the hint where the operation takes them. */
const NARROWING = ['kind', 'containingType', 'package', 'language', 'scope', 'file', 'type', 'depth', 'max_depth', 'direction', 'context_lines', 'include_body', 'include_hover', 'display_code_for'];

type Json = Record<string, unknown>;

interface Shape {
  /** Entries kept in each list. */
  rows: number;
  /** Lines kept in each multi-line text. */
  lines: number;
  /** Characters kept in each one-line text (no cut when absent). */
  chars?: number;
}

interface Cut {
  value: Json;
  lists: Map<string, { shown: number; total: number }>;
  /** Texts shortened. */
  texts: number;
}

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Nodes in a removed part of a tree: each object, and those of its nested lists. */
function nodesIn(items: unknown[]): number {
  let count = 0;
  for (const item of items) {
    if (!isObject(item)) continue;
    count++;
    for (const [key, value] of Object.entries(item)) if (NESTED_LISTS.has(key) && Array.isArray(value)) count += nodesIn(value);
  }
  return count;
}

/** A copy of the answer with every list cut to `rows` and every text to `lines`, the counts that describe cuts kept true. */
function cutAnswer(answer: Json, { rows, lines, chars }: Shape): Cut {
  const lists = new Map<string, { shown: number; total: number }>();
  let texts = 0;
  let removedTop = 0;
  let removedAll = 0;

  const list = (key: string, items: unknown[], top: boolean): { kept: unknown[]; removed: number } => {
    if (!items.some(isObject)) return { kept: items, removed: 0 };
    const entry = lists.get(key) ?? { shown: 0, total: 0 };
    entry.total += items.length;
    const kept = items.length > rows ? items.slice(0, rows) : items;
    entry.shown += kept.length;
    lists.set(key, entry);
    const removed = nodesIn(items.slice(kept.length));
    removedAll += removed;
    if (top) removedTop += removed;
    return { kept, removed };
  };

  /** A one-line text longer than `chars`, cut there and ended with `…`; anything else as it is. */
  const clip = (value: unknown): unknown => (chars !== undefined && typeof value === 'string' && value.length > chars ? `${value.slice(0, chars - 1)}…` : value);

  const visit = (node: Json): Json => {
    const out: Json = {};
    for (const [key, value] of Object.entries(node)) {
      if (Array.isArray(value)) {
        if (NESTED_LISTS.has(key)) {
          const { kept, removed } = list(key, value, false);
          out[key] = kept.map((item) => (isObject(item) ? visit(item) : item));
          // A tree node says how many of its descendants are not shown.
          if (removed > 0 && key === 'children') out.omittedChildren = (typeof node.omittedChildren === 'number' ? node.omittedChildren : 0) + removed;
        } else {
          out[key] = value.map((item) => (isObject(item) ? visit(item) : item));
        }
      } else if (isObject(value)) {
        out[key] = visit(value);
      } else if (typeof value === 'string' && value.includes('\n')) {
        const textLines = value.split('\n');
        if (textLines.length <= lines) {
          out[key] = value;
          continue;
        }
        texts++;
        const kept = textLines.slice(0, lines).join('\n');
        if (key === 'text' && typeof node.startLine === 'number' && typeof node.endLine === 'number') {
          // A snippet: its range and omittedLines describe what it shows.
          const endLine = node.startLine + lines - 1;
          out.text = kept;
          out.endLine = endLine;
          out.omittedLines = (typeof node.omittedLines === 'number' ? node.omittedLines : 0) + (node.endLine - endLine);
          out.truncated = true;
        } else {
          out[key] = `${kept}\n… ${textLines.length - lines} more lines`;
        }
      } else if (!(key in out)) {
        out[key] = clip(value);
      }
    }
    return out;
  };

  const value: Json = {};
  for (const [key, entry] of Object.entries(answer)) {
    if (key === 'budget') continue;
    if (Array.isArray(entry)) {
      const { kept } = list(key, entry, true);
      value[key] = kept.map((item) => (isObject(item) ? visit(item) : item));
    } else if (isObject(entry)) {
      value[key] = visit(entry);
    } else {
      value[key] = clip(entry);
    }
  }
  const cutLists = [...lists.values()].some((entry) => entry.shown < entry.total);
  if (cutLists && typeof value.truncated === 'boolean') value.truncated = true;
  if (cutLists && 'omittedSymbols' in answer) value.omittedSymbols = (typeof answer.omittedSymbols === 'number' ? answer.omittedSymbols : 0) + removedTop;
  if (removedAll > 0 && typeof answer.omitted === 'number') value.omitted = answer.omitted + removedAll;
  if (removedAll > 0 && typeof answer.nodes === 'number') value.nodes = Math.max(0, answer.nodes - removedAll);
  return { value, lists, texts };
}

function longestList(answer: Json): number {
  let longest = 0;
  const visit = (node: unknown, listed: boolean): void => {
    if (Array.isArray(node)) {
      if (listed) longest = Math.max(longest, node.length);
      for (const item of node) visit(item, false);
    } else if (isObject(node)) {
      for (const [key, value] of Object.entries(node)) visit(value, NESTED_LISTS.has(key));
    }
  };
  for (const value of Object.values(answer)) visit(value, true);
  return longest;
}

function hasMultilineText(node: unknown): boolean {
  if (typeof node === 'string') return node.includes('\n');
  if (Array.isArray(node)) return node.some(hasMultilineText);
  return isObject(node) && Object.values(node).some(hasMultilineText);
}

function budgetOf(cut: Cut, shape: Shape, maxTokens: number, operation: Operation, input: Json): TokenBudget {
  const lists: BudgetList[] = [...cut.lists].filter(([, entry]) => entry.shown < entry.total).map(([name, entry]) => ({ list: name, ...entry }));
  const takes = (name: string): boolean => name in operation.input.properties;
  const results = cut.lists.get('results');
  const nextOffset = takes('offset') && results && results.shown < results.total
    ? (typeof input.offset === 'number' ? input.offset : 0) + results.shown
    : undefined;
  const hints: string[] = [];
  if (nextOffset !== undefined) hints.push(`offset=${nextOffset} continues after the last result shown`);
  const narrowing = NARROWING.filter(takes);
  if (narrowing.length > 0) hints.push(`narrow the question (${narrowing.join(', ')})`);
  if (takes('id') && cut.texts > 0) hints.push('ask about one symbol by its id for its whole code');
  hints.push('or raise max_tokens');
  return {
    maxTokens,
    tokens: 0,
    lists,
    ...(cut.texts > 0 ? { codeLines: shape.lines } : {}),
    ...(nextOffset !== undefined ? { nextOffset } : {}),
    hint: hints.join('; '),
  };
}

const number = new Intl.NumberFormat('en-US');

/** The line under the heading of a cut answer: what it shows of what, and how to get the rest. */
export function budgetNotice(budget: TokenBudget): string {
  const parts = budget.lists.map((entry) => `${number.format(entry.shown)} of ${number.format(entry.total)} ${entry.list}`);
  const shown = parts.length > 0 ? `${parts.join(', ')} shown` : '';
  const code = budget.codeLines !== undefined ? `code cut to ${budget.codeLines} line${budget.codeLines === 1 ? '' : 's'}` : '';
  const what = [shown, code].filter(Boolean).join('; ') || 'the shortest form of this answer is over it';
  return `> **Cut to fit max_tokens=${budget.maxTokens}:** ${what}. For more: ${budget.hint}.`;
}

/** The operation's markdown, with the budget's notice under its heading when max_tokens cut the answer. */
export function renderAnswer(operation: Operation, answer: unknown): string {
  const markdown = operation.markdown?.(answer) ?? '```json\n' + JSON.stringify(answer, null, 2) + '\n```\n';
  const budget = isObject(answer) ? answer.budget as TokenBudget | undefined : undefined;
  if (!budget) return markdown;
  const lines = markdown.split('\n');
  const at = lines[0]?.startsWith('#') ? 1 : 0;
  const notice = [...(at === 1 ? [''] : []), budgetNotice(budget), ...(lines[at] === '' ? [] : [''])];
  lines.splice(at, 0, ...notice);
  return lines.join('\n');
}

/**
 * The answer as it fits `maxTokens` in markdown: unchanged when it fits; else every row with code cut to the
 * longest of CODE_LINES that fits; else as many rows as fit with the shortest code, the code as long as that
 * many rows allow. What it returns carries `budget` when it cut anything.
 */
export async function fitToBudget(operation: Operation, input: Json, answer: unknown, maxTokens: number): Promise<unknown> {
  if (!isObject(answer) || !operation.markdown) return answer;
  const counter = await loadTokenCounter();
  if (counter.count(renderAnswer(operation, answer)) <= maxTokens) return answer;

  const attempt = (shape: Shape): { value: Json; tokens: number } => {
    const cut = cutAnswer(answer, shape);
    const value = { ...cut.value, budget: budgetOf(cut, shape, maxTokens, operation, input) };
    return { value, tokens: counter.count(renderAnswer(operation, value)) };
  };
  const finish = ({ value, tokens }: { value: Json; tokens: number }): Json => {
    (value.budget as TokenBudget).tokens = tokens;
    return value;
  };

  const longest = longestList(answer);
  const hasText = hasMultilineText(answer);
  if (hasText) {
    for (const lines of CODE_LINES) {
      const tried = attempt({ rows: longest, lines });
      if (tried.tokens <= maxTokens) return finish(tried);
    }
  }
  // The most rows that fit with `lines`, fewer than every row (known not to fit).
  const mostRows = (lines: number): number => {
    let low = 0;
    let high = Math.max(0, longest - 1);
    if (attempt({ rows: low, lines }).tokens > maxTokens) return 0;
    while (low < high) {
      const middle = Math.ceil((low + high) / 2);
      if (attempt({ rows: middle, lines }).tokens <= maxTokens) low = middle;
      else high = middle - 1;
    }
    return low;
  };
  let lines = hasText ? CODE_LINES[CODE_LINES.length - 1] : Number.POSITIVE_INFINITY;
  let rows = mostRows(lines);
  if (hasText && rows === 0 && attempt({ rows: 0, lines }).tokens > maxTokens) {
    lines = LAST_RESORT_LINES;
    rows = mostRows(lines);
  } else if (hasText) {
    // As many rows with longer code, or whole: text the markdown does not show (a doc behind a table) stays whole.
    const longer = [Number.POSITIVE_INFINITY, ...CODE_LINES.slice(0, -1)].find((candidate) => attempt({ rows, lines: candidate }).tokens <= maxTokens);
    if (longer !== undefined) lines = longer;
  }
  let fitted = attempt({ rows, lines });
  // Not even the heading and notes fit: their long one-line texts are cut too.
  for (const chars of LAST_RESORT_CHARS) {
    if (rows > 0 || fitted.tokens <= maxTokens) break;
    fitted = attempt({ rows, lines, chars });
  }
  return finish(fitted);
}
