/**
 * The statement layer's own types: the short names one query uses across languages, and the flat
 * statement tree the walker builds from a parsed file (what the evaluator and the use case read).
 */

/** Short names a language's statement table maps its grammar's node types onto. */
export const SHORT_TYPES = [
  'if', 'while', 'for', 'foreach', 'do', 'switch', 'case', 'try', 'catch', 'block', 'expression', 'local',
  'return', 'throw', 'break', 'continue', 'call', 'assignment', 'method', 'function', 'class', 'lambda',
] as const;
export type ShortType = (typeof SHORT_TYPES)[number];

/** `statement` in a path query: any of these (plus a call or assignment standing as a statement of its own). */
export const STATEMENT_SHORTS: ReadonlySet<ShortType> = new Set<ShortType>([
  'if', 'while', 'for', 'foreach', 'do', 'switch', 'case', 'try', 'catch', 'block', 'expression', 'local',
  'return', 'throw', 'break', 'continue',
]);

/** Nodes that start a new depth count: depth 0 is a direct statement of their body. */
export const CALLABLE_SHORTS: ReadonlySet<ShortType> = new Set<ShortType>(['method', 'function', 'lambda']);
export const STRUCTURE_SHORTS: ReadonlySet<ShortType> = new Set<ShortType>(['method', 'function', 'lambda', 'class']);

/** One node of a file's statement tree. Offsets index the source string (UTF-16 code units). */
export interface StatementNode {
  /** Index in StatementFile.nodes (document order: parents before children). */
  index: number;
  short: ShortType;
  /** The grammar's node type (`if_statement`, `for_in_clause`...). */
  type: string;
  start: number;
  end: number;
  /** 1-based. */
  line: number;
  /** 1-based, UTF-16 code units. */
  column: number;
  /** Declared name (method, function, class), callee name (call), bound name (lambda, local); null when none. */
  name: string | null;
  /** Where the declaration head ends (the body start) for method/function/class/lambda; `[@word]` tests the text before it. */
  headEnd: number;
  /** Parent index, -1 for a top-level node of the file. */
  parent: number;
  children: number[];
  /** 1-based position among the parent's children of the same short type. */
  position: number;
  /** 1-based position among the parent's children of the same short type and name (named structure nodes). */
  namePosition: number;
  /** A statement of its own (`statement` in a path query, a result of text and regex queries). */
  statement: boolean;
  /** 0 = a direct statement of the nearest enclosing method/function/lambda body (or class body, or file). */
  depth: number;
}

export interface StatementFile {
  nodes: StatementNode[];
  /** Indices of the top-level nodes, in document order. */
  roots: number[];
  source: string;
  /** true when the parse gave up (budget) or hit errors: the tree may miss statements. */
  incomplete: boolean;
}
