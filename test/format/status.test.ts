import t from 'tap';
import type { StatusResponse } from '../../schemas/status.js';
import { statusMarkdown } from '../../src/format/status.js';

const status: StatusResponse = {
  ready: false,
  root: '/work/repo',
  version: '0.1.0',
  uptimeMs: 1000,
  requestsCancelled: 0,
  index: { state: 'building', filesIndexed: 120, filesTotal: 3000, symbols: 4567 },
  servers: [
    { language: 'cpp', command: 'clangd-19 --background-index', pid: 42, state: 'indexing', progress: { percent: 37.6, message: '12/40' }, restarts: 0, uptimeMs: 900, compileDatabase: { path: '/cache/cdb/compile_commands.json', synthesized: true } },
    { language: 'python', command: 'pyright-langserver --stdio', pid: null, state: 'stopped', progress: null, restarts: 1, uptimeMs: null },
  ],
};

t.test('status: the index\'s progress, a row per server, the compile database', async (t) => {
  const text = statusMarkdown(status);
  t.match(text, /^# plumb 0\.1\.0 — building the index\n/);
  t.match(text, /^Index: building, 120\/3000 files, 4567 symbols$/m);
  t.match(text, /^\| cpp \| indexing \| 38% 12\/40 \| 42 \| 0 \| clangd-19 --background-index \|$/m);
  t.match(text, /^\| python \| stopped \|  \|  \| 1 \| pyright-langserver --stdio \|$/m);
  t.match(text, /compile_commands\.json for cpp: `\/cache\/cdb\/compile_commands\.json` \(synthesized by plumb\)/);
  t.match(statusMarkdown({ ...status, ready: true }), /^# plumb 0\.1\.0 — ready\n/);
});
