import t from 'tap';
import type { CancellationToken } from 'vscode-languageserver-protocol/node.js';
import { PlumbError } from '../../src/errors.js';
import { RequestGate, type GateTask } from '../../src/lsp/gate.js';

/** Work that answers only when told to, and records the token it got. */
function controllable<R>() {
  let answer: (value: R) => void = () => {};
  let token: CancellationToken | undefined;
  const answered = new Promise<R>((resolve) => {
    answer = resolve;
  });
  return {
    answer: (value: R) => answer(value),
    get token() {
      return token;
    },
    work: async (given: CancellationToken, ticket: { sent(): void }) => {
      token = given;
      ticket.sent();
      return answered;
    },
  };
}

function task<R>(work: GateTask<R>['work'], extra: Partial<GateTask<R>> = {}): GateTask<R> {
  return {
    timeoutMs: 60_000,
    timeoutError: () => new PlumbError('server_timeout', 'too slow'),
    abortError: () => new PlumbError('request_cancelled', 'gone'),
    toError: (error) => (error instanceof PlumbError ? error : new PlumbError('server_unavailable', String(error))),
    canCancel: () => true,
    work,
    ...extra,
  };
}

t.test('at most maxInFlight tasks run; the rest wait in order and hold no slot', async (t) => {
  const gate = new RequestGate(1);
  const first = controllable<string>();
  const second = controllable<string>();
  const acquired: string[] = [];
  const one = gate.run(task(first.work, { onAcquire: () => acquired.push('one'), onRelease: () => acquired.push('one released') }));
  const two = gate.run(task(second.work, { onAcquire: () => acquired.push('two') }));
  await new Promise((resolve) => setImmediate(resolve));
  t.same(acquired, ['one'], 'the second task waits for the slot');
  t.equal(second.token, undefined, 'and has not started');
  first.answer('a');
  t.equal(await one, 'a');
  await new Promise((resolve) => setImmediate(resolve));
  // The next task takes the slot (pinning its document) before the finished one lets go of its own.
  t.same(acquired, ['one', 'two', 'one released'], 'the slot passes on when the first settles');
  second.answer('b');
  t.equal(await two, 'b');
});

t.test('a task whose work never answers times out, and its sent request is cancelled', async (t) => {
  const gate = new RequestGate(2);
  const never = controllable<string>();
  const started = Date.now();
  await t.rejects(gate.run(task(never.work, { timeoutMs: 100 })), { code: 'server_timeout' });
  t.ok(Date.now() - started >= 90, 'not before the timeout');
  t.equal(never.token?.isCancellationRequested, true, 'the token was cancelled ($/cancelRequest)');
});

t.test('an abort fails the task with the abort error; an already aborted signal never starts it', async (t) => {
  const gate = new RequestGate(1);
  const controller = new AbortController();
  const pending = controllable<string>();
  const running = gate.run(task(pending.work, { signal: controller.signal }));
  controller.abort();
  await t.rejects(running, { code: 'request_cancelled' });
  t.equal(pending.token?.isCancellationRequested, true);
  let started = false;
  await t.rejects(
    gate.run(
      task(async () => {
        started = true;
        return 1;
      }, { signal: controller.signal }),
    ),
    { code: 'request_cancelled' },
  );
  t.notOk(started);
});

t.test('failAll fails queued and running tasks; their slots are free again', async (t) => {
  const gate = new RequestGate(1);
  const running = gate.run(task(controllable<number>().work));
  const queued = gate.run(task(controllable<number>().work));
  gate.failAll(new PlumbError('server_unavailable', 'shutting down'));
  await t.rejects(running, { code: 'server_unavailable', message: 'shutting down' });
  await t.rejects(queued, { code: 'server_unavailable' });
  t.equal(await gate.run(task(async () => 7)), 7, 'a later task gets the slot');
});

t.test('a failure of the work goes through toError; nothing is cancelled when it was never sent', async (t) => {
  const gate = new RequestGate(1);
  let token: CancellationToken | undefined;
  await t.rejects(
    gate.run(
      task(async (given) => {
        token = given;
        throw new Error('EPIPE');
      }),
    ),
    { code: 'server_unavailable', message: 'Error: EPIPE' },
  );
  t.equal(token?.isCancellationRequested, false);
});
