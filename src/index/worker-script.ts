/**
 * What a worker thread running one of plumb's own modules is started with: the compiled module beside the caller,
 * or under tsx (tests, bench), where the caller is TypeScript, a script that loads tsx in the thread and imports the
 * module's source through it. Node 20 does not carry tsx's loader into workers, and nothing is bundled at run time.
 */
import type { WorkerOptions } from 'node:worker_threads';

/** `new Worker(script, options)` for the module `name` (no extension) beside `from` (the caller's import.meta.url). */
export function workerScript(from: string, name: string, options: WorkerOptions): { script: URL | string; options: WorkerOptions } {
  if (!from.endsWith('.ts')) return { script: new URL(`./${name}.js`, from), options };
  const api = import.meta.resolve('tsx/esm/api');
  const script = `import(${JSON.stringify(api)}).then((tsx) => tsx.tsImport(${JSON.stringify(new URL(`./${name}.ts`, from).href)}, ${JSON.stringify(from)}))`;
  return { script, options: { ...options, eval: true } };
}
