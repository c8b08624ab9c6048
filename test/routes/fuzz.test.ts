/**
 * A bounded, seeded fuzz over every GET route of src/operations/ (new operations are fuzzed as they are
 * added) and every MCP tool, on a copy of flask: hostile values (NUL and control characters, huge and
 * non-decimal numbers, unicode, `../`, very long strings, wrong types, repeated parameters) must never
 * give a 5xx other than a language server's 503/504, and every 4xx carries {error:{code,message}}.
 */
import { cpSync } from 'node:fs';
import path from 'node:path';
import t from 'tap';
import type { TObject, TSchema } from 'typebox';
import { FLASK, startApp, tempDir } from '../helpers.js';
import { indexReady } from '../index/helpers.js';
import { OPERATIONS } from '../../src/operations/index.js';
import { callTool } from '../../src/mcp/tool.js';
import { TOOLS } from '../../src/mcp/tools.js';

const SEED = 0x5eed13;
const HTTP_PER_ROUTE = 400;
const CALLS_PER_TOOL = 200;
/** Stops early past this, so a slow machine keeps the suite bounded. */
const BUDGET_MS = 50_000;

/** mulberry32: small, seeded, good enough to pick cases. */
function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let x = a;
    x = Math.imul(x ^ (x >>> 15), x | 1);
    x ^= x + Math.imul(x ^ (x >>> 7), x | 61);
    return ((x ^ (x >>> 14)) >>> 0) / 4294967296;
  };
}

const HOSTILE_STRINGS = [
  '', ' ', '\0', 'a\0b', 'Flask\0', '\0Flask', '\x01\x02\x1f\x7f', '\n', '\r\n', '\t', '"', "'", '\\', '%', '%00', '%zz', '*', '?', '#', '&', '=', ';',
  '..', '../', '../../etc/passwd', '/etc/passwd', '..\\..\\windows', 'flask/../../x.py', './flask/app.py', 'flask//app.py', '~', '$HOME',
  '-1', '0', '1', '2', '3', 'all', '-0', '007', '2.7', '1e3', '1e308', '0x10', '0b11', ' 5', '+5', 'NaN', 'Infinity', '-Infinity',
  '9223372036854775807', '-9223372036854775808', '18446744073709551616', '1'.repeat(400), 'true', 'false', 'null', 'undefined', '[]', '{}',
  'é', 'Ünïcødé', '日本語', '🙂', '\u202e', '\ufeff', '\ud800', 'a\u0301', 'ｆｌａｓｋ', 'x'.repeat(5000), 'Flask'.repeat(200),
  'AND', 'OR NOT', 'NEAR(a b)', '"Flask"', 'name:Flask', 'Fla*', '^Flask', 'col:"x"', "'; DROP TABLE symbols; --", '% _', '%_%',
  'Flask', 'flask', 'Config', 'app', 'json', 'from_pyfile', 'Flask.run', 'flask.app.Flask', 'flask::Flask', 'Config.from_object', 'a.b.c.d.e.f',
  'class', 'function', 'method', 'class,function', ',', 'kind,,', 'python', 'cpp', 'markdown', 'json', 'user', 'exact',
  'flask/app.py', 'flask/config.py', 'flask/__init__.py', 'flask/json/__init__.py', 'flask', 'missing.py',
];

const HOSTILE_NUMBERS: unknown[] = [0, -1, 1, 2, 7, 49, 200, 201, 1000, 1_000_000, 1_000_001, 2.7, -0.5, 1e20, 1e308, Number.MAX_SAFE_INTEGER, 9223372036854775807, Number.NaN];
const OTHER_VALUES: unknown[] = [true, false, null, [], ['Flask'], ['1', '2'], {}, { nested: 'x' }, [[]], [1, 2, 3]];

function pick<T>(rng: () => number, list: readonly T[]): T {
  return list[Math.floor(rng() * list.length)];
}

/** Plausible values by parameter name, so requests also get past validation into the use cases and servers. */
const PLAUSIBLE: Record<string, unknown[]> = {
  file: ['flask/app.py', 'flask/config.py', 'flask/json/__init__.py', 'flask/ctx.py', 'flask/../flask/app.py'],
  line: [1, 29, 109, 1000000, '29'],
  column: [1, 7, 14, 500],
  query: ['Flask', 'Config', 'get', 'Fla', 'FC', 'flask.app.Flask', 'send_file', 'Response'],
  symbol: ['Flask', 'Config', 'run', 'Flask.run'],
  name: ['flask', 'json', 'Flask'],
  kind: ['class', 'function,method', 'nope'],
  depth: [1, 2, '3', 'all', 100],
  display_code_for: ['Config', 'Flask.run,Config.from_object', 'x'],
  requests: [
    [{ operation: 'find_declaration', params: { symbol: 'Config' } }, { operation: 'search_symbols', params: { query: 'Flask', limit: 'x' } }],
    [{ operation: 'find_usages', params: { symbol: 'get' } }, { operation: 'nope' }, { operation: 'batch', params: {} }],
    [{ operation: 'symbol_outline', params: { file: '../etc/passwd' } }],
  ],
  max_tokens: [100, 500, 100000, '300'],
};

/** A value for a parameter: mostly hostile strings, sometimes the right kind of value, sometimes arrays. */
function valueFor(rng: () => number, schema: TSchema | undefined, json: boolean, name = ''): unknown {
  const roll = rng();
  const type = (schema as { type?: string } | undefined)?.type;
  if (roll > 0.7 && PLAUSIBLE[name]) {
    const value = pick(rng, PLAUSIBLE[name]);
    return json ? value : String(value);
  }
  if (roll < 0.15 && type === 'integer') return String(Math.floor(rng() * 60) + 1);
  if (roll < 0.25) return pick(rng, HOSTILE_STRINGS);
  if (json && roll < 0.45) return pick(rng, [...HOSTILE_NUMBERS, ...OTHER_VALUES]);
  if (!json && roll < 0.35) return [pick(rng, HOSTILE_STRINGS), pick(rng, HOSTILE_STRINGS)];
  return pick(rng, HOSTILE_STRINGS);
}

/** Percent-encoding that lets a lone surrogate through as the invalid UTF-8 a client could send. */
function encode(text: string): string {
  try {
    return encodeURIComponent(text);
  } catch {
    return text.split('').map((c) => (/[\ud800-\udfff]/.test(c) ? '%ED%A0%80' : encodeURIComponent(c))).join('');
  }
}

/** Raw query fragments no encoder makes: malformed escapes, invalid UTF-8. */
const RAW_FRAGMENTS = ['%zz', '%', '%0', '%ED%A0%80', '%C0%AF', '%FF%FE', '%E2%80%AE', '%00%00', '+', '%2B5'];

function queryString(rng: () => number, params: Record<string, unknown>): string {
  const parts: string[] = [];
  for (const [name, value] of Object.entries(params)) {
    for (const item of Array.isArray(value) ? value : [value]) {
      parts.push(`${encode(name)}=${rng() < 0.08 ? pick(rng, RAW_FRAGMENTS) : encode(String(item))}`);
    }
  }
  return parts.join('&');
}

t.test('fuzz: every route and tool, hostile values, no 5xx but a language server\'s 503/504', async (t) => {
  const root = path.join(tempDir(t), 'ws');
  cpSync(FLASK, path.join(root, 'flask'), { recursive: true, filter: (src) => !src.includes('__pycache__') });
  const app = await startApp(t, root, { index: { watch: false } });
  await indexReady(app);
  const rng = random(SEED);
  const started = Date.now();
  const failures: string[] = [];
  const statuses = new Map<number, number>();
  let requests = 0;

  for (const operation of OPERATIONS) {
    const http = operation.http;
    if (!http) continue;
    const properties = (operation.input as TObject).properties;
    const pathParams = Object.keys(http.params?.properties ?? {});
    const queryNames = Object.keys(properties).filter((name) => !pathParams.includes(name));
    for (let i = 0; i < HTTP_PER_ROUTE && Date.now() - started < BUDGET_MS; i++) {
      let url = http.path;
      for (const name of pathParams) url = url.replace(`:${name}`, rng() < 0.1 ? pick(rng, RAW_FRAGMENTS) : encode(String(valueFor(rng, properties[name], false, name))) || 'flask');
      // A POST (/batch) takes its input as a JSON body, with JSON values as a tool's arguments.
      const post = http.method === 'POST';
      const params: Record<string, unknown> = {};
      for (const name of queryNames) if (rng() < 0.6) params[name] = valueFor(rng, properties[name], post, name);
      if (rng() < 0.1) params[pick(rng, ['unknown', 'x', '__proto__', 'constructor'])] = pick(rng, HOSTILE_STRINGS);
      const qs = post ? '' : queryString(rng, params);
      const full = qs ? `${url}?${qs}` : url;
      const accept = pick(rng, [undefined, 'text/markdown', 'application/json', 'text/markdown;q=0, application/json', '*/*', 'text/markdown;q=abc', '']);
      const response = await app.inject({ method: post ? 'POST' : 'GET', url: full, headers: accept === undefined ? {} : { accept }, ...(post ? { payload: params as object } : {}) });
      requests++;
      statuses.set(response.statusCode, (statuses.get(response.statusCode) ?? 0) + 1);
      const status = response.statusCode;
      if (status >= 500 && status !== 503 && status !== 504) failures.push(`${status} ${post ? `POST ${JSON.stringify(params).slice(0, 300)}` : 'GET'} ${full.slice(0, 300)}: ${response.body.slice(0, 300)}`);
      if (status >= 400) {
        let body: { error?: { code?: unknown; message?: unknown } } | undefined;
        try {
          body = response.json();
        } catch {
          body = undefined;
        }
        if (typeof body?.error?.code !== 'string' || typeof body.error.message !== 'string' || body.error.message === '') {
          failures.push(`${status} without {error:{code,message}}: GET ${full.slice(0, 300)}: ${response.body.slice(0, 200)}`);
        }
      }
    }
  }

  const signal = new AbortController().signal;
  let calls = 0;
  for (const tool of TOOLS) {
    const names = Object.keys((tool.query as TObject).properties);
    for (let i = 0; i < CALLS_PER_TOOL && Date.now() - started < BUDGET_MS; i++) {
      const args: Record<string, unknown> = {};
      for (const name of names) if (rng() < 0.6) args[name] = valueFor(rng, (tool.query as TObject).properties[name], true, name);
      if (rng() < 0.1) args.extra = pick(rng, OTHER_VALUES);
      const result = await callTool(tool, app.plumb, rng() < 0.05 ? pick(rng, [null, [], 'text', 5]) : args, signal);
      calls++;
      const text = result.content.map((part) => (part.type === 'text' ? part.text : '')).join('\n');
      if (/Internal error/.test(text)) failures.push(`${tool.name} ${JSON.stringify(args).slice(0, 300)}: ${text.slice(0, 200)}`);
      if (result.isError && text.trim() === '') failures.push(`${tool.name} ${JSON.stringify(args).slice(0, 300)}: an error without a message`);
    }
  }

  const elapsed = Date.now() - started;
  t.ok(requests >= 1000 || elapsed >= BUDGET_MS, `${requests} HTTP requests and ${calls} tool calls in ${elapsed} ms; statuses ${JSON.stringify(Object.fromEntries(statuses))}`);
  t.same(failures.slice(0, 20), [], `no 5xx and every 4xx with {error:{code,message}} (${failures.length} failures)`);
});
