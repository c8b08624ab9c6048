import t from 'tap';
import { ServerHealth } from '../../src/lsp/health.js';
import { KeyedSemaphore } from '../../src/semaphore.js';

const options = { unhealthyAfter: 3, failFastAfterMs: 1000, wedgedAfterMs: 5000 };

t.test('a request unanswered past its deadline, nothing heard since: new requests fail fast, later the server is unhealthy', async (t) => {
  const health = new ServerHealth(options);
  const call = health.sent('textDocument/documentSymbol', 0);
  t.equal(health.failFast(1000), undefined, 'answering in time is not asked for before the deadline');
  health.timedOut(call, 2000);
  t.equal(health.failFast(2500), undefined, 'a moment past the deadline: the answer to $/cancelRequest may be on its way');
  t.match(health.failFast(3000), /did not answer a textDocument\/documentSymbol request past its deadline \(1\.0 s over\)/, 'then new requests fail at once');
  t.equal(health.unhealthy(6000), undefined, 'not yet unhealthy');
  t.match(health.unhealthy(7000), /did not answer textDocument\/documentSymbol \(not even \$\/cancelRequest\) 5\.0 s after its deadline/, 'silent a further while: unhealthy');
  t.ok(health.failFast(7000), 'for good');
});

t.test('an overdue request does not count once the server answers it, or answers anything else since', async (t) => {
  const health = new ServerHealth(options);
  const slow = health.sent('textDocument/references', 0);
  health.timedOut(slow, 2000);
  health.answered(slow, 'neutral', 2100);
  t.equal(health.failFast(5000), undefined, 'the cancellation was answered: the server is alive');

  const stuck = health.sent('textDocument/references', 3000);
  health.timedOut(stuck, 5000);
  const other = health.sent('textDocument/hover', 5500);
  health.answered(other, 'ok', 5600);
  t.equal(health.failFast(7000), undefined, 'a server answering other requests is not stuck (clangd keeps one slow request apart)');
  t.equal(health.unhealthy(20_000), undefined, 'nor unhealthy');
  const later = health.sent('textDocument/hover', 20_000);
  health.timedOut(later, 22_000);
  t.ok(health.failFast(23_500), 'silence after a newer deadline counts again');
});

t.test('failures in a row of one method make the server unhealthy; a success of that method resets the count', async (t) => {
  const health = new ServerHealth(options);
  const fail = (method: string, at: number) => health.answered(health.sent(method, at), { failure: 'Request textDocument/references failed with message: this._token.cancel is not a function' }, at + 1);
  t.equal(fail('textDocument/references', 0), undefined);
  t.equal(fail('textDocument/references', 10), undefined);
  health.answered(health.sent('textDocument/references', 20), 'ok', 21);
  t.equal(fail('textDocument/references', 30), undefined, 'counted again from the success');
  t.equal(fail('textDocument/references', 40), undefined);
  health.answered(health.sent('textDocument/documentSymbol', 45), 'ok', 46);
  health.answered(health.sent('textDocument/references', 47), 'neutral', 48);
  t.equal(health.failFast(50), undefined, 'still answering');
  const verdict = fail('textDocument/references', 50);
  t.match(verdict, /^failed 3 textDocument\/references requests in a row \(the last: .*this\._token\.cancel is not a function\)$/, 'other methods succeeding do not hide it, nor do cancellations');
  t.equal(fail('textDocument/references', 60), undefined, 'reported once');
  t.equal(health.unhealthy(70), verdict);
  t.equal(health.failFast(70), verdict, 'and requests fail at once meanwhile');
});

t.test('unhealthyAfter 0 never counts failures', async (t) => {
  const health = new ServerHealth({ ...options, unhealthyAfter: 0 });
  for (let i = 0; i < 10; i++) t.equal(health.answered(health.sent('textDocument/references', i), { failure: 'boom' }, i), undefined);
  t.equal(health.unhealthy(100), undefined);
});

t.test('permits per key: one key\'s holders never block another; a wait past the timeout is a 504', async (t) => {
  const heavy = new KeyedSemaphore(1, 200);
  let release: () => void = () => {};
  const held = heavy.run('python', () => new Promise<string>((resolve) => (release = () => resolve('python'))));
  const started = performance.now();
  t.equal(await heavy.run('go', async () => 'go'), 'go', 'another key runs at once');
  // Well before the other key's 200 ms timeout: it never waited on the held permit (a loaded machine may take tens of ms).
  t.ok(performance.now() - started < 190, 'without waiting on the held permit');
  const waited = performance.now();
  await t.rejects(heavy.run('python', async () => 'never'), { code: 'server_timeout', message: /waited 200 ms .* python server's other outline and children answers/ });
  t.ok(performance.now() - waited >= 190, 'after the timeout, not before');
  release();
  t.equal(await held, 'python');
  t.equal(await heavy.run('python', async () => 'again'), 'again', 'the permit given up was not lost');
});

t.test('a caller going away while waiting for a permit stops waiting', async (t) => {
  const heavy = new KeyedSemaphore(1, 60_000);
  let release: () => void = () => {};
  const held = heavy.run('cpp', () => new Promise<void>((resolve) => (release = resolve)));
  const controller = new AbortController();
  const waiting = heavy.run('cpp', async () => 'never', controller.signal);
  controller.abort();
  await t.rejects(waiting, { code: 'request_cancelled', message: /cancelled/ });
  release();
  await held;
});
