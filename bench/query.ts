/**
 * tsx bench/query.ts DB [--golden FILE] [--check FILE] [--rounds N]: the store's search alone on an
 * existing index (a copy of the bench's million-symbol database), per query shape, wall and CPU
 * time medians; --golden writes every answer, --check compares against such a file (same ranking).
 *
 * tsx bench/query.ts DB --compare postgres://USER@HOST:PORT/DB [--workspace NAME]: the golden queries and every
 * other read (bench/golden-queries.ts) against the SQLite index DB and the PostgreSQL one of the same tree
 * (workspace NAME, by default the database file's directory name up to its hash); exits 1 on any difference.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { SqliteSymbolStore } from '../src/index/sqlite/store.js';
import { PostgresSymbolStore } from '../src/index/postgres/store.js';
import { compareStores, goldenSpec as spec, QUERIES, VARIANTS } from './golden-queries.js';
import { COUNT_CAP } from '../src/index/store.js';
import { option } from './measure.js';

const argv = process.argv.slice(2);
const file = argv[0];
const rounds = Number(option('--rounds') ?? 30);

const store = SqliteSymbolStore.open({ file });

const compare = option('--compare');
if (compare) {
  const workspace = option('--workspace') ?? path.basename(path.dirname(file)).replace(/-[0-9a-f]{16}$/, '');
  const other = await PostgresSymbolStore.open({ url: compare, workspace, readOnly: true });
  const { cases, differences } = await compareStores(store, other, 5);
  await other.close();
  await store.close();
  if (differences.length === 0) {
    console.log(`same answers on both stores (${cases} reads)`);
    process.exit(0);
  }
  for (const difference of differences) {
    const [a, b] = [JSON.stringify(difference.a), JSON.stringify(difference.b)];
    let at = 0;
    while (at < a.length && a[at] === b[at]) at++;
    console.log(`DIFF ${difference.label}\n  sqlite:   …${a.slice(Math.max(0, at - 120), at + 240)}\n  postgres: …${b.slice(Math.max(0, at - 120), at + 240)}`);
  }
  console.log(`answers differ (first ${differences.length} of ${cases} reads shown)`);
  process.exit(1);
}

if (option('--golden') || option('--check')) {
  const answers: Record<string, unknown> = {};
  for (const query of QUERIES) {
    for (const [i, variant] of VARIANTS.entries()) {
      const page = await store.search(spec(query, variant));
      answers[`${query}#${i}`] = { totalMatches: page.totalMatches, forwardDeclarations: page.forwardDeclarations, results: page.results.map((hit) => ({ tier: hit.tier, ...hit.symbol })), ...(page.countsCapped ? { countsCapped: true } : {}) };
    }
  }
  const golden = option('--golden');
  if (golden) writeFileSync(golden, JSON.stringify(answers));
  const check = option('--check');
  if (check) {
    const expected = JSON.parse(readFileSync(check, 'utf8')) as Record<string, unknown>;
    let bad = 0;
    let capped = 0;
    for (const [key, value] of Object.entries(expected)) {
      const want = value as Answer;
      const got = answers[key] as Answer;
      // Capped counts are lower bounds of the exact ones (a golden file written before capping); the page must not change.
      if (got.countsCapped && !want.countsCapped) {
        capped++;
        const bounded = got.totalMatches <= want.totalMatches && got.forwardDeclarations <= want.forwardDeclarations && got.totalMatches + got.forwardDeclarations >= COUNT_CAP;
        if (bounded && JSON.stringify(got.results) === JSON.stringify(want.results)) continue;
      }
      if (JSON.stringify(value) !== JSON.stringify(answers[key])) {
        bad++;
        console.log(`DIFF ${key}`);
      }
    }
    console.log(bad === 0 ? `same answers (${Object.keys(expected).length}, ${capped} with capped counts)` : `${bad} answers differ`);
  }
} else {
  const rows: Array<{ query: string; wall: number; cpu: number }> = [];
  const allWall: number[] = [];
  const allCpu: number[] = [];
  const only = option('--only')?.split(',');
  for (const query of only ?? QUERIES) {
    const s = spec(query, {}, true);
    await store.search(s);
    const wall: number[] = [];
    const cpu: number[] = [];
    for (let i = 0; i < rounds; i++) {
      const c0 = process.cpuUsage();
      const t0 = performance.now();
      await store.search(s);
      wall.push(performance.now() - t0);
      const c = process.cpuUsage(c0);
      cpu.push((c.user + c.system) / 1000);
    }
    allWall.push(...wall);
    allCpu.push(...cpu);
    rows.push({ query, wall: median(wall), cpu: median(cpu) });
  }
  for (const r of rows) console.log(`${r.query.padEnd(16)} wall ${r.wall.toFixed(2).padStart(8)} ms   cpu ${r.cpu.toFixed(2).padStart(8)} ms`);
  console.log(`ALL p50 wall ${pct(allWall, 50).toFixed(2)} cpu ${pct(allCpu, 50).toFixed(2)}; p99 wall ${pct(allWall, 99).toFixed(2)} cpu ${pct(allCpu, 99).toFixed(2)}`);
  const bench = allWall.slice(0, 18 * rounds);
  const benchCpu = allCpu.slice(0, 18 * rounds);
  console.log(`BENCH18 p50 wall ${pct(bench, 50).toFixed(2)} cpu ${pct(benchCpu, 50).toFixed(2)}; p99 wall ${pct(bench, 99).toFixed(2)} cpu ${pct(benchCpu, 99).toFixed(2)}`);
}
await store.close();

interface Answer {
  totalMatches: number;
  forwardDeclarations: number;
  results: unknown[];
  countsCapped?: boolean;
}

function median(values: number[]): number {
  return pct(values, 50);
}
function pct(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}
