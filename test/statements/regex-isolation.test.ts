/**
 * One client's catastrophic regex cannot fail another's (hardening issue, item 7): regex queries run on a
 * small pool of worker threads, one query's work on a worker of its own while it runs, so the worker ended
 * at the time limit held nothing else. On flask, with a short time limit.
 */
import t from 'tap';
import { FLASK, getJson, startApp } from '../helpers.js';
import { indexReady } from '../index/helpers.js';
import { POOL_SIZE, RegexBudget, RegexCancelledError, regexHits, RegexTimeoutError, stopRegexRunner } from '../../src/syntax/statements/regex-runner.js';

const q = (params: Record<string, string | number | boolean>): string => `/statements?${new URLSearchParams(Object.entries(params).map(([k, v]) => [k, String(v)])).toString()}`;

/** Backtracks exponentially on every identifier, and the backreference keeps V8's linear engine out. */
const CATASTROPHIC = '(\\w*)*\\1§';
const HARMLESS = ['def \\w+\\(self\\)', 'raise \\w+Error\\(', 'import (os|sys|typing)\\b', 'return None\\b', 'self\\.\\w+ = \\w+'];
const TIMEOUT_MS = 1000;

/** What a test compares: the matches, not the timing. */
function answer(body: { totalMatches: number; results: Array<{ path: string; line: number }> }): { total: number; hits: string[] } {
  return { total: body.totalMatches, hits: body.results.map((hit) => `${hit.path}:${hit.line}`) };
}

t.test('a regex stopped at the time limit fails only its own request', async (t) => {
  const app = await startApp(t, FLASK, { index: { watch: false }, statements: { regexTimeoutMs: TIMEOUT_MS } });
  await indexReady(app);
  const alone = new Map<string, ReturnType<typeof answer>>();
  for (const query of HARMLESS) {
    const { status, body } = await getJson(app, q({ query, type: 'regex', limit: 200 }));
    t.equal(status, 200, `${query} alone: ${JSON.stringify(body.error ?? '')}`);
    t.ok(body.totalMatches > 0, `${query} alone finds ${body.totalMatches}`);
    alone.set(query, answer(body));
  }

  t.test('harmless queries in flight while a catastrophic one is stopped answer as they do alone', async (t) => {
    for (let attempt = 0; attempt < 2; attempt++) {
      const catastrophic = getJson(app, q({ query: CATASTROPHIC, type: 'regex' }));
      // Two waves: one starting with the catastrophic query, one while it runs.
      const first = HARMLESS.map((query) => getJson(app, q({ query, type: 'regex', limit: 200 })));
      await new Promise((resolve) => setTimeout(resolve, TIMEOUT_MS / 2));
      const second = HARMLESS.map((query) => getJson(app, q({ query, type: 'regex', limit: 200 })));
      const [bad, ...good] = await Promise.all([catastrophic, ...first, ...second]);
      t.equal(bad.status, 400, 'the catastrophic query is a 400');
      t.match(bad.body.error, { code: 'invalid_parameter', parameter: 'query', message: new RegExp(`^Parameter 'query' ran for more than ${TIMEOUT_MS} ms and was stopped`) });
      good.forEach(({ status, body }, i) => {
        const query = HARMLESS[i % HARMLESS.length];
        t.equal(status, 200, `${query} (attempt ${attempt + 1}, wave ${i < HARMLESS.length ? 1 : 2}): ${JSON.stringify(body.error ?? '')}`);
        if (status === 200) t.same(answer(body), alone.get(query), `${query}: the same matches as alone`);
      });
    }
  });

  t.test('a flood of catastrophic queries: each is stopped or refused as busy within a bound, and then regexes run again', async (t) => {
    const started = performance.now();
    const flood = await Promise.all(Array.from({ length: 8 }, () => getJson(app, q({ query: CATASTROPHIC, type: 'regex' }))));
    const elapsed = performance.now() - started;
    let stopped = 0;
    let busy = 0;
    for (const { status, body, headers } of flood) {
      if (status === 400) {
        stopped++;
        t.match(body.error.message, new RegExp(`ran for more than ${TIMEOUT_MS} ms and was stopped`));
      } else {
        t.equal(status, 503, `a stopped query or a busy refusal: ${status} ${JSON.stringify(body)}`);
        busy++;
        t.match(body.error, { code: 'server_unavailable', message: /regular expression workers were all busy .* more than \d+ ms/ });
        t.ok(Number(headers['retry-after']) >= 1, 'with Retry-After');
      }
    }
    t.ok(stopped >= 2, `${stopped} ran and were stopped`);
    t.ok(busy >= 1, `${busy} waited past the bound and were refused`);
    // Each waits at most twice the time limit for a worker, then runs at most the time limit.
    t.ok(elapsed < 3 * TIMEOUT_MS + 2000, `all answered in ${Math.round(elapsed)} ms`);
    const after = await getJson(app, q({ query: HARMLESS[0], type: 'regex', limit: 200 }));
    t.equal(after.status, 200);
    t.same(answer(after.body), alone.get(HARMLESS[0]), 'the next query answers as before');
  });
});

t.test('the runner: a caller that goes away frees its worker, queued or running', async (t) => {
  t.teardown(stopRegexRunner);
  const words = { op: 'texts' as const, texts: ['an_identifier_long_enough_to_backtrack_for_minutes '.repeat(20)] };
  const harmless = { op: 'texts' as const, texts: ['nothing here', 'raise ValueError('] };

  const running = new AbortController();
  const started = performance.now();
  const cancelled = regexHits(CATASTROPHIC, '', words, new RegexBudget(10_000, running.signal));
  setTimeout(() => running.abort(), 100);
  await t.rejects(cancelled, RegexCancelledError, 'a running job ends when its caller goes away');
  t.ok(performance.now() - started < 2000, 'long before its time limit');
  t.same(await regexHits('raise \\w+Error', '', harmless, 1000), [1], 'the next job runs');

  // Every worker busy: a queued job whose caller goes away leaves the queue; the running ones are untouched.
  const busy = Array.from({ length: POOL_SIZE }, () => regexHits(CATASTROPHIC, '', words, 600));
  const queued = new AbortController();
  const waiting = regexHits('raise', '', harmless, new RegexBudget(1000, queued.signal));
  queued.abort();
  await t.rejects(waiting, RegexCancelledError, 'a queued job leaves the queue');
  for (const job of busy) await t.rejects(job, RegexTimeoutError, 'the running ones run out their time limit');
  t.same(await regexHits('raise', '', harmless, 1000), [1]);
});
