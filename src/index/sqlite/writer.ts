/**
 * The build side: what the builder compares a walk against (file states), and the writes — a batch of
 * file updates and removals in one transaction, packages, a first build's bulk load, housekeeping.
 */
import type Database from 'better-sqlite3';
import { fileIdFor } from '../ids.js';
import { humpSegments, initialPairs, prefixEnd, rankOf } from '../ranking.js';
import type { BuildOutputDirectory, FileStamp, FileState, FileUpdate, PackageRef } from '../store.js';
import { DROP_LOAD_INDEXES, finishLoad, finishLoadWithThread, SIGNATURE_TEXT, TEXT_PENDING } from './schema.js';
import type { Statements } from './statements.js';
import { ChunkReader, Int, packed, Str, STRINGS, symbolCount, type SymbolChunk } from '../symbol-codec.js';
import { yieldToEventLoop } from '../../semaphore.js';

/** Files' states read at once, between turns of the event loop (fileStates). */
const FILE_STATES_PAGE = 4096;

const UPSERT_FILE = `INSERT INTO files (id, path, size, mtime, ctime, ino, hash, language, package_id, external, symbol_count, skipped, skipped_detail)
  VALUES (@id, @path, @size, @mtime, @ctime, @ino, @hash, @language, @packageId, @external, @symbolCount, @skipped, @skippedDetail)
  ON CONFLICT (path) DO UPDATE SET size = excluded.size, mtime = excluded.mtime, ctime = excluded.ctime, ino = excluded.ino, hash = excluded.hash, language = excluded.language,
  package_id = excluded.package_id, external = excluded.external, symbol_count = excluded.symbol_count, skipped = excluded.skipped, skipped_detail = excluded.skipped_detail RETURNING id`;

/** A symbols row's values, in INSERT_SYMBOL's order. */
const SYMBOL_VALUES = 28;
/** Positional parameters, passed as arguments: binding 28 named parameters costs more than the insert's own work. */
const INSERT_SYMBOL = `INSERT INTO symbols (sid, file_id, name, name_lower, humps, kind, qualified_name, containing_type,
  sl, sc, el, ec, nl, nc, nel, nec, signature, parameters, return_type, doc, definition, fwd, external, rank, bases, language, package_id, module)
  VALUES (${Array.from({ length: SYMBOL_VALUES }, () => '?').join(', ')})`;

/**
 * Rows per insert while a bulk load writes (SymbolWrites.write): one statement's step, reset and result object for
 * that many symbols instead of one each. Bulk-load inserts of 200,000 kernel symbols (CPU per row, best of 3, load ~5):
 * 2.43-2.60 µs one row at a time, 2.17-2.29 µs eight at a time, 2.28-2.43 sixteen, 2.32-2.49 thirty-two.
 */
const ROWS_PER_INSERT = 8;
const INSERT_SYMBOLS = `${INSERT_SYMBOL.slice(0, INSERT_SYMBOL.indexOf('VALUES'))}VALUES ${Array.from({ length: ROWS_PER_INSERT }, () => `(${Array.from({ length: SYMBOL_VALUES }, () => '?').join(', ')})`).join(', ')}`;

const INSERT_NAME = 'INSERT OR IGNORE INTO names (name, name_lower, first, humps) VALUES (@name, @nameLower, @first, @humps)';

const UPSERT_PACKAGE = `INSERT INTO packages (name, path, manifest, external) VALUES (@name, @path, @manifest, @external)
  ON CONFLICT (name, path) DO UPDATE SET manifest = excluded.manifest, external = excluded.external RETURNING id`;

/** A lower-case name's distinct trigrams, as name_text's trigram tokenizer cuts it (code points). */
function trigramsOf(nameLower: string): string[] {
  const chars = [...nameLower];
  const trigrams = new Set<string>();
  for (let i = 0; i + 3 <= chars.length; i++) trigrams.add(chars[i] + chars[i + 1] + chars[i + 2]);
  return [...trigrams];
}

export class SymbolWrites {
  private readonly db: Database.Database;
  private readonly packageIds = new Map<string, number>();
  /** Set while a first build loads an empty store (see SymbolStore.bulkLoad). */
  private bulk = false;
  /** The end of a bulk load while it waits for its thread: closing waits for it. */
  private finishing: Promise<void> | undefined;

  constructor(private readonly statements: Statements) {
    this.db = statements.db;
  }

  get bulkLoading(): boolean {
    return this.bulk;
  }

  /**
   * Read FILE_STATES_PAGE rows at a time, other requests running between: on the kernel the 55,000 rows held the
   * event loop some 250 ms at every restart's refresh.
   */
  async fileStates(): Promise<Map<string, FileState>> {
    const states = new Map<string, FileState>();
    const page = this.statements.get(`SELECT id, path, size, mtime, ctime, ino, hash FROM files WHERE id > ? ORDER BY id LIMIT ${FILE_STATES_PAGE}`).raw();
    for (let after = 0; ;) {
      const rows = page.all(after) as Array<[number, string, number, number, number, number, string]>;
      for (const [, file, size, mtimeMs, ctimeMs, ino, hash] of rows) states.set(file, { size, mtimeMs, ctimeMs, ino, hash });
      if (rows.length < FILE_STATES_PAGE) return states;
      after = rows[rows.length - 1][0];
      await yieldToEventLoop();
    }
  }

  fileStatesOf(files: string[]): Map<string, FileState> {
    const states = new Map<string, FileState>();
    const statement = this.statements.get('SELECT size, mtime, ctime, ino, hash FROM files WHERE path = ?');
    for (const file of files) {
      const row = statement.get(file) as { size: number; mtime: number; ctime: number; ino: number; hash: string } | undefined;
      if (row) states.set(file, { size: row.size, mtimeMs: row.mtime, ctimeMs: row.ctime, ino: row.ino, hash: row.hash });
    }
    return states;
  }

  filesUnder(directory: string): string[] {
    const prefix = directory.endsWith('/') ? directory : `${directory}/`;
    const rows = this.statements.get('SELECT path FROM files WHERE path > @prefix AND path < @end').all({ prefix, end: prefixEnd(prefix) }) as Array<{ path: string }>;
    return rows.map((row) => row.path);
  }

  write(updates: FileUpdate[], removed: string[], touched: FileStamp[] = []): void {
    const fileId = this.statements.get('SELECT id FROM files WHERE path = ?');
    const idTaken = this.statements.get('SELECT 1 FROM files WHERE id = ?').pluck();
    const dropText = [
      this.statements.get(`INSERT INTO sig_text (sig_text, rowid, signature) SELECT 'delete', id, ${SIGNATURE_TEXT} FROM symbols WHERE file_id = ?`),
      this.statements.get('DELETE FROM symbol_bases WHERE symbol_id IN (SELECT id FROM symbols WHERE file_id = ?)'),
    ];
    const dropSymbols = this.statements.get('DELETE FROM symbols WHERE file_id = ?');
    const dropFile = this.statements.get('DELETE FROM files WHERE id = ?');
    const touch = this.statements.get('UPDATE files SET size = @size, mtime = @mtime, ctime = @ctime, ino = @ino WHERE path = @path');
    const upsertFile = this.statements.get(UPSERT_FILE);
    const insertSymbol = this.statements.get(INSERT_SYMBOL);
    const insertName = this.statements.get(INSERT_NAME);
    const insertNameText = this.statements.get('INSERT INTO name_text (rowid, name) VALUES (?, ?)');
    const insertNameInitials = this.statements.get('INSERT INTO name_initials (rowid, pairs) VALUES (?, ?)');
    // A new name adds one to each of its common trigrams' counts (the rarer ones are counted where they are read).
    const countTrigrams = this.statements.get('UPDATE name_trigram_counts SET names = names + 1 WHERE trigram IN (SELECT value FROM json_each(?))');
    const insertSig = this.statements.get(`INSERT INTO sig_text (rowid, signature) SELECT id, ${SIGNATURE_TEXT} FROM symbols WHERE id = ?`);
    const insertBase = this.statements.get('INSERT INTO symbol_bases (symbol_id, base) VALUES (?, ?)');

    const dropFileContent = (id: number): void => {
      for (const statement of dropText) statement.run(id);
      dropSymbols.run(id);
    };
    // A bulk load inserts ROWS_PER_INSERT symbols a statement (it writes no names: its end makes them).
    const bulkRows = this.bulk ? new BulkRows(insertSymbol, this.statements.get(INSERT_SYMBOLS), insertBase) : undefined;
    const apply = this.db.transaction(() => {
      for (const file of removed) {
        const row = fileId.get(file) as { id: number } | undefined;
        if (!row) continue;
        dropFileContent(row.id);
        dropFile.run(row.id);
      }
      for (const t of touched) touch.run({ size: t.size, mtime: t.mtimeMs, ctime: t.ctimeMs, ino: t.ino, path: t.file });
      for (const update of updates) {
        const packageId = this.packageId(update.package);
        const existing = fileId.get(update.file) as { id: number } | undefined;
        if (existing) dropFileContent(existing.id);
        let newId = existing?.id ?? fileIdFor(update.file);
        if (!existing) while (idTaken.get(newId)) newId++;
        const external = update.external ? 1 : 0;
        const { id } = upsertFile.get({
          id: newId, path: update.file, size: update.size, mtime: update.mtimeMs, ctime: update.ctimeMs ?? 0, ino: update.ino ?? 0, hash: update.hash,
          language: update.language, packageId, external, symbolCount: symbolCount(update.symbols), skipped: update.skipped?.reason ?? null, skippedDetail: update.skipped?.detail ?? null,
        }) as { id: number };
        const symbols = packed(update.symbols, update.file);
        const module = update.module ?? null;
        if (bulkRows) {
          for (const chunk of symbols.packed) bulkRows.add(chunk, id, external, rankOf(update.external, true), rankOf(update.external, false), packageId, module);
          continue;
        }
        for (const chunk of symbols.packed) {
          const reader = new ChunkReader(chunk);
          const s = reader.strings;
          for (let i = 0; i < chunk.count; i++) {
            reader.next();
            const at = reader.at;
            const ints = chunk.ints;
            const flags = ints[at + Int.Flags];
            const definition = (flags & 1) !== 0;
            // Arguments, not an array: better-sqlite3 reads an array's elements through V8's API one by one (3.0 µs a row
            // against 2.4 measured on the kernel's fs/ and include/).
            const { lastInsertRowid } = insertSymbol.run(
              s[Str.Sid], id, s[Str.Name], s[Str.NameLower], s[Str.Humps], s[Str.Kind], s[Str.QualifiedName], s[Str.ContainingType],
              ints[at + Int.Sl], ints[at + Int.Sc], ints[at + Int.El], ints[at + Int.Ec], ints[at + Int.Nl], ints[at + Int.Nc], ints[at + Int.Nel], ints[at + Int.Nec],
              s[Str.Signature], s[Str.Parameters], s[Str.ReturnType], s[Str.Doc], definition ? 1 : 0, (flags & 2) !== 0 ? 1 : 0, external, rankOf(update.external, definition),
              s[Str.Bases], s[Str.Language], packageId, module,
            );
            // A bulk load makes names, name_text and sig_text once at its end (finishLoad), from the symbols table.
            if (!this.bulk) {
              const name = s[Str.Name] as string;
              const nameLower = s[Str.NameLower] as string;
              const humps = s[Str.Humps] as string;
              const inserted = insertName.run({ name, nameLower, first: humpSegments(name)[0] ?? '', humps });
              if (inserted.changes > 0) {
                insertNameText.run(inserted.lastInsertRowid, name);
                if (humps.length > 1) insertNameInitials.run(inserted.lastInsertRowid, initialPairs(humps));
                if (nameLower.length >= 3) countTrigrams.run(JSON.stringify(trigramsOf(nameLower)));
              }
              insertSig.run(lastInsertRowid);
            }
            for (let k = STRINGS; k < s.length; k++) insertBase.run(lastInsertRowid, s[k]);
          }
        }
      }
      bulkRows?.end();
    });
    apply();
  }

  recordBuildOutput(directories: BuildOutputDirectory[], cleared: string[] | 'all'): void {
    const clear = this.statements.get('DELETE FROM build_output WHERE path = @path OR (path > @prefix AND path < @end)');
    const insert = this.statements.get('INSERT OR REPLACE INTO build_output (path, reason) VALUES (?, ?)');
    this.db.transaction(() => {
      if (cleared === 'all') this.statements.get('DELETE FROM build_output').run();
      else for (const path of cleared) clear.run({ path, prefix: `${path}/`, end: prefixEnd(`${path}/`) });
      for (const directory of directories) insert.run(directory.path, directory.reason);
    })();
  }

  registerPackages(packages: PackageRef[]): void {
    this.db.transaction(() => {
      for (const ref of packages) this.packageId(ref);
    })();
  }

  prunePackages(keep: PackageRef[]): void {
    const wanted = new Set(keep.map((ref) => `${ref.name}\u0000${ref.path}`));
    const rows = this.statements.get('SELECT p.id, p.name, p.path, (SELECT count(*) FROM files f WHERE f.package_id = p.id) AS files FROM packages p').all() as Array<{ id: number; name: string; path: string; files: number }>;
    const drop = this.statements.get('DELETE FROM packages WHERE id = ?');
    this.db.transaction(() => {
      for (const row of rows) {
        if (row.files > 0 || wanted.has(`${row.name}\u0000${row.path}`)) continue;
        drop.run(row.id);
        this.packageIds.delete(`${row.name}\u0000${row.path}`);
      }
    })();
  }

  /** Refreshes the planner's statistics after a build (bounded work). */
  optimize(): void {
    this.db.pragma('analysis_limit = 1000');
    this.db.pragma('optimize');
  }

  /**
   * Starts a first build's bulk load, or ends it: `thread` lets its end use a second thread (finishLoadWithThread),
   * which the build does; closing the store mid-load ends it here.
   */
  async bulkLoad(on: boolean, thread = false): Promise<void> {
    await this.finishing;
    if (on === this.bulk || !this.db.open) return;
    this.bulk = on;
    if (on) {
      // A lookup by id during the load scans the table instead; what is committed is still found.
      this.db.transaction(() => {
        this.db.exec(DROP_LOAD_INDEXES);
        this.statements.get('INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)').run(TEXT_PENDING, '1');
      })();
    } else if (thread) {
      this.finishing = finishLoadWithThread(this.db);
      try {
        await this.finishing;
      } finally {
        this.finishing = undefined;
      }
    } else {
      finishLoad(this.db);
    }
    // WAL commits are write()s to the OS: a process kill loses none of them with or without fsync.
    this.db.pragma(on ? 'synchronous = OFF' : 'synchronous = NORMAL');
    // The checkpoint under NORMAL syncs the log and the database, covering what OFF left unsynced.
    if (!on) this.db.pragma('wal_checkpoint(PASSIVE)');
  }

  private packageId(ref: PackageRef): number {
    const key = `${ref.name}\u0000${ref.path}`;
    let id = this.packageIds.get(key);
    if (id === undefined) {
      const row = this.statements.get(UPSERT_PACKAGE).get({ name: ref.name, path: ref.path, manifest: ref.manifest, external: ref.external ? 1 : 0 }) as { id: number };
      id = row.id;
      this.packageIds.set(key, id);
    }
    return id;
  }
}

/**
 * A bulk load's symbols rows, bound ROWS_PER_INSERT to a statement (the rows left at the end one at a time). The rows
 * of one insert take consecutive row ids ending at its last insert rowid (new rows of a rowid table get the largest id
 * plus one), which their symbol_bases keys are written with.
 */
class BulkRows {
  private readonly values: unknown[] = new Array(SYMBOL_VALUES * ROWS_PER_INSERT);
  private rows = 0;
  /** The symbol_bases keys of the rows held: the row's place among them, and the key. */
  private readonly keys: Array<[number, string]> = [];

  constructor(
    private readonly one: Database.Statement,
    private readonly many: Database.Statement,
    private readonly insertBase: Database.Statement,
  ) {}

  /** A chunk's symbols of the file `fileId`; `rankDefinition` and `rankOther` are rankOf the file's for each. */
  add(chunk: SymbolChunk, fileId: number, external: number, rankDefinition: number, rankOther: number, packageId: number, module: string | null): void {
    const reader = new ChunkReader(chunk);
    const s = reader.strings;
    const ints = chunk.ints;
    const v = this.values;
    for (let i = 0; i < chunk.count; i++) {
      reader.next();
      const at = reader.at;
      const flags = ints[at + Int.Flags];
      const definition = (flags & 1) !== 0;
      let o = this.rows * SYMBOL_VALUES;
      v[o++] = s[Str.Sid]; v[o++] = fileId; v[o++] = s[Str.Name]; v[o++] = s[Str.NameLower]; v[o++] = s[Str.Humps]; v[o++] = s[Str.Kind];
      v[o++] = s[Str.QualifiedName]; v[o++] = s[Str.ContainingType];
      v[o++] = ints[at + Int.Sl]; v[o++] = ints[at + Int.Sc]; v[o++] = ints[at + Int.El]; v[o++] = ints[at + Int.Ec];
      v[o++] = ints[at + Int.Nl]; v[o++] = ints[at + Int.Nc]; v[o++] = ints[at + Int.Nel]; v[o++] = ints[at + Int.Nec];
      v[o++] = s[Str.Signature]; v[o++] = s[Str.Parameters]; v[o++] = s[Str.ReturnType]; v[o++] = s[Str.Doc];
      v[o++] = definition ? 1 : 0; v[o++] = (flags & 2) !== 0 ? 1 : 0; v[o++] = external; v[o++] = definition ? rankDefinition : rankOther;
      v[o++] = s[Str.Bases]; v[o++] = s[Str.Language]; v[o++] = packageId; v[o] = module;
      for (let k = STRINGS; k < s.length; k++) this.keys.push([this.rows, s[k] as string]);
      if (++this.rows === ROWS_PER_INSERT) this.write();
    }
  }

  /** Writes the rows held. */
  end(): void {
    if (this.rows > 0) this.write();
  }

  private write(): void {
    let last = 0;
    if (this.rows === ROWS_PER_INSERT) last = Number(this.many.run(...this.values).lastInsertRowid);
    else for (let r = 0; r < this.rows; r++) last = Number(this.one.run(...this.values.slice(r * SYMBOL_VALUES, (r + 1) * SYMBOL_VALUES)).lastInsertRowid);
    const first = last - this.rows + 1;
    for (const [row, key] of this.keys) this.insertBase.run(first + row, key);
    this.keys.length = 0;
    this.rows = 0;
  }
}
