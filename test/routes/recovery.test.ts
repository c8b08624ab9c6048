import t from 'tap';
import type { PlumbApp } from '../../src/app.js';
import { FLASK, getJson, startApp } from '../helpers.js';
import { waitFor } from '../wait.js';

interface Server { language: string; pid: number | null; state: string; restarts: number }

/** Resolves when the app's server pool is next asked for anything. */
function firstRequest(app: PlumbApp): Promise<void> {
  const pool = app.plumb.lsp;
  const request = pool.request;
  return new Promise((resolve) => {
    pool.request = function (this: typeof pool, ...args: Parameters<typeof request>) {
      pool.request = request;
      resolve();
      return request.apply(this, args);
    } as typeof request;
  });
}

t.test('a language server killed mid-request: the request fails cleanly, the server comes back', async (t) => {
  // Hover one symbol at a time over all of Flask's class: long enough to be in flight when the kill comes.
  const app = await startApp(t, FLASK, { hover: { maxSymbols: 5000, concurrency: 1 } });
  const first = await getJson(app, '/outline?file=app.py');
  t.equal(first.status, 200, 'pyright answers');
  const before: Server = (await getJson(app, '/status')).body.servers.find((s: Server) => s.language === 'python');
  t.ok(before.pid, 'status shows the server pid');

  // Ask for hover on every symbol of a large file with the server stopped (SIGSTOP), so the request is
  // still in flight when the kill comes, by construction; the kill waits for the request to reach the pool.
  process.kill(before.pid!, 'SIGSTOP');
  const reached = firstRequest(app);
  const pending = getJson(app, '/children?file=app.py&line=110&column=7&depth=all&include_hover=true');
  await reached;
  process.kill(before.pid!, 'SIGKILL');
  const failed = await pending;
  t.equal(failed.status, 503, 'the request in flight fails with 503');
  t.equal(failed.body.error.code, 'server_unavailable');
  t.match(failed.body.error.message, /python|pyright/i, 'naming the server');
  t.ok(failed.headers['retry-after'], 'with Retry-After');

  const again = await waitFor('pyright to answer again', () => getJson(app, '/outline?file=config.py'), (answer) => answer.status !== 503, { timeoutMs: 10_000, intervalMs: 500 });
  t.equal(again.status, 200, 'the next request succeeds on a restarted server');
  t.ok(again.body.results.some((n: { name: string }) => n.name === 'Config'));
  const after: Server = (await getJson(app, '/status')).body.servers.find((s: Server) => s.language === 'python');
  t.not(after.pid, before.pid, 'a new process');
  t.equal(after.restarts, before.restarts + 1, 'restart counted');
});

t.test('a server that cannot start gives 503 naming it and how to install it', async (t) => {
  const app = await startApp(t, FLASK, { languages: { python: { command: '/nonexistent/pyright-langserver' } } });
  const { status, body, headers } = await getJson(app, '/outline?file=config.py');
  t.equal(status, 503);
  t.equal(body.error.code, 'server_unavailable');
  t.match(body.error.message, /\/nonexistent\/pyright-langserver/);
  t.match(body.error.message, /npm install pyright|install/i);
  t.ok(headers['retry-after']);
  const health = await getJson(app, '/health');
  t.equal(health.status, 200, 'the process is fine');
});
