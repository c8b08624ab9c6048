/**
 * What the syntax layer produces (the index stores it, never the reverse: src/syntax imports nothing
 * from src/index). Positions are 1-based, columns in UTF-16 code units.
 */
import type { NormalizedKind } from '../kinds.js';
import type { Range } from '../../schemas/common.js';

/** A language the index parses (src/languages/ids.ts, which imports nothing). */
export type { LanguageId } from '../languages/ids.js';
import type { LanguageId } from '../languages/ids.js';

export interface Parameter {
  name: string;
  type: string;
}

/** One symbol as tree-sitter sees it in one file; knows nothing semantic. */
export interface ExtractedSymbol {
  name: string;
  kind: NormalizedKind;
  /** Enclosing type/namespace/function names, outermost first (`['ns', 'AMyActor']`). */
  containers: string[];
  /** containers + name joined with the language's separator (`ns::AMyActor::BeginPlay`, `pkg.mod.Class.method`). */
  qualifiedName: string;
  /** Innermost enclosing type name when there is one (class/struct/interface/enum...). */
  containingType: string | null;
  /** Whole declaration: template heads, decorators, body. */
  range: Range;
  /** The name. */
  selectionRange: Range;
  /** One line: the declaration head without the body, whitespace collapsed. */
  signature: string;
  parameters: Parameter[];
  returnType: string | null;
  doc: string | null;
  /** true when this is the definition (has a body / is the defining declaration). */
  definition: boolean;
  /** C/C++ type declared without a body (`class X;`). */
  forwardDeclaration: boolean;
  /** Base types as written (`public AActor` → `AActor`; `extends Foo<T>` → `Foo<T>`). */
  bases: string[];
  /**
   * The imported names that bases written through an import alias stand for (`Base` for `class C(B)` after
   * `from x import Base as B`); absent when none. Indexed for inheritors, not stored with the symbol.
   */
  baseAliases?: string[];
  language: LanguageId;
}
