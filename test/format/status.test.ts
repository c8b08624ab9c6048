import t from 'tap';
import type { StatusResponse } from '../../schemas/status.js';
import { statusMarkdown } from '../../src/format/status.js';

const status: StatusResponse = {
  ready: false,
  root: '/work/repo',
  version: '0.1.0',
  uptimeMs: 1000,
  requestsCancelled: 0,
  index: { state: 'building', filesIndexed: 120, filesTotal: 3000, symbols: 4567, pendingChanges: 0, words: { state: 'reading', files: 80 } },
  store: { backend: 'sqlite', location: '/cache/repo-1/index.sqlite', schemaVersion: 12, workspace: null, readOnly: false, reachable: true, version: 3, lastUpdate: '2026-11-23T10:00:00.000Z', behind: 0 },
  servers: [
    { language: 'cpp', command: 'clangd-19 --background-index', pid: 42, state: 'indexing', progress: { percent: 37.6, message: '12/40' }, restarts: 0, uptimeMs: 900, compileDatabase: { path: '/cache/cdb/compile_commands.json', synthesized: true } },
    { language: 'python', command: 'pyright-langserver --stdio', pid: null, state: 'stopped', progress: null, restarts: 1, uptimeMs: null },
  ],
};

t.test('status: the index\'s progress, a row per server, the compile database', async (t) => {
  const text = statusMarkdown(status);
  t.match(text, /^# plumb 0\.1\.0 — building the index\n/);
  t.match(text, /^Index: building, 120\/3000 files, 4567 symbols$/m);
  t.match(text, /^Word index: reading, 80 files covered$/m);
  t.match(text, /^\| cpp \| indexing \| 38% 12\/40 \| 42 \| 0 \| clangd-19 --background-index \|$/m);
  t.match(text, /^\| python \| stopped \|  \|  \| 1 \| pyright-langserver --stdio \|$/m);
  t.match(text, /compile_commands\.json for cpp: `\/cache\/cdb\/compile_commands\.json` \(synthesized by plumb\)/);
  t.match(statusMarkdown({ ...status, ready: true }), /^# plumb 0\.1\.0 — ready\n/);
  t.match(text, /^Store: sqlite `\/cache\/repo-1\/index\.sqlite`, schema 12, version 3, last update 2026-11-23T10:00:00\.000Z$/m);
});

t.test('status: a replica of a shared store, behind or unreachable', async (t) => {
  const replica = { ...status.store, backend: 'postgres' as const, location: 'postgres://plumb@db:5432/plumb', workspace: 'engine', readOnly: true, behind: 2 };
  t.match(statusMarkdown({ ...status, store: replica }), /^Store: postgres `postgres:\/\/plumb@db:5432\/plumb`, workspace `engine`, read-only replica, schema 12, version 3, .*, 2 write\(s\) behind$/m);
  t.match(statusMarkdown({ ...status, store: { ...replica, reachable: false, error: 'connection refused' } }), /^Store: postgres .* — UNREACHABLE: connection refused$/m);
});

t.test('status: changes waiting for the store', async (t) => {
  const index = { ...status.index, state: 'ready' as const, pendingChanges: 2, pendingError: 'Index store postgres://db/plumb is unavailable: connect ECONNREFUSED' };
  t.match(statusMarkdown({ ...status, index }), /^Index: ready, 120\/3000 files, 4567 symbols, 2 change\(s\) not indexed yet \(retrying: Index store postgres:\/\/db\/plumb is unavailable: connect ECONNREFUSED\)$/m);
});

t.test('status: why a server is unhealthy', async (t) => {
  const servers = [{ ...status.servers[1], pid: 77, state: 'unhealthy' as const, lastError: 'failed 3 textDocument/references requests in a row: it is being restarted' }];
  const text = statusMarkdown({ ...status, servers });
  t.match(text, /^\| python \| unhealthy \|  \| 77 \| 1 \| pyright-langserver --stdio \|$/m);
  t.match(text, /^python unhealthy: failed 3 textDocument\/references requests in a row: it is being restarted$/m);
});
