import type { Position as LspPosition, Range as LspRange } from 'vscode-languageserver-protocol';
import type { Position, Range } from '../../schemas/common.js';

/** LSP 0-based position → plumb 1-based line and column (both count UTF-16 code units). */
export function fromLspPosition(position: LspPosition): Position {
  return { line: position.line + 1, column: position.character + 1 };
}

export function fromLspRange(range: LspRange): Range {
  return { start: fromLspPosition(range.start), end: fromLspPosition(range.end) };
}

/** plumb 1-based position → LSP 0-based; values below 1 clamp to 0 so a server never sees a negative. */
export function toLspPosition(position: Position): LspPosition {
  return { line: Math.max(0, position.line - 1), character: Math.max(0, position.column - 1) };
}

export function toLspRange(range: Range): LspRange {
  return { start: toLspPosition(range.start), end: toLspPosition(range.end) };
}

/** Whether a plumb position lies in a range (start inclusive, end exclusive). */
export function rangeContains(range: Range, position: Position): boolean {
  const afterStart = position.line > range.start.line || (position.line === range.start.line && position.column >= range.start.column);
  const beforeEnd = position.line < range.end.line || (position.line === range.end.line && position.column < range.end.column);
  return afterStart && beforeEnd;
}
