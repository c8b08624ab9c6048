/**
 * Bounded answers (issue 13, defect 4): /outline and /children of a generated Python file of 20,000
 * functions in 400 classes, through pyright, cap their symbols and count what they left out, and
 * /health keeps answering promptly while four such outlines run.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import t from 'tap';
import { getJson, startApp, tempDir } from '../helpers.js';

interface Node { name: string; children: Node[]; omittedChildren?: number }

const CLASSES = 400;
const METHODS = 49;
const FUNCTIONS = 400;

function generate(root: string): string {
  mkdirSync(root, { recursive: true });
  const lines: string[] = [];
  for (let c = 0; c < CLASSES; c++) {
    lines.push(`class Generated${c}:`);
    for (let m = 0; m < METHODS; m++) lines.push(`    def method_${c}_${m}(self, value):`, `        return value + ${m}`, '');
  }
  for (let f = 0; f < FUNCTIONS; f++) lines.push(`def function_${f}(value):`, `    return value * ${f}`, '');
  writeFileSync(path.join(root, 'generated.py'), lines.join('\n'));
  return 'generated.py';
}

function count(nodes: Node[]): { kept: number; omitted: number } {
  let kept = 0;
  let omitted = 0;
  for (const node of nodes) {
    kept++;
    omitted += node.omittedChildren ?? 0;
    const inner = count(node.children);
    kept += inner.kept;
    omitted += inner.omitted;
  }
  return { kept, omitted };
}

t.test('a 20,000-symbol file: outline and children are capped, counted, and do not stall other requests', async (t) => {
  const root = path.join(tempDir(t), 'ws');
  const file = generate(root);
  const total = CLASSES * (1 + METHODS) + FUNCTIONS;
  const app = await startApp(t, root, { index: { watch: false }, outline: { maxSymbols: 2000 } });

  const first = await getJson(app, `/outline?file=${file}`);
  t.equal(first.status, 200, first.status === 200 ? 'answered' : JSON.stringify(first.body));
  const { kept, omitted } = count(first.body.results);
  t.equal(kept, 2000, 'at most outline.maxSymbols symbols');
  t.equal(first.body.truncated, true, 'says it is truncated');
  // pyright lists parameters too, so there are more symbols than definitions: what is kept and left out adds up.
  t.ok(first.body.omittedSymbols >= total - 2000, `${first.body.omittedSymbols} symbols left out`);
  t.equal(first.body.results.length, CLASSES + FUNCTIONS, 'every top-level symbol is kept first (breadth first)');
  t.equal(omitted, first.body.omittedSymbols, 'each one counted in the omittedChildren of its kept parent');
  t.ok(first.body.results[CLASSES - 1].omittedChildren >= METHODS, 'a class whose methods were left out counts them');

  const small = await getJson(app, `/outline?file=${file}&depth=1`);
  t.equal(small.body.results.length, CLASSES + FUNCTIONS, 'depth=1 fits under the cap');
  t.notOk(small.body.truncated, 'and is not truncated');

  const children = await getJson(app, `/children?file=${file}&line=1&column=7&depth=all`);
  t.equal(children.status, 200);
  const methods = children.body.results.filter((child: { depth: number }) => child.depth === 1);
  t.equal(methods.length, METHODS, 'a class within the cap is whole');
  t.notOk(children.body.truncated);

  // Four large outlines at once: /health answers meanwhile.
  const healthTimes: number[] = [];
  let running = true;
  const outlines = Promise.all(Array.from({ length: 4 }, () => app.inject({ url: `/outline?file=${file}` }))).finally(() => {
    running = false;
  });
  while (running) {
    const started = performance.now();
    const health = await app.inject({ url: '/health' });
    healthTimes.push(performance.now() - started);
    t.equal(health.statusCode, 200);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  const answers = await outlines;
  t.ok(answers.every((answer) => answer.statusCode === 200), 'all four answered');
  t.ok(answers.every((answer) => answer.body.length < 2_000_000), `bounded answers (${answers[0].body.length} bytes each)`);
  const worst = Math.max(...healthTimes);
  t.ok(worst < 400, `/health answered within ${Math.round(worst)} ms while they ran (${healthTimes.length} probes)`);
});

t.test('/children depth=all is capped like the outline', async (t) => {
  const root = path.join(tempDir(t), 'ws');
  mkdirSync(root, { recursive: true });
  const lines = ['class Huge:'];
  for (let m = 0; m < 3000; m++) lines.push(`    def m${m}(self):`, '        pass');
  writeFileSync(path.join(root, 'huge.py'), lines.join('\n') + '\n');
  const app = await startApp(t, root, { index: { watch: false }, outline: { maxSymbols: 500 } });
  const { status, body } = await getJson(app, '/children?file=huge.py&line=1&column=7&depth=all');
  t.equal(status, 200);
  t.equal(body.results.length, 500, 'capped at outline.maxSymbols');
  t.equal(body.truncated, true);
  t.equal(body.omittedSymbols, 2500);
  t.equal(body.results[0].name, 'm0', 'in document order');
});
