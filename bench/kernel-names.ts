/**
 * The Linux tree the kernel benches share and the names they ask of its index: the tree is Debian's
 * linux-source-6.1 (`apt-get install linux-source-6.1`) extracted once into the bench cache (or --root DIR), and
 * its index is built once into $PLUMB_BENCH_CACHE/kernel-index (or --cache DIR) with `plumb index`'s code.
 */
import { existsSync, readdirSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { validateConfig } from '../src/config.js';
import { SymbolIndex } from '../src/index/symbol-index.js';
import { corpusPath, linuxSource, requireCorpora } from '../test/corpora.js';

export const BENCH_CACHE = process.env.PLUMB_BENCH_CACHE ?? path.join(os.tmpdir(), 'plumb-bench');

/** The kernel tree: `root` when given, else the one extracted into the bench cache; a reason when there is none. */
export function kernelRoot(root: string | undefined): { root: string } | { skipped: string } {
  if (!root) {
    const missing: string[] = [];
    if (!requireCorpora({ fail: (message: string) => missing.push(message) }, 'linux-source', 'xz')) return { skipped: missing.join('; ') };
    const version = path.basename(corpusPath('linux-source')).replace(/\.tar\.xz$/, '');
    root = linuxSource([], path.join(BENCH_CACHE, version));
  }
  return existsSync(root) ? { root } : { skipped: `no kernel tree at ${root}` };
}

/** The SQLite index file of `root` in `cacheDir`, if built. */
export function kernelIndexFile(root: string, cacheDir: string): string | undefined {
  if (!existsSync(cacheDir)) return undefined;
  const dir = readdirSync(cacheDir).find((entry) => entry.startsWith(`${path.basename(root)}-`) && existsSync(path.join(cacheDir, entry, 'index.sqlite')));
  return dir ? path.join(cacheDir, dir, 'index.sqlite') : undefined;
}

/** The SQLite index file of `root` in `cacheDir`, built there first when it is not (some minutes). */
export async function kernelIndex(root: string, cacheDir: string, who: string): Promise<string> {
  const found = kernelIndexFile(root, cacheDir);
  if (found) return found;
  console.error(`${who}: building the index of ${root} into ${cacheDir} (once; some minutes)`);
  const index = await SymbolIndex.open({ root, config: validateConfig({ cacheDir, logLevel: 'silent', index: { watch: false } }), cacheDir });
  await index.build();
  await index.close();
  return kernelIndexFile(root, cacheDir) as string;
}

export interface KernelNames {
  symbols: number;
  distinct: number;
  /** Names of at most 3 symbols (forward declarations aside), in a fixed shuffled order. */
  rare: string[];
  /** Names of 50 symbols or more, in a fixed shuffled order. */
  common: string[];
}

/** Every distinct name of the index with its count of symbols (forward declarations aside), read once. */
export function kernelNames(file: string): KernelNames {
  const db = new Database(file, { readonly: true });
  const counted = db.prepare('SELECT name, count(*) AS n FROM symbols WHERE fwd = 0 GROUP BY name_lower, name').raw().all() as Array<[string, number]>;
  const symbols = db.prepare('SELECT count(*) FROM symbols').pluck().get() as number;
  db.close();
  const shuffled = (names: string[]): string[] => {
    let seed = 22;
    const random = (): number => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
    const out = [...names];
    for (let i = out.length - 1; i > 0; i--) {
      const j = Math.floor(random() * (i + 1));
      [out[i], out[j]] = [out[j], out[i]];
    }
    return out;
  };
  // Names a query can be written as (the search trims and splits qualified names): identifiers only.
  const plain = counted.filter(([name]) => /^[A-Za-z_][A-Za-z0-9_]*$/.test(name));
  return {
    symbols,
    distinct: counted.length,
    rare: shuffled(plain.filter(([, n]) => n <= 3).map(([name]) => name)),
    common: shuffled(plain.filter(([, n]) => n >= 50).map(([name]) => name)),
  };
}
