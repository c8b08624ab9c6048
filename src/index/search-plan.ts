/**
 * The search algorithm every store shares: which tiers apply to a query, how each tier is counted (exactly
 * when small, up to COUNT_CAP when large), and how a page is cut across the tiers in order. A backend
 * (src/index/sqlite/search.ts, src/index/postgres/search.ts) supplies the tiers' lookups in its own SQL;
 * the decisions here are the same for every backend, so their totals, capped flags and pages are identical.
 */
import { fuzzyPattern } from './ranking.js';
import { COUNT_CAP } from './count-cap.js';
import type { MatchTier, SearchHit, SearchPage, SearchSpec, StoredSymbol } from './store.js';

/** id, fwd, rank, name, file_id, nl, nc: what a tier is counted and ordered by. */
export type NarrowRow = [number, number, number, string, number, number, number];

/** A tier read by narrowMany: its count, n matches of which f are forward declarations, and the matches unless left out. */
export interface TierRead {
  n: number;
  f: number;
  rows?: NarrowRow[];
}

/**
 * A tier with up to this many matches is read once and ordered here; a larger one is counted and paged in SQL. 500 (was
 * 2000): a generic name's large tiers were read 2001 rows deep before being counted anyway; PostgreSQL's CPU per
 * search on the million-symbol index's generic names fell by a quarter, SQLite's stayed (bench/team.ts).
 */
export const NARROW_MAX = 500;

/**
 * One backend's lookups over one tier's matches (`source`, the backend's own description of the tier's
 * rows). Every count is of the tier's matches, which the backend makes disjoint from the tiers before it.
 */
export interface TierLookups<Source> {
  /** The tier's matches for this query, or undefined when the tier cannot apply (see tierApplies). */
  source(tier: MatchTier, spec: SearchSpec): Source | undefined;
  /** Up to `max` + 1 of the tier's matches, in any order. */
  narrow(source: Source, max: number): NarrowRow[] | Promise<NarrowRow[]>;
  /**
   * Optional, for a backend where a pass over some tiers costs their candidates again (SQLite's tiers checked name by name): how
   * many matches of such a tier the page reaches are read at once (narrow) when its counts stop at a cap, instead of NARROW_MAX.
   * A tier of up to that many is then counted and paged from its rows, where it would be read three times (narrow, countUpTo,
   * pageIds); a larger one is counted from them when they already reach its count's limit.
   */
  wideMax?(tier: MatchTier): number;
  /**
   * Optional, for a backend where each lookup is a round trip: the applicable tiers read at once (one statement),
   * before the tiers are counted. Per source: null when the backend left it unread (it may stop at the first tier of
   * more than `max` matches: planSearch then reads the later tiers itself, only as far as it needs them, as it does
   * for a backend without narrowMany), undefined when it has more than `max` matches, else its count (`n`,
   * `f` of them forward declarations) and its matches in any order (`rows`), which may be left out for a tier the
   * page cannot reach (the main matches of the tiers before it, those of at most `max`, already reach offset +
   * limit, and forward declarations are not listed). planSearch uses the rows wherever it would call narrow(), and
   * the count for a tier the page does not reach when it is below the count's budget.
   * `symbols`, if given, holds the symbols of the page as cut from those matches alone (tiers in order, ORDER_IN_TIER
   * within, forward declarations after all the rest when asked for, `offset`/`limit`): planSearch takes the page's
   * symbols from it when it holds every one, else calls symbols().
   * A backend without it (SQLite) is asked tier by tier, only as far as needed.
   */
  narrowMany?(sources: Source[], max: number, page: SearchSpec): Promise<{ tiers: Array<TierRead | undefined | null>; symbols?: Map<number, StoredSymbol> }>;
  /** Every match counted: n in all, f of them forward declarations. */
  countAll(source: Source): { n: number; f: number } | Promise<{ n: number; f: number }>;
  /** Matches with this fwd, counting no further than `limit` (> 0). */
  countUpTo(source: Source, fwd: number, limit: number): number | Promise<number>;
  /**
   * Optional, for a backend where a tier's scan is dear (PostgreSQL's CamelCase tier reads a first hump's whole range of
   * names): up to `limit` + 1 matches read in one scan, and of those `n`, `f` of them forward declarations. When `n` is at
   * most `limit` these are the tier's counts; else it counts them again as countUpTo does, only if it needs them. Without
   * it, a tier under the count's budget is scanned whole twice (its definitions, then its forward declarations).
   */
  countWithin?(source: Source, limit: number): Promise<{ n: number; f: number }>;
  /** Ids of matches with this fwd in ORDER_IN_TIER (rank, name by code point, file_id, nl, nc, id), `take` after `skip`. */
  pageIds(source: Source, fwd: number, take: number, skip: number): number[] | Promise<number[]>;
  /**
   * Optional, for a backend that can walk a tier's matches in name order (SQLite's CamelCase tier, whose candidates are names
   * with a known first hump): the ids of its matches of rank 0 (user definitions) with this fwd in ORDER_IN_TIER, `take` after
   * `skip`, none of them named past `last`; undefined when walking there would cost more than sorting the tier (pageIds is then
   * asked). planSearch asks only when the tier's matches already read (some of them, in any order) hold at least `skip` +
   * `take` of rank 0 with this fwd, `last` the name of the last of those in ORDER_IN_TIER: the page is then of rank 0 alone,
   * and every match it holds is named `last` or before.
   */
  pageIdsByName?(source: Source, fwd: number, take: number, skip: number, last: string): number[] | undefined | Promise<number[] | undefined>;
  /** The symbols of these row ids (absent ids are left out). */
  symbols(ids: number[]): Map<number, StoredSymbol> | Promise<Map<number, StoredSymbol>>;
}

/**
 * Whether a tier can match the query at all: fuzzy needs a plausible abbreviation, substring three
 * characters (trigrams), signature a word character and no qualifier.
 */
export function tierApplies(tier: MatchTier, spec: SearchSpec): boolean {
  switch (tier) {
    case 'fuzzy':
      return fuzzyPattern(spec.name) !== undefined;
    case 'substring':
      return spec.name.toLowerCase().length >= 3;
    case 'signature':
      return !spec.qualifier && /[A-Za-z0-9_]/.test(spec.name);
    default:
      return true;
  }
}

/** ORDER_IN_TIER in JavaScript: names by code point, as SQLite's BINARY and PostgreSQL's "C" compare UTF-8 bytes; then id, the index's tie order. */
export function compareInTier(a: NarrowRow, b: NarrowRow): number {
  return a[2] - b[2] || compareBinary(a[3], b[3]) || a[4] - b[4] || a[5] - b[5] || a[6] - b[6] || a[0] - b[0];
}

function compareBinary(a: string, b: string): number {
  if (a === b) return 0;
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const x = a.charCodeAt(i);
    const y = b.charCodeAt(i);
    if (x !== y) return codePointOrder(x) - codePointOrder(y);
  }
  return a.length - b.length;
}

/** A UTF-16 unit moved so surrogates (code points above U+FFFF) sort after U+E000..U+FFFF, as in UTF-8. */
function codePointOrder(unit: number): number {
  if (unit >= 0xd800 && unit <= 0xdfff) return unit + 0x2000;
  if (unit >= 0xe000) return unit - 0x800;
  return unit;
}

/** Every applicable tier's source and matches, read at once (TierLookups.narrowMany). */
async function prefetch<Source>(spec: SearchSpec, lookups: TierLookups<Source>, narrowMany: NonNullable<TierLookups<Source>['narrowMany']>): Promise<{ tiers: Map<MatchTier, { source: Source; read: TierRead | undefined }>; symbols?: Map<number, StoredSymbol> }> {
  const wanted: Array<{ tier: MatchTier; source: Source }> = [];
  for (const tier of spec.tiers) {
    if (!tierApplies(tier, spec)) continue;
    const source = lookups.source(tier, spec);
    if (source !== undefined) wanted.push({ tier, source });
  }
  if (wanted.length === 0) return { tiers: new Map() };
  const { tiers: tiersRead, symbols } = await narrowMany(wanted.map((w) => w.source), NARROW_MAX, spec);
  // A tier left unread is read below as a backend without narrowMany reads it.
  const read = wanted.flatMap((w, i) => (tiersRead[i] === null ? [] : [[w.tier, { source: w.source, read: tiersRead[i] ?? undefined }] as const]));
  return { tiers: new Map(read), symbols };
}

/** Runs one SearchSpec over a backend's tier lookups. */
export async function planSearch<Source>(spec: SearchSpec, lookups: TierLookups<Source>): Promise<SearchPage> {
  const end = spec.offset + spec.limit;
  // Counting stops near COUNT_CAP (never below the page's end) unless forward declarations are listed, whose offsets need every count.
  const cap = spec.includeForwardDeclarations ? Infinity : Math.max(COUNT_CAP, end + 1);
  let counted = 0;
  let capped = false;
  // Each tier once: a tier the page may reach is read as narrow rows (count and order from them) when small, else counted.
  let before = 0;
  const tiers: Array<{ tier: MatchTier; source: Source; rows: NarrowRow[] | undefined; many: NarrowRow[] | undefined; main: number; fwd: number }> = [];
  const early = lookups.narrowMany ? await prefetch(spec, lookups, lookups.narrowMany) : undefined;
  for (const tier of spec.tiers) {
    if (capped || !tierApplies(tier, spec)) continue;
    const prefetched = early?.tiers.get(tier);
    const read = prefetched?.read;
    const source = prefetched ? prefetched.source : lookups.source(tier, spec);
    if (source === undefined) continue;
    let rows: NarrowRow[] | undefined;
    // Matches read past NARROW_MAX: all of the tier's when no more than `wide` (wideMax), else some of them, in any order; its
    // counts are taken from them when they reach the counts' limits (COUNT_CAP below NARROW_MAX: a tier of 501 read needs no count).
    let many: NarrowRow[] | undefined;
    const wide = !prefetched && lookups.wideMax && cap !== Infinity && before < end ? Math.max(lookups.wideMax(tier), NARROW_MAX) : NARROW_MAX;
    if (before < end || spec.includeForwardDeclarations) {
      // Prefetched: none past NARROW_MAX; rows are left out only where the page cannot reach (were they wanted, narrow() reads them).
      const found = prefetched && !read ? undefined : read?.rows ?? (await lookups.narrow(source, wide));
      if (found && found.length <= NARROW_MAX) rows = found.sort(compareInTier);
      else if (found) many = found;
    }
    let main: number;
    let fwd: number;
    if (rows) {
      fwd = rows.reduce((n, row) => n + row[1], 0);
      main = rows.length - fwd;
    } else if (cap === Infinity) {
      const all = await lookups.countAll(source);
      fwd = all.f;
      main = all.n - all.f;
    } else if (before < end) {
      // The page reaches this large tier: its own count goes at least to the page's end, so the offset inside it stays exact.
      // Each count is what countUpTo gives (the matches up to its limit), from the matches read when they reach it or are all.
      const whole = many !== undefined && many.length <= wide;
      const seenFwd = many ? many.reduce((n, row) => n + row[1], 0) : 0;
      const seenMain = many ? many.length - seenFwd : 0;
      const upTo = async (fwdOf: 0 | 1, seen: number, limit: number): Promise<number> => (whole || seen >= limit ? Math.min(seen, limit) : await lookups.countUpTo(source, fwdOf, limit));
      const mainLimit = Math.max(cap - counted, end - before);
      main = mainLimit > 0 ? await upTo(0, seenMain, mainLimit) : 0;
      const fwdLimit = Math.max(cap - counted - main, 0);
      fwd = fwdLimit > 0 ? await upTo(1, seenFwd, fwdLimit) : 0;
      if (main >= mainLimit || fwd >= fwdLimit) capped = true;
      // Every match read: the page is cut from them (ORDER_IN_TIER), not read again.
      if (whole) rows = many!.sort(compareInTier);
    } else {
      const budget = cap - counted;
      if (budget <= 0) {
        capped = true;
        continue;
      }
      // Definitions and declarations first, then forward declarations, each counted up to what is left of the budget:
      // which matches a count reaches never depends on the order a backend finds them in, so the counts are the same
      // in every store and every build. Every match already read and fewer than the budget: counted from the read.
      if (read && read.n < budget) {
        fwd = read.f;
        main = read.n - read.f;
      } else {
        // One scan of up to budget + 1 matches, where the backend has it: all of them when they are no more than the budget,
        // or the budget of definitions and declarations when every one read is (what the two counts below would give).
        const within = lookups.countWithin ? await lookups.countWithin(source, budget) : undefined;
        if (within && (within.n <= budget || within.f === 0)) {
          fwd = within.n <= budget ? within.f : 0;
          main = within.n <= budget ? within.n - within.f : budget;
        } else {
          main = await lookups.countUpTo(source, 0, budget);
          fwd = budget - main > 0 ? await lookups.countUpTo(source, 1, budget - main) : 0;
        }
        if (main + fwd >= budget) capped = true;
      }
    }
    before += main;
    counted += main + fwd;
    tiers.push({ tier, source, rows, many: rows ? undefined : many, main, fwd });
  }
  const totalMatches = tiers.reduce((sum, t) => sum + t.main, 0);
  const forwardDeclarations = tiers.reduce((sum, t) => sum + t.fwd, 0);

  // Pages over the tiers in order; forward declarations come after everything when asked for.
  const segments = tiers.map((t) => ({ ...t, segmentFwd: 0, count: t.main }));
  if (spec.includeForwardDeclarations) segments.push(...tiers.map((t) => ({ ...t, segmentFwd: 1, count: t.fwd })));
  const picked: Array<{ id: number; tier: MatchTier }> = [];
  let skip = spec.offset;
  for (const segment of segments) {
    if (picked.length >= spec.limit) break;
    if (skip >= segment.count) {
      skip -= segment.count;
      continue;
    }
    const take = spec.limit - picked.length;
    // A large tier whose matches read (some of them, in any order) hold the page's count of rank 0: its page is of rank 0 alone,
    // named no later than the last of those the page's count reaches.
    const firstRank = lookups.pageIdsByName && segment.many?.filter((row) => row[1] === segment.segmentFwd && row[2] === 0);
    const byName = firstRank && firstRank.length >= skip + take
      ? await lookups.pageIdsByName!(segment.source, segment.segmentFwd, take, skip, firstRank.sort(compareInTier)[skip + take - 1][3])
      : undefined;
    const ids = segment.rows
      ? segment.rows.filter((row) => row[1] === segment.segmentFwd).slice(skip, skip + take).map((row) => row[0])
      : byName ?? await lookups.pageIds(segment.source, segment.segmentFwd, take, skip);
    skip = 0;
    for (const id of ids) picked.push({ id, tier: segment.tier });
  }
  // Only the page's symbols are read whole.
  const ready = early?.symbols;
  const byId = picked.length === 0 ? new Map<number, StoredSymbol>() : ready && picked.every((p) => ready.has(p.id)) ? ready : await lookups.symbols(picked.map((p) => p.id));
  const results: SearchHit[] = [];
  for (const { id, tier } of picked) {
    const symbol = byId.get(id);
    if (symbol) results.push({ symbol, tier });
  }
  return capped ? { results, totalMatches, forwardDeclarations, countsCapped: true } : { results, totalMatches, forwardDeclarations };
}
