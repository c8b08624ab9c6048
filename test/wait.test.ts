import t from 'tap';
import { waitFor, WaitTimeoutError, waitUntil } from './wait.js';

t.test('waitFor returns the first value that holds', async (t) => {
  let calls = 0;
  const value = await waitFor('the third call', () => ++calls, (n) => n >= 3, { intervalMs: 1 });
  t.equal(value, 3);
  t.equal(calls, 3);
});

t.test('a wait that does not hold in time throws, naming what it waited for and what it saw last', async (t) => {
  const started = Date.now();
  await t.rejects(waitFor('the server to be ready', () => ({ state: 'indexing' }), (s) => s.state === 'ready', { timeoutMs: 60, intervalMs: 10 }), {
    name: 'WaitTimeoutError',
    message: 'timed out after 60 ms waiting for the server to be ready; last seen: {"state":"indexing"}',
  });
  t.ok(Date.now() - started < 1000, 'at its time limit');
  await t.rejects(waitUntil('never', () => false, { timeoutMs: 20, intervalMs: 5 }), WaitTimeoutError);
});

t.test('a probe that throws fails the wait at once, unless errors are retried', async (t) => {
  await t.rejects(waitFor('a store', () => Promise.reject(new Error('ECONNREFUSED')), () => true), { message: 'ECONNREFUSED' });
  let calls = 0;
  const value = await waitFor('a store', async () => {
    if (++calls < 3) throw new Error('ECONNREFUSED');
    return 'open';
  }, (v) => v === 'open', { retryErrors: true, intervalMs: 1 });
  t.equal(value, 'open');
  await t.rejects(waitFor('a store', () => Promise.reject(new Error('ECONNREFUSED')), () => true, { retryErrors: true, timeoutMs: 20, intervalMs: 5 }), {
    message: /waiting for a store; last seen: "Error: ECONNREFUSED"$/,
  });
});

t.test('waitUntil says how long the condition took', async (t) => {
  const until = Date.now() + 30;
  const took = await waitUntil('30 ms to pass', () => Date.now() >= until, { intervalMs: 5 });
  t.ok(took >= 25 && took < 1000, `${took} ms`);
});
