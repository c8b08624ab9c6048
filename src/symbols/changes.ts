/**
 * POST /changes (detect_changes): what a diff touches and what that reaches. The diff comes in the body, or
 * from `git diff <base>` in the workspace (untracked files as added). Each file's two sides are read (the
 * working tree is one of them; the other is the diff applied or taken back), parsed with the index's own
 * extraction, and each symbol a changed line touches (the innermost) is `added`, `modified` or `removed`;
 * the impact of each (find_impact's reach; a removed one's by its name in the source) is merged into one
 * ranked list, each result naming the changed symbols it comes `from`.
 */
import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import type { CallSite } from '../../schemas/calls.js';
import {
  DIFF_CHARS_MAX, IMPACT_LIMIT_DEFAULT, IMPACT_LIMIT_MAX,
  type ChangedFile, type ChangedSymbol, type ChangesQuery, type ChangesResponse, type ChangesResult, type ImpactPart, type ImpactTest,
} from '../../schemas/impact.js';
import { invalidParameter, PlumbError } from '../errors.js';
import type { StoredSymbol } from '../index/store.js';
import { languageById, languageOfPath, rulesOf } from '../languages/index.js';
import type { Services } from '../services.js';
import { extractSymbols } from '../syntax/index.js';
import type { ExtractedSymbol } from '../syntax/types.js';
import { isInside } from '../workspace.js';
import { elapsedMs } from './elapsed.js';
import { checkLimit, listEnvelope, pageOf, partialOf } from './envelope.js';
import {
  checkDepth, checkOffset, compareAffected, FILES_SHOWN, precisionOf, reachOf, reachOfName, summarize, TESTS_SHOWN, toResult, type Affected, type Reach,
} from './impact.js';
import { CALLABLE_KINDS } from './resolve-symbol.js';
import { testsAmong } from './tests.js';
import { testBlocksAt } from '../syntax/test-blocks.js';
import type { Language } from '../languages/types.js';
import { changedLines, forwardApply, newSideMatches, NotADiff, oldSideMatches, parseUnifiedDiff, reverseApply, type DiffFile } from './unified-diff.js';

const run = promisify(execFile);

/** Changed symbols listed, and those whose impact is asked for (the rest are counted in `omitted`). */
const CHANGED_SHOWN = 500;
const IMPACT_ROOTS_MAX = 25;
/** Changed symbols whose impact is asked for at once. */
const CONCURRENCY = 2;
/** Where a file's own changes say nothing of the rest: containers a change inside a member does not change. */
const CONTAINERS = new Set(['namespace', 'module', 'package']);
/** What `git diff` may print before the answer says the diff is too large. */
const GIT_OUTPUT_MAX = 64 * 1024 * 1024;
const GIT_TIMEOUT_MS = 30_000;
/** A ref as git names one: no option, no range, nothing a shell would read. */
const REF = /^[A-Za-z0-9_][A-Za-z0-9_./~^@{}:+-]*$/;

interface FileChange {
  entry: ChangedFile;
  symbols: Array<ChangedSymbol & { stored?: StoredSymbol }>;
  /** Named test blocks (describe / it) its changed lines are in: tests to run. */
  tests?: ImpactTest[];
}

export async function detectChanges(services: Services, query: ChangesQuery, signal?: AbortSignal): Promise<ChangesResponse> {
  const started = performance.now();
  const limit = checkLimit(query.limit, IMPACT_LIMIT_MAX, IMPACT_LIMIT_DEFAULT);
  const offset = checkOffset(query.offset);
  const depth = checkDepth(query.depth);
  const hasDiff = query.diff !== undefined;
  const hasBase = query.base !== undefined && query.base !== '';
  if (hasDiff === hasBase) throw invalidParameter(hasDiff ? 'base' : 'diff', hasDiff ? 'cannot come with diff: send one of them' : 'or base is required: a unified diff, or a git ref to diff the working tree against');

  let files: DiffFile[];
  let untracked: string[] = [];
  if (hasDiff) {
    files = parseDiff(query.diff!, 'diff');
  } else {
    const git = await gitDiff(services, query.base!, signal);
    files = git.files;
    untracked = git.untracked;
  }
  // Every path is checked before anything is read: one outside the workspace is a 400 for the whole diff.
  for (const file of files) {
    for (const name of [file.oldPath, file.newPath]) if (name !== null) workspacePath(services, name);
  }
  const relativeUntracked = untracked.map((name) => workspacePath(services, name));

  const indexedFiles = new Set(await services.index.reader.indexedFiles());
  const changes: FileChange[] = [];
  for (const file of files) changes.push(await fileChange(services, file, indexedFiles));
  for (const file of relativeUntracked) changes.push(await fileChange(services, { oldPath: null, newPath: file, status: 'added', binary: false, hunks: [] }, indexedFiles, true));

  const changed = changes.flatMap((change) => change.symbols)
    .sort((a, b) => (a.file < b.file ? -1 : a.file > b.file ? 1 : a.line - b.line));
  const reach = await mergedReach(services, changed, depth, signal);
  const summary = await summarize(services, reach.found);
  // A changed test is a test to run: distance 0.
  const changedTests = await testsAmong(services, changed.flatMap((symbol) => (symbol.stored ? [{ file: symbol.file, symbol: symbol.stored, sites: [{ file: symbol.file, line: symbol.line, column: symbol.column }], distance: 0 }] : [])));
  for (const test of changes.flatMap((change) => change.tests ?? [])) if (!changedTests.some((own) => own.file === test.file && own.name === test.name)) changedTests.push(test);
  const tests = [...changedTests, ...summary.tests.filter((test) => !changedTests.some((own) => own.file === test.file && own.name === test.name))];
  const ordered = summary.ordered as Array<Affected & { from: Array<{ id: string | null; name: string }> }>;
  const page: ChangesResult[] = pageOf(ordered, offset, limit).map((entry) => ({ ...toResult(entry), from: entry.from.slice(0, 5) }));
  const partial = partialOf(services);
  const reasons = [partial.reason, ...reach.notes].filter((r): r is string => Boolean(r));
  return {
    diffSource: hasDiff ? 'body' : 'git',
    ...(hasBase ? { base: query.base } : {}),
    changedFiles: changes.map((change) => change.entry),
    changed: changed.slice(0, CHANGED_SHOWN).map(({ stored: _stored, ...symbol }) => symbol),
    changedTotal: changed.length,
    depth,
    results: page,
    ...listEnvelope({ limit, offset, totalMatches: ordered.length, returned: page.length }),
    ...(reach.partial || partial.partial ? { partial: true as const } : {}),
    ...(reasons.length > 0 ? { reason: reasons.join('; ') } : {}),
    ...precisionOf(reach.parts),
    parts: reach.parts,
    files: summary.files.slice(0, FILES_SHOWN),
    filesTotal: summary.files.length,
    tests: tests.slice(0, TESTS_SHOWN),
    testsTotal: tests.length,
    omitted: reach.omitted,
    elapsedMs: elapsedMs(started),
  };
}

function parseDiff(text: string, parameter: string): DiffFile[] {
  if (text.trim() === '') throw invalidParameter(parameter, 'must not be empty: send a unified diff (`git diff` output)');
  if (text.length > DIFF_CHARS_MAX) throw invalidParameter(parameter, `must be at most ${DIFF_CHARS_MAX} characters`);
  try {
    return parseUnifiedDiff(text);
  } catch (error) {
    if (error instanceof NotADiff) throw invalidParameter(parameter, `is not a unified diff: ${error.message}`);
    throw error;
  }
}

/** `git diff <base>` of the working tree, and the untracked files, in the workspace's repository. */
async function gitDiff(services: Services, base: string, signal?: AbortSignal): Promise<{ files: DiffFile[]; untracked: string[] }> {
  if (!REF.test(base) || base.includes('..')) throw invalidParameter('base', `must be a git ref or commit (\`HEAD\`, \`main\`, \`HEAD~2\`, a commit id), got '${base}'`);
  const cwd = services.workspace.root;
  const git = (args: string[]) => run('git', ['-c', 'core.quotepath=off', ...args], { cwd, maxBuffer: GIT_OUTPUT_MAX, timeout: GIT_TIMEOUT_MS, signal, encoding: 'utf8' });
  try {
    await git(['rev-parse', '--is-inside-work-tree']);
  } catch {
    throw invalidParameter('base', 'needs the workspace to be a git repository, and it is not one (send the diff itself as `diff`)');
  }
  let commit: string;
  try {
    commit = (await git(['rev-parse', '--verify', '--quiet', '--end-of-options', `${base}^{commit}`])).stdout.trim();
  } catch {
    throw invalidParameter('base', `names no commit of the workspace's repository: '${base}'`);
  }
  let diff: string;
  let others: string;
  try {
    [diff, others] = await Promise.all([
      git(['diff', '--no-color', '--no-ext-diff', '--no-textconv', '--relative', '-M', commit, '--']).then((r) => r.stdout),
      git(['ls-files', '--others', '--exclude-standard', '-z']).then((r) => r.stdout),
    ]);
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    if (/maxBuffer/i.test(message)) throw invalidParameter('base', `gives a diff larger than ${GIT_OUTPUT_MAX / 1024 / 1024} MB: send a narrower one as \`diff\``);
    throw new PlumbError('internal_error', `git diff failed: ${message.split('\n')[0]}`);
  }
  return { files: diff.trim() === '' ? [] : parseDiff(diff, 'base'), untracked: others.split('\0').filter(Boolean) };
}

/** A diff's path as the index stores it (root-relative); 400 path_outside_root for one outside the workspace, also through a link. */
function workspacePath(services: Services, name: string): string {
  const root = services.workspace.root;
  const outside = (): PlumbError => new PlumbError('path_outside_root', `Parameter 'diff': path '${name}' is outside the workspace root`, { details: { parameter: 'diff', path: name } });
  if (name.includes('\0')) throw invalidParameter('diff', 'names a path with a NUL character');
  const absolute = path.resolve(root, name);
  if (!isInside(absolute, root)) throw outside();
  // An existing path is checked where it really leads (a link out of the workspace); nothing is read.
  const access = services.workspace.files.check(absolute);
  if (!access.ok && access.reason === 'outside_root') throw outside();
  return services.workspace.relative(absolute);
}

/** One file's changed symbols, from its two sides. */
async function fileChange(services: Services, file: DiffFile, indexedFiles: Set<string>, wholeFileAdded = false): Promise<FileChange> {
  const newFile = file.newPath === null ? null : workspacePath(services, file.newPath);
  const oldFile = file.oldPath === null ? null : workspacePath(services, file.oldPath);
  const shown = newFile ?? oldFile!;
  const lines = changedLines(file.hunks);
  const entry: ChangedFile = {
    file: shown,
    status: file.status,
    ...(file.status === 'renamed' && oldFile ? { oldFile } : {}),
    linesAdded: lines.added.size,
    linesRemoved: lines.removed.size,
    symbols: 0,
    indexed: false,
  };
  const note = (text: string): void => {
    entry.note = entry.note ? `${entry.note}; ${text}` : text;
  };
  const indexedSymbols = newFile ? await services.index.reader.symbolsInFile(newFile) : [];
  const oldIndexed = oldFile && oldFile !== newFile ? await services.index.reader.symbolsInFile(oldFile) : [];
  // The language the index read the file in (a kernel .h is C by the code around it), else its extension's.
  const storedLanguage = (indexedSymbols[0] ?? oldIndexed[0])?.language;
  const language = (storedLanguage ? languageById(storedLanguage) : undefined) ?? languageOfPath(shown);
  entry.indexed = newFile !== null && indexedFiles.has(newFile);
  if (file.binary) {
    note('a binary file: no symbols read');
    return { entry, symbols: [] };
  }
  if (!language) {
    note('no language plumb parses: no symbols read');
    return { entry, symbols: [] };
  }

  // The working tree holds one side: the new one (the diff is applied) or the old one (it is not yet).
  let current: string[] | undefined;
  if (newFile !== null) {
    const read = await services.workspace.files.textOrReason(path.join(services.workspace.root, newFile));
    if (read.ok) current = splitLines(read.text);
    else if (read.reason !== 'not_found') note(`not read: ${read.message}`);
  }
  let oldLines: string[];
  let newLines: string[];
  let side: 'new' | 'old' = 'new';
  if (wholeFileAdded) {
    if (!current) return { entry, symbols: [] };
    oldLines = [];
    newLines = current;
    for (let line = 1; line <= current.length; line++) lines.added.add(line);
    entry.linesAdded = current.length;
  } else if (file.newPath === null) {
    // Deleted: its old side is the hunks' removed lines.
    oldLines = file.hunks.flatMap((hunk) => hunk.lines.filter((line) => line.op !== '+').map((line) => line.text));
    newLines = [];
  } else if (current && newSideMatches(current, file.hunks)) {
    newLines = current;
    oldLines = reverseApply(current, file.hunks);
  } else if (current && oldSideMatches(current, file.hunks)) {
    side = 'old';
    oldLines = current;
    newLines = forwardApply(current, file.hunks);
    note('the working tree holds the diff\'s old side (not applied yet): added symbols are not in the index, so nothing reaches them yet');
  } else {
    const text = file.hunks.flatMap((hunk) => hunk.lines);
    newLines = current ?? [];
    oldLines = current ? reverseApply(current, file.hunks) : [];
    note(current
      ? 'the working tree matches neither side of the diff: symbols found at the diff\'s line numbers'
      : `not in the working tree: only the ${text.length} lines the diff carries were read`);
    if (!current) {
      oldLines = file.hunks.flatMap((hunk) => hunk.lines.filter((line) => line.op !== '+').map((line) => line.text));
      newLines = file.hunks.flatMap((hunk) => hunk.lines.filter((line) => line.op !== '-').map((line) => line.text));
    }
  }

  const [newSymbols, oldSymbols] = await Promise.all([
    newLines.length > 0 ? extractSymbols(language, newLines.join('\n')) : Promise.resolve([]),
    oldLines.length > 0 ? extractSymbols(language, oldLines.join('\n')) : Promise.resolve([]),
  ]);
  const newTouched = touched(newSymbols, lines.added, lines.newGaps);
  const oldTouched = touched(oldSymbols, lines.removed, lines.oldGaps);
  const oldKeys = new Set(oldSymbols.map((symbol) => identity(symbol)));
  const newKeys = new Set(newSymbols.map((symbol) => identity(symbol)));
  const oldNames = new Set(oldSymbols.map((symbol) => looseIdentity(symbol)));
  const newNames = new Set(newSymbols.map((symbol) => looseIdentity(symbol)));
  // The index holds the working tree: the new side when the diff is applied, else the old one.
  const indexed = [...indexedSymbols, ...oldIndexed];
  const symbols: FileChange['symbols'] = [];
  for (const [symbol, count] of newTouched) {
    const added = !oldKeys.has(identity(symbol)) && !oldNames.has(looseIdentity(symbol));
    const stored = side === 'new' ? indexMatch(indexed, newFile!, symbol) : added ? undefined : indexMatch(indexed, oldFile ?? newFile!, oldSymbols.find((old) => looseIdentity(old) === looseIdentity(symbol)) ?? symbol);
    symbols.push(changedSymbol(added ? 'added' : 'modified', symbol, newFile!, count, stored));
  }
  for (const [symbol, count] of oldTouched) {
    if (newKeys.has(identity(symbol)) || newNames.has(looseIdentity(symbol))) {
      // Modified: counted once, on its new side (its removed lines join the count).
      const modified = symbols.find((s) => s.change === 'modified' && s.qualifiedName === symbol.qualifiedName && s.kind === symbol.kind);
      if (modified) modified.linesChanged += count;
      else {
        const now = newSymbols.find((s) => looseIdentity(s) === looseIdentity(symbol));
        if (now && newFile) symbols.push(changedSymbol('modified', now, newFile, count, side === 'new' ? indexMatch(indexed, newFile, now) : indexMatch(indexed, oldFile ?? newFile, symbol)));
      }
      continue;
    }
    const stored = side === 'old' ? indexMatch(indexed, oldFile ?? newFile!, symbol) : undefined;
    symbols.push(changedSymbol('removed', symbol, oldFile ?? newFile!, count, stored));
  }
  symbols.sort((a, b) => a.line - b.line || a.column - b.column);
  entry.symbols = symbols.length;
  return { entry, symbols, ...(newFile ? { tests: await changedTestBlocks(newFile, language, newLines, lines.added) } : {}) };
}

/** The named test blocks (describe / it) holding the added lines of a test file whose language names tests by blocks. */
async function changedTestBlocks(file: string, language: Language, lines: string[], added: Set<number>): Promise<ImpactTest[]> {
  const rules = language.rules.tests;
  if (!rules?.blockCalls || !rules.file.test(file) || added.size === 0) return [];
  const positions = [...added].map((line) => ({ line, column: Math.max(1, (lines[line - 1] ?? '').search(/\S|$/) + 1) }));
  const blocks = await testBlocksAt(language.syntax, lines.join('\n'), positions, rules.blockCalls);
  const tests = new Map<string, ImpactTest>();
  for (const held of blocks ?? []) {
    if (held.length === 0) continue;
    const name = held.map((block) => block.name).join(' > ');
    tests.set(name, { name, file, line: held[held.length - 1].line, distance: 0 });
  }
  return [...tests.values()];
}

function splitLines(text: string): string[] {
  const lines = text.split(/\r?\n/);
  if (lines.at(-1) === '') lines.pop();
  return lines;
}

/** Each innermost symbol a changed line (or a gap where lines were taken out) falls in, with how many changed lines it holds. */
function touched(symbols: ExtractedSymbol[], changed: Set<number>, gaps: Set<number>): Map<ExtractedSymbol, number> {
  const candidates = symbols.filter((symbol) => !CONTAINERS.has(symbol.kind) && !symbol.forwardDeclaration);
  const innermost = (holds: (symbol: ExtractedSymbol) => boolean): ExtractedSymbol | undefined => {
    let best: ExtractedSymbol | undefined;
    for (const symbol of candidates) {
      if (!holds(symbol)) continue;
      if (!best || span(symbol) <= span(best)) best = symbol;
    }
    return best;
  };
  const counts = new Map<ExtractedSymbol, number>();
  for (const line of changed) {
    const symbol = innermost((s) => s.range.start.line <= line && line <= s.range.end.line);
    if (symbol) counts.set(symbol, (counts.get(symbol) ?? 0) + 1);
  }
  for (const gap of gaps) {
    const symbol = innermost((s) => s.range.start.line <= gap && gap + 1 <= s.range.end.line);
    if (symbol && !counts.has(symbol)) counts.set(symbol, 0);
  }
  return counts;
}

function span(symbol: ExtractedSymbol): number {
  return (symbol.range.end.line - symbol.range.start.line) * 100_000 + (symbol.range.end.column - symbol.range.start.column);
}

/** One symbol across the two sides: kind family, qualified name and, where the language has overloads, parameter types. */
function identity(symbol: ExtractedSymbol): string {
  const types = rulesOf(symbol.language)?.overloads ? symbol.parameters.map((p) => p.type.replace(/\s+/g, '')).join(',') : '';
  return `${looseIdentity(symbol)}\u0000${types}`;
}

/** Kind family and qualified name; a function a macro defines (`TEST(Suite, Name)`, upper case, given arguments) is told apart by its head. */
function looseIdentity(symbol: ExtractedSymbol): string {
  const family = (CALLABLE_KINDS as readonly string[]).includes(symbol.kind) ? 'callable' : symbol.kind;
  return `${family}\u0000${symbol.qualifiedName}\u0000${symbol.kind === 'function' && symbol.parameters.length > 0 && /^[A-Z_]+$/.test(symbol.name) ? symbol.signature : ''}`;
}

/** The index's symbol for one the diff's side holds: same name and kind at the same line, else the nearest. */
function indexMatch(indexed: StoredSymbol[], file: string, symbol: ExtractedSymbol): StoredSymbol | undefined {
  const same = indexed.filter((s) => s.file === file && s.qualifiedName === symbol.qualifiedName && s.kind === symbol.kind && !s.forwardDeclaration);
  const line = symbol.selectionRange.start.line;
  return same.sort((a, b) => Math.abs(a.line - line) - Math.abs(b.line - line))[0];
}

function changedSymbol(change: ChangedSymbol['change'], symbol: ExtractedSymbol, file: string, count: number, stored: StoredSymbol | undefined): ChangedSymbol & { stored?: StoredSymbol } {
  return {
    change,
    id: stored?.id ?? null,
    name: symbol.name,
    qualifiedName: symbol.qualifiedName,
    kind: symbol.kind,
    file,
    line: symbol.selectionRange.start.line,
    column: symbol.selectionRange.start.column,
    signature: symbol.signature,
    language: symbol.language,
    linesChanged: count,
    ...(stored ? { stored } : {}),
  };
}

/** The reach of each changed symbol, merged: each symbol once per relation, at its nearest distance, with where it comes from. */
async function mergedReach(services: Services, changed: Array<ChangedSymbol & { stored?: StoredSymbol }>, depth: number, signal?: AbortSignal): Promise<Reach & { found: Array<Affected & { from: Array<{ id: string | null; name: string }> }> }> {
  // Removed and modified symbols first: an added one has nothing depending on it yet but new code.
  const order: Record<ChangedSymbol['change'], number> = { removed: 0, modified: 1, added: 2 };
  const roots = changed.filter((symbol) => symbol.stored || symbol.change === 'removed').sort((a, b) => order[a.change] - order[b.change]);
  const asked = roots.slice(0, IMPACT_ROOTS_MAX);
  const notes: string[] = [];
  if (roots.length > asked.length) notes.push(`the impact of ${roots.length - asked.length} changed symbols past the first ${IMPACT_ROOTS_MAX} was not asked for`);
  const reaches: Array<{ root: typeof changed[number]; reach: Reach }> = [];
  for (let i = 0; i < asked.length; i += CONCURRENCY) {
    const batch = asked.slice(i, i + CONCURRENCY);
    reaches.push(...await Promise.all(batch.map(async (root) => ({
      root,
      reach: root.stored
        ? await reachOf(services, { symbol: root.stored, places: [root.stored] }, depth, signal)
        : await reachOfName(services, { name: root.name, language: root.language }, depth, signal),
    }))));
  }
  const changedIds = new Set(changed.flatMap((symbol) => (symbol.id ? [symbol.id] : [])));
  const merged = new Map<string, Affected & { from: Array<{ id: string | null; name: string }> }>();
  const parts = new Map<string, ImpactPart>();
  let omitted = roots.length - asked.length;
  let partial = false;
  for (const { root, reach } of reaches) {
    const from = { id: root.id, name: root.qualifiedName || root.name };
    omitted += reach.omitted;
    partial ||= reach.partial;
    for (const note of reach.notes) if (!notes.includes(note)) notes.push(note);
    for (const part of reach.parts) {
      const key = `${part.relation}\u0000${part.operation}`;
      const known = parts.get(key);
      if (!known) parts.set(key, { ...part });
      else {
        known.found += part.found;
        if (part.precision === 'syntactic') known.precision = 'syntactic';
        if (part.reason && !known.reason?.includes(part.reason)) known.reason = known.reason ? `${known.reason}; ${part.reason}` : part.reason;
      }
    }
    for (const entry of reach.found) {
      // A changed symbol reached from another is listed among the changed, not again here.
      if (changedIds.has(entry.key)) continue;
      const key = `${entry.key}\u0000${entry.relation}`;
      const known = merged.get(key);
      if (!known) {
        merged.set(key, { ...entry, sites: [...entry.sites], from: [from] });
        continue;
      }
      if (entry.distance < known.distance) {
        known.distance = entry.distance;
        known.via = entry.via;
        known.from.unshift(from);
      } else if (!known.from.some((f) => f.id === from.id && f.name === from.name)) {
        known.from.push(from);
      }
      known.sites = mergeSites(known.sites, entry.sites);
      if (entry.precision === 'semantic') known.precision = 'semantic';
    }
  }
  const found = [...merged.values()].sort(compareAffected);
  return { found, parts: [...parts.values()], notes, omitted, partial };
}

function mergeSites(a: CallSite[], b: CallSite[]): CallSite[] {
  const seen = new Set(a.map((site) => `${site.file}\u0000${site.line}`));
  return [...a, ...b.filter((site) => !seen.has(`${site.file}\u0000${site.line}`))];
}
