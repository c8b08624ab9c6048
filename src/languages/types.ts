/** Where a language server's executable comes from; resolved at start by src/lsp/command.ts. */
export type CommandSource =
  /** The first of these names found on PATH (or an absolute/relative path). */
  | { kind: 'path'; names: string[] }
  /** A JavaScript entry point of an npm package, run with this Node. */
  | { kind: 'node-script'; package: string; script: string; display: string }
  /** A native binary shipped in a per-platform npm package (`{platform}`/`{arch}` filled from process). */
  | { kind: 'platform-binary'; package: string; platformPackage: string; file: string; display: string };

/** Everything plumb knows about one language, as data: adding a language is adding one of these. */
export interface LanguageDescriptor {
  /** Config key and status name: cpp, typescript, python, go. */
  id: string;
  /** Shown in messages: "C/C++". */
  name: string;
  /** File extensions with the dot, lower case (".cpp"). */
  extensions: string[];
  /** LSP languageId per extension; extensions not listed use defaultLanguageId. */
  languageIds: Record<string, string>;
  defaultLanguageId: string;
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
