/**
 * Unified diffs as `git diff`, `diff -u` and patch files write them: the files, their paths (a/ and b/
 * prefixes taken off, git's quoted names unquoted), renames, added and deleted files, binary files, and the
 * hunks with their lines. Pure text: nothing here reads a file.
 */

export interface DiffLine {
  op: ' ' | '+' | '-';
  text: string;
}

export interface Hunk {
  oldStart: number;
  oldLines: number;
  newStart: number;
  newLines: number;
  lines: DiffLine[];
}

export interface DiffFile {
  /** The old side's path; null for an added file. */
  oldPath: string | null;
  /** The new side's path; null for a deleted file. */
  newPath: string | null;
  status: 'added' | 'modified' | 'deleted' | 'renamed';
  binary: boolean;
  hunks: Hunk[];
}

/** Why a text is not a unified diff. */
export class NotADiff extends Error {
  override name = 'NotADiff';
}

const HUNK = /^@@+ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@+/;

/** The files of a unified diff, in order; NotADiff when the text holds no file of one. */
export function parseUnifiedDiff(text: string): DiffFile[] {
  const lines = text.split(/\r?\n/);
  if (lines.at(-1) === '') lines.pop();
  const files: Array<DiffFile & { git: boolean; headerOld?: string; headerNew?: string }> = [];
  type Parsing = DiffFile & { git: boolean; sawPair?: boolean; headerOld?: string; headerNew?: string };
  let current: Parsing | undefined;
  const start = (git: boolean): Parsing => {
    const file: Parsing = { oldPath: null, newPath: null, status: 'modified', binary: false, hunks: [], git };
    files.push(file);
    return file;
  };
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    if (line.startsWith('diff --git ')) {
      current = start(true);
      const names = gitHeaderNames(line.slice('diff --git '.length));
      if (names) {
        current.headerOld = names[0];
        current.headerNew = names[1];
      }
      continue;
    }
    if (current?.git && current.hunks.length === 0) {
      const rename = /^rename (from|to) (.*)$/.exec(line);
      if (rename) {
        current.status = 'renamed';
        if (rename[1] === 'from') current.oldPath = unquote(rename[2]);
        else current.newPath = unquote(rename[2]);
        continue;
      }
      if (line.startsWith('new file mode')) current.status = 'added';
      else if (line.startsWith('deleted file mode')) current.status = 'deleted';
      else if (line.startsWith('Binary files ') || line === 'GIT binary patch') current.binary = true;
    }
    if (line.startsWith('--- ') && i + 1 < lines.length && lines[i + 1].startsWith('+++ ')) {
      // A file's own ---/+++ pair: in a git block the one that block announced, else a new file.
      if (!current || !current.git || current.hunks.length > 0 || current.sawPair) current = start(false);
      current.sawPair = true;
      const oldName = pathOf(line.slice(4));
      const newName = pathOf(lines[i + 1].slice(4));
      const [oldPath, newPath] = stripPrefixes(oldName, newName, current.git);
      if (current.status !== 'renamed' || current.oldPath === null) current.oldPath = oldPath;
      if (current.status !== 'renamed' || current.newPath === null) current.newPath = newPath;
      if (oldPath === null) current.status = 'added';
      else if (newPath === null) current.status = 'deleted';
      i++;
      continue;
    }
    const hunk = HUNK.exec(line);
    if (hunk && current) {
      const parsed: Hunk = {
        oldStart: Number(hunk[1]), oldLines: hunk[2] === undefined ? 1 : Number(hunk[2]),
        newStart: Number(hunk[3]), newLines: hunk[4] === undefined ? 1 : Number(hunk[4]),
        lines: [],
      };
      let oldLeft = parsed.oldLines;
      let newLeft = parsed.newLines;
      while ((oldLeft > 0 || newLeft > 0) && i + 1 < lines.length) {
        const next = lines[i + 1];
        const op = next[0];
        if (op === '\\') {
          i++;
          continue;
        }
        // Some tools strip the space of an empty context line.
        if (next === '' && oldLeft > 0 && newLeft > 0) {
          parsed.lines.push({ op: ' ', text: '' });
        } else if (op === ' ' && oldLeft > 0 && newLeft > 0) {
          parsed.lines.push({ op: ' ', text: next.slice(1) });
        } else if (op === '-' && oldLeft > 0) {
          parsed.lines.push({ op: '-', text: next.slice(1) });
        } else if (op === '+' && newLeft > 0) {
          parsed.lines.push({ op: '+', text: next.slice(1) });
        } else {
          throw new NotADiff(`the hunk at line ${i + 1 - parsed.lines.length} ('${line.slice(0, 60)}') ends early at line ${i + 2}: it announces ${parsed.oldLines} old and ${parsed.newLines} new lines`);
        }
        const last = parsed.lines[parsed.lines.length - 1];
        if (last.op !== '+') oldLeft--;
        if (last.op !== '-') newLeft--;
        i++;
      }
      if (oldLeft > 0 || newLeft > 0) throw new NotADiff(`the hunk '${line.slice(0, 60)}' is cut short: the text ends before its last line`);
      // A trailing "\ No newline at end of file".
      if (lines[i + 1]?.startsWith('\\')) i++;
      current.hunks.push(parsed);
      continue;
    }
  }
  for (const file of files) {
    // A git block without ---/+++ (a rename without changes, a binary file, a mode change): its header names it.
    if (file.oldPath === null && file.newPath === null && file.git) {
      const git = file as Parsing;
      if (file.status !== 'added') file.oldPath = git.headerOld ?? null;
      if (file.status !== 'deleted') file.newPath = git.headerNew ?? null;
    }
  }
  const real = files.filter((file) => file.oldPath !== null || file.newPath !== null);
  if (real.length === 0) throw new NotADiff('it has no file header (`--- a/file` and `+++ b/file`, or `diff --git a/file b/file`) followed by hunks (`@@ -1,3 +1,4 @@`)');
  return real.map(({ oldPath, newPath, status, binary, hunks }) => ({ oldPath, newPath, status, binary, hunks }));
}

/** The path of a ---/+++ line: quoted or not, a tab and a timestamp after it dropped; null for /dev/null. */
function pathOf(written: string): string | null {
  let name = written.startsWith('"') ? unquote(/^"(?:[^"\\]|\\.)*"/.exec(written)?.[0] ?? written) : written.split('\t')[0];
  if (!written.startsWith('"')) name = name.replace(/\s+\d{4}-\d\d-\d\d \d\d:\d\d:\d\d(\.\d+)?( [+-]\d{4})?$/, '');
  return name === '/dev/null' ? null : name;
}

/** git's a/ and b/ prefixes (any single-letter prefix git writes: a/ b/ c/ i/ w/ o/), taken off when both sides have one. */
function stripPrefixes(oldName: string | null, newName: string | null, git: boolean): [string | null, string | null] {
  const prefixed = (name: string | null): boolean => name === null || /^[abciwo]\//.test(name);
  const both = prefixed(oldName) && prefixed(newName) && (oldName !== null || newName !== null);
  if (!both && !git) return [oldName, newName];
  const strip = (name: string | null): string | null => (name === null ? null : both ? name.slice(2) : name);
  return [strip(oldName), strip(newName)];
}

/** The two names of `diff --git a/x b/x`: quoted, or split where the second prefixed name starts. */
function gitHeaderNames(rest: string): [string, string] | undefined {
  const quoted = /^("(?:[^"\\]|\\.)*"|\S+) ("(?:[^"\\]|\\.)*"|\S+)$/.exec(rest);
  const strip = (name: string): string => (/^[abciwo]\//.test(name) ? name.slice(2) : name);
  if (quoted && (quoted[1].startsWith('"') || quoted[2].startsWith('"'))) return [strip(unquote(quoted[1])), strip(unquote(quoted[2]))];
  // Unquoted names may hold spaces: `a/x y b/x y` splits in its middle.
  const half = (rest.length - 1) / 2;
  if (Number.isInteger(half) && rest[half] === ' ') return [strip(rest.slice(0, half)), strip(rest.slice(half + 1))];
  return quoted ? [strip(quoted[1]), strip(quoted[2])] : undefined;
}

/** git's C-style quoted names: `"caf\303\251.c"` → café.c. */
export function unquote(name: string): string {
  if (!name.startsWith('"') || !name.endsWith('"') || name.length < 2) return name;
  const bytes: number[] = [];
  const body = name.slice(1, -1);
  const escapes: Record<string, number> = { n: 10, t: 9, r: 13, b: 8, f: 12, v: 11, a: 7, '\\': 92, '"': 34 };
  for (let i = 0; i < body.length; i++) {
    const c = body[i];
    if (c !== '\\') {
      bytes.push(...Buffer.from(c, 'utf8'));
      continue;
    }
    const next = body[i + 1];
    const octal = /^[0-7]{3}/.exec(body.slice(i + 1));
    if (octal) {
      bytes.push(parseInt(octal[0], 8));
      i += 3;
    } else if (next !== undefined && next in escapes) {
      bytes.push(escapes[next]);
      i++;
    } else {
      bytes.push(92);
    }
  }
  return Buffer.from(bytes).toString('utf8');
}

/** The lines of a file's old side, from its new side and the hunks (the diff taken back). */
export function reverseApply(newLines: string[], hunks: Hunk[]): string[] {
  const out: string[] = [];
  let at = 1;
  for (const hunk of hunks) {
    const first = hunk.newLines === 0 ? hunk.newStart + 1 : hunk.newStart;
    while (at < first && at <= newLines.length) out.push(newLines[at++ - 1]);
    for (const line of hunk.lines) {
      if (line.op !== '+') out.push(line.text);
      if (line.op !== '-') at++;
    }
  }
  while (at <= newLines.length) out.push(newLines[at++ - 1]);
  return out;
}

/** The lines of a file's new side, from its old side and the hunks (the diff applied). */
export function forwardApply(oldLines: string[], hunks: Hunk[]): string[] {
  return reverseApply(oldLines, hunks.map(invert));
}

function invert(hunk: Hunk): Hunk {
  return {
    oldStart: hunk.newStart, oldLines: hunk.newLines, newStart: hunk.oldStart, newLines: hunk.oldLines,
    lines: hunk.lines.map((line) => ({ op: line.op === '+' ? '-' : line.op === '-' ? '+' : ' ', text: line.text })),
  };
}

/** Whether the hunks' new side (context and added lines) is what `lines` hold at the hunks' new positions. */
export function newSideMatches(lines: string[], hunks: Hunk[]): boolean {
  return hunks.every((hunk) => {
    let at = hunk.newLines === 0 ? hunk.newStart + 1 : hunk.newStart;
    for (const line of hunk.lines) {
      if (line.op === '-') continue;
      if (lines[at - 1] !== line.text && lines[at - 1]?.trimEnd() !== line.text.trimEnd()) return false;
      at++;
    }
    return true;
  });
}

/** Whether the hunks' old side is what `lines` hold at the hunks' old positions. */
export function oldSideMatches(lines: string[], hunks: Hunk[]): boolean {
  return newSideMatches(lines, hunks.map(invert));
}

/** The changed lines of each side: added lines (new numbering), removed lines (old numbering), and where each side had lines taken out between two of its own. */
export interface ChangedLines {
  added: Set<number>;
  removed: Set<number>;
  /** New-side gaps: lines were removed between new line g and g + 1. */
  newGaps: Set<number>;
  /** Old-side gaps: lines were added between old line g and g + 1. */
  oldGaps: Set<number>;
}

export function changedLines(hunks: Hunk[]): ChangedLines {
  const result: ChangedLines = { added: new Set(), removed: new Set(), newGaps: new Set(), oldGaps: new Set() };
  for (const hunk of hunks) {
    let oldAt = hunk.oldLines === 0 ? hunk.oldStart + 1 : hunk.oldStart;
    let newAt = hunk.newLines === 0 ? hunk.newStart + 1 : hunk.newStart;
    for (const line of hunk.lines) {
      if (line.op === '+') {
        result.added.add(newAt++);
        result.oldGaps.add(oldAt - 1);
      } else if (line.op === '-') {
        result.removed.add(oldAt++);
        result.newGaps.add(newAt - 1);
      } else {
        oldAt++;
        newAt++;
      }
    }
  }
  return result;
}
