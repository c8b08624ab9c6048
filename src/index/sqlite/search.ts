/**
 * The search tiers in SQLite: each match tier as one indexed lookup (lower(name), distinct names by first hump,
 * FTS5 over distinct names and over signatures), made disjoint. The shared algorithm (src/index/search-plan.ts)
 * counts them (up to COUNT_CAP) and pages them in order. Which plan a tier takes is chosen from cheap name
 * statistics, never the answer. Nothing scans the symbols in JavaScript per query.
 */
import { LANGUAGES } from '../../languages/index.js';
import type { CamelNames } from '../camel-names.js';
import { camelHumps, camelPairs, firstHumpPrefix, fuzzyPattern, humpInitialsPairs, prefixEnd } from '../ranking.js';
import { COUNT_CAP } from '../count-cap.js';
import { NARROW_MAX, planSearch, type NarrowRow, type TierLookups } from '../search-plan.js';
import type { MatchTier, SearchPage, SearchSpec, StoredSymbol, SymbolFilters } from '../store.js';
import type { QueryHump } from '../ranking.js';
import { parseRows, ROW_ID, SYMBOL_COLUMNS, SYMBOL_JOINS, SYMBOL_NAMES, toSymbol } from './rows.js';
import { namedList, type SqlParams, type Statements } from './statements.js';

/** Within a tier: user before external and definitions before declarations (rank), then name, file (by its id, a hash of its path), position. */
const ORDER_IN_TIER = 'ORDER BY s.rank, s.name, s.file_id, s.nl, s.nc';

/**
 * One tier's FROM and WHERE with its named parameters. The names are the planner's own: a tier's
 * (`name`, `lower`, `fuzzy`...) and the filters' (`kind0`, `package0`, `qualifier`...) never meet the
 * paging ones search() adds (`budget`, `limit`, `take`, `skip`).
 */
interface TierSql {
  from: string;
  where: string;
  params: SqlParams;
  /**
   * The CamelCase tier's matches as names whose first hump starts with `first`: `where` (over `n`, the names row, and `s`, the
   * symbol) whatever plan `from` takes, so its matches can be walked in name order instead (pageIdsByName).
   */
  byName?: { first: string; where: string; params: SqlParams };
}

/** How many names hold a trigram or a pair of initials, or have a first hump starting with a prefix: they choose a plan, never an answer. */
interface NameStats {
  trigram(trigram: string): number;
  /** How many names hold a pair of initials (initialPairs) in name_initials. */
  pair(pair: string): number;
  /** Names holding the most common pair of this first initial, once readPairCounts read them all (else 0): a lower bound of the names of that initial. */
  pairsOf(initial: string): number;
  /** Whether more than `n` names have a first hump starting with `prefix` (counted up to n + 1: a first hump of one letter spans 340,905 kernel names, 3 ms to count all). */
  firstHumpOver(prefix: string, n: number): boolean;
  /** How many names have a first hump starting with `prefix`, once firstHumpOver found them no more than it asked (else that limit). */
  firstHumpCount(prefix: string): number;
  /** Distinct names in all. */
  names(): number;
}

/**
 * The CamelCase tier's candidates from memory (src/index/camel-names.ts), in a search thread once they are built: taken when the
 * names added since (ids past what they hold, read from SQLite) are no more than CAMEL_TAIL_MAX and the candidates no more than
 * CAMEL_CANDIDATES_MAX (a query like `s_c`: its candidates are most names starting with s); else the plans below.
 */
export const CAMEL_TAIL_MAX = 20_000;
const CAMEL_CANDIDATES_MAX = 100_000;

/**
 * The matches of a CamelCase, substring or signature tier the page reaches, read at once (TierLookups.wideMax): each further
 * pass over such a tier (its counts, then its page in ORDER_IN_TIER) checks its candidates again, where sorting its matches
 * here costs about a microsecond each. As many as the counts go (COUNT_CAP): a larger tier is counted from them. Not the
 * exact, case-insensitive and prefix tiers: their passes read symbols_name alone, cheaper than a thousand rows' JSON.
 */
const WIDE_MAX = COUNT_CAP;
const CHECKED_TIERS: ReadonlySet<MatchTier> = new Set(['fuzzy', 'substring', 'signature']);

/** Names walked in name order at most by one page of a CamelCase tier (pageByName): some 2 µs each, where sorting a tier this walk spares costs 10-200 ms. */
const BY_NAME_BUDGET = 5_000;

/**
 * The ranges of names, in BINARY order (from inclusive, to exclusive or open), that hold every name whose first hump
 * (firstHump: after any characters other than ASCII letters and digits) starts with `first` (lower case, ASCII letters and
 * digits): those starting with each way of writing its first three characters in either case, and those starting with a
 * character that is no ASCII letter or digit.
 */
export function firstHumpRanges(first: string): Array<[string, string | undefined]> {
  let heads = [''];
  for (const ch of first.slice(0, 3)) heads = heads.flatMap((head) => (/[a-z]/.test(ch) ? [head + ch.toUpperCase(), head + ch] : [head + ch]));
  const ranges: Array<[string, string | undefined]> = heads.map((head) => [head, prefixEnd(head)]);
  ranges.push(['', '0'], [':', 'A'], ['[', 'a'], ['{', undefined]);
  return ranges.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
}

/** Runs SearchSpecs against one database (src/index/sqlite/store.ts holds one). */
export class SearchPlanner {
  /**
   * Names per trigram (name_trigram_counts, else fts5vocab) and per first-hump prefix (up to what a plan asked), read once each: they only choose how a tier is read.
   * Read afresh once the names grew by a tenth (a first build answers searches while it runs).
   */
  private readonly statCounts = new Map<string, number>();
  private statNames = 0;
  /** The highest names.id as the last search read it (statNames stays until the names grew by a tenth). */
  private newestName = 0;
  private camel: CamelNames | undefined;
  private vocab = false;
  private readonly stats: NameStats = {
    trigram: (trigram) => this.stat(`t${trigram}`, () => {
      // A common trigram's count, as the end of the first build counted it and later writes kept it; a rarer one's, from its short rowid list.
      const common = this.statements.get('SELECT names FROM name_trigram_counts WHERE trigram = ?').pluck().get(trigram) as number | undefined;
      return common ?? this.vocabCount('name_trigrams', trigram);
    }),
    // From the pair's rowid list, read once (some 1,000 pairs in all; the kernel's longest, `dc`, 254,179 names, takes a few ms).
    pair: (pair) => this.stat(`p${pair}`, () => this.vocabCount('name_pairs', pair)),
    firstHumpOver: (prefix, n) => {
      const limit = Math.floor(n) + 1;
      // A one-letter prefix: the names of its most common pair have first humps starting with it (no range counted; 2-10 ms for 20,001 kernel names).
      if (prefix.length === 1 && (this.statCounts.get(`m${prefix}`) ?? 0) > n) return true;
      // Remembered as counted: exactly when below its limit, else as a lower bound.
      const known = this.statCounts.get(`f${prefix}`);
      if (known !== undefined && (known < this.statCounts.get(`l${prefix}`)! || known >= limit)) return known > n;
      const counted = this.statements.get('SELECT count(*) FROM (SELECT 1 FROM names WHERE first >= ? AND first < ? LIMIT ?)').pluck().get(prefix, prefixEnd(prefix), limit) as number;
      this.remember(`f${prefix}`, counted);
      this.remember(`l${prefix}`, limit);
      return counted > n;
    },
    pairsOf: (initial) => this.statCounts.get(`m${initial}`) ?? 0,
    firstHumpCount: (prefix) => this.statCounts.get(`f${prefix}`) ?? Infinity,
    names: () => this.statNames,
  };

  constructor(private readonly statements: Statements) {}

  private makeVocab(): void {
    this.statements.db.exec(`CREATE VIRTUAL TABLE IF NOT EXISTS temp.name_trigrams USING fts5vocab(main, 'name_text', 'row');
      CREATE VIRTUAL TABLE IF NOT EXISTS temp.name_pairs USING fts5vocab(main, 'name_initials', 'row')`);
    this.vocab = true;
  }

  /** Rows of a full-text table (temp.name_trigrams: name_text, temp.name_pairs: name_initials) holding `term`. */
  private vocabCount(vocab: 'name_trigrams' | 'name_pairs', term: string): number {
    const read = (): number => (this.statements.get(`SELECT doc FROM temp.${vocab} WHERE term = ?`).pluck().get(term) as number | undefined) ?? 0;
    if (!this.vocab) this.makeVocab();
    try {
      return read();
    } catch (error) {
      // A change of the connection's temp_store drops its temp tables (the end of a bulk load does one): made again.
      if (!/no such table/.test(String(error))) throw error;
      this.makeVocab();
      return read();
    }
  }

  /** Forgets the counts when the names grew by a tenth since they were read. */
  private checkStats(): void {
    const names = (this.statements.get('SELECT max(id) FROM names').pluck().get() as number | null) ?? 0;
    this.newestName = names;
    if (names > this.statNames * 1.1) {
      this.statCounts.clear();
      this.statNames = names;
    }
  }

  private stat(key: string, read: () => number): number {
    let n = this.statCounts.get(key);
    if (n === undefined) {
      n = read();
      this.remember(key, n);
    }
    return n;
  }

  private remember(key: string, n: number): void {
    // Bounded: names hold some tens of thousands of distinct trigrams and first humps.
    if (this.statCounts.size >= 100_000) this.statCounts.clear();
    this.statCounts.set(key, n);
  }

  /**
   * Every pair's count (NameStats.pair) read in one pass over name_initials' lists, where each search would read the lists
   * it asks about the first time (on the kernel: 1,047 pairs, some 340 ms in all, up to 14 ms for one). A search thread does
   * it before it takes searches.
   */
  readPairCounts(): void {
    this.checkStats();
    if (!this.vocab) this.makeVocab();
    for (const [pair, names] of this.statements.get('SELECT term, doc FROM temp.name_pairs').raw().all() as Array<[string, number]>) {
      this.remember(`p${pair}`, names);
      // The most common pair of each first initial (NameStats.pairsOf).
      if (names > (this.statCounts.get(`m${pair[0]}`) ?? 0)) this.remember(`m${pair[0]}`, names);
    }
  }

  search(spec: SearchSpec): Promise<SearchPage> {
    this.checkStats();
    return planSearch(spec, this.lookups);
  }

  /** The CamelCase tier's candidates read from these names from now on (a search thread's, once built). */
  useCamelNames(names: CamelNames): void {
    this.camel = names;
  }

  /** Whether the CamelCase tier's candidates from memory are missing or hold too few of the names (as of the last search): new ones are wanted. */
  get camelStale(): boolean {
    return !this.camel || this.newestName - this.camel.loaded > CAMEL_TAIL_MAX;
  }

  /**
   * The first `skip` + `take` matches of rank 0 with this fwd of a CamelCase tier, none named past `last` (pageIdsByName),
   * walking the names its first hump allows in name order (firstHumpRanges; the unique index on names.name is in BINARY
   * order, as ORDER_IN_TIER's name, and each name's symbols come from symbols_name in file_id, nl, nc order) up to `last`: a
   * tier of 50,000 matches (`D_SYNC`: the names holding the pair `ds`) was read whole and sorted for a page of 48. Undefined,
   * having walked nothing, when more than BY_NAME_BUDGET names lie in the ranges up to `last`.
   */
  private pageByName(tier: NonNullable<TierSql['byName']>, fwd: number, take: number, skip: number, last: string): number[] | undefined {
    const need = skip + take;
    const walks: Array<{ lo: string; hi: string | undefined }> = [];
    let budget = BY_NAME_BUDGET;
    for (const [lo, to] of firstHumpRanges(tier.first)) {
      if (lo > last) break;
      // Up to `last`, inclusive: the range's end, or just past `last` ('\0' sorts first after it).
      const hi = to === undefined || to > last ? `${last}\0` : to;
      budget -= this.statements.get('SELECT count(*) FROM (SELECT 1 FROM names WHERE name >= @lo AND name < @hi LIMIT @limit)').pluck().get({ lo, hi, limit: budget + 1 }) as number;
      if (budget < 0) return undefined;
      walks.push({ lo, hi });
    }
    const ids: number[] = [];
    for (const { lo, hi } of walks) {
      const found = this.statements.get(`SELECT s.id FROM names n INDEXED BY sqlite_autoindex_names_1 CROSS JOIN symbols s ON s.name_lower = n.name_lower AND s.name = n.name
        WHERE n.name >= @lo AND n.name < @hi AND ${tier.where} AND s.fwd = ${fwd} AND s.rank = 0 ORDER BY n.name, s.file_id, s.nl, s.nc LIMIT @left`).pluck()
        .all({ ...tier.params, lo, hi, left: need - ids.length }) as number[];
      ids.push(...found);
      if (ids.length >= need) return ids.slice(skip, need);
    }
    // Fewer than the matches read said: not expected; pageIds answers.
    return undefined;
  }

  /** The tiers in SQLite: synchronous statements, the rows of a tier read as one json_group_array() text. */
  private readonly lookups: TierLookups<TierSql> = {
    source: (tier, spec) => tierSource(tier, spec, this.stats, this.camelStale ? undefined : this.camel),
    wideMax: (tier) => (CHECKED_TIERS.has(tier) ? WIDE_MAX : NARROW_MAX),
    narrow: (source, max) => JSON.parse(this.statements.get(`SELECT json_group_array(json_array(id, fwd, rank, name, file_id, nl, nc)) FROM (SELECT s.id AS id, s.fwd AS fwd, s.rank AS rank, s.name AS name, s.file_id AS file_id, s.nl AS nl, s.nc AS nc FROM ${source.from} WHERE ${source.where} LIMIT ${max + 1})`)
      .pluck().get(source.params) as string) as NarrowRow[],
    countAll: (source) => this.statements.get(`SELECT count(*) AS n, coalesce(sum(s.fwd), 0) AS f FROM ${source.from} WHERE ${source.where}`).get(source.params) as { n: number; f: number },
    // One pass over up to limit + 1 matches, where counting definitions, then forward declarations, would pass over a tier twice.
    countWithin: async (source, limit) => this.statements.get(`SELECT count(*) AS n, coalesce(sum(fwd), 0) AS f FROM (SELECT s.fwd AS fwd FROM ${source.from} WHERE ${source.where} LIMIT @limit)`)
      .get({ ...source.params, limit: limit + 1 }) as { n: number; f: number },
    countUpTo: (source, fwd, limit) => this.statements.get(`SELECT count(*) FROM (SELECT 1 FROM ${source.from} WHERE ${source.where} AND s.fwd = ${fwd} LIMIT @limit)`).pluck().get({ ...source.params, limit }) as number,
    pageIds: (source, fwd, take, skip) => this.statements.get(`SELECT s.id FROM ${source.from} WHERE ${source.where} AND s.fwd = ${fwd} ${ORDER_IN_TIER} LIMIT @take OFFSET @skip`).pluck()
      .all({ ...source.params, take, skip }) as number[],
    pageIdsByName: (source, fwd, take, skip, last) => (source.byName ? this.pageByName(source.byName, fwd, take, skip, last) : undefined),
    // The page's symbols joined to their file and package in one statement.
    symbols: (ids) => {
      const byId = new Map<number, StoredSymbol>();
      const rows = parseRows(this.statements.get(`SELECT json_group_array(json_array(${SYMBOL_NAMES})) FROM (SELECT ${SYMBOL_COLUMNS} FROM json_each(?) AS page CROSS JOIN symbols s ON s.id = page.value ${SYMBOL_JOINS})`)
        .pluck().get(JSON.stringify(ids)) as string);
      for (const row of rows) byId.set(row[ROW_ID], toSymbol(row));
      return byId;
    },
  };
}

/**
 * An FTS5 phrase: the text quoted, inner quotes doubled, so operators in a query are just text. FTS5 reads
 * its query as a C string, so a NUL would end it mid-phrase ("unterminated string"): it becomes a space,
 * a separator as every other control character is to the tokenizers (names hold none, and the instr()
 * checks after a MATCH still compare the query as sent).
 */
function phrase(text: string): string {
  return `"${text.replace(/\0/g, ' ').replace(/"/g, '""')}"`;
}

/**
 * The trigram MATCH for a substring: an ASCII query as the AND of trigrams that cover it without
 * overlapping (`matcher` → mat AND che AND her), which FTS5 answers from rowid lists, several times
 * faster than a phrase of every trigram; with `docCount` (names per trigram), the AND of a few rare
 * ones (spreadTrigrams), as a common one (`ect`: 28,000 names) costs more than it narrows. The instr()
 * check on the name that follows keeps exactly the names that contain the query.
 */
export function trigramMatch(text: string, docCount?: (trigram: string) => number): string {
  // Non-ASCII case folding may differ between FTS5 and toLowerCase: those keep the exact phrase.
  if (!/^[\x20-\x7e]+$/.test(text) || text.length <= 3) return phrase(text);
  const lower = text.toLowerCase();
  // FTS5 reads the short rowid lists, instr() does the rest.
  if (docCount) return spreadTrigrams(lower, docCount).map(phrase).join(' AND ');
  const trigrams = new Set<string>();
  for (let i = 0; i + 3 <= lower.length; i += 3) trigrams.add(lower.slice(i, i + 3));
  trigrams.add(lower.slice(-3));
  return [...trigrams].map(phrase).join(' AND ');
}

/**
 * The trigrams of a substring's MATCH: a query of six characters or more cut in two or three pieces of three or more,
 * the rarest trigram of each. Trigrams of different pieces never overlap, so each rules out names the others let through,
 * where the three rarest of the whole query often come from one word and are held together (`write_reg`: 34,684 kernel
 * names hold `wri`, `rit` and `ite`, 745 hold `write_reg`; `driver_data`: 14,987 hold `dri`, `riv` and `ive`, 377
 * `dri` and `ata`). A shorter query: its three rarest (rarestTrigrams).
 */
function spreadTrigrams(lower: string, docCount: (trigram: string) => number): string[] {
  const pieces = Math.min(3, Math.floor(lower.length / 3));
  if (pieces < 2) return rarestTrigrams([lower], docCount).map((c) => c.trigram);
  const cut = Array.from({ length: pieces }, (_, i) => lower.slice(Math.round((i * lower.length) / pieces), Math.round(((i + 1) * lower.length) / pieces)));
  return [...new Set(cut.map((piece) => rarestTrigrams([piece], docCount)[0].trigram))];
}

/**
 * The three rarest trigrams inside `words` (lower case), weighing at most eight spread over them: the
 * first look-up of each reads its rowid list. A third list costs less than the candidate names it
 * rules out (`matcher`: 2,698 names hold `tch` and `mat`, 415 also `her`).
 */
function rarestTrigrams(words: string[], docCount: (trigram: string) => number): Array<{ trigram: string; n: number }> {
  const all = words.flatMap((word) => Array.from({ length: Math.max(word.length - 2, 0) }, (_, i) => word.slice(i, i + 3)));
  const spread = all.length <= 8 ? all : Array.from({ length: 8 }, (_, i) => all[Math.round((i * (all.length - 1)) / 7)]);
  return [...new Set(spread)].map((trigram) => ({ trigram, n: docCount(trigram) })).sort((a, b) => a.n - b.n).slice(0, 3);
}

/** The filters' conditions (each ` AND ...`) and their parameters. */
function filterSql(filters: SymbolFilters, qualifier: string | undefined): { sql: string; params: SqlParams } {
  const parts: string[] = [];
  const params: SqlParams = {};
  if (filters.kinds?.length) parts.push(`s.kind IN (${namedList('kind', filters.kinds, params)})`);
  if (filters.packages?.length) parts.push(`s.package_id IN (SELECT id FROM packages WHERE name IN (${namedList('package', filters.packages, params)}))`);
  if (filters.language) {
    parts.push('s.language = @language');
    params.language = filters.language;
  }
  if (filters.userOnly) parts.push('s.external = 0');
  if (filters.containingType) {
    parts.push('s.containing_type = @containingType');
    params.containingType = filters.containingType;
  }
  if (qualifier) {
    // qualifierMatches in SQL (no JavaScript call per candidate): `qualifier.name` is the whole normalized qualified name or its tail after a `.`.
    // The qualifier's last segment holds no separator, so the raw qualified name contains it too: instr() spares most replace() calls.
    const normalized = "replace(replace(s.qualified_name, '::', '.'), '#', '.')";
    const tail = (path: string): string => `(${path} = @qualifier || '.' || s.name OR substr(${path}, -(length(s.name) + length(@qualifier) + 2)) = '.' || @qualifier || '.' || s.name)`;
    // Else the same with the symbol's module in front (`http.HandlerFunc`, `flask.app.Flask`), or, where a package names
    // what its modules hold (Python's `flask.Flask`, `flask.Flask.run`), `qualifier.name` as a package above the module
    // and then the whole qualified name.
    const moduled = `s.module || '.' || ${normalized}`;
    const wanted = "(@qualifier || '.' || s.name)";
    const packaged = `(s.language IN (${PACKAGE_PREFIX_LANGUAGES}) AND length(${wanted}) > length(${normalized}) + 1 AND substr(${wanted}, -(length(${normalized}) + 1)) = '.' || ${normalized}
      AND substr(s.module || '.', 1, length(${wanted}) - length(${normalized})) = substr(${wanted}, 1, length(${wanted}) - length(${normalized})))`;
    // The qualifier's last segment (`last`) is in the module or the qualified name: instr() spares the rest for most candidates.
    parts.push(`((instr(s.qualified_name, @last) > 0 AND ${tail(normalized)}) OR (s.module IS NOT NULL AND (instr(s.module, @last) > 0 OR instr(s.qualified_name, @last) > 0)
      AND (${tail(moduled)} OR ${packaged})))`);
    params.qualifier = qualifier;
    params.last = qualifier.slice(qualifier.lastIndexOf('.') + 1);
  }
  return { sql: parts.map((p) => ` AND ${p}`).join(''), params };
}

/** The languages whose packages name what their modules hold (`packagePrefix` in src/languages/<id>/), as an SQL list. */
const PACKAGE_PREFIX_LANGUAGES = LANGUAGES.filter((language) => language.packagePrefix).map((language) => `'${language.id}'`).join(', ');

/**
 * What a tier's plan costs, in microseconds, measured on the million-symbol index: reading one entry of
 * a trigram's rowid list; fetching and checking one candidate name; scanning one name of a first-hump range.
 */
const COST_POSTING = 0.015;
const COST_CANDIDATE = 0.7;
const COST_SCAN = 0.12;

/**
 * The trigrams whose names are the CamelCase tier's cheapest candidates, with their estimated cost:
 * the rarest trigram of each hump of three letters or more, the rarest first, as many (up to three)
 * as lower the estimate. A further trigram costs its rowid list and spares the candidates it rules out,
 * guessed as if humps occurred independently (ten times as often together, to be safe).
 */
export function fuzzyTrigrams(humps: string[], docCount: (trigram: string) => number, names: number): { trigrams: string[]; cost: number } | undefined {
  const picks = humps.filter((hump) => hump.length >= 3)
    .map((hump) => rarestTrigrams([hump], docCount)[0])
    .filter((pick) => pick !== undefined)
    .sort((a, b) => a.n - b.n);
  let best: { trigrams: string[]; cost: number } | undefined;
  let listed = 0;
  let candidates = 0;
  for (const [i, pick] of picks.slice(0, 3).entries()) {
    if (best?.trigrams.includes(pick.trigram)) continue;
    listed += pick.n;
    candidates = i === 0 ? pick.n : candidates * Math.min(1, (10 * pick.n) / Math.max(names, 1));
    const cost = listed * COST_POSTING + candidates * COST_CANDIDATE;
    if (!best || cost < best.cost) best = { trigrams: [...(best?.trigrams ?? []), pick.trigram], cost };
    else break;
  }
  return best;
}

/** A first hump's range of names past which the CamelCase tier reads name_initials instead (scanning it would cost some 2 ms). */
const PAIRS_FROM_NAMES = 20_000;
/** The range of names a first hump read as a word starts, up to which it is read beside the pairs of its letters read as initials. */
const UNION_FROM_NAMES = 5_000;

/**
 * What reading a split hump's word may cost (fuzzyTrigrams' estimate, µs) up to which the hump is split: a few thousand
 * candidate names, where the ranges and pairs it replaces hold some hundred thousand.
 */
const SPLIT_WORD_COST = 3_000;

/**
 * For the CamelCase tier, the later hump that may be initials (three letters or more) whose word costs least to read (its
 * rarest trigrams, as fuzzyTrigrams estimates them), when cheap: its word's trigram MATCH and the pairs of its reading as
 * initials (humpInitialsPairs). Every match holds the one or the other. `most`: how many candidates it may read at most.
 * When that word is common (`thread`: 18,002 kernel names hold `hre` and `thr`), a second such hump splits the candidates
 * again: a match reads both humps as words (the MATCH of both words' trigrams), or one of them as initials (that hump's
 * pairs): `pairs` then holds a list for each.
 */
function splitHump(humps: QueryHump[], stats: NameStats): { word: string; pairs: string[][]; most: number } | undefined {
  const options: Array<{ trigrams: string[]; n: number; pairs: string[]; most: number; cheap: boolean }> = [];
  for (const [i, hump] of humps.entries()) {
    if (i === 0 || !hump.initials || hump.text.length < 3) continue;
    const pairs = humpInitialsPairs(humps, i);
    // Each of the word's three rarest trigrams as a hump of its own: fuzzyTrigrams keeps those that lower the estimate.
    const picks = rarestTrigrams([hump.text], stats.trigram);
    const rare = pairs && fuzzyTrigrams(picks.map((pick) => pick.trigram), stats.trigram, stats.names());
    if (!pairs || !rare) continue;
    // At most: the names holding the word's rarest trigram (its trigrams come together: `upd` and `pda` in 23,000 kernel names),
    // and those holding the rarest pair. The hump of fewest such candidates is split.
    options.push({ trigrams: rare.trigrams, n: picks[0].n, pairs, most: picks[0].n + pairsEstimate(pairs, stats), cheap: rare.cost <= SPLIT_WORD_COST });
  }
  const best = options.filter((option) => option.cheap).sort((a, b) => a.most - b.most)[0];
  if (!best) return undefined;
  const single = { word: best.trigrams.map(phrase).join(' AND '), pairs: [best.pairs], most: best.most };
  if (best.n < SPLIT_AGAIN_FROM) return single;
  // The second: the rarest other word (its rarest trigram new to the MATCH), its names taken as independent of the first's (ten
  // times as often together, to be safe), its pairs as estimated.
  const second = options.filter((option) => !best.trigrams.includes(option.trigrams[0])).sort((a, b) => a.n - b.n)[0];
  const most = second ? best.n * Math.min(1, (10 * second.n) / Math.max(stats.names(), 1)) + (best.most - best.n) + pairsEstimate(second.pairs, stats) : Infinity;
  if (!second || most >= best.most) return single;
  return { word: [...best.trigrams, second.trigrams[0]].map(phrase).join(' AND '), pairs: [best.pairs, second.pairs], most };
}

/** The names holding a split hump's word from which a second hump splits them again (splitHump). */
const SPLIT_AGAIN_FROM = 2_000;

/**
 * Whether more than `n` names have a first hump starting with `prefix`: no more than the names holding its first trigram
 * (every such name holds it, lower case as FTS5 folds ASCII), read with the plan's statistics, else counted (firstHumpOver).
 */
function rangeOver(prefix: string, n: number, stats: NameStats): boolean {
  if (/^[a-z0-9]{3}/.test(prefix) && stats.trigram(prefix.slice(0, 3)) <= n) return false;
  return stats.firstHumpOver(prefix, n);
}

/** An FTS5 query holding each pair (`"st" AND "sf"`). */
export function pairsMatch(pairs: readonly string[]): string {
  return pairs.map(phrase).join(' AND ');
}

/** Pairs read from name_initials at most: the tier's checks test the rest. */
const MATCH_PAIRS = 3;

/**
 * The MATCH of the rarest MATCH_PAIRS pairs (by NameStats.pair): FTS5 walks every list an AND names, and the
 * dense ones of a common first initial cost more than the candidates they rule out (`BIF_CFG_DEV0_EPF5_0_...`:
 * bc, bs, be, bd hold 185,862 to 246,424 names each; bf, bi and b0 alone leave few). The tier's WHERE tests
 * every pair a match holds (the humps LIKE, the initials' LIKEs), so the candidates only grow, never the matches.
 */
function rarePairsMatch(pairs: readonly string[], stats: NameStats): string {
  return pairsMatch(rarestPairs(pairs, stats).map((p) => p.pair));
}

/** The MATCH_PAIRS rarest of these pairs, with their counts, the rarest first. */
function rarestPairs(pairs: readonly string[], stats: NameStats): Array<{ pair: string; n: number }> {
  return pairs.map((pair) => ({ pair, n: stats.pair(pair) })).sort((a, b) => a.n - b.n).slice(0, MATCH_PAIRS);
}

/**
 * How many names the MATCH of these pairs (rarePairsMatch) may hold: the rarest pair's names, each further pair
 * keeping the share of them the pair holds of the names it could (those of the same first initial: at least as many
 * as its most common pair), as if pairs came independently.
 */
function pairsEstimate(pairs: readonly string[], stats: NameStats): number {
  const counted = rarestPairs(pairs, stats);
  const initial = Math.max(1, stats.pairsOf(pairs[0]?.[0] ?? ''), ...pairs.map((pair) => stats.pair(pair)));
  return counted.reduce((n, p, i) => (i === 0 ? p.n : n * Math.min(1, p.n / initial)), 0);
}

/**
 * The FROM/WHERE of one tier, made disjoint from the tiers before it so counts add up and a
 * symbol is listed once, in its best tier. Undefined when the tier cannot apply to the query.
 * Parameters: `name` (the query), `lower` (lower case), `fuzzy` (the humps LIKE pattern), and each tier's own.
 */
function tierSource(tier: MatchTier, spec: SearchSpec, stats: NameStats, camelNames?: CamelNames): TierSql | undefined {
  const q = spec.name;
  const ql = q.toLowerCase();
  const filters = filterSql(spec, spec.qualifier);
  const fuzzy = fuzzyPattern(q);
  const humps = camelHumps(q);
  // Initials only (`FPC`): the LIKE over the name's initials is the whole CamelCase rule, no JavaScript call needed.
  const initialsOnly = humps.every((hump) => hump.text.length === 1);
  // The LIKE over humps narrows cheaply; plumb_camel decides (hump prefixes in order). Before it, for each hump that
  // may be initials, what either reading implies: the name holds the word, or its humps' initials hold the letters in
  // order (`BRFSI_ANTSWB`: of the 254,179 kernel names whose first hump starts with `b` and initials match `b%a%`,
  // 478 pass; each plumb_camel call costs a JavaScript call, these checks are SQLite's own).
  const implied: SqlParams = {};
  const impliedSql = humps.map((hump, i) => {
    if (!hump.initials) return '';
    implied[`iword${i}`] = hump.text;
    implied[`iletters${i}`] = `%${[...hump.text].join('%')}%`;
    return ` AND (instr(s.name_lower, @iword${i}) > 0 OR s.humps LIKE @iletters${i})`;
  }).join('');
  const camel = initialsOnly ? '' : `${impliedSql} AND plumb_camel(s.name, @name)`;
  const notFuzzy = fuzzy ? ` AND NOT (s.humps LIKE @fuzzy${camel})` : '';
  const byName = 'CROSS JOIN symbols s ON s.name_lower = n.name_lower AND s.name = n.name';
  const notFuzzyParams: SqlParams = fuzzy ? (initialsOnly ? { fuzzy } : { fuzzy, name: q, ...implied }) : {};
  let base: TierSql;
  let ordered: TierSql['byName'];
  switch (tier) {
    case 'exact':
      // Through the lower-case index: one index fewer to maintain on every insert.
      base = { from: 'symbols s', where: 's.name_lower = @lower AND s.name = @name', params: { lower: ql, name: q } };
      break;
    case 'exact_case_insensitive':
      base = { from: 'symbols s', where: 's.name_lower = @lower AND s.name <> @name', params: { lower: ql, name: q } };
      break;
    case 'prefix':
      base = { from: 'symbols s', where: 's.name_lower > @lower AND s.name_lower < @lowerEnd', params: { lower: ql, lowerEnd: prefixEnd(ql) } };
      break;
    case 'fuzzy': {
      if (!fuzzy) return undefined;
      const first = firstHumpPrefix(humps);
      // A later hump of the query starts a hump of the name, so the name contains it: instr() spares most plumb_camel calls.
      // Not a hump that may be initials (`ASC` in `UMyASC` finds UMyAbilitySystemComponent, which holds no `asc`).
      const words = humps.slice(1).filter((hump) => hump.text.length > 1 && !hump.initials).map((hump) => hump.text);
      const params: SqlParams = { first, firstEnd: prefixEnd(first), fuzzy, lower: ql, ...(initialsOnly ? {} : { name: q, ...implied }) };
      const where = `n.first >= @first AND n.first < @firstEnd AND n.humps LIKE @fuzzy AND instr(n.name_lower, @lower) <> 1${words.map((word, i) => {
        params[`word${i}`] = word;
        return ` AND instr(n.name_lower, @word${i}) > 0`;
      }).join('')}${camel.replace(/s\./g, 'n.')}`;
      ordered = { first, where, params };
      // The candidates from memory, and the names added since they were built (given only while those are few: camelStale).
      const listed = camelNames?.candidates(humps, CAMEL_CANDIDATES_MAX);
      if (listed) {
        base = {
          from: `(SELECT value AS id FROM json_each(@camelIds) UNION ALL SELECT id FROM names WHERE id > @camelLoaded) c CROSS JOIN names n ON n.id = c.id ${byName}`,
          where, params: { camelIds: JSON.stringify(listed), camelLoaded: camelNames!.loaded, ...params },
        };
        break;
      }
      // Each hump of the query is inside the name, so names holding a rare trigram of each hump are candidates too:
      // taken when reading them costs less than scanning the first hump's names (`TestPartResult`: 2,311 names hold
      // `sul`, 57 of them `art` too; 7,986 names start with `test`).
      const rare = fuzzyTrigrams(humps.filter((hump) => !hump.initials).map((hump) => hump.text), stats.trigram, stats.names());
      const trigramSource = (): TierSql => ({ from: `name_text CROSS JOIN names n ON n.id = name_text.rowid ${byName}`, where: `name_text MATCH @trigrams AND ${where}`, params: { trigrams: rare!.trigrams.map(phrase).join(' AND '), ...params } });
      // Whether the range is longer than the trigrams' cost in names scanned: counted no further than PAIRS_FROM_NAMES when that
      // decides it (counting costs what scanning does: `regSDMA2_RLC3_RB_WPTR_POLL_CNTL` counted 11 ms into `reg`'s 113,354 names to take a 1.5 ms plan).
      const scanned = rare ? rare.cost / COST_SCAN : 0;
      const trigrams = !rare ? false : scanned <= PAIRS_FROM_NAMES || !stats.firstHumpOver(first, PAIRS_FROM_NAMES) ? rangeOver(first, scanned, stats) : undefined;
      if (trigrams) {
        base = trigramSource();
        break;
      }
      // A first hump that may be initials leaves one letter to range over (340,905 of the kernel's 3,987,509 names start
      // with `s`): the names whose first initial comes with each of the query's later initials are the candidates
      // (`STT_FUNC` → `sf`: 9,255 names), read from name_initials.
      // A first hump that may be initials itself (`RBC_RA`) is a word the name's first hump starts with (68 names for `rbc`),
      // or its letters are initials too, paired with the first (rr AND rb AND rc: 11,084 names, not the 77,698 holding rr).
      // Not when that range is long itself (249,994 kernel names start with `bif`: the pairs alone then, bc AND bd AND ... for
      // `BIF_CFG_DEV0_...`, 1,767 names).
      const pairs = first.length === 1 && stats.firstHumpOver(first, PAIRS_FROM_NAMES) ? camelPairs(humps) : undefined;
      // A long range (the pairs of a one-letter first hump, or a first hump like `mm` over 20,000 names): a later hump that may be
      // initials and holds a rare trigram splits the candidates in two short lists, names holding its word (`CC_DSTINC`: 45
      // names hold `dst` and `inc`) and names whose initials hold its letters too (cd AND cs AND ct AND ci AND cn AND cc: 111),
      // where the pairs of first letters alone hold 207,582 (cd).
      const split = (pairs || stats.firstHumpOver(first, PAIRS_FROM_NAMES)) ? splitHump(humps, stats) : undefined;
      // Of the range with the pairs, the split and the pairs every match holds, the one of fewest candidates as estimated
      // (`B0_CMDREG2`: bc AND b0 hold some 60,000 names, cmdreg2's word or its initials' pairs few).
      const union = pairs?.initials && !stats.firstHumpOver(humps[0].text, UNION_FROM_NAMES)
        ? stats.firstHumpCount(humps[0].text) + pairsEstimate(pairs.initials, stats) : Infinity;
      const splitting = split ? split.most : Infinity;
      const both = pairs ? pairsEstimate(pairs.both, stats) : Infinity;
      // A range over PAIRS_FROM_NAMES, not counted up to the trigrams' cost: the trigrams when they cost less than the candidates
      // of the plans below, as estimated (`m_bits`: 18,164 names hold `its`, 108,766 the pair mb).
      if (trigrams === undefined && (pairs || split) && rare!.cost <= Math.min(union, splitting, both) * COST_CANDIDATE) {
        base = trigramSource();
        break;
      }
      if (union < Infinity && union <= splitting && union <= both) {
        base = {
          from: `(SELECT id FROM names WHERE first >= @hump0 AND first < @hump0End UNION SELECT rowid FROM name_initials WHERE name_initials MATCH @pairs) c
            CROSS JOIN names n ON n.id = c.id ${byName}`,
          where, params: { pairs: rarePairsMatch(pairs!.initials!, stats), hump0: humps[0].text, hump0End: prefixEnd(humps[0].text), ...params },
        };
        break;
      }
      if (split && splitting <= both) {
        base = {
          from: `(SELECT rowid AS id FROM name_text WHERE name_text MATCH @splitWord${split.pairs.map((_, i) => ` UNION SELECT rowid FROM name_initials WHERE name_initials MATCH @splitPairs${i}`).join('')}) c
            CROSS JOIN names n ON n.id = c.id ${byName}`,
          where, params: { splitWord: split.word, ...Object.fromEntries(split.pairs.map((pairs, i) => [`splitPairs${i}`, rarePairsMatch(pairs, stats)])), ...params },
        };
        break;
      }
      if (pairs) {
        base = { from: `name_initials CROSS JOIN names n ON n.id = name_initials.rowid ${byName}`, where: `name_initials MATCH @pairs AND ${where}`, params: { pairs: rarePairsMatch(pairs.both, stats), ...params } };
        break;
      }
      // A range over PAIRS_FROM_NAMES with neither the pairs nor a split: counted up to the trigrams' cost, as above.
      if (trigrams === undefined && rangeOver(first, scanned, stats)) {
        base = trigramSource();
        break;
      }
      // Distinct names whose first hump starts with the query's (CROSS JOIN keeps that order), then their symbols.
      base = { from: `names n ${byName}`, where, params };
      break;
    }
    case 'substring':
      // Trigrams need three characters; one or two are served by the prefix and initials tiers, never a scan.
      if (ql.length < 3) return undefined;
      base = {
        from: `name_text CROSS JOIN names n ON n.id = name_text.rowid ${byName}`,
        where: `name_text MATCH @trigrams AND instr(n.name_lower, @lower) > 1${notFuzzy.replace(/s\./g, 'n.')}`,
        params: { trigrams: trigramMatch(q, stats.trigram), lower: ql, ...notFuzzyParams },
      };
      break;
    case 'signature':
      if (spec.qualifier || !/[A-Za-z0-9_]/.test(q)) return undefined;
      base = {
        from: 'sig_text CROSS JOIN symbols s ON s.id = sig_text.rowid',
        where: `sig_text MATCH @phrase AND instr(s.name_lower, @lower) = 0${notFuzzy}`,
        params: { phrase: phrase(q), lower: ql, ...notFuzzyParams },
      };
      break;
  }
  const sql = { from: base.from, where: base.where + filters.sql, params: { ...base.params, ...filters.params } };
  return ordered ? { ...sql, byName: { first: ordered.first, where: ordered.where + filters.sql, params: { ...ordered.params, ...filters.params } } } : sql;
}
