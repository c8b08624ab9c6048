import path from 'node:path';
import t from 'tap';
import { REPO, getJson, startApp } from '../helpers.js';
import { indexReady } from '../index/helpers.js';
import { call, connectHttp, structured, textOf } from '../mcp/helpers.js';

const ROOT = path.join(REPO, 'test/fixtures/statements');

interface Hit { id: string; path: string; type: { node: string; short: string }; shortType: string; depth: number; file: string; line: number; column: number; code: string; truncated?: boolean }

const q = (params: Record<string, string | number | boolean>): string => `/statements?${new URLSearchParams(Object.entries(params).map(([k, v]) => [k, String(v)])).toString()}`;

t.test('/statements on small fixtures in every language', async (t) => {
  const app = await startApp(t, ROOT, { index: { watch: false }, statements: { regexTimeoutMs: 300 } });
  await indexReady(app);

  t.test('the three-result case in every language: f(1), the if, f(2) nested', async (t) => {
    const cases: Array<[string, string]> = [
      ['three.c', '/statements/three.c/caller'],
      ['three.cpp', '/statements/three.cpp/Widget/caller'],
      ['Three.cs', '/statements/Three.cs/Three/Caller'],
      ['three.ts', '/statements/three.ts/caller'],
      ['three.tsx', '/statements/three.tsx/Caller'],
      ['three.js', '/statements/three.js/caller'],
      ['three.py', '/statements/three.py/caller'],
      ['three.go', '/statements/three.go/caller'],
      ['Three.java', '/statements/Three.java/Three/caller'],
      ['three.rs', '/statements/three.rs/caller'],
    ];
    for (const [file, prefix] of cases) {
      const { status, body } = await getJson(app, q({ query: 'f(', file }));
      t.equal(status, 200, file);
      const hits: Hit[] = body.results;
      t.same(hits.map((h) => [h.shortType, h.depth, h.path]), [
        ['expression', 0, `${prefix}/expression[1]`],
        ['if', 0, `${prefix}/if[1]`],
        ['expression', 1, `${prefix}/if[1]/expression[1]`],
      ], `${file}: first call, the if, the nested call`);
      t.match(hits[0].code, /^f\(1\);?$/, `${file}: the first call's code`);
      t.ok(hits[1].line < hits[2].line && hits[0].line < hits[1].line, `${file}: document order`);
      t.equal(body.totalMatches, 3);
      t.equal(body.truncated, false);
    }
  });
});
