/**
 * Blanks annotation macros (Unreal's UCLASS()/GENERATED_BODY(), export macros such as
 * MYGAME_API or GTEST_API_) that tree-sitter cannot know, keeping every offset.
 */

/** Unreal reflection macros: blanked wherever they stand. */
const ANNOTATION = /\b(?:UCLASS|USTRUCT|UENUM|UINTERFACE|UFUNCTION|UPROPERTY|UDELEGATE|UMETA|UPARAM|GENERATED_BODY|GENERATED_UCLASS_BODY|GENERATED_USTRUCT_BODY|GENERATED_UINTERFACE_BODY|GENERATED_IINTERFACE_BODY|UE_DEPRECATED)\s*\(/g;
/** An upper-case macro call alone on its line (`GENERATED_BODY()`, `DEPRECATED(4.2, "...")`). */
const STANDALONE = /^[ \t]*[A-Z][A-Z0-9_]+[ \t]*\(/gm;
/** An upper-case word between `class` and the class name: an export macro. */
const EXPORT_MACRO = /\b(?:class|struct|union)\s+([A-Z_][A-Z0-9_]*)\s+(?=(?:alignas\s*\([^)]*\)\s*)?[A-Za-z_]\w*\s*(?:final\b|:[^:]|\{|<))/g;

const MAX_ARGUMENTS = 4000;

export function blankCppMacros(source: string): string {
  if (!/[A-Z]{2}/.test(source)) return source;
  const cuts: Array<[number, number]> = [];

  for (const match of source.matchAll(ANNOTATION)) {
    const open = match.index + match[0].length - 1;
    const close = matchingParen(source, open);
    if (close > 0) cuts.push([match.index, close + 1]);
  }

  for (const match of source.matchAll(STANDALONE)) {
    const open = match.index + match[0].length - 1;
    const close = matchingParen(source, open);
    if (close < 0 || continuesMacro(source, match.index)) continue;
    const after = restOfLine(source, close + 1);
    if (after.trim() && !after.trim().startsWith('//')) continue;
    // `TEST(A, B) {` is a function-like macro with a body: keep it.
    if (nextCodeChar(source, close + 1) === '{') continue;
    cuts.push([match.index, close + 1]);
  }

  for (const match of source.matchAll(EXPORT_MACRO)) {
    const start = match.index + match[0].indexOf(match[1], match[0].search(/\s/));
    cuts.push([start, start + match[1].length]);
  }

  if (!cuts.length) return source;
  const chars = source.split('');
  for (const [from, to] of cuts) {
    for (let i = from; i < to; i++) {
      const c = chars[i];
      if (c !== '\n' && c !== '\r') chars[i] = ' ';
    }
  }
  return chars.join('');
}

/** Index of the `)` closing the `(` at `open`, skipping strings and chars; -1 when none is near. */
function matchingParen(source: string, open: number): number {
  let depth = 0;
  const limit = Math.min(source.length, open + MAX_ARGUMENTS);
  for (let i = open; i < limit; i++) {
    const c = source[i];
    if (c === '"' || c === '\'') {
      for (i++; i < limit && source[i] !== c; i++) if (source[i] === '\\') i++;
    } else if (c === '(') {
      depth++;
    } else if (c === ')') {
      depth--;
      if (depth === 0) return i;
    } else if (c === ';' || c === '{' || c === '}') {
      return -1;
    }
  }
  return -1;
}

function restOfLine(source: string, from: number): string {
  const end = source.indexOf('\n', from);
  return source.slice(from, end < 0 ? source.length : end);
}

function nextCodeChar(source: string, from: number): string {
  const match = /\S/.exec(source.slice(from, from + 400));
  return match ? match[0] : '';
}

/** The line before ends with a backslash: this is the body of a #define. */
function continuesMacro(source: string, lineStart: number): boolean {
  let i = lineStart - 1;
  if (i < 0 || source[i] !== '\n') return false;
  i--;
  if (source[i] === '\r') i--;
  return source[i] === '\\';
}
