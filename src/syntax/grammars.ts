/**
 * Loads web-tree-sitter and the prebuilt WASM grammars lazily, one parser per grammar.
 * Module state is per thread, so each worker_thread loads its own copy.
 */
import { createRequire } from 'node:module';
import { Language, Parser, type Tree } from 'web-tree-sitter';

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

/**
 * Brackets nested deeper than this are not parsed: tree-sitter's TypeScript and JavaScript grammars overflow their
 * stack on `(,` nested 2,500 deep, and a parse that overflows leaves the thread's tree-sitter broken for every parse
 * after it (the next file reads as nothing). No code people write nests a thousand brackets.
 */
export const MAX_NESTING = 1000;

/** Whether `source` opens more than MAX_NESTING brackets without closing them (strings and comments counted too). */
export function nestsTooDeep(source: string): boolean {
  let depth = 0;
  for (let i = 0; i < source.length; i++) {
    const c = source.charCodeAt(i);
    if (c === 40 || c === 91 || c === 123) {
      if (++depth > MAX_NESTING) return true;
    } else if ((c === 41 || c === 93 || c === 125) && depth > 0) {
      depth--;
    }
  }
  return false;
}

/** A parse's tree, or why there is none: given up at its deadline, nested too deep to try, or failed. */
export type ParseOutcome = { tree: Tree } | { tree: null; reason: 'halted' | 'too_deep' | 'failed' };

/** `source` parsed by `parser` within `budgetMs`, never resuming a parse an earlier call left halted. */
export function parseWithin(parser: Parser, source: string, budgetMs: number): ParseOutcome {
  if (nestsTooDeep(source)) return { tree: null, reason: 'too_deep' };
  const deadline = performance.now() + budgetMs;
  try {
    // A parse halted by its deadline resumes on the parser's next parse unless it is reset: the next file would be read as the rest of this one.
    parser.reset();
    const tree = parser.parse(source, null, { progressCallback: () => performance.now() > deadline });
    return tree ? { tree } : { tree: null, reason: 'halted' };
  } catch {
    return { tree: null, reason: 'failed' };
  }
}
