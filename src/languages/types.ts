/**
 * The shape of a language (src/languages/<id>/): everything plumb knows about one language,
 * as data. The index, the syntax layer and the language-server pool read these fields; no generic
 * code tests a language's name.
 */
import type { LanguageSpec } from '../syntax/spec.js';
import type { StoredSymbol } from '../index/store.js';
import type { FileImports } from '../syntax/bases.js';

/** Where a language server's executable comes from; resolved at start by src/lsp/command.ts. */
export type CommandSource =
  /** The first of these names found on PATH (or an absolute/relative path). */
  | { kind: 'path'; names: string[] }
  /** A JavaScript entry point of an npm package, run with this Node. */
  | { kind: 'node-script'; package: string; script: string; display: string }
  /** A native binary shipped in a per-platform npm package (`{platform}`/`{arch}` filled from process). */
  | { kind: 'platform-binary'; package: string; platformPackage: string; file: string; display: string };

/**
 * A language server as its language modules declare it. Languages served by one server share one
 * object (C and C++ share clangd's): the pool runs one server per object, and its `id` is the config key
 * (`languages.cpp` in plumb.json).
 */
export interface ServerDescriptor {
  /** Config key and status name: cpp, typescript, python, go. */
  id: string;
  /** Shown in messages: "C/C++". */
  name: string;
  /** LSP languageId for an extension none of its languages claims (one added by `languages.<id>.extensions`). */
  defaultLanguageId: string;
  /** Files the server takes that the index does not parse, with their LSP languageId (clangd: Objective-C `.m`, `.mm`). */
  otherFiles?: Record<string, string>;
  command: CommandSource;
  args: string[];
  /** How to install the server, shown in 503 answers. */
  installHint: string;
  initializationOptions?: unknown;
  /** Answer to workspace/configuration (looked up by section) and sent in didChangeConfiguration. */
  settings?: unknown;
  /** Server processes for this language; requests go round-robin. */
  instances: number;
  /**
   * Variables added to the server's environment (plumb's own otherwise), given plumb's cache directory:
   * gopls needs a writable GOPATH and GOCACHE even when HOME is not writable (root in a container, CI).
   */
  environment?: (context: { cacheDir: string; env: NodeJS.ProcessEnv }) => Record<string, string> | Promise<Record<string, string>>;
  /**
   * The server's textDocument/implementation on a method already lists every override (clangd): asking its
   * type hierarchy level by level (a file opened per type) would cost seconds for nothing.
   */
  implementationListsOverrides?: boolean;
  /** The server needs compile_commands.json (src/lsp/compile-db.ts) passed as --compile-commands-dir. */
  compileDatabase: boolean;
  readiness: {
    /** The server indexes or loads its project only once a document is open, so one is opened right after initialize. */
    openFileOnStart: boolean;
    /** Titles of $/progress work that means "indexing" (all progress counts when empty). */
    indexingProgressTitles: string[];
    /**
     * A window/logMessage the server sends once it has found its project's files (pyright: `Found 22 source
     * files`). Until then it counts as indexing, and answers it gave meanwhile (references over the open files
     * only) are asked again once it is loaded (LspPool.loaded).
     */
    loadedLogPattern?: RegExp;
  };
}

/**
 * A server as the pool runs it: the descriptor with the extensions it serves and their LSP languageIds,
 * collected from the languages that name it (src/languages/index.ts) and then config applied
 * (src/languages/resolve.ts). A server added in plumb.json alone has one of these and no language module.
 */
export interface LanguageDescriptor extends ServerDescriptor {
  /** File extensions with the dot, lower case (".cpp"). */
  extensions: string[];
  /** LSP languageId per extension; extensions not listed use defaultLanguageId. */
  languageIds: Record<string, string>;
}

/**
 * How qualified search names a file's module, as users write it before a name: `python-package` is the
 * dotted path through directories holding `__init__.py` (`flask/app.py` → `flask.app`); `directory` is the
 * file's directory below its root (Go's `net/http/server.go` → `net.http`, Java's `java/util/HashMap.java`
 * → `java.util`). Implemented by src/index/modules.ts.
 */
export type ModulePathRule = 'python-package' | 'directory';

/** One language: adding a language is one module exporting one of these, listed in `LANGUAGES`. */
export interface Language<Id extends string = string> {
  /** The index's language id: stored with each symbol, the `language` parameter's values. */
  id: Id;
  /** Shown to people: "C++". */
  name: string;
  /** File extensions with the dot, lower case; each belongs to one language (`.h` is C++). */
  extensions: readonly string[];
  /** Tree-sitter grammar, extraction rules, tokens and imports (`syntax.ts` in its folder). */
  syntax: LanguageSpec;
  /** The language server for its files, if plumb runs one; languages sharing a server share the object. */
  server?: ServerDescriptor;
  /** LSP languageId of its files (`typescriptreact`), sent in didOpen. */
  lspLanguageId: string;
  /** Extensions whose LSP languageId differs from `lspLanguageId` (`.jsx` → `javascriptreact`). */
  lspLanguageIdByExtension?: Readonly<Record<string, string>>;
  /** Module path recorded per file for qualified search; none when the language names no modules by path. */
  modulePath?: ModulePathRule;
  /**
   * A package's name qualifies the names its modules hold, without the module (`flask.Flask` for
   * `flask/app.py`'s `Flask`, through `__init__.py` re-exports): qualified search accepts the shorter form.
   */
  packagePrefix?: boolean;
  /** Info string of a fenced code block in markdown answers. */
  fence: string;
  /** How its names relate, declare, own members and inherit: generic code asks these, never the language's id. */
  rules: LanguageRules;
  /** Where some of its extensions are written in another language too (C and C++'s `.h`): which one a file is. */
  languageOf?: LanguageOfFile;
  /**
   * A file too large to parse whole at no cost that can be read in pieces giving the same symbols (C's generated
   * headers of `#define`s): its pieces of about `pieceSize` characters each; undefined when it cannot be cut.
   */
  largeFilePieces?: (source: string, pieceSize: number) => SourcePiece[] | undefined;
}

/** A piece of a file, parsed on its own: its text and the line (0-based) of the file its first line is. */
export interface SourcePiece {
  text: string;
  line: number;
}

/**
 * The language of a file whose extension alone does not say (`.h`: C or C++), from the files around it. The
 * index's walker asks it for each such file once the tree is walked (and the watcher for a new one).
 */
export interface LanguageOfFile {
  /** The extensions it decides, of the language's own (`.h`). */
  extensions: readonly string[];
  /** The extensions of the files it weighs (`.c`, `.cc`, `.cpp`...): FilesAround counts these. */
  evidence: readonly string[];
  /** The id of the language `file` (absolute) is written in. */
  of(file: string, around: FilesAround): string;
  /**
   * The language a file `of` decided `decided` is written in after all, where its text says so unmistakably (a `.h`
   * its tree calls C that holds classes: C++); undefined to keep `decided`. Asked by the parser thread, which reads
   * the text anyway: the file is parsed, and stored, as the language answered.
   */
  ofText?(file: string, decided: string, text: string): string | undefined;
}

/** What a file's tree holds, as LanguageOfFile weighs it. */
export interface FilesAround {
  /** The names in the file's own directory. */
  siblings: ReadonlySet<string>;
  /**
   * Files per evidence extension below the nearest directory whose tree holds any: the file's own directory, else
   * the one above it, and so on up to its root. Empty when none does.
   */
  nearest: ReadonlyMap<string, number>;
}

/**
 * A language's rules as the use cases ask them (members, hierarchy, inheritors, implementations, resolution).
 * Tokens, imports and the syntax tree are the syntax spec's (`Language.syntax`).
 */
export interface LanguageRules {
  /**
   * Languages of one family see each other's names: a C header's function is called from C++, a JavaScript
   * class extends a TypeScript one. Languages with the same string are one family.
   */
  family: string;
  /** One name with different parameter types is several functions (C++, Java, C#): parameter types tell them apart. */
  overloads: boolean;
  /**
   * A function is declared in one place and defined in another, also in another file (C and C++ prototypes,
   * methods defined out of line): the places of one qualified name are one symbol wherever they are.
   * Elsewhere two definitions of one qualified name in two files are two symbols.
   */
  separateDeclarations: boolean;
  /** Where a member written with its type's qualified name, outside the type's body, may be: see MemberPlacement. */
  membersLive: MemberPlacement;
  /** What a member of a derived type overrides (hides) in a base: see OverrideRule. */
  overrides: OverrideRule;
  /** Member names a type never inherits (C++ `operator=`); constructors and destructors never are, in any language. */
  uninherited?: readonly string[];
  /**
   * Whether a member is its type's destructor (C++), finalizer (C#): like a constructor, it is no method to inherit or
   * override. Without it the language has none written as a member.
   */
  isDestructor?(member: { name: string; kind: string }): boolean;
  /**
   * Names a constructor is declared under that calls do not spell: a call of it spells its class's name instead
   * (TypeScript's `constructor`, called as `new Subject()`). Without it a constructor's own name is what its calls
   * spell (C++, Java, C#: the class's name).
   */
  constructorNames?: readonly string[];
  /**
   * Extensions of the files other files include for their declarations (C and C++ headers): where a name has
   * definitions in several files, a header's comes before a file-local one.
   */
  headerExtensions?: readonly string[];
  /** Visibility comes from access labels in the type's body (C++ `public:`), read from the source. */
  accessLabels?: boolean;
  /** Whether a member is static (class-level), as its syntax says; undefined when the language does not say. */
  isStatic?(member: StoredSymbol): boolean | undefined;
  /** A member's visibility as written or by the language's default; undefined when the language has none. */
  visibility?(type: StoredSymbol, member: StoredSymbol): string | undefined;
  /**
   * The language has no inheritance (C): inheritors, hierarchy and implementations answer from the index at once,
   * without asking a server, and say so.
   */
  noInheritance?: boolean;
  /** Types satisfy interfaces without naming them (Go): a server's implementations are all direct subtypes. */
  structuralTypes?: boolean;
  /** How a written base names a type. */
  bases: BaseRules;
  /** A declaration's head ends at `:` at bracket depth 0 (Python), not only at `{` or `;`. */
  colonEndsHead?: boolean;
  /** How the language's tests are written (impact, changes and context list the tests a symbol reaches). */
  tests?: TestRules;
}

/**
 * A language's test conventions: which files hold tests, which symbols are tests, and which calls open a
 * named test block. A test is named as its runner names it (`CodePointToUtf8Test.CanEncodeNul`, `TestList`,
 * `tests/test_app.py::TestApp::test_run`, `ZodString > min`).
 */
export interface TestRules {
  /** A test file, by its root-relative path (`*_test.go`, `test_*.py`, `*.test.ts`, `*_test.cc`). */
  file: RegExp;
  /** The test a symbol is, named as its runner names it; undefined when it is none. `inTestFile` says whether its file is a test file. */
  testName?(symbol: StoredSymbol, inTestFile: boolean): string | undefined;
  /**
   * Calls that open a named test block, the name their first argument (`describe('x', ...)`, `it('y', ...)`):
   * a place inside them is in the test `x > y`. Read from the syntax tree (src/syntax/test-blocks.ts).
   */
  blockCalls?: readonly string[];
}

/**
 * Where a member written with its type's qualified name may live outside the type's body: `anywhere` (C++
 * out-of-line definitions, in any file), `directory` (Go methods: the receiver's package is its directory),
 * `package` (C#'s partial classes, Rust's impl blocks across a crate), `file` (the rest: names are per file).
 */
export type MemberPlacement = 'anywhere' | 'directory' | 'package' | 'file';

/**
 * What a derived type's member overrides in a base: `attribute` any member of the same name but nested types
 * (Python, TypeScript: every attribute is looked up by name); `signature` callables of the same name and
 * parameter types (Java, C#); `name` callables of the same name (C++, Go, Rust).
 */
export type OverrideRule = 'attribute' | 'signature' | 'name';

/** How a written base (`public ::testing::Test`, `Generic[T]`, `Observable<T>`) is read and matched to a type. */
export interface BaseRules {
  /** Type arguments in square brackets (`Generic[T]`, Go's `List[T]`) are not part of the name. */
  squareBracketArguments?: boolean;
  /** A base every type has without naming it (Python's `object`): not a base worth resolving. */
  implicitRoot?: string;
  /** A base written as a name an import renames (`from x import Base as B`) names the imported type. */
  importsRename?: boolean;
  /**
   * How well an indexed type fits a base written in `child`, given the written path's segments: below 0 it cannot
   * be meant; 1 it may be; 2 and more the child's scope, imports or includes point at it; 3 the exact module.
   * Without it: 2 for a type in the child's directory, else 1.
   */
  score?(lookup: BaseLookup, child: StoredSymbol, written: string, segments: string[], candidate: BaseCandidate): Promise<number>;
  /**
   * Whether the language's name lookup can find `candidate` from where `child` is written at all (C++: the type's
   * namespace is the child's or encloses it, or a `using` of the child's file names it). The resolver scores the
   * types it can find before any it cannot, the child's own file notwithstanding, and falls back to every type only
   * when it can find none. Without it every type can be found.
   */
  visible?(lookup: BaseLookup, child: StoredSymbol, written: string, segments: string[], candidate: BaseCandidate): Promise<boolean>;
  /** Whether what is written rules out the only type of its name (another C++ qualifier, another Go package). */
  ruledOut?(child: StoredSymbol, written: string, segments: string[], candidate: BaseCandidate): boolean;
}

/** One symbol with all its places (a declaration and its definition), as the base resolver groups them. */
export interface BaseCandidate {
  symbol: StoredSymbol;
  places: StoredSymbol[];
}

/** What scoring a base may ask: the imports of a symbol's file (read once per request). */
export interface BaseLookup {
  importsOf(symbol: StoredSymbol): Promise<FileImports>;
}
