import { Type } from 'typebox';
import { FormatParam } from '../../schemas/common.js';
import { HealthResponse, StatusResponse } from '../../schemas/status.js';
import { statusMarkdown } from '../format/status.js';
import { readHealth, readStatus } from '../symbols/status.js';
import { defineOperation } from './operation.js';

export const statusOperation = defineOperation({
  http: {
    path: '/status',
    summary: 'Index and language-server status',
    description: 'Whether the index is built, changed files not indexed yet (held while the store is unavailable, retried until they are), what it leaves out with why (`index.notIndexed`: files over the 64 MB it parses, binary or unreadable files, directories of build output; counted, the first 50 listed), the word index beside it (`index.words`: which files hold which words, read by syntactic usages and callers; `reading` while it catches up, the files it covers), the store that holds it (embedded SQLite, or a shared PostgreSQL store: location, schema version, last update, whether this plumb is a read-only replica and how far behind; read from a hot standby, whether it streams, its replay lag in time and the versions its primary is ahead; or that it cannot be reached: /status waits at most 2 s for it), and each language server\'s state (stopped until first needed, starting, indexing with progress, ready, unhealthy: not answering or failing, being restarted, crashed), pid, restarts and the compile database clangd uses.',
    tags: ['status'],
    errors: [],
    example: '/status?format=markdown',
  },
  tool: {
    name: 'index_status',
    title: 'Index and language-server status',
    description: 'Whether the index is built and each language server\'s state: ask when answers say partial or a server is unavailable. Example: {}',
  },
  input: Type.Object({ format: FormatParam }),
  response: StatusResponse,
  run: (services) => readStatus(services),
  markdown: statusMarkdown,
});

/** Liveness for load balancers and Docker: no tool, no token, no markdown. */
export const healthOperation = defineOperation({
  http: {
    path: '/health',
    summary: 'Liveness check',
    description: 'Answers 200 while the process serves requests. Needs no token.',
    tags: ['status'],
    errors: [],
    example: '/health',
  },
  input: Type.Object({}),
  response: HealthResponse,
  run: (services) => readHealth(services),
});
