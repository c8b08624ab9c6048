/**
 * Files up to 64 MB are indexed: a generated header of #defines read in pieces, a large C file of code read
 * whole (its parser thread then replaced); a larger file is recorded without being read, and said.
 */
import { closeSync, ftruncateSync, mkdirSync, openSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import t from 'tap';
import { ParsePool } from '../../src/index/parse-pool.js';
import { symbolObjects } from '../../src/index/symbol-codec.js';
import { SymbolIndex } from '../../src/index/symbol-index.js';
import { tempDir, testConfig } from '../helpers.js';

const MB = 1024 * 1024;

/** A register header as AMD's generator writes them, of about `bytes`: returns the number of #defines. */
function writeRegisterHeader(file: string, bytes: number): number {
  const lines = ['/*\n * Generated register definitions.\n */', '#ifndef _GEN_REGS_H', '#define _GEN_REGS_H', ''];
  let size = lines.join('\n').length;
  let defines = 1;
  for (let register = 0; size < bytes - 200; register++) {
    const block = [`//REG_${register}`];
    for (let field = 0; field < 8; field++) {
      // A long comment on each line, as some generators write: fewer symbols for the bytes (the test's time is theirs).
      block.push(`#define REG_${register}__FIELD_${field}__SHIFT${' '.repeat(40)}0x${(field * 4).toString(16)} /* ${'bit offset of the field '.repeat(8)}*/`);
      block.push(`#define REG_${register}__FIELD_${field}_MASK${' '.repeat(41)}0x${(0xf << (field * 4) >>> 0).toString(16).toUpperCase()}L /* ${'mask of the field '.repeat(10)}*/`);
      defines += 2;
    }
    const text = block.join('\n') + '\n';
    lines.push(text);
    size += text.length + 1;
  }
  lines.push('#define GEN_REGS_LAST 1', '#endif');
  defines++;
  writeFileSync(file, lines.join('\n') + '\n');
  return defines;
}

t.test('a 64 MB generated header is indexed, in pieces; a file over 64 MB is listed, not read', async (t) => {
  const root = tempDir(t, 'plumb-large-');
  mkdirSync(path.join(root, 'gen'));
  const defines = writeRegisterHeader(path.join(root, 'gen/regs.h'), 64 * MB - 4096);
  // A large file of code, not preprocessor lines: parsed whole (17 MB: its parser thread is replaced afterwards).
  const table = Array.from({ length: 480_000 }, (_, i) => `  { ${i}, "entry_${i}", ${i * 3} },`).join('\n');
  writeFileSync(path.join(root, 'gen/table.c'), `struct entry { int id; const char *name; int weight; };\nconst struct entry table[] = {\n${table}\n};\nint table_size(void) { return ${480_000}; }\n`);
  // Larger than plumb parses: made sparse, never read.
  const huge = openSync(path.join(root, 'gen/huge.h'), 'w');
  ftruncateSync(huge, 65 * MB);
  closeSync(huge);
  writeFileSync(path.join(root, 'main.c'), '#include "gen/regs.h"\nint main(void) { return REG_7__FIELD_3__SHIFT; }\n');

  const cacheDir = tempDir(t, 'plumb-cache-');
  const index = await SymbolIndex.open({ root, config: testConfig(cacheDir, { index: { watch: false, workers: 2 } }), cacheDir });
  t.teardown(() => index.close());
  const summary = await index.build();
  t.equal(summary.filesSkipped, 1, 'one file recorded without being parsed');
  const exact = async (name: string) => (await index.reader.search({ name, tiers: ['exact'], offset: 0, limit: 5, includeForwardDeclarations: false })).results.map((hit) => hit.symbol);
  const last = await exact('GEN_REGS_LAST');
  const lastLine = readFileSync(path.join(root, 'gen/regs.h'), 'utf8').split('\n').indexOf('#define GEN_REGS_LAST 1') + 1;
  t.same(last.map((s) => `${s.file}:${s.line} ${s.kind} ${s.language}`), [`gen/regs.h:${lastLine} macro c`], 'the last #define of 64 MB, at its line');
  const inFile = await index.reader.symbolsInFile('gen/regs.h');
  t.equal(inFile.length, defines, `every one of its ${defines} #defines`);
  const field = await exact('REG_7__FIELD_3__SHIFT');
  t.equal(field[0]?.doc, null, 'the second of a register\'s fields has no comment of its own');
  t.equal((await exact('REG_9__FIELD_0__SHIFT'))[0]?.doc, 'REG_9', 'a register\'s comment documents its first field');
  t.same((await exact('table_size')).map((s) => s.file), ['gen/table.c'], 'a large file of code is parsed whole');

  const leftOut = await index.reader.leftOut(50);
  t.same(leftOut.byReason, { too_large: 1 });
  t.same(leftOut.paths, [{ path: 'gen/huge.h', kind: 'file', reason: 'too_large', detail: 'is 65.0 MB, more than the 64 MB plumb parses' }]);
});

t.test('a parser thread that parsed a file of over 16 MB whole is replaced once its tasks are done', async (t) => {
  const root = tempDir(t, 'plumb-retire-');
  const rows = Array.from({ length: 480_000 }, (_, i) => `  { ${i}, "entry_${i}", ${i * 3} },`).join('\n');
  writeFileSync(path.join(root, 'table.c'), `const struct entry table[] = {\n${rows}\n};\nint table_size(void) { return 1; }\n`);
  writeFileSync(path.join(root, 'small.c'), 'int small(void) { return 2; }\n');
  const pool = new ParsePool(1);
  t.teardown(() => pool.close());
  const big = await pool.parse({ absolute: path.join(root, 'table.c'), language: 'c' });
  t.equal(big.outcome, 'parsed');
  t.ok(big.outcome === 'parsed' && symbolObjects(big.symbols).some((s) => s.name === 'table_size'));
  t.equal(pool.size, 0, 'the thread is gone');
  const small = await pool.parse({ absolute: path.join(root, 'small.c'), language: 'c' });
  t.ok(small.outcome === 'parsed' && symbolObjects(small.symbols).some((s) => s.name === 'small'), 'a new one parses what comes next');
  t.equal(pool.size, 1);
});

t.test('a parser thread says why it did not parse a file: binary, unreadable, too large', async (t) => {
  const root = tempDir(t, 'plumb-skip-');
  writeFileSync(path.join(root, 'blob.c'), Buffer.from([0x7f, 0x45, 0x4c, 0x46, 0, 1, 2]));
  mkdirSync(path.join(root, 'dir.c'));
  const huge = openSync(path.join(root, 'huge.c'), 'w');
  ftruncateSync(huge, 64 * MB + 1);
  closeSync(huge);
  const pool = new ParsePool(1);
  t.teardown(() => pool.close());
  const outcome = async (file: string) => {
    const result = await pool.parse({ absolute: path.join(root, file), language: 'c' });
    return result.outcome === 'skipped' ? `${result.reason}: ${result.detail}` : result.outcome;
  };
  t.equal(await outcome('blob.c'), 'binary: holds NUL bytes in its first 8 KB: not text');
  t.equal(await outcome('dir.c'), 'unreadable: cannot be read (EISDIR)');
  t.equal(await outcome('huge.c'), 'too_large: is 64.0 MB, more than the 64 MB plumb parses', 'not read: its size says');
  t.equal(await outcome('gone.c'), 'failed', 'a file gone meanwhile is a failure the watcher takes');
});
