/**
 * The golden queries: what bench/query.ts times and writes as golden answers, and what the store comparison
 * (bench/query.ts --compare, test/index/postgres-store.test.ts) asks two stores, expecting identical answers.
 */
import { parseQuery } from '../src/index/ranking.js';
import { COUNT_CAP, MATCH_TIERS, type SearchSpec, type SymbolReader } from '../src/index/store.js';

/** The bench's queries plus generic ones (short, common words) that match hundreds of thousands. */
export const QUERIES = ['TestPartResult', 'Matcher', 'Observable', 'BehaviorSubject', 'Flask', 'NewRequest', 'HandlerFunc', 'printf', 'ZodString', 'testing::Test', 'behaviorsubject', 'BS', 'FPC', 'Subscri', 'get_json', 'ParseInt', 'Receipt', 'SchedulerLike', 'get', 'set', 'init', 'x', 'Get', 'string', 'Error'];

/** Extra shapes for the golden answers only: pages further in, forward declarations, filters. */
export const VARIANTS: Array<Partial<SearchSpec>> = [
  {},
  { offset: 40, limit: 30 },
  { offset: 500, limit: 200 },
  { includeForwardDeclarations: true, offset: 0, limit: 200 },
  { userOnly: true },
  { kinds: ['function', 'method'] },
  { language: 'python' },
];

/** A query as /symbols asks it (`asRoute`: a qualified query consults exact, case-insensitive and prefix only). */
export function goldenSpec(query: string, variant: Partial<SearchSpec>, asRoute = false): SearchSpec {
  const { name, qualifier } = parseQuery(query);
  const tiers = asRoute && qualifier ? MATCH_TIERS.slice(0, 3) : MATCH_TIERS;
  return { name, qualifier, tiers, offset: 0, limit: 50, includeForwardDeclarations: false, ...variant };
}

/** Queries reaching every tier and the qualifier forms (C++ namespaces, Python modules and packages), odd text too. */
export const MORE_QUERIES = [
  'Test', 'TEST', 'test', 'testing.Test', 'testing::internal::UnitTestImpl', 'internal.String', 'flask.Flask', 'flask.app.Flask', 'Flask.run', 'app.Flask.route',
  'flask.helpers.url_for', 'json.dumps', 'UTI', 'UnitTI', 'TPR', 'gtest', 'Assert', 'EXPECT_EQ', 'expect_eq', 'Printer', 'Listener', 'request', 'const char',
  'int main', 'std::string', '_', '__init__', 'a_b', 'größe', 'Ünïcödé', 'x\u0000y', 'int\u0000argc', 'get\u0000', '%', '50%_', 'a\\b', "it's", '"quoted"',
  'Matcher<T>', 'operator==', 'operator', '::', '.', 'tes', 'ing', 'abc', 'Scoped', 'Impl', 'Helper', 'Message', 'Environment', 'Blueprint', 'Response',
  // CamelCase mixing words and initials.
  'TestPR', 'UTImpl', 'TPResult', 'GTestFS',
];

/** One comparison: a label and the read it makes of a store. */
export interface StoreCase {
  label: string;
  run(store: SymbolReader): Promise<unknown>;
}

/**
 * Every reader method over the golden queries and over what `reference` holds (its files, containers,
 * bases, packages): the reads two stores of one tree must answer identically.
 */
export async function storeCases(reference: SymbolReader): Promise<StoreCase[]> {
  const cases: StoreCase[] = [];
  const search = (label: string, spec: SearchSpec): void => {
    cases.push({ label: `search ${label}`, run: async (store) => store.search(spec) });
  };
  for (const query of QUERIES) for (const [i, variant] of VARIANTS.entries()) search(`${JSON.stringify(query)}#${i}`, goldenSpec(query, variant));
  for (const query of [...QUERIES, ...MORE_QUERIES]) {
    search(`${JSON.stringify(query)} route`, goldenSpec(query, {}, true));
    search(`${JSON.stringify(query)} exact mode`, { ...goldenSpec(query, {}), tiers: MATCH_TIERS.slice(0, 2) });
  }
  for (const query of MORE_QUERIES) {
    search(`${JSON.stringify(query)} all tiers`, goldenSpec(query, {}));
    search(`${JSON.stringify(query)} fwd`, goldenSpec(query, { includeForwardDeclarations: true, limit: 100 }));
  }
  const packages = await reference.listPackages();
  const files = await reference.indexedFiles();
  // Pages past the cap, deep offsets with forward declarations, every filter.
  for (const query of ['get', 'e', 'Test', 'set', 'x', 'int', 'string']) {
    search(`${query} past the cap`, goldenSpec(query, { offset: COUNT_CAP + 5, limit: 20 }));
    search(`${query} deep`, goldenSpec(query, { offset: 1500, limit: 100 }));
    search(`${query} deep fwd`, goldenSpec(query, { offset: 1990, limit: 100, includeForwardDeclarations: true }));
    search(`${query} small page`, goldenSpec(query, { offset: 3, limit: 1 }));
    for (const pkg of packages.slice(0, 4)) search(`${query} package ${pkg.name}`, goldenSpec(query, { packages: [pkg.name] }));
    search(`${query} two packages`, goldenSpec(query, { packages: packages.slice(0, 2).map((p) => p.name) }));
    search(`${query} cpp user`, goldenSpec(query, { language: 'cpp', userOnly: true, kinds: ['class', 'struct', 'function'] }));
  }
  for (const containingType of ['Test', 'Flask', 'UnitTest', 'Message', 'Scaffold', 'Nope']) {
    for (const query of ['get', 'Run', 'run', 'route', 'e', 'SetUp']) search(`${query} in ${containingType}`, goldenSpec(query, { containingType }));
    search(`${containingType}-contained, qualified`, goldenSpec(`${containingType}.get`, { containingType }));
  }

  // Every other read.
  const sample = files.filter((_, i) => i % 7 === 0);
  for (const file of [...sample, 'no/such/file.cc', files[0] ? `${files[0]}\u0000` : 'x']) {
    cases.push({ label: `symbolsInFile ${file}`, run: async (store) => store.symbolsInFile(file) });
  }
  const some = (await Promise.all(sample.slice(0, 12).map((file) => reference.symbolsInFile(file)))).flat();
  for (const symbol of some.filter((_, i) => i % 5 === 0).slice(0, 60)) cases.push({ label: `symbolById ${symbol.id}`, run: async (store) => store.symbolById(symbol.id) });
  cases.push({ label: 'symbolById missing', run: async (store) => store.symbolById('nosuchsymbol') });
  const containers = [...new Set(some.map((symbol) => symbol.containingType).filter((name): name is string => name !== null))].slice(0, 25);
  for (const container of [...containers, 'Test', 'Flask', 'Nope']) {
    for (const limit of [3, 500]) cases.push({ label: `symbolsInContainer ${container} ${limit}`, run: async (store) => store.symbolsInContainer(container, limit) });
  }
  const names = [...new Set(some.map((symbol) => symbol.name))].slice(0, 40);
  cases.push({ label: 'symbolsNamed sample', run: async (store) => store.symbolsNamed(names, 10) });
  cases.push({ label: 'symbolsNamed common', run: async (store) => store.symbolsNamed(['Test', 'get', 'TestBody', 'SetUp', 'run', 'Flask', 'x\u0000'], 3) });
  const bases = [...new Set(some.flatMap((symbol) => symbol.bases))].slice(0, 20);
  for (const base of [...bases, 'Test', 'Environment', 'Flask', 'Exception', 'object', 'App', 'Scaffold', 'TestWithParam', 'Nope']) {
    for (const limit of [2, 300]) cases.push({ label: `symbolsWithBase ${base} ${limit}`, run: async (store) => store.symbolsWithBase(base, limit) });
  }
  cases.push({ label: 'indexedFiles', run: async (store) => store.indexedFiles() });
  cases.push({ label: 'indexedFileInfos all', run: async (store) => store.indexedFileInfos({}) });
  cases.push({ label: 'indexedFileInfos user', run: async (store) => store.indexedFileInfos({ userOnly: true }) });
  cases.push({ label: 'indexedFileInfos python', run: async (store) => store.indexedFileInfos({ languages: ['python'] }) });
  cases.push({ label: 'indexedFileInfos cpp+c', run: async (store) => store.indexedFileInfos({ languages: ['cpp', 'c'] }) });
  for (const pkg of packages) cases.push({ label: `indexedFileInfos package ${pkg.name}`, run: async (store) => store.indexedFileInfos({ packages: [pkg.name], userOnly: false }) });
  cases.push({ label: 'listPackages', run: async (store) => store.listPackages() });
  for (const name of [...packages.map((p) => p.name), ...packages.map((p) => p.name.toUpperCase()), 'nope', 'FLASK', 'GoogleTest']) {
    cases.push({ label: `packageNamesLike ${name}`, run: async (store) => store.packageNamesLike(name) });
  }
  for (const pkg of packages) {
    for (const spec of [
      { offset: 0, limit: 50, includeForwardDeclarations: false },
      { offset: 120, limit: 40, includeForwardDeclarations: false },
      { offset: 0, limit: 5000, includeForwardDeclarations: true },
      { offset: 30, limit: 30, includeForwardDeclarations: false, kinds: ['class' as const, 'function' as const] },
    ]) cases.push({ label: `packageSymbols ${pkg.name} ${JSON.stringify(spec)}`, run: async (store) => store.packageSymbols({ packageName: pkg.name, ...spec }) });
  }
  cases.push({ label: 'counts', run: async (store) => store.counts() });
  cases.push({ label: 'languageCounts', run: async (store) => store.languageCounts() });
  return cases;
}

/** Runs every case on both stores; the differences, first `max` of them. */
export async function compareStores(a: SymbolReader, b: SymbolReader, max = 10): Promise<{ cases: number; differences: Array<{ label: string; a: unknown; b: unknown }> }> {
  const cases = await storeCases(a);
  const differences: Array<{ label: string; a: unknown; b: unknown }> = [];
  for (const c of cases) {
    const [x, y] = [await c.run(a), await c.run(b)];
    if (JSON.stringify(x) !== JSON.stringify(y) && differences.length < max) differences.push({ label: c.label, a: x, b: y });
  }
  return { cases: cases.length, differences };
}
