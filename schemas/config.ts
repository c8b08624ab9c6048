import { Type, type Static } from 'typebox';

export const ServerOverride = Type.Object(
  {
    command: Type.Optional(Type.String({ minLength: 1, description: 'Executable to start (absolute, or found on PATH)' })),
    args: Type.Optional(Type.Array(Type.String(), { description: 'Arguments for the command' })),
    extensions: Type.Optional(Type.Array(Type.String({ pattern: '^\\.[A-Za-z0-9_+.-]+$' }), { description: 'File extensions, with the dot (".cpp")' })),
    initializationOptions: Type.Optional(Type.Unknown({ description: 'Sent as initializationOptions in initialize' })),
    settings: Type.Optional(Type.Unknown({ description: 'Answer to workspace/configuration and sent in didChangeConfiguration' })),
    instances: Type.Optional(Type.Integer({ minimum: 1, maximum: 8, description: 'Server processes for this language (default 1)' })),
    installHint: Type.Optional(Type.String({ description: 'How to install the server, shown in 503 answers' })),
    enabled: Type.Optional(Type.Boolean({ description: 'false turns the language off' })),
  },
  { additionalProperties: false },
);
export type ServerOverride = Static<typeof ServerOverride>;

export const PlumbConfig = Type.Object(
  {
    host: Type.String({ minLength: 1, default: '127.0.0.1', description: 'Address to listen on' }),
    port: Type.Integer({ minimum: 0, maximum: 65535, default: 7077, description: 'TCP port' }),
    logLevel: Type.Enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'], { default: 'info', description: 'Log level' }),
    cacheDir: Type.Optional(Type.String({ minLength: 1, description: 'Where plumb keeps its index and synthesized compile databases (default: $XDG_CACHE_HOME/plumb)' })),
    token: Type.Optional(Type.String({ minLength: 16, description: 'Bearer token required on every route but /health' })),
    allowUnprotected: Type.Boolean({ default: false, description: 'Allow a non-loopback host without a token' }),
    store: Type.Optional(Type.String({
      pattern: '^postgres(ql)?://',
      description: 'A shared PostgreSQL store for the index (postgres://user:password@host:port/db); without it, an SQLite database in cacheDir',
    })),
    workspace: Type.Optional(Type.String({
      minLength: 1, maxLength: 200,
      description: "The workspace's key in a shared store (default: the real path of ROOT); replicas with their own copy of the workspace elsewhere name the same key",
    })),
    readOnly: Type.Boolean({ default: false, description: 'Serve as a read-only replica of a shared store: build nothing, watch nothing, answer from the store' }),
    storeTimeoutMs: Type.Integer({
      minimum: 100, maximum: 600000, default: 5000,
      description: 'Deadline of connecting to a shared store and of each read from it (the writer\'s batches get four times as long): past it the answer is 503 store_unavailable and /status says the store is unreachable',
    }),
    languages: Type.Record(Type.String({ pattern: '^[a-z][a-z0-9_+-]*$' }), ServerOverride, {
      default: {},
      description: 'Per-language server overrides, keyed by language id (cpp, typescript, python, go, or a new one)',
    }),
    lsp: Type.Object(
      {
        requestTimeoutMs: Type.Integer({
          minimum: 100, maximum: 600000, default: 30000,
          description: 'Time budget of one request to a language server, time spent queued for it included. A server that leaves a request unanswered 1 s past this, hearing nothing from it since, fails new requests at once (503); one silent a whole requestTimeoutMs past it is restarted',
        }),
        startTimeoutMs: Type.Integer({ minimum: 1000, maximum: 600000, default: 60000 }),
        maxInFlight: Type.Integer({ minimum: 1, maximum: 256, default: 16, description: 'Requests in flight per server process' }),
        maxOpenDocuments: Type.Integer({ minimum: 1, maximum: 10000, default: 64, description: 'Documents kept open per server, least recently used closed first' }),
        maxRestarts: Type.Integer({ minimum: 0, maximum: 1000, default: 5, description: 'Restarts within restartWindowMs before a server is left crashed' }),
        unhealthyAfter: Type.Integer({
          minimum: 0, maximum: 1000, default: 3,
          description: 'Internal errors in a row on one kind of request a server should answer (document symbols, references at an indexed name) that make it unhealthy: it is restarted like a crashed one. 0: never',
        }),
        restartWindowMs: Type.Integer({ minimum: 1000, default: 300000 }),
        restartBackoffMs: Type.Integer({ minimum: 100, maximum: 60000, default: 500, description: 'Wait before the first restart after a crash; doubles per crash within restartWindowMs, up to 30 s' }),
      },
      { default: {}, additionalProperties: false },
    ),
    hover: Type.Object(
      {
        maxSymbols: Type.Integer({ minimum: 0, maximum: 10000, default: 100, description: '/children skips hover past this many symbols' }),
        concurrency: Type.Integer({ minimum: 1, maximum: 64, default: 8 }),
      },
      { default: {}, additionalProperties: false },
    ),
    outline: Type.Object(
      {
        maxSymbols: Type.Integer({ minimum: 1, maximum: 1000000, default: 2000, description: 'Symbols /outline and /children return at most; the answer counts the rest (omittedChildren, omittedSymbols)' }),
        concurrency: Type.Integer({ minimum: 1, maximum: 64, default: 2, description: 'Outlines and children answers built at once per language server; more wait their turn (at most lsp.requestTimeoutMs, counted against the request), so memory stays bounded and one stuck server holds up no other' }),
      },
      { default: {}, additionalProperties: false },
    ),
    compileDatabase: Type.Object(
      {
        directory: Type.Optional(Type.String({ minLength: 1, description: 'Directory holding compile_commands.json (relative to ROOT or absolute)' })),
        standard: Type.String({ pattern: '^(c|gnu)\\+\\+[0-9a-z]+$', default: 'c++17', description: 'C++ standard for a synthesized database' }),
        cStandard: Type.String({ pattern: '^(c|gnu)[0-9a-z]+$', default: 'c11' }),
        defines: Type.Array(Type.String({ minLength: 1 }), { default: [], description: 'Defines (NAME or NAME=VALUE) for a synthesized database' }),
      },
      { default: {}, additionalProperties: false },
    ),
    rateLimit: Type.Object(
      {
        max: Type.Integer({ minimum: 0, default: 3000, description: 'Requests per client address per window; 0 turns the limit off. Far above what an agent sends' }),
        windowMs: Type.Integer({ minimum: 1000, maximum: 3600000, default: 60000, description: 'Length of the rate-limit window' }),
        exemptLoopback: Type.Boolean({ default: true, description: 'Requests from 127.0.0.1 and ::1 are never limited' }),
      },
      { default: {}, additionalProperties: false },
    ),
    mcp: Type.Object(
      {
        maxSessions: Type.Integer({ minimum: 1, maximum: 10000, default: 64, description: 'MCP sessions kept at once over HTTP; a new one past this ends the least recently used' }),
        idleTimeoutMs: Type.Integer({ minimum: 10000, default: 1800000, description: 'An MCP session unused this long is ended (its client starts a new one)' }),
        maxTokens: Type.Integer({ minimum: 0, maximum: 1000000, default: 20000, description: 'max_tokens of a tool call that gives none (0: none): a longer answer is cut to fit and says what it left out. Many clients refuse a tool result past about 25,000 tokens of their own count' }),
      },
      { default: {}, additionalProperties: false },
    ),
    batch: Type.Object(
      {
        timeoutMs: Type.Integer({ minimum: 1000, maximum: 600000, default: 60000, description: 'Time limit of one POST /batch (MCP batch) in all: a request not answered by then is a 504 batch_timeout in its place, the others whole' }),
        concurrency: Type.Integer({ minimum: 1, maximum: 20, default: 4, description: 'Requests of one batch answered at once; the rest wait their turn, in order' }),
      },
      { default: {}, additionalProperties: false },
    ),
    files: Type.Object(
      {
        cacheMb: Type.Integer({ minimum: 0, maximum: 16384, default: 160, description: 'Source texts kept in memory for every answer that reads files (snippets, usages, statements, calls, bases), in MB; a file over 4 MB is read each time' }),
      },
      { default: {}, additionalProperties: false },
    ),
    statements: Type.Object(
      {
        maxCodeChars: Type.Integer({ minimum: 20, maximum: 100000, default: 400, description: '/statements cuts each result\'s code at this many characters (and says so with truncated: true)' }),
        cachedTrees: Type.Integer({ minimum: 0, maximum: 100000, default: 512, description: 'Statement trees of recently searched files kept in memory (by file, size and mtime)' }),
        cachedTextMb: Type.Optional(Type.Integer({ minimum: 0, maximum: 16384, description: 'Deprecated and unused: file texts are kept once, for every answer, within files.cacheMb' })),
        regexTimeoutMs: Type.Integer({ minimum: 100, maximum: 60000, default: 3000, description: 'A regex query running longer than this (catastrophic backtracking) is stopped with a 400; one waiting more than twice this in all for a free regex worker (others hold them all) is refused with a 503' }),
      },
      { default: {}, additionalProperties: false },
    ),
    index: Type.Object(
      {
        include: Type.Array(Type.String(), { default: [], description: 'Glob patterns; when set, only matching files are indexed' }),
        exclude: Type.Array(Type.String(), { default: [], description: 'Glob patterns excluded on top of .gitignore and the defaults' }),
        extraRoots: Type.Array(Type.String({ minLength: 1 }), { default: [], description: 'Engine or library trees indexed as external' }),
        workers: Type.Optional(Type.Integer({ minimum: 1, maximum: 64, description: 'Parser worker threads (default: cores)' })),
        watch: Type.Boolean({ default: true, description: 'Re-index files changed on disk' }),
      },
      { default: {}, additionalProperties: false },
    ),
  },
  { additionalProperties: false },
);
export type PlumbConfig = Static<typeof PlumbConfig>;
