/**
 * One language server's trouble never blocks another language, and a wedged server is noticed and restarted
 * (the hardening issue's items 5 and 6). Real servers throughout: pyright frozen with SIGSTOP, and pyright
 * wedged for real by abandoned references requests; gopls answers meanwhile.
 */
import { cpSync, mkdirSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import t from 'tap';
import type { PlumbApp } from '../../src/app.js';
import { corpusPath, requireCorpora } from '../corpora.js';
import { FLASK, getJson, startApp, tempDir } from '../helpers.js';
import { indexReady } from '../index/helpers.js';

interface Server { language: string; pid: number | null; state: string; restarts: number; lastError?: string }

/** flask (Python) and a copy of Go's bufio with a go.mod, side by side. */
function twoLanguages(dir: string): string {
  const root = path.join(dir, 'ws');
  cpSync(FLASK, path.join(root, 'flask'), { recursive: true, filter: (src) => !src.includes('__pycache__') });
  mkdirSync(path.join(root, 'bufio'), { recursive: true });
  for (const name of ['bufio.go', 'scan.go']) cpSync(path.join(corpusPath('go'), 'src', 'bufio', name), path.join(root, 'bufio', name));
  writeFileSync(path.join(root, 'go.mod'), 'module example.com/ws\n\ngo 1.19\n');
  return root;
}

async function server(app: PlumbApp, language: string): Promise<Server> {
  return (await getJson(app, '/status')).body.servers.find((s: Server) => s.language === language);
}

/** SIGCONT for a frozen process, whether or not it is still there (plumb may have killed it). */
function thaw(pid: number): void {
  try {
    process.kill(pid, 'SIGCONT');
  } catch {}
}

async function timedGet(app: PlumbApp, url: string): Promise<{ status: number; body: any; ms: number }> {
  const started = performance.now();
  const answer = await getJson(app, url);
  return { status: answer.status, body: answer.body, ms: performance.now() - started };
}

/** Polls /status for the server every 50 ms until `stop` resolves: each change of state seen, in order. */
async function watchStates(app: PlumbApp, language: string, stop: Promise<void>): Promise<Server[]> {
  const seen: Server[] = [];
  let done = false;
  void stop.then(() => {
    done = true;
  });
  while (!done) {
    const now = await server(app, language);
    if (seen.at(-1)?.state !== now.state) seen.push(now);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return seen;
}

const TIMEOUT_MS = 2000;

t.test('a frozen pyright: Go outlines answer at once, Python outlines fail fast, then pyright is restarted', async (t) => {
  if (!requireCorpora(t, 'flask', 'go')) return;
  const root = twoLanguages(tempDir(t));
  // outline.concurrency 2 as by default: before the limits were per server, two stuck Python outlines held both permits.
  const app = await startApp(t, root, { lsp: { requestTimeoutMs: TIMEOUT_MS, restartBackoffMs: 1500 }, outline: { concurrency: 2 } });
  t.equal((await getJson(app, '/outline?file=flask/app.py')).status, 200, 'pyright answers');
  t.equal((await getJson(app, '/outline?file=bufio/bufio.go')).status, 200, 'gopls answers');
  const before = await server(app, 'python');
  t.ok(before.pid, 'pyright runs');
  process.kill(before.pid!, 'SIGSTOP');
  t.teardown(() => thaw(before.pid!));

  // Six Python outlines at once: each would hold or wait for a permit a whole timeout (2, 4, 6 s before).
  const pythonFiles = ['app.py', 'config.py', 'helpers.py', 'cli.py', 'ctx.py', 'sessions.py'];
  const python = Promise.all(pythonFiles.map((name) => timedGet(app, `/outline?file=flask/${name}`)));
  await new Promise((resolve) => setTimeout(resolve, 100));
  const go = await timedGet(app, '/outline?file=bufio/scan.go');
  t.equal(go.status, 200, 'the Go outline is answered');
  t.ok(go.body.results.some((node: { name: string }) => node.name === 'Scanner'), 'by gopls');
  t.ok(go.ms < 1500, `promptly, not behind the Python outlines (${Math.round(go.ms)} ms)`);

  const stuck = await python;
  for (const [i, answer] of stuck.entries()) {
    t.equal(answer.status, 504, `${pythonFiles[i]}: 504 server_timeout`);
    t.equal(answer.body.error?.code, 'server_timeout');
    // The time waiting for a permit counts against the request's timeout: no answer takes two timeouts.
    t.ok(answer.ms < TIMEOUT_MS + 1200, `${pythonFiles[i]} within one timeout (${Math.round(answer.ms)} ms)`);
  }

  // pyright has left requests unanswered past their deadline: a new one fails at once instead of waiting a timeout.
  await new Promise((resolve) => setTimeout(resolve, 1200));
  const fast = await timedGet(app, '/outline?file=flask/views.py');
  t.equal(fast.status, 503, 'a new Python outline fails fast');
  t.equal(fast.body.error?.code, 'server_unavailable');
  t.match(fast.body.error?.message, /not answer/, 'saying the server does not answer');
  t.ok(fast.ms < TIMEOUT_MS / 2, `at once, not after a timeout (${Math.round(fast.ms)} ms)`);
  const unhealthy = await server(app, 'python');
  t.equal(unhealthy.state, 'unhealthy', '/status shows pyright unhealthy');
  t.match(unhealthy.lastError, /unanswered|not answer/, 'and why');
  t.equal((await timedGet(app, '/outline?file=bufio/bufio.go')).status, 200, 'gopls still answers');

  // Still no answer a timeout later (not even to $/cancelRequest): pyright is killed and started again.
  let again = await getJson(app, '/outline?file=flask/config.py');
  for (let i = 0; again.status !== 200 && i < 60; i++) {
    await new Promise((resolve) => setTimeout(resolve, 500));
    again = await getJson(app, '/outline?file=flask/config.py');
  }
  t.equal(again.status, 200, 'Python outlines answer again');
  t.ok(again.body.results.some((node: { name: string }) => node.name === 'Config'));
  const after = await server(app, 'python');
  t.not(after.pid, before.pid, 'from a new pyright');
  t.equal(after.restarts, before.restarts + 1, 'the restart is counted');
  t.match(after.state, /^(ready|indexing)$/, 'running');
});

/** A GET over real HTTP, the connection dropped after `abortAfterMs` when given (plumb sends $/cancelRequest). */
function httpGet(port: number, url: string, abortAfterMs?: number): Promise<{ status: number; body: any } | undefined> {
  return new Promise((resolve) => {
    const request = http.get({ host: '127.0.0.1', port, path: url }, (response) => {
      let data = '';
      response.on('data', (chunk) => (data += chunk));
      response.on('end', () => resolve({ status: response.statusCode!, body: JSON.parse(data) }));
      response.on('error', () => resolve(undefined));
    });
    request.on('error', () => resolve(undefined));
    if (abortAfterMs !== undefined) setTimeout(() => request.destroy(), abortAfterMs);
  });
}

t.test('pyright wedged by abandoned usages requests: /status says unhealthy, it is restarted, usages are semantic again', async (t) => {
  if (!requireCorpora(t, 'flask')) return;
  const root = path.join(tempDir(t), 'flask');
  cpSync(FLASK, root, { recursive: true, filter: (src) => !src.includes('__pycache__') });
  const app = await startApp(t, root, { lsp: { restartBackoffMs: 1500 } });
  await app.listen({ host: '127.0.0.1', port: 0 });
  const port = (app.server.address() as AddressInfo).port;
  await indexReady(app);
  const url = '/symbols/usages?symbol=get_debug_flag&limit=5';
  const warm = await httpGet(port, url);
  t.equal(warm?.body.precision, 'semantic', 'pyright answers references');
  const before = await server(app, 'python');

  // Twenty clients give up at once: pyright gets $/cancelRequest for references it has not started, and from
  // then on fails every references request ("this._token.cancel is not a function").
  let stopWatching: () => void = () => {};
  const states = watchStates(app, 'python', new Promise<void>((resolve) => (stopWatching = resolve)));
  const queries = ['symbol=Flask&kind=class', 'symbol=get_debug_flag', 'symbol=request&kind=variable'];
  // Whether a burst wedges pyright depends on when each cancel reaches it: on a loaded machine a burst may come
  // too late for every request, so bursts of other timings follow until one does (it took one on every run alone).
  let syntactic: Awaited<ReturnType<typeof httpGet>>;
  let bursts = 0;
  for (const abortAfterMs of [20, 10, 40, 5, 80, 15]) {
    bursts++;
    await Promise.all(Array.from({ length: 20 }, (_, i) => httpGet(port, `/symbols/usages?${queries[i % 3]}&limit=5`, abortAfterMs)));
    syntactic = await httpGet(port, url);
    if (syntactic?.body.precision !== 'semantic') break;
  }
  t.comment(`${bursts} burst(s) of abandoned requests`);
  let answer = syntactic;
  for (let i = 0; answer?.body.precision !== 'semantic' && i < 60; i++) {
    await new Promise((resolve) => setTimeout(resolve, 500));
    answer = await httpGet(port, url);
  }
  stopWatching();
  const seen = await states;
  t.equal(syntactic?.status, 200, 'usages still answer meanwhile');
  t.equal(syntactic?.body.precision, 'syntactic', 'syntactically: pyright was wedged');
  t.match(syntactic?.body.reason, /Python/, 'saying why');
  t.comment(`meanwhile: ${syntactic?.body.reason}`);
  t.equal(answer?.body.precision, 'semantic', 'usages are semantic again');
  t.ok(answer?.body.results.some((u: { file: string }) => u.file === 'app.py'), 'with the references pyright finds');
  const unhealthy = seen.find((s) => s.state === 'unhealthy');
  t.ok(unhealthy, `/status showed pyright unhealthy meanwhile (states seen: ${seen.map((s) => s.state).join(', ')})`);
  t.match(unhealthy?.lastError, /textDocument\/references/, 'naming the failing request');
  t.comment(`/status: ${unhealthy?.lastError}`);
  const after = await server(app, 'python');
  t.not(after.pid, before.pid, 'a new pyright answers');
  t.equal(after.restarts, before.restarts + 1, 'the restart is counted');
});
