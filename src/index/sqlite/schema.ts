/**
 * The database itself: the tables (SCHEMA), what every open adds (MIGRATIONS, the symbol indexes),
 * the connection settings and SQL functions, and opening, or starting afresh, a database file.
 */
import { randomUUID } from 'node:crypto';
import { mkdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import Database from 'better-sqlite3';
import { VERSION } from '../../version.js';
import { firstHump, fuzzyMatches, initialPairs } from '../ranking.js';
import { workerScript } from '../worker-script.js';
import type { TextThreadData, TextThreadGo, TextThreadReply } from './text-worker.js';

/** Bump when the tables, or what the extractor stores in them, change: a mismatch rebuilds. */
export const SCHEMA_VERSION = 16;

/**
 * The full-text tables a first build's end may fill in a thread of its own (finishLoadWithThread), made the same there.
 * Contentless, and without the per-row sizes (columnsize = 0: the %_docsize tables), which only ranking functions
 * read: names are never deleted, and a symbol's words leave sig_text through FTS5's 'delete' command given the text
 * it was filled with (SIGNATURE_TEXT), not by rowid (contentless_delete, which needs those sizes). On the kernel the
 * sizes were 190 MB (7.2M + 4M + 3.9M rows) that the end of a first build filled, then copied in.
 */
const NAME_TEXT_TABLE = "CREATE VIRTUAL TABLE name_text USING fts5 (name, tokenize = 'trigram', content = '', columnsize = 0)";
const SIG_TEXT_TABLE = "CREATE VIRTUAL TABLE sig_text USING fts5 (signature, tokenize = 'unicode61', content = '', columnsize = 0)";
const NAME_INITIALS_TABLE = "CREATE VIRTUAL TABLE name_initials USING fts5 (pairs, tokenize = 'ascii', content = '', detail = none, columnsize = 0)";
/**
 * signatureText() in SQL, of a symbols row: what sig_text holds for it. Every write and delete of sig_text takes its
 * text from here (a 'delete' must give exactly the text that was filled); a call into JavaScript per symbol cost more
 * than the full-text insert it feeds.
 */
export const SIGNATURE_TEXT = "CASE WHEN return_type <> '' AND instr(signature, return_type) = 0 THEN signature || ' ' || return_type ELSE signature END";
const TRIGRAM_COUNTS_TABLE = 'CREATE TABLE name_trigram_counts (trigram TEXT PRIMARY KEY, names INTEGER NOT NULL) WITHOUT ROWID';

export const SCHEMA = `
CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL) WITHOUT ROWID;
CREATE TABLE packages (
  id INTEGER PRIMARY KEY, name TEXT NOT NULL, path TEXT NOT NULL, manifest TEXT, external INTEGER NOT NULL,
  UNIQUE (name, path)
);
CREATE INDEX packages_lower ON packages (lower(name));
-- skipped: why a file is recorded without being parsed (too_large, binary, unreadable, parse_timeout, too_deep), with skipped_detail for people; NULL when parsed.
CREATE TABLE files (
  id INTEGER PRIMARY KEY, path TEXT NOT NULL UNIQUE, size INTEGER NOT NULL, mtime REAL NOT NULL, ctime REAL NOT NULL, ino INTEGER NOT NULL, hash TEXT NOT NULL,
  language TEXT NOT NULL, package_id INTEGER NOT NULL, external INTEGER NOT NULL, symbol_count INTEGER NOT NULL, skipped TEXT, skipped_detail TEXT
);
CREATE INDEX files_package ON files (package_id);
CREATE INDEX files_skipped ON files (path) WHERE skipped IS NOT NULL;
-- Directories the walk left out as build output (src/index/build-output.ts), with why: /status lists them.
CREATE TABLE build_output (path TEXT PRIMARY KEY, reason TEXT NOT NULL) WITHOUT ROWID;
CREATE TABLE symbols (
  id INTEGER PRIMARY KEY, sid TEXT NOT NULL, file_id INTEGER NOT NULL,
  name TEXT NOT NULL, name_lower TEXT NOT NULL, humps TEXT NOT NULL, kind TEXT NOT NULL,
  qualified_name TEXT NOT NULL, module TEXT, containing_type TEXT,
  sl INTEGER NOT NULL, sc INTEGER NOT NULL, el INTEGER NOT NULL, ec INTEGER NOT NULL,
  nl INTEGER NOT NULL, nc INTEGER NOT NULL, nel INTEGER NOT NULL, nec INTEGER NOT NULL,
  signature TEXT NOT NULL, parameters TEXT NOT NULL, return_type TEXT, doc TEXT,
  definition INTEGER NOT NULL, fwd INTEGER NOT NULL, external INTEGER NOT NULL, rank INTEGER NOT NULL,
  bases TEXT NOT NULL, language TEXT NOT NULL, package_id INTEGER NOT NULL
);
-- Distinct names (a third of the symbols or fewer): the fuzzy and substring tiers search these,
-- then reach symbols through symbols_name. Never deleted: a stale name joins nothing.
CREATE TABLE names (id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE, name_lower TEXT NOT NULL, first TEXT NOT NULL, humps TEXT NOT NULL);
-- Substrings of distinct names (rowid = names.id, trigrams) and words of signatures (rowid = symbols.id).
${NAME_TEXT_TABLE};
${SIG_TEXT_TABLE};
-- Each distinct name's first initial paired with each later one (rowid = names.id; \`fmpc\` → \`fm fp fc\`): the
-- CamelCase tier's candidates when its first hump may be initials, instead of every name starting with that letter.
-- Only ever asked for names holding every one of some pairs: rowids alone (detail = none), no positions.
${NAME_INITIALS_TABLE};
-- How many distinct names hold each common trigram (filled at the end of a first build, fillTrigramCounts, and kept by
-- later writes): the plans' statistics, read here instead of counting a long rowid list in name_text (fts5vocab).
${TRIGRAM_COUNTS_TABLE};
-- The types deriving from a name: one row per base of a type, keyed by the base's last name segment with
-- generics stripped (\`ns::Base<T>\` → Base), and by the original name of a base written through an import alias.
CREATE TABLE symbol_bases (symbol_id INTEGER NOT NULL, base TEXT NOT NULL);
CREATE INDEX symbol_bases_base ON symbol_bases (base, symbol_id);
CREATE INDEX symbol_bases_symbol ON symbol_bases (symbol_id);
`;

const NAMES_COVER = 'CREATE INDEX IF NOT EXISTS names_cover ON names (first, humps, name_lower, name)';

/**
 * Changes applied to any database of this schema version on open. names_cover carries what the CamelCase
 * tier checks and joins on, so its scan over a first hump's names reads no name rows; names_camel (first, humps)
 * was its prefix, an index no plan needed that cost the end of a first build 2 s of its 4 million random inserts
 * on the kernel (and 91 MB).
 */
export const MIGRATIONS = `
DROP INDEX IF EXISTS symbols_name_lower;
DROP INDEX IF EXISTS names_camel;
${NAMES_COVER};
CREATE INDEX IF NOT EXISTS symbols_container ON symbols (containing_type) WHERE containing_type IS NOT NULL;
`;

/**
 * The symbols table's indexes. A first build loads without them and makes them once at its end: kept up
 * row by row, their random keys cost the load more than its rows (on the kernel's register headers, 8 µs
 * of the insert's 10 per symbol), made at the end they are one sort each. Searches during a first build
 * read the table without them (a partial index answers slower until it is ready). Opening a database
 * makes any that are missing (a build killed mid-load).
 */
export const SYMBOL_INDEXES = `
CREATE INDEX IF NOT EXISTS symbols_sid ON symbols (sid);
CREATE INDEX IF NOT EXISTS symbols_file ON symbols (file_id);
CREATE INDEX IF NOT EXISTS symbols_name ON symbols (name_lower, name, fwd, rank, file_id, nl, nc);
`;
export const DROP_LOAD_INDEXES = 'DROP INDEX IF EXISTS symbols_sid; DROP INDEX IF EXISTS symbols_file; DROP INDEX IF EXISTS symbols_name;';

/**
 * Set in meta while a bulk load has left the search tables to its end: the distinct names (names, their
 * trigrams in name_text and their initials in name_initials) and the signatures' words (sig_text). Its end
 * fills them from the symbols table (the CamelCase, substring and signature tiers answer once the first build
 * is done); opening a database whose load was cut short does the same.
 */
export const TEXT_PENDING = 'signatures_pending';
/** TEXT_PENDING's value once the names are in, their name_initials and the full-text tables not yet (finishLoadWithThread). */
const NAMES_ONLY = 'names';
/** TEXT_PENDING's value once the names and sig_text are in, name_initials and name_text not yet (finishLoadWithThread). */
const NAMES_AND_SIGNATURES = 'names, signatures';
/** TEXT_PENDING's value once the names and name_initials are in, name_text and sig_text not yet (what earlier versions' finishLoadWithThread left). */
const TEXT_ONLY = 'text';
const FILL_NAMES = `INSERT OR IGNORE INTO names (name, name_lower, first, humps)
  SELECT name, name_lower, plumb_first_hump(name), humps FROM symbols GROUP BY name ORDER BY name`;
const fillNameText = (names: string, before: number): string => `INSERT INTO name_text (rowid, name) SELECT id, name FROM ${names} WHERE id > ${before}`;
const fillNameInitials = (names: string, before: number): string =>
  `INSERT INTO name_initials (rowid, pairs) SELECT id, plumb_initial_pairs(humps) FROM ${names} WHERE id > ${before} AND length(humps) > 1`;
const fillText = (symbols: string): string => `INSERT INTO sig_text (rowid, signature) SELECT id, ${SIGNATURE_TEXT} FROM ${symbols};`;

/**
 * The full-text tables' merging while a load fills them: none as they fill (the optimize at its end merges every
 * segment once; merging four at a time as they fill wrote the index over some log4(segments) times), and back to
 * FTS5's defaults for the edits after.
 */
const FTS_TABLES = ['name_text', 'sig_text', 'name_initials'];
const merges = (tables: readonly string[], automerge: number, crisismerge: number): string =>
  tables.map((t) => `INSERT INTO ${t} (${t}, rank) VALUES ('automerge', ${automerge}); INSERT INTO ${t} (${t}, rank) VALUES ('crisismerge', ${crisismerge});`).join(' ');
/** One segment per full-text table: lookups then read one b-tree instead of some twenty. */
const optimize = (tables: readonly string[]): string => tables.map((t) => `INSERT INTO ${t} (${t}) VALUES ('optimize');`).join(' ');
const loadMerges = (tables: readonly string[]): string => merges(tables, 0, 64);
const FTS_MERGES = merges(FTS_TABLES, 4, 16);

/** Opens (or creates) the database; a different schema version or plumb version starts it afresh. */
export function openStoreDatabase(file: string): Database.Database {
  mkdirSync(path.dirname(file), { recursive: true });
  let db = openDatabase(file);
  const version = readVersion(db);
  if (version !== fingerprint()) {
    db.close();
    for (const suffix of ['', '-wal', '-shm', CAMEL_SUFFIX]) rmSync(file + suffix, { force: true });
    db = openDatabase(file);
    db.exec(SCHEMA);
    db.prepare('INSERT INTO meta (key, value) VALUES (?, ?)').run('version', fingerprint());
  }
  db.exec(MIGRATIONS);
  // The database's own id, made once: files kept beside it (the CamelCase names in memory, CAMEL_SUFFIX) name it. Best effort: another
  // process holding the write lock (plumb index while plumb serves) leaves it to a later open, and nothing is kept beside it until then.
  if (db.prepare('SELECT 1 FROM meta WHERE key = ?').get(INSTANCE_KEY) === undefined) {
    try {
      db.prepare('INSERT OR IGNORE INTO meta (key, value) VALUES (?, ?)').run(INSTANCE_KEY, randomUUID());
    } catch (error) {
      if ((error as { code?: string }).code !== 'SQLITE_BUSY') throw error;
    }
  }
  finishLoad(db);
  return db;
}

/** meta's key for the database's own id (openStoreDatabase). */
export const INSTANCE_KEY = 'instance';
/** The file beside the database holding its names' CamelCase arrays (src/index/camel-names.ts, saved by sqlite/camel-worker.ts). */
export const CAMEL_SUFFIX = '-camel';

/** The connection's memory map of the database file (mmap_size): modest, since mapped pages count in the service's RSS. */
const MMAP_BYTES = 256 * 1024 * 1024;

function openDatabase(file: string): Database.Database {
  const db = new Database(file);
  db.pragma('journal_mode = WAL');
  // NORMAL in WAL mode keeps every committed transaction across a process kill (only an OS crash can lose the last ones).
  db.pragma('synchronous = NORMAL');
  db.pragma('temp_store = MEMORY');
  db.pragma('cache_size = -65536');
  // The page cache serves reads well enough beyond it.
  db.pragma(`mmap_size = ${MMAP_BYTES}`);
  // sig_text's text, the same whether a row is written alone or a bulk load fills the table at its end.
  db.function('plumb_signature_text', { deterministic: true }, (signature: unknown, returnType: unknown) => signatureText(String(signature), returnType === null ? null : String(returnType)));
  db.function('plumb_first_hump', { deterministic: true }, (name: unknown) => firstHump(String(name)));
  db.function('plumb_camel', { deterministic: true }, (name: unknown, query: unknown) => (fuzzyMatches(String(name), String(query)) ? 1 : 0));
  db.function('plumb_initial_pairs', { deterministic: true }, (humps: unknown) => initialPairs(String(humps)));
  return db;
}

/** Makes missing symbol indexes and fills the search tables when a bulk load left them pending. */
export function finishLoad(db: Database.Database): void {
  spillingSorts(db, () => finishLoadIn(db));
}

function finishLoadIn(db: Database.Database): void {
  db.transaction(() => {
    db.exec(SYMBOL_INDEXES);
    const pending = db.prepare('SELECT value FROM meta WHERE key = ?').pluck().get(TEXT_PENDING) as string | undefined;
    if (pending === TEXT_ONLY || pending === NAMES_ONLY || pending === NAMES_AND_SIGNATURES) {
      // finishLoadWithThread made the names (and sig_text, or in earlier versions name_initials) and stopped before the rest was in.
      fillTextHere(db, 0, { initials: pending !== TEXT_ONLY, signatures: pending !== NAMES_AND_SIGNATURES });
    } else if (pending !== undefined) {
      // Only an empty store starts a bulk load, so no signature predates it; names are never deleted, so some may.
      const before = (db.prepare('SELECT max(id) FROM names').pluck().get() as number | null) ?? 0;
      fillNames(db, before);
      fillTextHere(db, before, { initials: true, signatures: true });
    }
  })();
}

/**
 * The distinct names (those past `before` new). Into an empty table, names_cover is made after them, one sort
 * instead of four million random inserts (on the kernel, CPU: 8.1-8.9 s + 2.8 s against 12.6-13.4 s kept up row by row);
 * without `cover`, the caller makes it (SQL NAMES_COVER).
 */
function fillNames(db: Database.Database, before: number, cover = true): void {
  if (before === 0) db.exec('DROP INDEX IF EXISTS names_cover');
  db.exec(FILL_NAMES);
  if (cover) db.exec(NAMES_COVER);
}

/**
 * name_text, name_initials (when `initials`) and sig_text (when `signatures`) filled on this connection for the names
 * past `before` and every symbol, then merged, counted (name_trigram_counts) and no longer pending.
 */
function fillTextHere(db: Database.Database, before: number, fill: { initials: boolean; signatures: boolean }): void {
  const tables = FTS_TABLES.filter((table) => (table !== 'name_initials' || fill.initials) && (table !== 'sig_text' || fill.signatures));
  db.exec(loadMerges(tables));
  if (fill.initials) db.exec(fillNameInitials('names', before));
  db.exec(fillNameText('names', before));
  if (fill.signatures) db.exec(fillText('symbols'));
  db.exec(optimize(tables));
  fillTrigramCounts(db);
  db.exec(FTS_MERGES);
  db.prepare('DELETE FROM meta WHERE key = ?').run(TEXT_PENDING);
}

/**
 * finishLoad with a second core: the end of a first build is some 80 s of SQLite on one thread for the kernel, while
 * the parser threads are done. This connection makes the names first and commits them, then names_cover and the symbol indexes; a
 * thread of its own (text-worker.ts) fills the full-text tables in scratch databases beside this one, reading the
 * committed rows: sig_text from the symbols while the names are made, then name_text, name_initials and
 * name_trigram_counts from the names (one grouping of the symbols by name, here). Their pages are then copied in
 * (the full-text tables' shadow tables, row for row: the same index as filling them here makes), sig_text as soon as
 * the indexes are in, the rest once the thread is done. Only for a store whose names table starts empty (the thread's
 * names are then all the load's), and anything amiss in the thread fills them here instead. On the kernel (7.2M
 * symbols, 4M names) each side is some 35-40 s of CPU.
 */
export async function finishLoadWithThread(db: Database.Database): Promise<void> {
  const pending = db.prepare('SELECT 1 FROM meta WHERE key = ?').get(TEXT_PENDING) !== undefined;
  if (!pending || db.prepare('SELECT 1 FROM names LIMIT 1').get() !== undefined || db.memory) {
    finishLoad(db);
    return;
  }
  const scratch = { signatures: `${db.name}-signatures`, names: `${db.name}-text` };
  removeDatabase(scratch.signatures);
  removeDatabase(scratch.names);
  const thread = startTextThread(db.name, scratch);
  // Read through the page cache, not the map, while both sides sort and copy: the map's pages count in the process's
  // RSS, and on the kernel they took this stage's peak to 1,081 MB, over the parse phase's (945-1,006 MB).
  db.pragma('mmap_size = 0');
  const state = (): string | undefined => db.prepare('SELECT value FROM meta WHERE key = ?').pluck().get(TEXT_PENDING) as string | undefined;
  try {
    spillingSorts(db, () => {
      try {
        // names_cover is made with the symbol indexes, after this commit: the thread, done with sig_text by then on the
        // kernel, waited the 3 s of CPU it takes (and the commit of its 381 MB) for the names.
        db.transaction(() => {
          fillNames(db, 0, false);
          db.prepare('UPDATE meta SET value = ? WHERE key = ?').run(NAMES_ONLY, TEXT_PENDING);
        })();
      } finally {
        // The thread's second part reads the names this committed; without them it stops.
        thread.go(state() === NAMES_ONLY);
      }
      db.transaction(() => db.exec(`${NAMES_COVER}; ${SYMBOL_INDEXES}`))();
    });
    // The thread filled sig_text first (long done on the kernel): copied in while it fills the names' tables.
    const signatures = (await thread.signatures) && copyText(db, scratch.signatures, ['sig_text'], NAMES_AND_SIGNATURES);
    const names = await thread.done;
    // Made in one insert into an empty table, the names are ids 1 to their count: the thread read them all when its
    // count is the last id (counting them here took 0.2-0.9 s of the kernel's end, with nothing else to do).
    const maxId = (db.prepare('SELECT max(id) FROM names').pluck().get() as number | null) ?? 0;
    const copied = signatures && !(names instanceof Error) && names === maxId && copyText(db, scratch.names, ['name_text', 'name_initials'], undefined);
    if (copied) {
      db.exec(FTS_MERGES);
    } else {
      spillingSorts(db, () => db.transaction(() => fillTextHere(db, 0, { initials: true, signatures: !signatures }))());
    }
  } finally {
    db.pragma(`mmap_size = ${MMAP_BYTES}`);
    await thread.done;
    removeDatabase(scratch.signatures);
    removeDatabase(scratch.names);
  }
}

/**
 * The page cache, in KiB (cache_size), while the end of a first build sorts: SQLite's sorter sorts runs of that size
 * in memory before it merges them, and small runs sort in the processor's caches. On the kernel (7.2M symbols, CPU
 * at load ~11) 4 MB against the connection's 64 MB: symbols_sid 8.1-8.7 -> 4.1-4.3 s, symbols_name 8.2-8.6 -> 6.4-6.8 s,
 * the names' GROUP BY 8.4 -> 7.3 s; 16 MB and 8 MB lie between, 2 MB and 1 MB as 4 MB.
 */
const SORT_CACHE_KIB = 4096;

/**
 * Index sorts and GROUP BY spill to temporary files while `run` runs, not to memory: millions of rows sorted in
 * memory would be the build's peak RSS. They sort in runs of SORT_CACHE_KIB.
 */
function spillingSorts(db: Database.Database, run: () => void): void {
  const cache = db.pragma('cache_size', { simple: true }) as number;
  db.pragma('temp_store = FILE');
  db.pragma(`cache_size = -${SORT_CACHE_KIB}`);
  try {
    run();
  } finally {
    db.pragma('temp_store = MEMORY');
    db.pragma(`cache_size = ${cache}`);
  }
}

/**
 * These full-text tables' shadow tables (and, with name_text, name_trigram_counts) from one of the thread's scratch
 * databases, in one transaction that leaves TEXT_PENDING at `pending` (deleted when undefined): whether it did.
 */
function copyText(db: Database.Database, scratch: string, tables: readonly string[], pending: string | undefined): boolean {
  try {
    db.prepare('ATTACH DATABASE ? AS text_load').run(scratch);
  } catch {
    return false;
  }
  try {
    // Shadow tables are written only by FTS5 itself unless the connection says otherwise (SQLITE_DBCONFIG_DEFENSIVE).
    db.unsafeMode(true);
    try {
      db.transaction(() => {
        for (const table of tables) {
          for (const shadow of ['data', 'idx']) db.exec(`DELETE FROM main.${table}_${shadow}; INSERT INTO main.${table}_${shadow} SELECT * FROM text_load.${table}_${shadow};`);
        }
        if (tables.includes('name_text')) db.exec('DELETE FROM main.name_trigram_counts; INSERT INTO main.name_trigram_counts SELECT * FROM text_load.name_trigram_counts;');
        if (pending === undefined) db.prepare('DELETE FROM meta WHERE key = ?').run(TEXT_PENDING);
        else db.prepare('UPDATE meta SET value = ? WHERE key = ?').run(pending, TEXT_PENDING);
      })();
    } catch {
      // Filled here instead (the copy's transaction rolled back).
      return false;
    } finally {
      db.unsafeMode(false);
    }
  } finally {
    db.exec('DETACH DATABASE text_load');
  }
  forgetCachedText(db, tables);
  return true;
}

/**
 * FTS5 keeps each table's structure (its segments) cached per connection, read afresh when another connection has
 * committed or a transaction that wrote the table rolls back: after copyText wrote its shadow tables under it, this.
 */
function forgetCachedText(db: Database.Database, tables: readonly string[]): void {
  db.exec(`BEGIN; ${tables.map((t) => `INSERT INTO ${t} (${t}, rank) VALUES ('automerge', 0);`).join(' ')} ROLLBACK;`);
}

/**
 * Starts text-worker.ts into the two scratch databases: `go` tells it whether the names are committed; `signatures`,
 * whether it filled sig_text; `done`, the number of names it read, or why it could not.
 */
function startTextThread(main: string, scratch: { signatures: string; names: string }): { go: (names: boolean) => void; signatures: Promise<boolean>; done: Promise<number | Error> } {
  const workerData: TextThreadData = {
    main,
    scratch,
    signatures: [SIG_TEXT_TABLE, loadMerges(['sig_text']), fillText('src.symbols'), optimize(['sig_text'])],
    names: [
      NAME_TEXT_TABLE, NAME_INITIALS_TABLE, TRIGRAM_COUNTS_TABLE, loadMerges(['name_text', 'name_initials']),
      fillNameText('src.names', 0), fillNameInitials('src.names', 0), optimize(['name_text', 'name_initials']), TRIGRAM_VOCAB, FILL_TRIGRAM_COUNTS,
    ],
  };
  const { script, options } = workerScript(import.meta.url, 'text-worker', { workerData });
  let worker: Worker | undefined;
  let signed: (filled: boolean) => void = () => undefined;
  const signatures = new Promise<boolean>((resolve) => {
    signed = resolve;
  });
  const done = new Promise<number>((resolve, reject) => {
    worker = new Worker(script, options);
    worker.on('message', (message: TextThreadReply) => {
      if ('signatures' in message) signed(true);
      else if ('names' in message) resolve(message.names);
      else reject(new Error(message.error));
    });
    worker.once('error', reject);
    worker.once('exit', () => reject(new Error('text thread exited')));
  }).catch((error: unknown) => (error instanceof Error ? error : new Error(String(error))));
  // A thread that ends without filling sig_text did not fill it.
  void done.then(() => signed(false));
  let told = false;
  return {
    go: (names) => {
      if (told) return;
      told = true;
      worker?.postMessage(names satisfies TextThreadGo);
    },
    signatures,
    done,
  };
}

function removeDatabase(file: string): void {
  for (const suffix of ['', '-journal', '-wal', '-shm']) rmSync(file + suffix, { force: true });
}

/** A trigram of fewer names than this is left out of name_trigram_counts: fts5vocab counts its short rowid list in some 50 µs. */
export const COMMON_TRIGRAM = 500;
const TRIGRAM_VOCAB = "CREATE VIRTUAL TABLE temp.fill_trigrams USING fts5vocab(main, 'name_text', 'row')";
const FILL_TRIGRAM_COUNTS = `INSERT INTO name_trigram_counts (trigram, names) SELECT term, doc FROM temp.fill_trigrams WHERE doc >= ${COMMON_TRIGRAM}`;

/**
 * name_trigram_counts from name_text, in one pass over its terms (some 3 s for the kernel's four million names, whose
 * trigrams are 37,000): the trigrams of COMMON_TRIGRAM names or more, those whose count fts5vocab reads slowly (it
 * reads the whole rowid list: 13 ms for one of 200,000 names). Later writes add their new names to these counts.
 */
export function fillTrigramCounts(db: Database.Database): void {
  db.exec(`DELETE FROM name_trigram_counts; ${TRIGRAM_VOCAB}`);
  try {
    db.exec(FILL_TRIGRAM_COUNTS);
  } finally {
    db.exec('DROP TABLE temp.fill_trigrams');
  }
}

function readVersion(db: Database.Database): string | undefined {
  try {
    const row = db.prepare("SELECT value FROM meta WHERE key = 'version'").get() as { value: string } | undefined;
    return row?.value;
  } catch {
    return undefined;
  }
}

/** The schema version and the plumb version: a new release may extract differently, so it rebuilds. */
function fingerprint(): string {
  return `${SCHEMA_VERSION}/${VERSION}`;
}

/** Signature words plus the return type, which some languages' signatures leave out. */
export function signatureText(signature: string, returnType: string | null): string {
  return returnType && !signature.includes(returnType) ? `${signature} ${returnType}` : signature;
}
