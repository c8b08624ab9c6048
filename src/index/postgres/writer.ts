/**
 * The build side in PostgreSQL: file states, and each batch of updates and removals as one transaction whose
 * rows go in bulk (unnest() of arrays: one statement per table, not one per symbol), the workspace's version
 * bumped and a NOTIFY sent in that same transaction. File ids and symbol order as the SQLite store has them
 * (src/index/sqlite/writer.ts): a file keeps its id, a new one takes fileIdFor (+1 while taken); a file's
 * symbols get increasing ids in the order given.
 */
import { fileIdFor, symbolIds } from '../ids.js';
import { humpSegments, humpsOf, initialPairs, prefixEnd, rankOf } from '../ranking.js';
import { signatureWords } from '../signature-words.js';
import { signatureText } from '../sqlite/schema.js';
import { baseKeys, packedIds, symbolCount, symbolObjects } from '../symbol-codec.js';
import type { BuildOutputDirectory, FileStamp, FileState, FileUpdate, PackageRef } from '../store.js';
import type { Connection, PgValue, Queryable } from './connection.js';

/** PostgreSQL text cannot hold NUL: one (a stray byte in a source file) becomes U+FFFD. */
function clean(text: string): string {
  return text.includes('\0') ? text.replace(/\0/g, '\uFFFD') : text;
}
function cleanOrNull(text: string | null | undefined): string | null {
  return text === null || text === undefined ? null : clean(text);
}

const SYMBOL_ARRAYS: Array<[column: string, type: string]> = [
  ['id', 'bigint'], ['sid', 'text'], ['file_id', 'bigint'], ['name', 'text'], ['name_lower', 'text'], ['humps', 'text'], ['segments', 'text'], ['kind', 'text'],
  ['qualified_name', 'text'], ['module', 'text'], ['containing_type', 'text'], ['sl', 'integer'], ['sc', 'integer'], ['el', 'integer'], ['ec', 'integer'],
  ['nl', 'integer'], ['nc', 'integer'], ['nel', 'integer'], ['nec', 'integer'], ['signature', 'text'], ['parameters', 'text'], ['return_type', 'text'], ['doc', 'text'],
  ['definition', 'smallint'], ['fwd', 'smallint'], ['external', 'smallint'], ['rank', 'smallint'], ['bases', 'text'], ['language', 'text'], ['package_id', 'integer'],
  // text[] per symbol: sent as one text per symbol (the words joined by spaces, which no word holds), split in SQL.
  ['sig_words', 'text'],
];
const INSERT_SYMBOLS = `INSERT INTO symbols (workspace_id, ${SYMBOL_ARRAYS.map(([column]) => column).join(', ')})
  SELECT $1, ${SYMBOL_ARRAYS.map(([column]) => (column === 'sig_words' ? "CASE WHEN t.sig_words = '' THEN '{}'::text[] ELSE string_to_array(t.sig_words, ' ') END" : `t.${column}`)).join(', ')}
  FROM unnest(${SYMBOL_ARRAYS.map(([, type], i) => `$${i + 2}::${type}[]`).join(', ')}) AS t(${SYMBOL_ARRAYS.map(([column]) => column).join(', ')}) ORDER BY t.id`;

const UPSERT_FILES = `INSERT INTO files (workspace_id, id, path, size, mtime, ctime, ino, hash, language, package_id, external, symbol_count, skipped, skipped_detail)
  SELECT $1, * FROM unnest($2::bigint[], $3::text[], $4::bigint[], $5::float8[], $6::float8[], $7::float8[], $8::text[], $9::text[], $10::integer[], $11::smallint[], $12::integer[],
    $13::text[], $14::text[])
  ON CONFLICT (workspace_id, path) DO UPDATE SET size = excluded.size, mtime = excluded.mtime, ctime = excluded.ctime, ino = excluded.ino, hash = excluded.hash,
  language = excluded.language, package_id = excluded.package_id, external = excluded.external, symbol_count = excluded.symbol_count,
  skipped = excluded.skipped, skipped_detail = excluded.skipped_detail`;

const INSERT_NAMES = `INSERT INTO names (workspace_id, name, name_lower, first, humps, segments, pairs)
  SELECT $1, name, name_lower, first, humps, segments, string_to_array(pairs, ' ')
  FROM unnest($2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[]) AS n (name, name_lower, first, humps, segments, pairs) ON CONFLICT DO NOTHING`;

const UPSERT_PACKAGE = `INSERT INTO packages (workspace_id, name, path, manifest, external) VALUES ($1, $2, $3, $4, $5)
  ON CONFLICT (workspace_id, name, path) DO UPDATE SET manifest = excluded.manifest, external = excluded.external RETURNING id`;

/** Files removed in one write past which it gets the maintenance deadline (connection.ts), not a batch's. */
const LARGE_REMOVAL = 1000;

export interface WriteCommit {
  version: number;
  lastUpdate: Date;
}

export class PostgresWrites {
  private readonly packageIds = new Map<string, number>();
  private bulk = false;
  /** Names committed during a bulk load (names are never deleted): a repeat is not sent again. */
  private readonly loadedNames = new Set<string>();

  constructor(private readonly connection: Connection, private readonly workspaceId: () => number, private readonly workspaceName: string) {}

  async fileStates(): Promise<Map<string, FileState>> {
    const rows = await this.connection.arrays<[string, number, number, number, number, string]>('SELECT path, size, mtime, ctime, ino, hash FROM files WHERE workspace_id = $1', [this.workspaceId()]);
    return new Map(rows.map(([path, size, mtimeMs, ctimeMs, ino, hash]) => [path, { size, mtimeMs, ctimeMs, ino, hash }]));
  }

  async fileStatesOf(files: string[]): Promise<Map<string, FileState>> {
    const wanted = files.filter((file) => !file.includes('\0'));
    if (wanted.length === 0) return new Map();
    const rows = await this.connection.arrays<[string, number, number, number, number, string]>('SELECT path, size, mtime, ctime, ino, hash FROM files WHERE workspace_id = $1 AND path = ANY($2::text[])', [this.workspaceId(), wanted]);
    const byPath = new Map(rows.map(([path, size, mtimeMs, ctimeMs, ino, hash]) => [path, { size, mtimeMs, ctimeMs, ino, hash }]));
    // In the order asked, as the SQLite store answers.
    const states = new Map<string, FileState>();
    for (const file of wanted) {
      const state = byPath.get(file);
      if (state) states.set(file, state);
    }
    return states;
  }

  async filesUnder(directory: string): Promise<string[]> {
    const prefix = directory.endsWith('/') ? directory : `${directory}/`;
    if (prefix.includes('\0')) return [];
    const rows = await this.connection.arrays<[string]>('SELECT path FROM files WHERE workspace_id = $1 AND path > $2 AND path < $3 ORDER BY path', [this.workspaceId(), prefix, prefixEnd(prefix)]);
    return rows.map((row) => row[0]);
  }

  async write(updates: FileUpdate[], removed: string[], touched: FileStamp[] = []): Promise<WriteCommit> {
    const workspace = this.workspaceId();
    // A path updated twice in one batch ends as its last update (as applying them in turn would leave it).
    const lastOf = new Map<string, FileUpdate>();
    for (const update of updates) {
      lastOf.delete(update.file);
      lastOf.set(clean(update.file), { ...update, file: clean(update.file) });
    }
    const batch = [...lastOf.values()];
    const gone = [...new Set(removed.map(clean))];
    try {
      return await this.connection.transaction(async (client) => {
        if (this.bulk) await client.query('SET LOCAL synchronous_commit = off');
        const known = new Map((await this.connection.arrays<[string, number]>('SELECT path, id FROM files WHERE workspace_id = $1 AND path = ANY($2::text[])', [workspace, [...gone, ...batch.map((u) => u.file)]], client))
          .map(([path, id]) => [path, id]));
        const goneIds = gone.map((path) => known.get(path)).filter((id): id is number => id !== undefined);
        for (const path of gone) known.delete(path);
        const emptied = [...goneIds, ...batch.map((u) => known.get(u.file)).filter((id): id is number => id !== undefined)];
        if (emptied.length > 0) {
          await this.connection.execute(client, 'DELETE FROM symbol_bases WHERE workspace_id = $1 AND symbol_id IN (SELECT id FROM symbols WHERE workspace_id = $1 AND file_id = ANY($2::bigint[]))', [workspace, emptied]);
          await this.connection.execute(client, 'DELETE FROM symbols WHERE workspace_id = $1 AND file_id = ANY($2::bigint[])', [workspace, emptied]);
        }
        if (goneIds.length > 0) await this.connection.execute(client, 'DELETE FROM files WHERE workspace_id = $1 AND id = ANY($2::bigint[])', [workspace, goneIds]);
        if (touched.length > 0) {
          await this.connection.execute(client, `UPDATE files f SET size = t.size, mtime = t.mtime, ctime = t.ctime, ino = t.ino
            FROM unnest($2::text[], $3::bigint[], $4::float8[], $5::float8[], $6::float8[]) AS t(path, size, mtime, ctime, ino) WHERE f.workspace_id = $1 AND f.path = t.path`,
          [workspace, touched.map((t) => clean(t.file)), touched.map((t) => t.size), touched.map((t) => t.mtimeMs), touched.map((t) => t.ctimeMs), touched.map((t) => t.ino)]);
        }
        if (batch.length > 0) await this.insertFiles(client, workspace, batch, known);
        const bumped = await this.connection.rows<{ version: number; last_update: Date }>('UPDATE workspaces SET version = version + 1, last_update = now() WHERE id = $1 RETURNING version, last_update', [workspace], client);
        await client.query('SELECT pg_notify($1, $2)', ['plumb_index', `${this.workspaceName}:${bumped[0].version}`]);
        return { version: bumped[0].version, lastUpdate: bumped[0].last_update };
      // A build's batches hold at most a few hundred files; many removals at once (a root dropped) may take long.
      }, gone.length > LARGE_REMOVAL ? 'maintenance' : 'write');
    } catch (error) {
      // A rolled-back batch may have named names and packages it never committed.
      this.loadedNames.clear();
      this.packageIds.clear();
      throw error;
    }
  }

  private async insertFiles(client: Queryable, workspace: number, batch: FileUpdate[], known: Map<string, number>): Promise<void> {
    // New files: fileIdFor, +1 while another file of the workspace (or of this batch) has it.
    const used = new Set<number>(known.values());
    const candidates = batch.filter((u) => !known.has(u.file)).map((u) => fileIdFor(u.file));
    const taken = new Set((await this.connection.arrays<[number]>('SELECT id FROM files WHERE workspace_id = $1 AND id = ANY($2::bigint[])', [workspace, candidates], client)).map((row) => row[0]));
    const checked = new Set(candidates);
    const isTaken = async (id: number): Promise<boolean> => {
      if (used.has(id) || taken.has(id)) return true;
      if (checked.has(id)) return false;
      checked.add(id);
      const rows = await this.connection.arrays<[number]>('SELECT 1 FROM files WHERE workspace_id = $1 AND id = $2', [workspace, id], client);
      if (rows.length > 0) taken.add(id);
      return rows.length > 0;
    };
    const fileIds: number[] = [];
    const packageIds: number[] = [];
    for (const update of batch) {
      let id = known.get(update.file);
      if (id === undefined) {
        id = fileIdFor(update.file);
        while (await isTaken(id)) id++;
        used.add(id);
      }
      fileIds.push(id);
      packageIds.push(await this.packageId(update.package, client));
    }
    await this.connection.execute(client, UPSERT_FILES, [
      workspace, fileIds, batch.map((u) => u.file), batch.map((u) => u.size), batch.map((u) => u.mtimeMs), batch.map((u) => u.ctimeMs ?? 0), batch.map((u) => u.ino ?? 0),
      batch.map((u) => u.hash), batch.map((u) => u.language), packageIds, batch.map((u) => (u.external ? 1 : 0)), batch.map((u) => symbolCount(u.symbols)),
      batch.map((u) => u.skipped?.reason ?? null), batch.map((u) => cleanOrNull(u.skipped?.detail)),
    ]);

    const total = batch.reduce((n, u) => n + symbolCount(u.symbols), 0);
    if (total === 0) return;
    // Row ids in insertion order: drawn from the sequence at once, ascending.
    const ids = (await this.connection.arrays<[number]>('SELECT nextval(\'symbols_id\') FROM generate_series(1, $1::int)', [total], client)).map((row) => row[0]).sort((a, b) => a - b);
    const columns: PgValue[][] = SYMBOL_ARRAYS.map(() => []);
    const push = (values: PgValue[]): void => values.forEach((value, i) => (columns[i] as PgValue[]).push(value));
    const names = new Map<string, PgValue[]>();
    const baseIds: number[] = [];
    const baseNames: string[] = [];
    let at = 0;
    batch.forEach((update, f) => {
      const symbols = symbolObjects(update.symbols);
      // The ids the parser thread packed with them (symbolIds of the same stored path), else worked out here.
      const sids = 'packed' in update.symbols ? packedIds(update.symbols) : symbolIds(update.file, symbols);
      const external = update.external ? 1 : 0;
      symbols.forEach((symbol, i) => {
        const id = ids[at++];
        const name = clean(symbol.name);
        const nameLower = name.toLowerCase();
        const humps = humpsOf(name);
        const segments = humpSegments(name);
        const { range, selectionRange } = symbol;
        push([
          id, sids[i], fileIds[f], name, nameLower, humps, segments.join(' '), symbol.kind,
          clean(symbol.qualifiedName), cleanOrNull(update.module), cleanOrNull(symbol.containingType), range.start.line, range.start.column, range.end.line, range.end.column,
          selectionRange.start.line, selectionRange.start.column, selectionRange.end.line, selectionRange.end.column,
          clean(symbol.signature), clean(JSON.stringify(symbol.parameters)), cleanOrNull(symbol.returnType), cleanOrNull(symbol.doc),
          symbol.definition ? 1 : 0, symbol.forwardDeclaration ? 1 : 0, external, rankOf(update.external, symbol.definition), clean(JSON.stringify(symbol.bases)),
          symbol.language, packageIds[f], signatureWords(signatureText(symbol.signature, symbol.returnType)).join(' '),
        ]);
        if (!this.loadedNames.has(name) && !names.has(name)) names.set(name, [name, nameLower, segments[0] ?? '', humps, segments.join(' '), initialPairs(humps)]);
        if (symbol.bases.length > 0) {
          for (const key of baseKeys(symbol)) {
            baseIds.push(id);
            baseNames.push(clean(key));
          }
        }
      });
    });
    await this.connection.execute(client, INSERT_SYMBOLS, [workspace, ...columns]);
    if (names.size > 0) {
      const rows = [...names.values()];
      await this.connection.execute(client, INSERT_NAMES, [workspace, ...[0, 1, 2, 3, 4, 5].map((i) => rows.map((row) => row[i] as string))]);
      if (this.bulk) for (const name of names.keys()) this.loadedNames.add(name);
    }
    if (baseIds.length > 0) await this.connection.execute(client, 'INSERT INTO symbol_bases (workspace_id, symbol_id, base) SELECT $1, * FROM unnest($2::bigint[], $3::text[])', [workspace, baseIds, baseNames]);
  }

  async recordBuildOutput(directories: BuildOutputDirectory[], cleared: string[] | 'all'): Promise<void> {
    const workspace = this.workspaceId();
    await this.connection.transaction(async (client) => {
      if (cleared === 'all') {
        await this.connection.execute(client, 'DELETE FROM build_output WHERE workspace_id = $1', [workspace]);
      } else {
        const paths = cleared.map(clean);
        if (paths.length > 0) {
          await this.connection.execute(client, `DELETE FROM build_output b USING unnest($2::text[], $3::text[], $4::text[]) AS c(path, prefix, stop)
            WHERE b.workspace_id = $1 AND (b.path = c.path OR (b.path > c.prefix AND b.path < c.stop))`, [workspace, paths, paths.map((p) => `${p}/`), paths.map((p) => prefixEnd(`${p}/`))]);
        }
      }
      if (directories.length > 0) {
        await this.connection.execute(client, `INSERT INTO build_output (workspace_id, path, reason) SELECT $1, * FROM unnest($2::text[], $3::text[])
          ON CONFLICT (workspace_id, path) DO UPDATE SET reason = excluded.reason`, [workspace, directories.map((d) => clean(d.path)), directories.map((d) => clean(d.reason))]);
      }
    });
  }

  async registerPackages(packages: PackageRef[]): Promise<void> {
    try {
      await this.connection.transaction(async (client) => {
        for (const ref of packages) await this.packageId(ref, client);
      });
    } catch (error) {
      this.packageIds.clear();
      throw error;
    }
  }

  async prunePackages(keep: PackageRef[]): Promise<void> {
    const wanted = new Set(keep.map((ref) => `${clean(ref.name)}\u0000${clean(ref.path)}`));
    const workspace = this.workspaceId();
    await this.connection.transaction(async (client) => {
      const rows = await this.connection.rows<{ id: number; name: string; path: string; files: number }>(
        'SELECT p.id, p.name, p.path, (SELECT count(*) FROM files f WHERE f.workspace_id = p.workspace_id AND f.package_id = p.id) AS files FROM packages p WHERE p.workspace_id = $1', [workspace], client);
      const drop = rows.filter((row) => row.files === 0 && !wanted.has(`${row.name}\u0000${row.path}`));
      if (drop.length > 0) await this.connection.execute(client, 'DELETE FROM packages WHERE workspace_id = $1 AND id = ANY($2::integer[])', [workspace, drop.map((row) => row.id)]);
      for (const row of drop) this.packageIds.delete(`${row.name}\u0000${row.path}`);
    });
  }

  /**
   * After a build: planner statistics, and a VACUUM, which merges the GIN indexes' pending entries (every trigram
   * and signature search scans them linearly until then) and marks pages all-visible (index-only scans stop visiting
   * the table). Measured on googletest+Flask right after a cold build: search p50 6.5 ms before it, 1.6 ms after.
   */
  async optimize(): Promise<void> {
    await this.connection.maintain('VACUUM (ANALYZE) workspaces, packages, files, symbols, names, symbol_bases');
  }

  /** During a first build, commits do not wait for the disk (a crash of the database may lose the last ones; a rebuild restores them). */
  async bulkLoad(on: boolean): Promise<void> {
    this.bulk = on;
    this.loadedNames.clear();
  }

  /** Records the build's state and announces it (the version stays): a replica shows a build done without waiting for a write. */
  async recordBuild(state: 'building' | 'ready', filesTotal: number): Promise<void> {
    await this.connection.rows(`WITH w AS (UPDATE workspaces SET build_state = $2, files_total = $3 WHERE id = $1 RETURNING name, version)
      SELECT pg_notify('plumb_index', w.name || ':' || w.version) FROM w`, [this.workspaceId(), state, filesTotal]);
  }

  private async packageId(ref: PackageRef, client: Queryable): Promise<number> {
    const name = clean(ref.name);
    const path = clean(ref.path);
    const key = `${name}\u0000${path}`;
    let id = this.packageIds.get(key);
    if (id === undefined) {
      const rows = await this.connection.arrays<[number]>(UPSERT_PACKAGE, [this.workspaceId(), name, path, cleanOrNull(ref.manifest), ref.external ? 1 : 0], client);
      id = rows[0][0];
      this.packageIds.set(key, id);
    }
    return id;
  }
}
