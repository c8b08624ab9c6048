/**
 * What the in-process navigation benches on googletest share: plumb over googletest with cmake's compile
 * database (clangd), its index built, and the timing helpers. bench/calls.ts and bench/hierarchy.ts use it.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { buildApp, type PlumbApp } from '../src/app.js';
import { validateConfig } from '../src/config.js';

/** plumb over /usr/src/googletest in a scratch cache, index ready; `close()` stops it and removes the scratch. */
export async function googletestApp(name: string): Promise<{ app: PlumbApp; close(): Promise<void> }> {
  const scratch = mkdtempSync(path.join(os.tmpdir(), `plumb-bench-${name}-`));
  const build = path.join(scratch, 'gtest-build');
  execFileSync('cmake', ['-S', '/usr/src/googletest', '-B', build, '-DCMAKE_EXPORT_COMPILE_COMMANDS=ON'], { stdio: 'ignore' });
  const app = await buildApp({ root: '/usr/src/googletest', config: validateConfig({ cacheDir: path.join(scratch, 'cache'), logLevel: 'silent', compileDatabase: { directory: build }, index: { watch: false } }), logger: false });
  while (app.plumb.index.status().state !== 'ready') await new Promise((resolve) => setTimeout(resolve, 100));
  return {
    app,
    async close() {
      await app.close();
      rmSync(scratch, { recursive: true, force: true });
    },
  };
}

/** The p-th percentile of `values`, rounded to 0.1 ms. */
export function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return Math.round(sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] * 10) / 10;
}

/** Milliseconds of each of `runs` sequential runs of `work`. */
export async function time(runs: number, work: () => Promise<unknown>): Promise<number[]> {
  const out: number[] = [];
  for (let i = 0; i < runs; i++) {
    const started = performance.now();
    await work();
    out.push(performance.now() - started);
  }
  return out;
}
