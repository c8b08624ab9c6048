/**
 * A parse tree-sitter halts (a file past its parse budget) is resumed by the parser's next parse unless the parser
 * is reset: the next file of the same language would be read as the rest of the halted one ('def small_marker():'
 * indexed as 'small_mark', a statement's code cut). Every parse plumb makes starts afresh, whatever came before it.
 */
import t from 'tap';
import type * as Tap from 'tap';
import { languageById } from '../../src/languages/index.js';
import { callsIn } from '../../src/syntax/calls.js';
import { loadParser } from '../../src/syntax/grammars.js';
import { parseSource } from '../../src/syntax/identifiers.js';
import { extractFileSymbols, extractSymbols, parseBudgetMs } from '../../src/syntax/index.js';
import { parseStatements } from '../../src/syntax/statements/walker.js';

const python = languageById('python')!;
const SMALL = 'def small_marker():\n    return helper_call(41)\n';
const HALTED = `def big_marker():\n    return 1\n${'# padding of a generated file\n'.repeat(2000)}def after():\n    pass\n`;

/** Leaves the shared Python parser in the middle of a parse, as a budget that ran out does. */
async function halt(t: Tap.Test): Promise<void> {
  const parser = await loadParser(python.syntax.grammar);
  let calls = 0;
  t.equal(parser.parse(HALTED, null, { progressCallback: () => ++calls > 1 }), null, 'a parse halted');
}

t.test('the index\'s extraction after a halted parse', async (t) => {
  await halt(t);
  const symbols = await extractSymbols(python, SMALL);
  t.same(symbols.map((s) => `${s.name} ${s.selectionRange.start.line}:${s.selectionRange.start.column}-${s.selectionRange.end.column}`), ['small_marker 1:5-17']);
});

t.test('statements, calls and identifier trees after a halted parse', async (t) => {
  await halt(t);
  const statements = await parseStatements(python.syntax, SMALL);
  t.equal(statements?.source, SMALL);
  await halt(t);
  t.same((await callsIn(python.syntax, SMALL))?.map((c) => `${c.name} ${c.line}:${c.column}`), ['helper_call 2:12']);
  await halt(t);
  const tree = await parseSource(python.syntax, SMALL);
  t.equal(tree?.rootNode.text.trimEnd(), SMALL.trimEnd(), 'the small file, nothing of the halted one');
  tree?.delete();
});

t.test('a parse given up at its deadline says so, rather than reading as a file without symbols', async (t) => {
  const halted = await extractFileSymbols(python, `${SMALL}${'x = 1\n'.repeat(20_000)}`, undefined, 0);
  t.same(halted, { symbols: [], gaveUpAfterMs: 0 }, 'no symbols, and why: the index lists the file as parse_timeout');
  const whole = await extractFileSymbols(python, HALTED);
  t.same(whole.symbols.map((s) => s.name), ['big_marker', 'after'], 'within the usual budget, a 2,000-line comment run and all');
  t.equal(whole.gaveUpAfterMs, undefined);
  t.equal(parseBudgetMs(2_000_000), 11_500, '1.5 s and 5 s per MB');
});
