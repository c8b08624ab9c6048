/**
 * The search tiers in PostgreSQL, each decided exactly as the SQLite store decides it (src/index/sqlite/search.ts);
 * the shared algorithm (src/index/search-plan.ts) counts and pages them.
 *
 * - exact, exact_case_insensitive, prefix: the btree (workspace_id, name_lower, name, ...), ranges in "C" order.
 * - fuzzy (CamelCase): distinct names by first-hump range (one letter: by the pairs of initials, GIN) and the humps LIKE (the name index alone), then a regex
 *   over those names' hump segments (`f my player controller`) that holds exactly when fuzzyMatches does (ranking.ts camelRegex: `^w0.* w1.* w2`,
 *   each later query hump starting a later segment, in order; a capital run as the word or its initials).
 * - substring: distinct names through the pg_trgm GIN index (`LIKE '%q%'`), then the same strpos check as
 *   SQLite's instr (not at the start). A query of fewer than three characters matches nothing, as FTS5's trigrams.
 * - signature: the words of the signature as FTS5 unicode61 cuts them (src/index/signature-words.ts), a GIN
 *   index over the word array for candidates, then the phrase (consecutive words) checked on them.
 * The two GIN indexes are read for their trigrams and words alone (`workspace_id + 0`): their workspace key lists every
 * row of the workspace. One statement reads the tiers up to the first large one (narrowMany).
 *
 * PostgreSQL text holds no NUL: a name or filter containing one matches nothing (no stored name holds one),
 * as in SQLite; the signature tier cuts the query at it, as FTS5 does.
 */
import { LANGUAGES } from '../../languages/index.js';
import { camelHumps, camelPairs, camelRegex, firstHumpPrefix, fuzzyPattern, prefixEnd } from '../ranking.js';
import type { NarrowRow, TierLookups, TierRead } from '../search-plan.js';
import { signatureWords } from '../signature-words.js';
import type { MatchTier, SearchSpec, StoredSymbol, SymbolFilters } from '../store.js';
import type { PgValue, Reads } from './connection.js';
import { ROW_ID, SYMBOL_COLUMNS, SYMBOL_JOINS, toSymbol, type SymbolRow } from './rows.js';

/** Within a tier: as SQLite's ORDER_IN_TIER, with the row id as the last tie (SQLite's index order). */
const ORDER_IN_TIER = 'ORDER BY s.rank, s.name, s.file_id, s.nl, s.nc, s.id';

/** What a tier is counted and ordered by (NarrowRow). */
const NARROW_COLUMNS = 's.id, s.fwd, s.rank, s.name, s.file_id, s.nl, s.nc';

/** NULLs in place of the narrow columns, and of the symbol columns (one statement returns both kinds of row). */
const NO_NARROW = NARROW_COLUMNS.split(',').map(() => 'NULL').join(', ');
/** NO_NARROW typed as the columns are (the first branch of a union types it). */
const TYPED_NO_NARROW = 'NULL::bigint, NULL::smallint, NULL::smallint, NULL::text COLLATE "C", NULL::bigint, NULL::integer, NULL::integer';
const NO_SYMBOL = SYMBOL_COLUMNS.split(',').map(() => 'NULL').join(', ');

/** The languages whose packages name what their modules hold (`packagePrefix`). */
const PACKAGE_PREFIX_LANGUAGES = LANGUAGES.filter((language) => language.packagePrefix).map((language) => language.id);

/** A tier's FROM and WHERE with its positional parameters; `empty` when it can match nothing. */
type TierSql = { empty: true } | { empty: false; from: string; where: string; values: PgValue[] };

/** Positional parameters: `add(value, type)` gives `$n::type`. */
class Params {
  readonly values: PgValue[] = [];
  add(value: PgValue, type: string): string {
    this.values.push(value);
    return `$${this.values.length}::${type}`;
  }
}

const hasNul = (value: string | undefined): boolean => value !== undefined && value.includes('\0');

/**
 * A LIKE pattern for the trigram index: every name holding `text` matches it (the strpos() check that follows keeps
 * exactly those). ASCII other than letters and digits is written as `_`, any one character: pg_trgm reads a literal
 * `_` as the end of a word and adds its padded trigrams (`ch `, ` ms`), which a great many names hold, and a GIN scan reads
 * every trigram's list: `pch_msi_irq_chip` read 747 index pages escaped, 57 so. With no run of three letters or
 * digits (no trigram left), escaped as before (backslash escapes, PostgreSQL's default).
 */
function containsPattern(text: string): string {
  if (/[a-z0-9]{3}/i.test(text)) return `%${[...text].map((c) => (c.charCodeAt(0) < 0x80 && !/[a-z0-9]/i.test(c) ? '_' : c)).join('')}%`;
  return `%${text.replace(/[\\%_]/g, '\\$&')}%`;
}

/** The filters' conditions (each ` AND ...`). */
function filterSql(filters: SymbolFilters, qualifier: string | undefined, p: Params, workspace: string): string {
  const parts: string[] = [];
  if (filters.kinds?.length) parts.push(`s.kind = ANY(${p.add(filters.kinds, 'text[]')})`);
  // The packages' ids read once (an InitPlan), each row then checked against them: a join would be planned for the
  // generic plan's guess at the tier's size, and a nested loop over a large tier (`int` in a signature) took seconds.
  if (filters.packages?.length) parts.push(`s.package_id = ANY(ARRAY(SELECT id FROM packages WHERE workspace_id = ${workspace} AND name = ANY(${p.add(filters.packages, 'text[]')})))`);
  if (filters.language) parts.push(`s.language = ${p.add(filters.language, 'text')}`);
  if (filters.userOnly) parts.push('s.external = 0');
  if (filters.containingType) parts.push(`s.containing_type = ${p.add(filters.containingType, 'text')}`);
  if (qualifier) {
    // SQLite's qualifier condition (src/index/sqlite/search.ts filterSql), right() for its negative substr().
    const q = p.add(qualifier, 'text');
    const last = p.add(qualifier.slice(qualifier.lastIndexOf('.') + 1), 'text');
    const normalized = "replace(replace(s.qualified_name, '::', '.'), '#', '.')";
    const tail = (path: string): string => `(${path} = ${q} || '.' || s.name OR right(${path}, length(s.name) + length(${q}) + 2) = '.' || ${q} || '.' || s.name)`;
    const moduled = `s.module || '.' || ${normalized}`;
    const wanted = `(${q} || '.' || s.name)`;
    const head = `greatest(length(${wanted}) - length(${normalized}), 0)`;
    const packaged = `(s.language = ANY(${p.add(PACKAGE_PREFIX_LANGUAGES, 'text[]')}) AND length(${wanted}) > length(${normalized}) + 1 AND right(${wanted}, length(${normalized}) + 1) = '.' || ${normalized}
      AND substr(s.module || '.', 1, ${head}) = substr(${wanted}, 1, ${head}))`;
    parts.push(`((strpos(s.qualified_name, ${last}) > 0 AND ${tail(normalized)}) OR (s.module IS NOT NULL AND (strpos(s.module, ${last}) > 0 OR strpos(s.qualified_name, ${last}) > 0)
      AND (${tail(moduled)} OR ${packaged})))`);
  }
  return parts.map((part) => ` AND ${part}`).join('');
}

/** One tier's rows, made disjoint from the tiers before it, as the SQLite store makes them. */
function tierSource(tier: MatchTier, spec: SearchSpec): TierSql {
  const q = spec.name;
  const ql = q.toLowerCase();
  if (hasNul(spec.qualifier) || hasNul(spec.containingType) || spec.packages?.some((name) => hasNul(name))) return { empty: true };
  if (tier !== 'signature' && hasNul(q)) return { empty: true };
  const p = new Params();
  const workspace = p.add(0, 'integer');
  const fuzzy = fuzzyPattern(q);
  const humps = camelHumps(q);
  // Not a CamelCase match (the tiers after fuzzy): the humps LIKE and the segments regex.
  const notFuzzy = (alias: string): string => (fuzzy ? ` AND NOT (${alias}.humps LIKE ${p.add(fuzzy, 'text')} AND ${alias}.segments ~ ${p.add(camelRegex(humps), 'text')})` : '');
  const byName = `JOIN symbols s ON s.workspace_id = n.workspace_id AND s.name_lower = n.name_lower AND s.name = n.name`;
  let from: string;
  let where: string;
  switch (tier) {
    case 'exact':
      from = 'symbols s';
      where = `s.workspace_id = ${workspace} AND s.name_lower = ${p.add(ql, 'text')} AND s.name = ${p.add(q, 'text')}`;
      break;
    case 'exact_case_insensitive':
      from = 'symbols s';
      where = `s.workspace_id = ${workspace} AND s.name_lower = ${p.add(ql, 'text')} AND s.name <> ${p.add(q, 'text')}`;
      break;
    case 'prefix':
      from = 'symbols s';
      where = `s.workspace_id = ${workspace} AND s.name_lower > ${p.add(ql, 'text')} AND s.name_lower < ${p.add(prefixEnd(ql), 'text')}`;
      break;
    case 'fuzzy': {
      if (!fuzzy) return { empty: true };
      const first = firstHumpPrefix(humps);
      from = `names n ${byName}`;
      // What a match implies, as SQLite checks it (src/index/sqlite/search.ts), on the name index's own columns: a later
      // hump of more than one letter starts a hump of the name, so the name holds it; a hump that may be initials is in
      // the name as a word, or its letters are among the name's initials in order. On the kernel, `RF_CHANNEL`'s
      // humps LIKE (`r%c%`) let some 140,000 names through to have their segments read, these 76 (PostgreSQL CPU 367 -> 69 ms).
      const implied = [
        ...humps.slice(1).filter((hump) => hump.text.length > 1 && !hump.initials).map((hump) => ` AND strpos(c.name_lower, ${p.add(hump.text, 'text')}) > 0`),
        ...humps.filter((hump) => hump.initials).map((hump) => ` AND (strpos(c.name_lower, ${p.add(hump.text, 'text')}) > 0 OR c.humps LIKE ${p.add(`%${[...hump.text].join('%')}%`, 'text')})`),
      ].join('');
      // The candidates by the name index alone (first hump, humps, name: an index-only scan of the first hump's range),
      // then only theirs read for the segments. A one-letter first hump (`FPC`, `RBC_RA`) spans tens of thousands of names
      // (340,905 of the kernel's 3,987,509 start with `s`): the candidates are then, as in SQLite's name_initials, the names
      // holding each pair the query's first initial makes with a later one (`STT_FUNC` → {sf}), through the pairs' GIN
      // index, the letter checked on the rows; with a first hump that may be initials itself, the names whose first hump
      // starts with it as a word (the name index) or holding its letters' pairs too (`RBC_RA`: rbc's 68 names, or
      // {rr,rb,rc}'s 11,084, not the 77,698 holding rr). On the kernel's names, for 164 rare names, generic plans: p50
      // 39 -> 3.6 ms, in all 6.2 -> 1.7 s (the names part of the tier; the same names found).
      const pairs = first.length === 1 ? camelPairs(humps) : undefined;
      const byRange = (from: string): string => `c.workspace_id = ${workspace} AND c.first >= ${p.add(from, 'text')} AND c.first < ${p.add(prefixEnd(from), 'text')}`;
      const byPairs = (held: string[]): string => `c.workspace_id + 0 = ${workspace} AND c.pairs @> ${p.add(held, 'text[]')} AND left(c.first, 1) = ${p.add(first, 'text')}`;
      const candidates = !pairs ? byRange(first) : pairs.initials ? `((${byRange(humps[0].text)}) OR (${byPairs(pairs.initials)}))` : byPairs(pairs.both);
      // The pairs' candidates read once (an InitPlan): as a join, a generic plan made before the table's statistics (a fresh
      // workspace) read the GIN index again for each of the workspace's symbols.
      const checked = `SELECT c.name FROM names c WHERE ${candidates}
        AND c.humps LIKE ${p.add(fuzzy, 'text')} AND strpos(c.name_lower, ${p.add(ql, 'text')}) <> 1${implied}`;
      where = `n.workspace_id = ${workspace} AND ${pairs ? `n.name = ANY(ARRAY(${checked}))` : `n.name IN (${checked})`} AND n.segments ~ ${p.add(camelRegex(humps), 'text')}`;
      break;
    }
    case 'substring':
      // FTS5's trigrams match nothing shorter than three characters.
      if ([...q].length < 3) return { empty: true };
      from = `names n ${byName}`;
      // `workspace_id + 0`: the workspace checked on the rows, not in the GIN index, where its one key lists every name of
      // the workspace (intersecting a trigram's list with it read the whole list: 212 index pages for `%string%`, not 41).
      where = `n.workspace_id + 0 = ${workspace} AND n.name_lower LIKE ${p.add(containsPattern(ql), 'text')} AND strpos(n.name_lower, ${p.add(ql, 'text')}) > 1${notFuzzy('n')}`;
      break;
    case 'signature': {
      const words = signatureWords(q);
      if (words.length === 0) return { empty: true };
      from = 'symbols s';
      // As the substring tier: the workspace checked on the rows, the GIN index read for the words alone.
      where = `s.workspace_id + 0 = ${workspace} AND s.sig_words @> ${p.add(words, 'text[]')}`;
      if (words.length > 1) where += ` AND strpos(' ' || array_to_string(s.sig_words, ' ') || ' ', ${p.add(` ${words.join(' ')} `, 'text')}) > 0`;
      // No name holds a NUL: a query with one is in no name.
      if (!hasNul(q)) where += ` AND strpos(s.name_lower, ${p.add(ql, 'text')}) = 0`;
      where += notFuzzy('s');
      break;
    }
  }
  where += filterSql(spec, spec.qualifier, p, workspace);
  return { empty: false, from, where, values: p.values };
}

/** The tier lookups of one workspace. */
export function postgresTierLookups(connection: Reads, workspaceId: () => number): TierLookups<TierSql> {
  // $1 is the workspace in every tier's SQL.
  const bind = (source: { values: PgValue[] }, ...more: PgValue[]): PgValue[] => [workspaceId(), ...source.values.slice(1), ...more];
  const next = (source: { values: PgValue[] }, offset = 0): string => `$${source.values.length + 1 + offset}`;
  return {
    source: (tier, spec) => tierSource(tier, spec),
    narrow: async (source, max) => {
      if (source.empty) return [];
      return connection.arrays<NarrowRow>(`SELECT ${NARROW_COLUMNS} FROM ${source.from} WHERE ${source.where} LIMIT ${max + 1}`, bind(source));
    },
    narrowMany: async (sources, max, page) => {
      // One statement, one round trip. Each tier's first max + 1 matches (a CTE t<i>) and their count (counts); the
      // matches of a tier of at most max the page may reach; and the symbols of the page cut from all of them as
      // planSearch cuts it (tiers in order). Rows: [i, n, f] a tier's count, [i, null, null, ...NarrowRow] a match,
      // [-1, null, null, ...nulls, ...SymbolRow] a symbol of the page.
      // Reading stops at the first tier of more than max matches: a later tier's scan runs only when every tier before
      // it was complete (a one-time filter on its CTE), else its count is -1 and planSearch reads it only if it needs
      // it. A generic name (`get`: its prefix tier alone fills the count's budget) never reads its substring and
      // signature tiers, the costliest.
      const values: PgValue[] = [workspaceId()];
      const ctes: string[] = [];
      /** The source index of each CTE, in order. */
      const order: number[] = [];
      const tiers: string[] = [];
      const counts: string[] = [];
      const matches: string[] = [];
      // Forward declarations listed: every tier's rows (its end counts as unreachable).
      values.push(page.includeForwardDeclarations ? 2 ** 31 - 1 : page.offset + page.limit, page.limit, page.offset);
      const [end, limit, offset] = ['$2::int', '$3::int', '$4::int'];
      for (const [i, source] of sources.entries()) {
        if (source.empty) continue;
        // The tier's own $1 is the workspace ($1 here too); its other parameters move after those already bound.
        const shift = values.length - 1;
        const renumber = (sql: string): string => sql.replace(/\$(\d+)/g, (_, n: string) => (n === '1' ? '$1' : `$${Number(n) + shift}`));
        values.push(...source.values.slice(1));
        // Every tier read before this one was complete (at most max matches).
        const earlier = ctes.map((_, j) => `(SELECT count(*) FROM t${order[j]}) <= ${max}`);
        const complete = earlier.length ? `(${earlier.join(' AND ')})` : 'true';
        ctes.push(`t${i} AS (SELECT ${NARROW_COLUMNS} FROM ${renumber(source.from)} WHERE ${renumber(source.where)} AND ${complete} LIMIT ${max + 1})`);
        order.push(i);
        tiers.push(`SELECT ${i} AS tier, t${i}.* FROM t${i}`);
        counts.push(`SELECT ${i} AS tier, CASE WHEN ${complete} THEN count(*) ELSE -1 END AS n, coalesce(sum(fwd), 0)::bigint AS f FROM t${i}`);
        // Where the page may reach: the main matches of the smaller tiers before it (a larger one counted as none) fall short of its end.
        const reached = `(SELECT coalesce(sum(n - f), 0) FROM counts WHERE tier < ${i} AND n BETWEEN 0 AND ${max}) < ${end}`;
        matches.push(`SELECT ${i}, NULL, NULL, t${i}.*, ${NO_SYMBOL} FROM t${i} WHERE (SELECT n FROM counts WHERE tier = ${i}) <= ${max} AND ${reached}`);
      }
      const out: Array<TierRead | undefined | null> = sources.map(() => ({ n: 0, f: 0, rows: [] }));
      if (ctes.length === 0) return { tiers: out };
      const pageIds = `SELECT u.id FROM (${tiers.join(' UNION ALL ')}) u${page.includeForwardDeclarations ? '' : ' WHERE u.fwd = 0'}
        ORDER BY u.fwd, u.tier, u.rank, u.name, u.file_id, u.nl, u.nc, u.id LIMIT ${limit} OFFSET ${offset}`;
      // The page's symbols first: their columns type the union (a NULL in the first branch would be text).
      const symbols = `SELECT -1, NULL::bigint, NULL::bigint, ${TYPED_NO_NARROW}, ${SYMBOL_COLUMNS} FROM symbols s ${SYMBOL_JOINS} WHERE s.workspace_id = $1 AND s.id IN (${pageIds})`;
      const countRows = `SELECT tier, n, f, ${NO_NARROW}, ${NO_SYMBOL} FROM counts`;
      const sql = `WITH ${ctes.join(', ')}, counts AS (${counts.join(' UNION ALL ')}) ${[symbols, countRows, ...matches].join(' UNION ALL ')}`;
      const rows = await connection.arrays<unknown[]>(sql, values);
      const byId = new Map<number, StoredSymbol>();
      for (const row of rows) {
        const i = row[0] as number;
        if (i < 0) {
          const symbol = row.slice(10) as SymbolRow;
          byId.set(symbol[ROW_ID], toSymbol(symbol));
        } else if (row[1] !== null) {
          const n = row[1] as number;
          out[i] = n < 0 ? null : n > max ? undefined : { n, f: row[2] as number };
        }
      }
      for (const row of rows) {
        const i = row[0] as number;
        if (i >= 0 && row[1] === null) (out[i]!.rows ??= []).push(row.slice(3, 10) as NarrowRow);
      }
      // A tier of no matches has them all read.
      for (const read of out) if (read && read.n === 0) read.rows ??= [];
      return { tiers: out, symbols: byId };
    },
    countAll: async (source) => {
      if (source.empty) return { n: 0, f: 0 };
      return (await connection.rows<{ n: number; f: number }>(`SELECT count(*) AS n, coalesce(sum(s.fwd), 0)::int AS f FROM ${source.from} WHERE ${source.where}`, bind(source)))[0];
    },
    countWithin: async (source, limit) => {
      if (source.empty) return { n: 0, f: 0 };
      const rows = await connection.arrays<[number, number]>(`SELECT count(*), coalesce(sum(fwd), 0)::int FROM (SELECT s.fwd FROM ${source.from} WHERE ${source.where} LIMIT ${next(source)}::int) x`, bind(source, limit + 1));
      return { n: rows[0][0], f: rows[0][1] };
    },
    countUpTo: async (source, fwd, limit) => {
      if (source.empty) return 0;
      const rows = await connection.arrays<[number]>(`SELECT count(*) FROM (SELECT 1 FROM ${source.from} WHERE ${source.where} AND s.fwd = ${fwd} LIMIT ${next(source)}::int) x`, bind(source, limit));
      return rows[0][0];
    },
    pageIds: async (source, fwd, take, skip) => {
      if (source.empty) return [];
      const rows = await connection.arrays<[number]>(`SELECT s.id FROM ${source.from} WHERE ${source.where} AND s.fwd = ${fwd} ${ORDER_IN_TIER} LIMIT ${next(source)}::int OFFSET ${next(source, 1)}::int`, bind(source, take, skip));
      return rows.map((row) => row[0]);
    },
    symbols: async (ids) => {
      const rows = await connection.arrays<SymbolRow>(`SELECT ${SYMBOL_COLUMNS} FROM symbols s ${SYMBOL_JOINS} WHERE s.workspace_id = $1 AND s.id = ANY($2::bigint[])`, [workspaceId(), ids]);
      const byId = new Map<number, StoredSymbol>();
      for (const row of rows) byId.set(row[ROW_ID], toSymbol(row));
      return byId;
    },
  };
}
