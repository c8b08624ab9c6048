/**
 * The regular expression /statements tests a whole file with before parsing it: it must match every
 * file holding a statement whose source the user's expression matches, or a file with a match goes
 * unsearched. The user's expression tests each statement's source on its own, where `^` and `$` are
 * the statement's start and end and `\b`, `\B` and lookarounds see nothing past them; on the whole
 * file they see the text around the statement, so `^\s*if\s*\(` would find only a file starting
 * with an if. The filter therefore drops those assertions: `^`, `$`, `\b` and `\B` become an empty
 * group, which matches wherever the assertion did and more, and an expression with a lookaround
 * (whose groups a backreference may read) gets no filter at all: every file is parsed.
 */

/** The source of the filter for a valid expression, or null when every file must be searched. */
export function fileFilterSource(source: string, flags: string): string | null {
  let out = '';
  let changed = false;
  let inClass = false;
  for (let i = 0; i < source.length; i++) {
    const c = source[i];
    if (c === '\\') {
      const next = source[i + 1] ?? '';
      if (!inClass && (next === 'b' || next === 'B')) {
        out += '(?:)';
        changed = true;
      } else {
        out += c + next;
      }
      i++;
      continue;
    }
    if (inClass) {
      if (c === ']') inClass = false;
      out += c;
      continue;
    }
    if (c === '[') {
      inClass = true;
      out += c;
      continue;
    }
    if (c === '(' && source[i + 1] === '?' && (source[i + 2] === '=' || source[i + 2] === '!' || (source[i + 2] === '<' && (source[i + 3] === '=' || source[i + 3] === '!')))) {
      return null;
    }
    if (c === '^' || c === '$') {
      out += '(?:)';
      changed = true;
      continue;
    }
    out += c;
  }
  if (!changed) return source;
  try {
    new RegExp(out, flags);
  } catch {
    return null;
  }
  return out;
}
