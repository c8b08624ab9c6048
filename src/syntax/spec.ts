/**
 * What a language module tells the generic walker (src/syntax/extract.ts): which nodes declare
 * what, which nodes to look inside, and how its comments read. One module per language.
 */
import type { FileImports } from './bases.js';
import type { Node } from 'web-tree-sitter';
import type { NormalizedKind } from '../kinds.js';
import type { ExtractedSymbol, LanguageId, Parameter } from './types.js';
import type { ShortType } from './statements/types.js';
import type { MacroRows } from './macro-rows.js';

/** One declaration as a language module sees it; the walker turns it into an ExtractedSymbol. */
export interface Draft {
  name: string;
  kind: NormalizedKind;
  /** The declaration node itself (a wrapper such as `export`/`template<>`/decorators is added by the walker). */
  node: Node;
  /** The name; null when the declaration has none to point at (the node start is used). */
  nameNode: Node | null;
  /** Source index where the one-line signature stops; defaults to the body start, else the node end. */
  headEnd?: number;
  /** Put before the signature when the node leaves out its keyword (a Go spec inside `const (...)`). */
  signaturePrefix?: string;
  parameters?: Parameter[];
  returnType?: string | null;
  bases?: string[];
  /** Defaults to true. */
  definition?: boolean;
  forwardDeclaration?: boolean;
  /** Containers written into the name itself (`A::B::f` → ['A', 'B']). */
  qualifiers?: string[];
  /** Belongs to no container whatever encloses it in the text (a #define inside a namespace). */
  global?: boolean;
  /** Overrides the containing type (default: the last qualifier, else the enclosing type). */
  containingType?: string | null;
  /** A doc the language keeps elsewhere than a comment above (Python docstrings). */
  doc?: string | null;
  /** Walked with this symbol as container. */
  body?: Node | null;
  /**
   * Gives its members a container without being a symbol itself (Rust `impl Foo {}`). Its `bases` (Rust
   * `impl Trait for Foo`) join those of the type of the same qualified name declared in the same file.
   */
  scopeOnly?: boolean;
  /** Extra nodes walked with this symbol as container (Go/Rust: members found apart from the body). */
  members?: Node[];
}

export interface Scope {
  containers: string[];
  containingType: string | null;
  /** Kind of the innermost enclosing symbol, null at file level. */
  parentKind: NormalizedKind | null;
  /** Wrapper (export, template head, decorators) whose range and doc belong to the next declaration. */
  outer: Node | null;
  /** False inside ambient contexts (`declare`, extern blocks) where nothing is defined. */
  defining: boolean;
}

export interface ExtractContext {
  /** Source as parsed (macros blanked, same length as the original). */
  source: string;
  /** Source as written, for docs. */
  original: string;
  text(node: Node | null | undefined): string;
  /**
   * The node's parent, as the walker met it: tree-sitter's `node.parent` searches down from the root, which costs
   * the number of siblings before the node (a file of 50,000 error nodes in one enum took a minute).
   */
  parentOf(node: Node): Node | null;
  /** Namespace names declared so far in this file (tells `ns::f` from `Type::f`). */
  namespaces: Set<string>;
}

/**
 * How /statements reads the language: its grammar's node types mapped onto the short names one query
 * uses across languages (src/syntax/statements/types.ts). Unmapped nodes are walked through, so a
 * node's children in a path query are its nearest mapped descendants.
 */
export interface StatementTable {
  /** Grammar node type → short name; a function decides from the node (null: walked through). */
  types: Readonly<Record<string, ShortType | ((node: Node) => ShortType | null)>>;
  /**
   * Node types that hold a list of statements (blocks, statement lists, the file): a `block` standing
   * directly in one is a statement of its own; elsewhere a block is the body of its parent and is walked through.
   */
  bodies: ReadonlySet<string>;
  /** The name of a node where the defaults (the `name` field; a call's callee) do not find it. */
  name?: (node: Node, short: ShortType) => Node | string | null | undefined;
}

/** A declaration read from the text where the tree holds none (offsets into the prepared source). */
export interface TextDeclaration {
  name: string;
  kind: NormalizedKind;
  start: number;
  end: number;
  nameStart: number;
  nameEnd: number;
  /** Where the one-line signature stops. */
  headEnd: number;
  parameters?: Parameter[];
}

export interface LanguageSpec {
  /** What /statements maps this grammar's node types to. */
  statements?: StatementTable;
  /**
   * The grammar's calls and constructions, each node type with the field that holds what is called
   * (`call_expression` → `function`, Java's `method_invocation` → `name`, Ruby's `call` → `method`): syntactic
   * callers and callees read the calls in a text through it (syntax/calls.ts), and a usage in that field is a call
   * (syntax/usage-kind.ts). Without it the language's calls are not read.
   */
  calls?: Readonly<Record<string, string>>;
  /**
   * The comments and literals an identifier scan steps over (syntactic usages), as regular-expression
   * alternatives (src/syntax/tokens.ts has the common ones); at most one capturing group in all, which a
   * back-reference in the same alternative calls `\2` (a raw string's delimiter).
   */
  skippedTokens: readonly string[];
  /** Reads what a file imports, includes or uses from its text; without it a file imports nothing. */
  readImports?: (text: string, into: FileImports) => void;
  /** Imports may rename (`import Base as B`): a base written as the local name also names the imported one. */
  importsRename?: boolean;
  /** Grammar file stem in @repomix/tree-sitter-wasms (`tree-sitter-<grammar>.wasm`). */
  grammar: string;
  /** Joins containers and name into qualifiedName. */
  separator: string;
  /** Node types that are comments. */
  commentTypes: ReadonlySet<string>;
  /** Whether a comment's text counts as documentation (default: any comment). */
  isDocComment?: (text: string) => boolean;
  /** Sibling nodes before a declaration that belong to its range (TypeScript member decorators, Rust attributes). */
  leadingTypes?: ReadonlySet<string>;
  /** Node types skipped when looking for the doc above a declaration (attributes, annotations). */
  docSkipTypes?: ReadonlySet<string>;
  /**
   * Line breaks are whitespace like any other to the grammar (no indentation, no line-ended statements): the
   * index's parse may leave out the inside of long blank runs (grammars.ts blankRunRanges), the same tree.
   */
  blankRunsSkippable?: boolean;
  /** Rewrites the source before parsing, keeping every offset (blanking macros). */
  prepare?: (source: string) => string;
  /**
   * The symbols of a prepared source the language reads without parsing it, the same as the parse would give
   * (C/C++ headers of nothing but preprocessor lines: their macros, as rows); undefined to parse it. `original` is
   * the text as written.
   */
  readWithoutParse?: (prepared: string, original: string, language: LanguageId) => MacroRows | undefined;
  /**
   * Declarations at `node`, or undefined when it declares nothing. `nodeType` is `node.type`, read once by the walker
   * for all the callbacks (each read is a call into tree-sitter's WASM).
   */
  declare(node: Node, scope: Scope, ctx: ExtractContext, nodeType: string): Draft[] | undefined;
  /** Nodes that declare nothing themselves but may hold declarations. */
  descend: ReadonlySet<string>;
  /** Declarations hidden inside a non-declaration (classes in a top-level callback), walked in the same scope. */
  hidden?: (node: Node, scope: Scope, ctx: ExtractContext, nodeType: string) => Node[] | undefined;
  /** Nodes whose range and doc belong to the declaration inside them. */
  wrappers: ReadonlySet<string>;
  /** Called for a wrapper before its children are walked (e.g. `declare` turns definitions off). */
  wrapperScope?: (node: Node, scope: Scope) => Scope;
  /**
   * Declarations the text holds that the walk found no node for (a C `#define` inside an initializer, an
   * argument list or an enum, where the grammar has no room for a directive); file-wide, added after the walk.
   */
  textDeclarations?: (ctx: ExtractContext, found: readonly ExtractedSymbol[]) => TextDeclaration[];
  /** Rewrites the scope for the siblings after `node` (C# file-scoped namespaces). */
  siblingScope?: (node: Node, scope: Scope, ctx: ExtractContext) => Scope | undefined;
}
