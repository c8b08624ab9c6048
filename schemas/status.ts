import { Type, type Static } from 'typebox';
import { SERVER_STATES } from '../src/lsp/client.js';

export const ServerState = Type.Enum(
  SERVER_STATES,
  {
    description: 'stopped (not started yet: servers start on first need), starting, indexing, ready, '
      + 'unhealthy (it left a request unanswered past its deadline and has said nothing since, or kept failing one kind of request: requests to it fail at once with 503, and it is restarted; lastError says why), '
      + 'crashed (restarted after backoff, or left so after lsp.maxRestarts; lastError says why)',
  },
);

export const ServerStatus = Type.Object({
  language: Type.String({ description: 'Language id (cpp, typescript, python, go, ...)' }),
  command: Type.String({ description: 'The server command line' }),
  pid: Type.Union([Type.Integer(), Type.Null()]),
  state: ServerState,
  progress: Type.Union([
    Type.Object({ percent: Type.Optional(Type.Number()), message: Type.Optional(Type.String()), title: Type.Optional(Type.String()) }),
    Type.Null(),
  ], { description: 'Work-done progress the server reported ($/progress), when it is working' }),
  restarts: Type.Integer({ description: 'Restarts after crashes' }),
  uptimeMs: Type.Union([Type.Integer(), Type.Null()]),
  instance: Type.Optional(Type.Integer({ description: 'Instance number when a language runs several servers' })),
  compileDatabase: Type.Optional(Type.Object({
    path: Type.String({ description: 'compile_commands.json clangd uses' }),
    synthesized: Type.Boolean({ description: 'true when plumb wrote it because the workspace has none' }),
    rewritten: Type.Optional(Type.Boolean({ description: 'true when the workspace\'s database was copied with absolute paths' })),
    source: Type.Optional(Type.String({ description: 'The workspace\'s own database, when there is one' })),
  })),
  lastError: Type.Optional(Type.String({ description: 'Why the server is unhealthy or crashed' })),
});
export type ServerStatus = Static<typeof ServerStatus>;

/** Why a file or directory is left out of the index. */
export const LeftOutReason = Type.Enum(['too_large', 'binary', 'unreadable', 'parse_timeout', 'too_deep', 'build_output'], {
  description: 'too_large: larger than the 64 MB plumb parses; binary: not text (NUL bytes in its first 8 KB); unreadable: the file cannot be read (its error in detail); '
    + 'parse_timeout: tree-sitter did not finish parsing it within its budget (1.5 s and 5 s per MB: pathological input, or a machine too loaded), parsed again when it changes; too_deep: it nests brackets more than 1,000 deep (no code people write; tree-sitter would overflow its stack); '
    + 'build_output: a directory a build tool writes to, told by a marker in it (CMakeCache.txt, CACHEDIR.TAG, project.assets.json...) or a manifest beside it (Cargo.toml for target/...)',
});

export const NotIndexed = Type.Object({
  total: Type.Integer({ description: 'Files recorded without being parsed, plus directories left out as build output' }),
  byReason: Type.Object({
    too_large: Type.Optional(Type.Integer()),
    binary: Type.Optional(Type.Integer()),
    unreadable: Type.Optional(Type.Integer()),
    parse_timeout: Type.Optional(Type.Integer()),
    too_deep: Type.Optional(Type.Integer()),
    build_output: Type.Optional(Type.Integer()),
  }, { description: 'How many of each reason (reasons with none are left out)' }),
  paths: Type.Array(Type.Object({
    path: Type.String({ description: 'The file or directory, as the index stores paths (root-relative; absolute under an extra root)' }),
    kind: Type.Enum(['file', 'directory']),
    reason: LeftOutReason,
    detail: Type.String({ description: 'Why, for people: `is 80.0 MB, more than the 64 MB plumb parses`, `holds CMakeCache.txt: a CMake build tree`' }),
  }), { description: 'The first 50 of them by path' }),
}, { description: 'What the index leaves out, with why: nothing is dropped silently. Files are recorded (their size and stamps) but not parsed: search finds nothing in them' });

export const IndexStatus = Type.Object({
  state: Type.Enum(['building', 'ready']),
  filesIndexed: Type.Integer(),
  filesTotal: Type.Integer(),
  symbols: Type.Integer(),
  notIndexed: Type.Optional(NotIndexed),
  pendingChanges: Type.Integer({ description: 'Changed files and directories not indexed yet: noted during a build, or held after a failed attempt (the store unavailable) and tried again with backoff until it succeeds' }),
  pendingError: Type.Optional(Type.String({ description: 'Why the last attempt at the pending changes failed' })),
  words: Type.Object({
    state: Type.Enum(['reading', 'ready', 'off'], { description: '`reading`: its thread is reading files the index changed or holds but it does not cover yet; `ready`: up to date with the index as last asked; `off`: its database could not be opened' }),
    files: Type.Integer({ description: 'Files it covers: read at the size and modification time the index holds for them' }),
  }, { description: 'The word index beside the index: which files hold which words. Syntactic usages and callers read only the files it does not show without the name (every file it does not cover is read)' }),
});

export const StoreStatus = Type.Object({
  backend: Type.Enum(['sqlite', 'postgres'], { description: 'sqlite: the embedded database in the cache; postgres: a shared store' }),
  location: Type.String({ description: 'The database file, or the store URL without its password' }),
  schemaVersion: Type.Integer({ description: "The store schema's version" }),
  workspace: Type.Union([Type.String(), Type.Null()], { description: "This workspace's key in a shared store" }),
  readOnly: Type.Boolean({ description: 'true for a replica: it builds nothing and answers from the store its writer keeps' }),
  reachable: Type.Boolean({ description: 'false while the store cannot be reached (answers from the index are 503 store_unavailable meanwhile)' }),
  version: Type.Integer({ description: 'Bumped by every write committed to the workspace index' }),
  lastUpdate: Type.Union([Type.String(), Type.Null()], { description: 'When the last write was committed (ISO 8601)' }),
  behind: Type.Integer({ description: 'Writes committed that this process has not been told of yet (a replica; answers read the store directly, so they are never older than the store); read from a hot standby, the versions its primary committed that the standby has not replayed yet (0 when the primary cannot be asked: see replication.primaryError)' }),
  replication: Type.Optional(Type.Object({
    streaming: Type.Boolean({ description: "The standby's WAL receiver is streaming from its primary" }),
    replayLagMs: Type.Integer({ description: 'How far its answers are behind the primary in time: 0 when it has replayed all the WAL it received, else the time since the last transaction it replayed was committed on the primary' }),
    lastReplayed: Type.Union([Type.String(), Type.Null()], { description: 'When the last transaction it replayed was committed on the primary (ISO 8601)' }),
    primary: Type.Union([Type.String(), Type.Null()], { description: 'host:port it streams from (seen by a superuser or a member of pg_read_all_stats)' }),
    primaryVersion: Type.Union([Type.Integer(), Type.Null()], { description: "The workspace's version on that primary, when it answers" }),
    primaryError: Type.Optional(Type.String({ description: 'Why the primary could not be asked' })),
  }, { description: 'Present when the store is read from a hot standby (a streaming replica of the writer\'s database)' })),
  error: Type.Optional(Type.String({ description: 'Why the store cannot be reached' })),
});

export type StoreStatus = Static<typeof StoreStatus>;

export const StatusResponse = Type.Object({
  ready: Type.Boolean({ description: 'true once the index is built' }),
  root: Type.String({ description: 'The workspace root' }),
  version: Type.String(),
  uptimeMs: Type.Integer(),
  index: IndexStatus,
  store: StoreStatus,
  servers: Type.Array(ServerStatus),
  requestsCancelled: Type.Integer({ description: 'Requests whose client went away before the answer (not timeouts: nothing was sent)' }),
});
export type StatusResponse = Static<typeof StatusResponse>;

export const HealthResponse = Type.Object({ status: Type.Literal('ok'), uptimeMs: Type.Integer() });
export type HealthResponse = Static<typeof HealthResponse>;
