/**
 * Generated headers of nothing but preprocessor lines (the kernel's register headers: up to 24 MB of `#define`s
 * each, 194,403 in one) read in pieces: each piece parses on its own and gives the symbols the whole file gives,
 * while the parser holds one piece's tree at a time instead of the whole file's (tree-sitter's memory never
 * shrinks back: a 71 MB header left a parser thread 230 MB larger for good).
 *
 * A file is cut only where that cannot change what is read: after a complete directive other than a conditional
 * (no `\` continuation), outside comments, and so never between a comment and the directive it documents, also
 * through conditional lines between them. Conditionals open at a cut are
 * closed at the end of the piece and opened again (`#if 1`) at the start of the next, so every piece is whole.
 */
import type { SourcePiece } from '../types.js';

const CONDITIONAL_OPEN = /^\s*#\s*if(n?def)?\b/;
const CONDITIONAL_CLOSE = /^\s*#\s*endif\b/;
/** Conditional lines: a doc comment may stand above them (a comment above `#ifndef GUARD` documents `#define GUARD`). */
const CONDITIONAL = /^\s*#\s*(if|ifdef|ifndef|elif|elifdef|elifndef|else|endif)\b/;

/**
 * The pieces of `source`, each about `pieceBytes` long (UTF-16 units), when it holds only preprocessor lines,
 * comments and blank lines; undefined otherwise (the file is parsed whole).
 */
export function preprocessorPieces(source: string, pieceBytes: number): SourcePiece[] | undefined {
  const pieces: SourcePiece[] = [];
  let inComment = false;
  /** The line before continues onto this one (`\` at its end). */
  let continued = false;
  /** The last line ended a directive other than a conditional: a cut may come before this line. */
  let afterDirective = false;
  /** The directive being read is a conditional (`#if`, `#endif`...). */
  let conditional = false;
  let depth = 0;
  let pieceStart = 0;
  let pieceLine = 0;
  let pieceDepth = 0;
  let line = 0;
  for (let at = 0; at < source.length; line++) {
    const end = source.indexOf('\n', at);
    const next = end < 0 ? source.length : end + 1;
    const text = source.slice(at, end < 0 ? source.length : end);
    const cuttable = afterDirective && !inComment && !continued;
    if (cuttable && at - pieceStart >= pieceBytes) {
      pieces.push(piece(source.slice(pieceStart, at), pieceLine, pieceDepth, depth));
      pieceStart = at;
      pieceLine = line;
      pieceDepth = depth;
    }
    let directive: boolean = continued;
    if (!inComment && !continued) {
      const first = firstCode(text);
      if (first === '#') directive = true;
      else if (first !== '' && first !== '/') return undefined;
    }
    const scanned = scanLine(text, inComment, directive);
    if (scanned === undefined) return undefined;
    inComment = scanned.inComment;
    if (directive && !continued) {
      conditional = CONDITIONAL.test(text);
      if (CONDITIONAL_OPEN.test(text)) depth++;
      else if (CONDITIONAL_CLOSE.test(text)) depth = Math.max(0, depth - 1);
    }
    continued = directive && !inComment && /\\\s*$/.test(text);
    afterDirective = directive && !continued && !inComment && !conditional;
    at = next;
  }
  if (inComment) return undefined;
  pieces.push(piece(source.slice(pieceStart), pieceLine, pieceDepth, 0));
  return pieces;
}

/** A piece with the conditionals open where it starts opened again, and those open where it ends closed. */
function piece(text: string, line: number, openAtStart: number, openAtEnd: number): SourcePiece {
  const before = '#if 1\n'.repeat(openAtStart);
  const after = openAtEnd > 0 ? `${text.endsWith('\n') ? '' : '\n'}${'#endif\n'.repeat(openAtEnd)}` : '';
  return { text: before + text + after, line: line - openAtStart };
}

/** The first character of a line that is not white space ('' for a blank line). */
function firstCode(text: string): string {
  const found = /\S/.exec(text);
  return found ? found[0] : '';
}

/**
 * Follows comments through one line: whether a block comment is still open at its end. Outside a directive, only
 * comments may be on the line (undefined when anything else is). Quotes do not hide a comment: tree-sitter's C
 * grammar reads `/*` in a directive's string as one (the preprocessor would not), and the pieces must read alike.
 */
function scanLine(text: string, inComment: boolean, directive: boolean): { inComment: boolean } | undefined {
  let comment = inComment;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (comment) {
      if (ch === '*' && text[i + 1] === '/') {
        comment = false;
        i++;
      }
      continue;
    }
    if (ch === '/' && text[i + 1] === '*') {
      comment = true;
      i++;
    } else if (ch === '/' && text[i + 1] === '/') {
      return { inComment: false };
    } else if (!directive && !/\s/.test(ch)) {
      return undefined;
    }
  }
  return { inComment: comment };
}
