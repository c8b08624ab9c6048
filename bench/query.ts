/**
 * tsx bench/query.ts DB [--golden FILE] [--check FILE] [--rounds N]: the store's search alone on an
 * existing index (a copy of the bench's million-symbol database), per query shape, wall and CPU
 * time medians; --golden writes every answer, --check compares against such a file (same ranking).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { parseQuery } from '../src/index/ranking.js';
import { SqliteSymbolStore } from '../src/index/sqlite/store.js';
import { MATCH_TIERS, type SearchSpec } from '../src/index/store.js';

const argv = process.argv.slice(2);
const file = argv[0];
const option = (name: string): string | undefined => {
  const at = argv.indexOf(name);
  return at >= 0 ? argv[at + 1] : undefined;
};
const rounds = Number(option('--rounds') ?? 30);

/** The bench's queries plus generic ones (short, common words) that match hundreds of thousands. */
const QUERIES = ['TestPartResult', 'Matcher', 'Observable', 'BehaviorSubject', 'Flask', 'NewRequest', 'HandlerFunc', 'printf', 'ZodString', 'testing::Test', 'behaviorsubject', 'BS', 'FPC', 'Subscri', 'get_json', 'ParseInt', 'Receipt', 'SchedulerLike', 'get', 'set', 'init', 'x', 'Get', 'string', 'Error'];

/** Extra shapes for the golden answers only: pages further in, forward declarations, filters. */
const VARIANTS: Array<Partial<SearchSpec>> = [
  {},
  { offset: 40, limit: 30 },
  { offset: 500, limit: 200 },
  { includeForwardDeclarations: true, offset: 0, limit: 200 },
  { userOnly: true },
  { kinds: ['function', 'method'] },
  { language: 'python' },
];

function spec(query: string, variant: Partial<SearchSpec>, asRoute = false): SearchSpec {
  const { name, qualifier } = parseQuery(query);
  // The timings ask what /symbols asks: a qualified query consults exact, case-insensitive and prefix only.
  const tiers = asRoute && qualifier ? MATCH_TIERS.slice(0, 3) : MATCH_TIERS;
  return { name, qualifier, tiers, offset: 0, limit: 50, includeForwardDeclarations: false, ...variant };
}

const store = SqliteSymbolStore.open({ file });

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
        const bounded = got.totalMatches <= want.totalMatches && got.forwardDeclarations <= want.forwardDeclarations && got.totalMatches + got.forwardDeclarations >= 10_000;
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
