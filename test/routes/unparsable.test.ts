/**
 * Files tree-sitter cannot be asked to parse are listed with why, and cost nothing to the files after them: a
 * TypeScript file nesting `(,` thousands deep overflowed tree-sitter's stack, which left the parser thread's
 * tree-sitter broken, so the next files it parsed were stored without symbols and nothing said so.
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import t from 'tap';
import { getJson, startApp, tempDir } from '../helpers.js';
import { indexReady } from '../index/helpers.js';

t.test('a file nesting brackets thousands deep is listed as too_deep, and the files after it are whole', async (t) => {
  const root = tempDir(t);
  writeFileSync(path.join(root, 'deep.ts'), `export const x = [${'(,'.repeat(3000)}];\n`);
  for (let i = 0; i < 8; i++) writeFileSync(path.join(root, `later${i}.ts`), `export function unparsableNeighbour${i}(): number {\n  return ${i};\n}\n`);
  writeFileSync(path.join(root, 'deep.js'), `f(${'('.repeat(1500)}\n`);
  const app = await startApp(t, root, { index: { watch: false, workers: 1 } });
  await indexReady(app);
  const status = await getJson(app, '/status');
  t.equal(status.body.index.notIndexed?.byReason.too_deep, 2, 'both deep files, with why');
  t.match(status.body.index.notIndexed?.paths, [
    { path: 'deep.js', kind: 'file', reason: 'too_deep', detail: /more than 1000 deep/ },
    { path: 'deep.ts', kind: 'file', reason: 'too_deep', detail: /more than 1000 deep/ },
  ]);
  const found = await getJson(app, '/symbols?query=unparsableNeighbour&limit=20');
  t.equal(found.status, 200);
  t.same(found.body.results.map((r: { name: string }) => r.name).sort(), Array.from({ length: 8 }, (_, i) => `unparsableNeighbour${i}`), 'every file after them has its symbols');
  const statements = await getJson(app, '/statements?query=return&file=later3.ts');
  t.equal(statements.body.totalMatches, 1, 'the statement search, having met deep.ts, still parses TypeScript');
});
