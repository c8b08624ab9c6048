/**
 * Extraction never throws, whatever it is given, and works from worker threads.
 */
import t from 'tap';
import { Worker } from 'node:worker_threads';
import type { LanguageId } from '../../src/syntax/types.js';
import { extractFileSymbols, extractSymbols } from '../../src/syntax/index.js';
import { languageById } from '../../src/languages/index.js';

const LANGUAGES: LanguageId[] = ['c', 'cpp', 'csharp', 'typescript', 'tsx', 'javascript', 'python', 'go', 'java', 'rust'];

const WEIRD: Record<string, string> = {
  empty: '',
  whitespace: ' \n\t\r\n ',
  nul: 'class \u0000 {\u0000',
  'lone surrogates': 'function \ud800x() {} class \udc00Y {}',
  'unbalanced braces': '}}}} {{{{ class A { void f( { ',
  'deep nesting': '('.repeat(20000) + ')'.repeat(10),
  'deep blocks': 'void f() {' + '{'.repeat(5000) + '}'.repeat(5000) + '}',
  binary: String.fromCharCode(...Array.from({ length: 4096 }, (_, i) => (i * 7919) % 256)),
  'macro soup': 'UCLASS(\nclass X_API : {\nGENERATED_BODY(\n#if\n#else\n#endif\n#endif\n#else',
  'long line': `const x = "${'a'.repeat(200000)}";`,
};

t.test('never throws on weird input, in any language', async (t) => {
  for (const language of LANGUAGES) {
    for (const [name, source] of Object.entries(WEIRD)) {
      const started = performance.now();
      const symbols = await extractSymbols(languageById(language), source);
      const ms = performance.now() - started;
      t.ok(Array.isArray(symbols), `${language}: ${name} (${ms.toFixed(0)} ms)`);
    }
  }
});

t.test('a file of unclosed bodies costs its length, not its length squared', async (t) => {
  // Each `{` of a body looked for its `}` to the end of the file: 32,000 of them took 90 s before the parse began.
  const source = `int f() ${'{ if (x) '.repeat(100_000)}\n`;
  for (const language of ['c', 'cpp'] as const) {
    const timing = { prepare: 0, parse: 0, extract: 0 };
    await extractFileSymbols(languageById(language), source, timing);
    t.ok(timing.prepare < 10_000, `${language}: 100,000 unclosed bodies prepared in ${timing.prepare.toFixed(0)} ms`);
  }
});

t.test('a file of many error nodes side by side costs its length, not its length squared', async (t) => {
  // Each error node asked tree-sitter for its parent, which searches down from the root past every sibling before it:
  // 50,000 of them in one enum took 64 s, 30,000 C++ class heads read as C 76 s.
  const sources = { enum: `enum e { ${'A = (, '.repeat(50_000)}`, classes: 'class A : public B { '.repeat(30_000) };
  for (const language of ['c', 'cpp'] as const) {
    for (const [name, source] of Object.entries(sources)) {
      const timing = { prepare: 0, parse: 0, extract: 0 };
      await extractFileSymbols(languageById(language), source, timing);
      t.ok(timing.extract < 10_000, `${language}: ${name} extracted in ${timing.extract.toFixed(0)} ms`);
    }
  }
});

t.test('keeps what it can from a file with a syntax error', async (t) => {
  const symbols = await extractSymbols(languageById('typescript'), 'export function good(): void {}\nclass Broken { method( {\nexport function alsoGood() {}\n');
  t.ok(symbols.some((s) => s.name === 'good'));
});

t.test('a byte-order mark does not shift columns', async (t) => {
  const [symbol] = await extractSymbols(languageById('typescript'), '\ufeffexport class A {}');
  t.same(symbol.selectionRange.start, { line: 1, column: 14 });
});

t.test('an unknown language gives nothing rather than an error', async (t) => {
  t.same(await extractSymbols(languageById('cobol')!, 'IDENTIFICATION DIVISION.'), []);
});

t.test('works in worker threads, several at once', async (t) => {
  const url = new URL('../../src/syntax/index.ts', import.meta.url).href;
  const languagesUrl = new URL('../../src/languages/index.ts', import.meta.url).href;
  // The worker imports the TypeScript source through tsx, as the builder's workers will import the build.
  const code = `
    import { parentPort, workerData } from 'node:worker_threads';
    import { register } from 'tsx/esm/api';
    register();
    const { extractSymbols } = await import(workerData.url);
    const { languageById } = await import(workerData.languagesUrl);
    const symbols = await extractSymbols(languageById(workerData.language), workerData.source);
    parentPort.postMessage(symbols.map((s) => s.qualifiedName));
  `;
  const jobs: Array<[LanguageId, string, string[]]> = [
    ['cpp', 'namespace n { class A { void f(); }; }', ['n', 'n::A', 'n::A::f']],
    ['python', 'class B:\n    def g(self):\n        pass\n', ['B', 'B.g']],
    ['go', 'package p\nfunc H() {}\n', ['H']],
    ['rust', 'struct S; impl S { fn m(&self) {} }', ['S', 'S::m']],
  ];
  const results = await Promise.all(jobs.map(([language, source]) => new Promise<string[]>((resolve, reject) => {
    const worker = new Worker(code, { eval: true, workerData: { url, languagesUrl, language, source } });
    worker.once('message', (names: string[]) => { resolve(names); void worker.terminate(); });
    worker.once('error', reject);
  })));
  t.same(results, jobs.map(([, , expected]) => expected));
});
