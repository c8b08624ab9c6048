import { spawnSync } from 'node:child_process';
import path from 'node:path';
import t from 'tap';
import { REPO, startApp, tempDir } from '../helpers.js';
import { connectHttp } from '../mcp/helpers.js';
import { loadConfig } from '../../src/config.js';

const TOKEN = 'a-test-token-of-enough-length-0123';
const quiet = { index: { watch: false } };

t.test('with a token, every route but /health needs it', async (t) => {
  const app = await startApp(t, tempDir(t), { ...quiet, token: TOKEN });
  t.equal((await app.inject({ url: '/health' })).statusCode, 200, '/health is open');

  for (const url of ['/status', '/openapi.json', '/outline?file=x', '/docs/json', '/no-such-route']) {
    const response = await app.inject({ url });
    t.equal(response.statusCode, 401, `${url} without a token`);
    t.equal(response.json().error.code, 'unauthorized');
    t.match(response.headers['www-authenticate'], /^Bearer/);
  }
  const wrong = await app.inject({ url: '/status', headers: { authorization: `Bearer ${TOKEN}x` } });
  t.equal(wrong.statusCode, 401);
  t.match(wrong.json().error.message, /not the one/);
  const malformed = await app.inject({ url: '/status', headers: { authorization: TOKEN } });
  t.equal(malformed.statusCode, 401);
  t.match(malformed.json().error.message, /Bearer <token>/);
  t.equal((await app.inject({ url: '/status', headers: { authorization: `Bearer ${TOKEN}` } })).statusCode, 200);
  t.equal((await app.inject({ url: '/status', headers: { authorization: `bearer ${TOKEN}` } })).statusCode, 200, 'the scheme is case-insensitive');
  t.equal((await app.inject({ url: '/status', headers: { authorization: `Bearer ${TOKEN}`, host: 'plumb.example:7077' } })).statusCode, 200, 'with a token any host name is served');
});

t.test('with a token, an MCP client needs it too', async (t) => {
  const app = await startApp(t, tempDir(t), { ...quiet, token: TOKEN });
  await t.rejects(connectHttp(t, app), { code: 401, message: /requires a bearer token/ }, 'no token, no session');
  const { client } = await connectHttp(t, app, { authorization: `Bearer ${TOKEN}` });
  t.ok((await client.listTools()).tools.length >= 3);
});

t.test('without a token on loopback, only loopback host names and origins are answered', async (t) => {
  const app = await startApp(t, tempDir(t), quiet);
  t.equal((await app.inject({ url: '/status' })).statusCode, 200);
  t.equal((await app.inject({ url: '/status', headers: { host: '127.0.0.1:7077', origin: 'http://localhost:3000' } })).statusCode, 200);
  t.equal((await app.inject({ url: '/status', headers: { host: '[::1]:7077' } })).statusCode, 200);
  const rebound = await app.inject({ url: '/status', headers: { host: 'attacker.example:7077' } });
  t.equal(rebound.statusCode, 401, 'a DNS-rebound host name is refused');
  t.match(rebound.json().error.message, /Host 'attacker\.example' is not a loopback name/);
  const crossSite = await app.inject({ method: 'POST', url: '/mcp', headers: { origin: 'https://attacker.example', 'content-type': 'application/json' }, payload: '{}' });
  t.equal(crossSite.statusCode, 401, 'a page from another site is refused');
  t.match(crossSite.json().error.message, /Origin 'https:\/\/attacker\.example'/);
  t.notOk((await app.inject({ url: '/status' })).headers['access-control-allow-origin'], 'CORS is off');
});

t.test('the rate limit: loopback exempt by default, 429 rate_limited past the limit', async (t) => {
  const exempt = await startApp(t, tempDir(t), { ...quiet, rateLimit: { max: 2 } });
  for (let i = 0; i < 4; i++) t.equal((await exempt.inject({ url: '/health' })).statusCode, 200, `loopback request ${i + 1}`);

  const app = await startApp(t, tempDir(t), { ...quiet, rateLimit: { max: 2, exemptLoopback: false } });
  t.equal((await app.inject({ url: '/health' })).statusCode, 200);
  t.equal((await app.inject({ url: '/status' })).statusCode, 200);
  const limited = await app.inject({ url: '/status' });
  t.equal(limited.statusCode, 429);
  t.equal(limited.json().error.code, 'rate_limited');
  t.match(limited.json().error.message, /Rate limit of 2 requests per 60 s exceeded/);
  t.ok(Number(limited.headers['retry-after']) > 0, 'Retry-After says when');
});

t.test('a body over the limit is a 413, not a crash', async (t) => {
  const app = await startApp(t, tempDir(t), quiet);
  const response = await app.inject({ method: 'POST', url: '/mcp', headers: { 'content-type': 'application/json' }, payload: `{"x":"${'a'.repeat(2 * 1024 * 1024)}"}` });
  t.equal(response.statusCode, 413);
  t.equal(response.json().error.code, 'payload_too_large');
});

t.test('plumb serve refuses a non-loopback address without a token unless told it is unprotected', async (t) => {
  const root = tempDir(t);
  const run = spawnSync(process.execPath, ['--import=tsx', path.join(REPO, 'src/cli.ts'), 'serve', root, '--host', '0.0.0.0'], {
    cwd: REPO, encoding: 'utf8', env: { ...process.env, PLUMB_TOKEN: '' }, timeout: 60_000,
  });
  t.equal(run.status, 2);
  t.match(run.stderr, /refusing to listen on 0\.0\.0\.0 without a token.*--allow-unprotected/);
});

t.test('failed authentication is rate-limited too: the limiter runs before the token check', async (t) => {
  const app = await startApp(t, tempDir(t), { ...quiet, token: TOKEN, rateLimit: { max: 3, exemptLoopback: false } });
  const statuses: number[] = [];
  for (let i = 0; i < 6; i++) {
    const response = await app.inject({ url: '/status', remoteAddress: '203.0.113.7', headers: { authorization: `Bearer wrong-token-${i}-xxxxxxxxxxxxxxxx` } });
    statuses.push(response.statusCode);
  }
  t.same(statuses, [401, 401, 401, 429, 429, 429], 'wrong tokens past the limit get 429');
  const limited = await app.inject({ url: '/status', remoteAddress: '203.0.113.7', headers: { authorization: `Bearer ${TOKEN}` } });
  t.equal(limited.statusCode, 429, 'the address stays limited for its window');
  t.equal(limited.json().error.code, 'rate_limited');
  const other = await app.inject({ url: '/status', remoteAddress: '198.51.100.1', headers: { authorization: `Bearer ${TOKEN}` } });
  t.equal(other.statusCode, 200, 'another address is served');
});

t.test('PLUMB_TOKEN too short is reported as the environment variable, not plumb.json', async (t) => {
  const root = tempDir(t);
  t.throws(() => loadConfig({ root, env: { PLUMB_TOKEN: 'short' } }), { message: /PLUMB_TOKEN/ });
  try {
    loadConfig({ root, env: { PLUMB_TOKEN: 'short' } });
  } catch (error) {
    t.notMatch((error as Error).message, /plumb\.json/, 'no plumb.json is blamed');
  }
});
