/**
 * Each C/C++ resolution rule of DESIGN.md "Precise rules", through HTTP and MCP alike, on a small tree written
 * here: a type and its own constructors are one name; several distinct definitions are a 409 listing every real
 * candidate, workspace code before tests, samples and tools, a header's definition before a file-local one; the
 * inheritors of a C struct answer from the index at once, saying why. One app (clangd may start for the usages).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import t from 'tap';
import { getJson, startApp, tempDir } from '../helpers.js';
import { call, connectHttp, structured, textOf } from '../mcp/helpers.js';
import { indexReady } from '../wait.js';

const root = tempDir(t);
const files: Record<string, string> = {
  'src/widget.h': 'class Widget\n{\npublic:\n\tWidget();\n\texplicit Widget(int size);\n\tvoid draw();\n};\n',
  'src/widget.cpp': '#include "widget.h"\nWidget::Widget() {}\nWidget::Widget(int size) { (void)size; }\nvoid Widget::draw() {}\nvoid render()\n{\n\tWidget w(3);\n\tw.draw();\n}\n',
  // A C tree beside the C++ one (its headers are C: no C++ in it). One name, five definitions: a header's (static inline), a file-local one in workspace code, a test's, a sample's, a tool's stub.
  'kernel/include/slab.h': 'struct file_operations { int (*open)(void); };\nstatic inline void *kmalloc(unsigned long size) { (void)size; return 0; }\n',
  'kernel/mm/slab_local.c': '#include "../include/slab.h"\nstatic void *kmalloc(unsigned long size) { (void)size; return 0; }\nvoid *use_local(void) { return kmalloc(1); }\n',
  'kernel/tests/test_slab.c': 'void *kmalloc(unsigned long size) { (void)size; return 0; }\n',
  'kernel/samples/demo.c': 'void *kmalloc(unsigned long size) { (void)size; return 0; }\n',
  'kernel/tools/testing/stub.c': 'void *kmalloc(unsigned long size) { (void)size; return 0; }\n',
  'kernel/mm/util.c': '#include "../include/slab.h"\nint util(void) { return 0; }\n',
};
for (const [name, text] of Object.entries(files)) {
  mkdirSync(path.dirname(path.join(root, name)), { recursive: true });
  writeFileSync(path.join(root, name), text);
}
const app = await startApp(t, root);
await indexReady(app, 60_000);
const { client } = await connectHttp(t, app);

t.test('a type and its own constructors are one name: the type answers (HTTP and MCP)', async (t) => {
  const constructors = await getJson(app, '/symbols?query=Widget::Widget&match=exact');
  t.ok(constructors.body.results.filter((s: { kind: string }) => s.kind === 'constructor').length >= 2, 'Widget has two constructors in the index');
  const { status, body } = await getJson(app, '/symbols/usages?symbol=Widget');
  t.equal(status, 200, `not a 409 between the class and its constructors (${body.error?.message ?? ''})`);
  t.match(body.symbol, { name: 'Widget', kind: 'class', file: 'src/widget.h' });
  const tool = await call(client, 'find_usages', { symbol: 'Widget' });
  t.notOk(tool.isError, textOf(tool).slice(0, 200));
  t.match(structured(tool), { symbol: { name: 'Widget', kind: 'class' } });
});

const EXPECTED_FIRST = ['kernel/include/slab.h', 'kernel/mm/slab_local.c'];
const AUXILIARY = ['kernel/samples/demo.c', 'kernel/tests/test_slab.c', 'kernel/tools/testing/stub.c'];

t.test('several definitions: a 409 listing every one, workspace before tests/samples/tools, a header\'s before a file-local one (HTTP)', async (t) => {
  const { status, body } = await getJson(app, '/symbols/usages?symbol=kmalloc');
  t.equal(status, 409);
  t.equal(body.error.code, 'ambiguous_symbol');
  const listed: string[] = body.error.candidates.map((c: { file: string }) => c.file);
  t.equal(body.error.totalCandidates, 5, 'every real candidate');
  t.same(listed.slice(0, 2), EXPECTED_FIRST, 'the header\'s definition, then the file-local one');
  t.same(listed.slice(2).sort(), AUXILIARY, 'then the test\'s, the sample\'s and the tool\'s');
  t.ok(body.error.candidates.every((c: { id: string }) => c.id), 'each with its id');
  const one = await getJson(app, `/symbols/usages?id=${body.error.candidates[0].id}`);
  t.equal(one.status, 200, 'an id picks one');
});

t.test('the same 409 through MCP: the message, then the candidates in the same order', async (t) => {
  const tool = await call(client, 'find_usages', { symbol: 'kmalloc' });
  t.equal(tool.isError, true);
  t.match(textOf(tool), /Symbol 'kmalloc' is ambiguous: 5 symbols match/);
  const details = JSON.parse((tool.content[1] as { text: string }).text) as { candidates: Array<{ file: string }>; totalCandidates: number };
  t.equal(details.totalCandidates, 5);
  t.same(details.candidates.slice(0, 2).map((c) => c.file), EXPECTED_FIRST);
  t.same(details.candidates.slice(2).map((c) => c.file).sort(), AUXILIARY);
});

t.test('inheritors of a C struct: from the index at once, saying why (HTTP and MCP)', async (t) => {
  const started = performance.now();
  const { status, body } = await getJson(app, '/symbols/inheritors?symbol=file_operations');
  t.equal(status, 200);
  t.match(body.server, { state: 'unsupported', request: null, reason: /C has no inheritance/ });
  t.same(body.results, []);
  t.ok(performance.now() - started < 3000, 'without waiting on clangd');
  const tool = await call(client, 'find_inheritors', { symbol: 'file_operations' });
  t.notOk(tool.isError);
  t.match(structured(tool), { server: { state: 'unsupported', reason: /C has no inheritance/ } });
  t.match(textOf(tool), /C has no inheritance/);
});
