/**
 * A generated header of preprocessor lines, read in pieces (src/languages/cpp/large-headers.ts), gives the
 * symbols the whole file gives: cut anywhere it may be, with comments, continuations, conditionals and literals.
 */
import t from 'tap';
import { languageById } from '../../src/languages/index.js';
import { preprocessorPieces } from '../../src/languages/cpp/large-headers.js';
import { extractSymbols } from '../../src/syntax/index.js';
import type { ExtractedSymbol } from '../../src/syntax/types.js';

const HEADER = `/*
 * Copyright: a licence block, /* with a nested opener, over several lines.
 */
#ifndef _REGS_H
#define _REGS_H

// addressBlock: dcn
//DENTIST_DISPCLK_CNTL
#define DENTIST_DISPCLK_CNTL__WDIVIDER__SHIFT    0x0
#define DENTIST_DISPCLK_CNTL__RDIVIDER__SHIFT    0x8 // trailing comment
/** The mask, documented. */
#define DENTIST_DISPCLK_CNTL__WDIVIDER_MASK      0x0000007FL
#define MULTI_LINE(a, b) \\
    ((a) << 8 | \\
     (b))
#define WITH_STRING "/* read as a comment by tree-sitter"
#define WITH_CHAR '"'   /* a comment that
                           goes on */
#define URL "http://example.com" 
#if defined(CONFIG_A)
#define ONLY_A 1
#elif defined(CONFIG_B)
#  define ONLY_B 2
#else
#define NEITHER 3
#ifdef NESTED
#define NESTED_ONE 4
#endif
#endif
#undef ONLY_A
#include <linux/types.h>
#pragma once

#define LAST(x, ...) (x)
#endif /* _REGS_H */
`;

/** Symbols of `pieces`, moved to the lines they came from. */
async function fromPieces(language: 'c' | 'cpp', text: string, size: number): Promise<ExtractedSymbol[] | undefined> {
  const pieces = preprocessorPieces(text, size);
  if (!pieces) return undefined;
  const symbols: ExtractedSymbol[] = [];
  for (const piece of pieces) {
    for (const symbol of await extractSymbols(languageById(language), piece.text)) {
      for (const range of [symbol.range, symbol.selectionRange]) {
        range.start.line += piece.line;
        range.end.line += piece.line;
      }
      symbols.push(symbol);
    }
  }
  return symbols;
}

t.test('a header of preprocessor lines read in pieces gives the symbols the whole file gives', async (t) => {
  for (const language of ['c', 'cpp'] as const) {
    const whole = await extractSymbols(languageById(language), HEADER);
    t.ok(whole.length >= 10, `${language}: ${whole.length} macros`);
    for (const size of [1, 40, 200, 1_000_000]) {
      const pieces = preprocessorPieces(HEADER, size);
      t.ok(pieces && pieces.length >= (size === 1 ? 10 : 1), `${language}, pieces of ${size}: ${pieces?.length}`);
      t.same(await fromPieces(language, HEADER, size), whole, `${language}, pieces of ${size}: the same symbols`);
    }
  }
  const doc = (await fromPieces('c', HEADER, 1))!.find((symbol) => symbol.name === 'DENTIST_DISPCLK_CNTL__WDIVIDER_MASK');
  t.equal(doc?.doc, 'The mask, documented.', 'a comment stays with the directive it documents');
});

t.test('a file with anything but preprocessor lines and comments is not cut', async (t) => {
  t.equal(preprocessorPieces('#define A 1\nint x;\n#define B 2\n', 1), undefined, 'a declaration');
  t.equal(preprocessorPieces('#define A 1\n/* open\n', 1), undefined, 'a comment that never closes');
  t.equal(preprocessorPieces('/* c */ int x;\n', 1), undefined, 'code after a comment');
  t.ok(preprocessorPieces('', 1), 'an empty file is one piece');
});
