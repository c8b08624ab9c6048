/**
 * Loads web-tree-sitter and the prebuilt WASM grammars lazily, one parser per grammar.
 * Module state is per thread, so each worker_thread loads its own copy.
 */
import { createRequire } from 'node:module';
import { Language, Parser } from 'web-tree-sitter';

const require = createRequire(import.meta.url);

let runtime: Promise<void> | undefined;
const parsers = new Map<string, Promise<Parser>>();

function initRuntime(): Promise<void> {
  runtime ??= Parser.init().catch((error: unknown) => {
    runtime = undefined;
    throw error;
  });
  return runtime;
}

/** Path of a grammar's wasm file, resolved through the package rather than a fixed node_modules path. */
export function grammarWasmPath(grammar: string): string {
  return require.resolve(`@repomix/tree-sitter-wasms/out/tree-sitter-${grammar}.wasm`);
}

export function loadParser(grammar: string): Promise<Parser> {
  let parser = parsers.get(grammar);
  if (!parser) {
    parser = (async () => {
      await initRuntime();
      const language = await Language.load(grammarWasmPath(grammar));
      const instance = new Parser();
      instance.setLanguage(language);
      return instance;
    })();
    // A failed load is retried on the next call rather than cached.
    parser.catch(() => parsers.delete(grammar));
    parsers.set(grammar, parser);
  }
  return parser;
}
