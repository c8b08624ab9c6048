/**
 * The shape of a language module (src/languages/<id>.ts): everything plumb knows about one language,
 * as data. The index, the syntax layer and the language-server pool read these fields; no generic
 * code tests a language's name.
 */
import type { LanguageSpec } from '../syntax/languages/spec.js';

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
  /** Tree-sitter grammar and extraction rules (src/syntax/languages/). */
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
}
