/**
 * GET /statements and search_statements: text, regex and path queries over the statements of the
 * workspace's files, in every language with a statement table (`syntax.ts` in src/languages/<id>/).
 *
 * Never parses the whole workspace for a query: the scope (file, package, language, symbol) comes
 * from the index; each file's text (kept in a bounded cache, checked against the index's size and
 * mtime) is tested first (text: includes; regex: in a worker with a time limit; path: the names and
 * @contains texts the pattern requires), and only files that can match are parsed, their statement
 * trees kept in a bounded LRU cache. Files are taken in path order and the search stops once the page
 * is full and the count bound or time budget is reached (countsCapped: totalMatches is a lower bound).
 */
import { createHash } from 'node:crypto';
import { stat } from 'node:fs/promises';
import path from 'node:path';
import { TimeSlice } from '../semaphore.js';
import { invalidParameter, PlumbError } from '../errors.js';
import { forEachLimit } from '../map-limit.js';
import { MAX_PARSED_BYTES } from '../index/parse-pool.js';
import type { FileFilter, IndexedFileInfo, StoredSymbol } from '../index/store.js';
import type { LanguageId } from '../syntax/types.js';
import type { Services } from '../services.js';
import { languageById, languageOfPath } from '../languages/index.js';
import { evaluatePath, type PathContext } from '../syntax/statements/evaluate.js';
import { parsePath, PathSyntaxError, requiredTexts, type PathQuery } from '../syntax/statements/path-query.js';
import { RegexBudget, RegexBusyError, RegexCancelledError, regexHits, RegexTimeoutError } from '../syntax/statements/regex-runner.js';
import { fileFilterSource } from '../syntax/statements/regex-filter.js';
import { STRUCTURE_SHORTS, type StatementFile, type StatementNode } from '../syntax/statements/types.js';
import { hasStatements, parseStatements } from '../syntax/statements/walker.js';
import { STATEMENTS_LIMIT_DEFAULT, STATEMENTS_LIMIT_MAX, type StatementResult, type StatementsQuery, type StatementsResponse } from '../../schemas/statements.js';
import { elapsedMs } from './elapsed.js';
import { checkLimit, listEnvelope } from './envelope.js';
import { findMatches } from './resolve-symbol.js';
import { resolvePackageName } from './search.js';

/** Results counted past the page before the search stops counting. */
const COUNT_EXTRA = 1000;
/** Time spent counting past a full page before the search stops counting. */
const COUNT_BUDGET_MS = 50;
/** Files larger than this are not searched: the index does not parse them either (and lists them in /status). */
const MAX_FILE_BYTES = MAX_PARSED_BYTES;
/** The bytes one round of files holds at most (a single larger file makes a round of its own). */
const ROUND_BYTES = 32 * 1024 * 1024;
/** A tree of a file larger than this is not kept for the next query: it would hold the memory of many small ones. */
const CACHED_TREE_BYTES_MAX = 4 * 1024 * 1024;
/** Files read at once. */
const READ_CONCURRENCY = 32;
/** Files whose text is tested in one round before their candidates are parsed. */
const ROUND_FILES = 256;
/** Parsing yields to other requests this often. */
const SLICE_MS = 20;
/** A name matching more definitions than this is too vague to search inside. */
const MAX_SCOPE_SYMBOLS = 50;

type Matcher =
  | { kind: 'text'; text: string; ignoreCase: boolean }
  /** `filterSource`: the expression files are tested with before they are parsed (fileFilterSource); null: every file is parsed. */
  | { kind: 'regex'; source: string; flags: string; filterSource: string | null }
  | { kind: 'path'; query: PathQuery; required: string[] };

interface FileScope {
  info: IndexedFileInfo;
  /** Symbol ranges to search inside (1-based lines/columns); undefined: the whole file. */
  ranges?: Array<{ symbol: StoredSymbol }>;
}

interface Caches {
  trees: Map<string, { key: string; tree: StatementFile | null }>;
}

const cachesByServices = new WeakMap<Services, Caches>();

function cachesOf(services: Services): Caches {
  let caches = cachesByServices.get(services);
  if (!caches) {
    caches = { trees: new Map() };
    cachesByServices.set(services, caches);
  }
  return caches;
}

export async function searchStatements(services: Services, input: StatementsQuery, signal?: AbortSignal): Promise<StatementsResponse> {
  const started = performance.now();
  const settings = services.config.statements;
  const limit = checkLimit(input.limit, STATEMENTS_LIMIT_MAX, STATEMENTS_LIMIT_DEFAULT);
  const offset = input.offset ?? 0;
  if (!Number.isInteger(offset) || offset < 0) throw invalidParameter('offset', 'must be an integer of 0 or more');
  const type = input.type ?? 'text';
  if (type !== 'text' && type !== 'regex' && type !== 'path') throw invalidParameter('type', 'must be one of: text, regex, path');
  const maxCode = input.max_code_chars ?? settings.maxCodeChars;
  if (!Number.isInteger(maxCode) || maxCode < 20 || maxCode > 100000) throw invalidParameter('max_code_chars', 'must be an integer from 20 to 100000');
  const query = input.query ?? '';
  if (query.trim() === '') throw new PlumbError('invalid_parameter', 'Search query must not be empty', { details: { parameter: 'query' } });
  const matcher = compileMatcher(type, query, input.ignore_case === true);
  // One budget for the query's regex jobs: each job's time limit, and the waiting for a regex worker they may do in all.
  const regex = new RegexBudget(settings.regexTimeoutMs, signal);

  const { scopes, symbols } = await scopeFiles(services, input);
  const caches = cachesOf(services);
  const needed = offset + limit;
  const counted: Array<{ scope: FileScope; file: StatementFile; node: StatementNode }> = [];
  const incomplete = new Set<string>();
  const skipped = new SkippedFiles();
  let filesSearched = 0;
  let filesParsed = 0;
  let pageFullAt = -1;
  let stoppedEarly = false;
  const slice = new TimeSlice(SLICE_MS);

  rounds: for (let round = 0, end = 0; round < scopes.length; round = end) {
    // Up to ROUND_FILES files, and no more than ROUND_BYTES of them in memory at once (files up to 64 MB are searched).
    let bytes = scopes[round].info.size;
    for (end = round + 1; end < scopes.length && end - round < ROUND_FILES && bytes + scopes[end].info.size <= ROUND_BYTES; end++) bytes += scopes[end].info.size;
    const batch = scopes.slice(round, end);
    const texts = await readTexts(services, batch.map((scope) => scope.info), skipped);
    signal?.throwIfAborted();
    filesSearched += batch.length;
    const candidates = await filterTexts(matcher, texts, regex);
    for (const i of candidates) {
      const scope = batch[i];
      const text = texts[i]!;
      const tree = await treeOf(services, caches, scope.info, text);
      filesParsed++;
      if (!tree) continue;
      if (tree.incomplete) incomplete.add(scope.info.file);
      for (const node of await matchFile(matcher, tree, scope, regex)) {
        counted.push({ scope, file: tree, node });
        if (counted.length === needed) pageFullAt = performance.now();
      }
      if (pageFullAt >= 0 && (counted.length >= needed + COUNT_EXTRA || performance.now() - pageFullAt > COUNT_BUDGET_MS)) {
        stoppedEarly = scope !== scopes[scopes.length - 1];
        break rounds;
      }
      if (slice.due()) {
        await slice.pause();
        signal?.throwIfAborted();
      }
    }
  }

  const page = counted.slice(offset, offset + limit).map(({ scope, file, node }) => toResult(scope.info, file, node, maxCode));
  const envelope = listEnvelope({ limit, offset, totalMatches: counted.length, returned: page.length }, services);
  return {
    query,
    type,
    results: page,
    ...envelope,
    truncated: envelope.truncated || stoppedEarly,
    ...(stoppedEarly ? { countsCapped: true } : {}),
    filesSearched,
    filesParsed,
    ...(symbols ? { symbols } : {}),
    ...(incomplete.size ? { incompleteFiles: [...incomplete].slice(0, 20) } : {}),
    ...(skipped.count ? { filesSkipped: skipped.count, skippedFiles: skipped.listed } : {}),
    source: 'index',
    elapsedMs: elapsedMs(started),
  };
}

function compileMatcher(type: 'text' | 'regex' | 'path', query: string, ignoreCase: boolean): Matcher {
  if (type === 'text') return { kind: 'text', text: ignoreCase ? query.toLowerCase() : query, ignoreCase };
  if (type === 'regex') {
    const flags = ignoreCase ? 'i' : '';
    try {
      new RegExp(query, flags);
    } catch (error) {
      throw invalidParameter('query', `is not a valid regular expression: ${(error as Error).message.replace(/^Invalid regular expression: /, '')}`);
    }
    return { kind: 'regex', source: query, flags, filterSource: fileFilterSource(query, flags) };
  }
  try {
    const parsed = parsePath(query);
    return { kind: 'path', query: parsed, required: requiredTexts(parsed) };
  } catch (error) {
    if (!(error instanceof PathSyntaxError)) throw error;
    throw new PlumbError('invalid_parameter', `Parameter 'query' is not a valid path: ${error.message}. Grammar: steps '/' (children) or '//' (descendants) then a short name (if, method, call...), 'statement' or '*', each with predicates [Name], [2], [@contains='text'], [@async], joined by and/or/not(...)`, {
      details: { parameter: 'query', position: error.position, expected: error.expected },
    });
  }
}

/** The files to search, in path order (workspace first), and the symbols that narrowed them. */
async function scopeFiles(services: Services, input: StatementsQuery): Promise<{ scopes: FileScope[]; symbols?: StatementsResponse['symbols'] }> {
  const reader = services.index.reader;
  const filter: FileFilter = { userOnly: input.scope !== 'all' };
  if (input.language) filter.languages = [input.language];
  if (input.package !== undefined && input.package !== '') filter.packages = [await resolvePackageName(reader, input.package)];
  let onlyFile: string | undefined;
  if (input.file !== undefined) {
    const resolved = services.workspace.resolveFile('file', input.file);
    onlyFile = resolved.relative;
    const language = languageOfPath(resolved.relative)?.id;
    if (!language || !hasStatements(languageById(language).syntax)) {
      throw new PlumbError('unsupported_language', `File '${input.file}' is not in a language /statements reads (C, C++, C#, TypeScript, TSX, JavaScript, Python, Go, Java, Rust)`, { details: { parameter: 'file' } });
    }
  }

  const wantsSymbol = (input.symbol !== undefined && input.symbol.trim() !== '') || (input.id !== undefined && input.id.trim() !== '');
  if (!wantsSymbol) {
    let infos = await reader.indexedFileInfos(filter);
    if (onlyFile !== undefined) {
      const found = infos.find((info) => info.file === onlyFile);
      infos = found ? [found] : filter.packages || filter.languages ? [] : [await unindexedInfo(services, onlyFile)];
    }
    return { scopes: infos.filter((info) => hasStatements(languageById(info.language)?.syntax)).map((info) => ({ info })) };
  }

  const matches = await findMatches(services, {
    symbol: input.symbol,
    id: input.id,
    containingType: input.containingType,
    package: input.package,
    language: input.language,
  });
  // Statements live in definitions: prototypes and forward declarations hold none.
  let definitions = matches.symbols.filter((symbol) => symbol.definition);
  if (onlyFile !== undefined) definitions = definitions.filter((symbol) => symbol.file === onlyFile);
  if (input.scope !== 'all' && !input.id) definitions = definitions.filter((symbol) => !symbol.external);
  if (definitions.length === 0) {
    const where = onlyFile !== undefined ? ` in '${onlyFile}'` : '';
    const declared = matches.symbols.length > 0 ? ' (only declarations without a body)' : '';
    throw new PlumbError('symbol_not_found', `Symbol '${matches.asked}' not found${where}${declared}`, { details: { symbol: matches.asked } });
  }
  if (definitions.length > MAX_SCOPE_SYMBOLS) {
    const candidates = definitions.slice(0, 20).map((s) => ({ id: s.id, qualifiedName: s.qualifiedName, kind: s.kind, file: s.file, line: s.line }));
    throw new PlumbError('ambiguous_symbol', `Symbol '${matches.asked}' has ${definitions.length} definitions (more than ${MAX_SCOPE_SYMBOLS} to search inside); narrow it with containingType, package, language, file, or pass one id`, {
      details: { symbol: matches.asked, candidates, totalCandidates: definitions.length },
    });
  }
  const infos = new Map((await reader.indexedFileInfos({ userOnly: false })).filter((info) => definitions.some((s) => s.file === info.file)).map((info) => [info.file, info]));
  const byFile = new Map<string, FileScope>();
  for (const symbol of definitions) {
    const info = infos.get(symbol.file);
    if (!info || !hasStatements(languageById(info.language)?.syntax)) continue;
    const scope = byFile.get(symbol.file) ?? { info, ranges: [] };
    scope.ranges!.push({ symbol });
    byFile.set(symbol.file, scope);
  }
  const scopes = [...byFile.values()].sort((a, b) => Number(a.info.external) - Number(b.info.external) || (a.info.file < b.info.file ? -1 : a.info.file > b.info.file ? 1 : 0));
  return {
    scopes,
    symbols: definitions.map((s) => ({ id: s.id, qualifiedName: s.qualifiedName, kind: s.kind, file: s.file, line: s.line })),
  };
}

/** A file the index does not hold (excluded, or not indexed yet): read as it is, its package guessed from the packages' paths. */
async function unindexedInfo(services: Services, file: string): Promise<IndexedFileInfo> {
  const absolute = path.join(services.workspace.root, file);
  const stats = await stat(absolute);
  const packages = (await services.index.reader.listPackages()).filter((p) => !p.external && (p.path === '.' || file.startsWith(`${p.path}/`)));
  const best = packages.sort((a, b) => b.path.length - a.path.length)[0];
  return {
    file,
    language: languageOfPath(file)?.id as LanguageId,
    size: stats.size,
    mtimeMs: stats.mtimeMs,
    package: best?.name ?? path.basename(services.workspace.root),
    packagePath: best?.path ?? '.',
    external: false,
  };
}

/** The texts of `infos` (null for a file not searched, which `skipped` names with why), through the workspace's file reader. */
async function readTexts(services: Services, infos: IndexedFileInfo[], skipped: SkippedFiles): Promise<Array<string | null>> {
  const out: Array<string | null> = new Array(infos.length).fill(null);
  // Checked on every read, kept in memory or not: a file replaced by a link to outside the workspace is not read.
  await forEachLimit(infos, READ_CONCURRENCY, async (info, i) => {
    const read = await services.workspace.files.read(services.workspace.absolute(info.file), MAX_FILE_BYTES);
    if (!read.ok) {
      skipped.add(info.file, read.reason, read.reason === 'too_large' ? `is larger than ${MAX_FILE_BYTES / 1024 / 1024} MB (generated code or data); not searched` : read.message);
    } else if (read.binary) {
      skipped.add(info.file, 'binary', BINARY);
    } else {
      out[i] = read.text;
    }
  });
  return out;
}

const BINARY = 'looks binary (a NUL byte in its first 8 KB); not searched';
const SKIPPED_LISTED = 20;

type SkipReason = NonNullable<StatementsResponse['skippedFiles']>[number]['reason'];

/** The files in scope whose text was not searched: counted, the first few named with why. */
class SkippedFiles {
  count = 0;
  readonly listed: NonNullable<StatementsResponse['skippedFiles']> = [];

  add(file: string, reason: SkipReason, message: string): void {
    this.count++;
    if (this.listed.length < SKIPPED_LISTED) this.listed.push({ file, reason, message: `'${file}' ${message}` });
  }
}

/** Indices of the texts that can hold a match. */
async function filterTexts(matcher: Matcher, texts: Array<string | null>, regex: RegexBudget): Promise<number[]> {
  const present: number[] = [];
  for (let i = 0; i < texts.length; i++) if (texts[i] !== null) present.push(i);
  switch (matcher.kind) {
    case 'text':
      return present.filter((i) => (matcher.ignoreCase ? texts[i]!.toLowerCase() : texts[i]!).includes(matcher.text));
    case 'path':
      return present.filter((i) => matcher.required.every((required) => texts[i]!.includes(required)));
    case 'regex': {
      if (matcher.filterSource === null) return present;
      const hits = await runRegex({ ...matcher, source: matcher.filterSource }, { op: 'texts', texts: present.map((i) => texts[i]!) }, regex);
      return hits.map((hit) => present[hit]);
    }
  }
}

async function runRegex(matcher: Extract<Matcher, { kind: 'regex' }>, job: Parameters<typeof regexHits>[2], regex: RegexBudget): Promise<number[]> {
  try {
    return await regexHits(matcher.source, matcher.flags, job, regex);
  } catch (error) {
    if (error instanceof RegexTimeoutError) {
      throw invalidParameter('query', `ran for more than ${error.timeoutMs} ms and was stopped: the regular expression backtracks too much (nested quantifiers such as (a+)+ or (\\w+\\s?)*); simplify it or narrow the search with file, package or symbol`);
    }
    if (error instanceof RegexBusyError) {
      // Other queries held every worker for their whole time limits (a flood of catastrophic expressions): not this query's fault.
      const retryAfter = Math.max(1, Math.ceil(regex.timeoutMs / 1000));
      throw new PlumbError('server_unavailable', `The ${error.workers} regular expression workers were all busy with other queries while this one waited more than ${error.maxWaitMs} ms (twice the time limit, statements.regexTimeoutMs); retry in ${retryAfter} s`, {
        retryAfter,
        details: { workers: error.workers, waitedMs: error.waitedMs },
      });
    }
    if (error instanceof RegexCancelledError) throw new PlumbError('request_cancelled', `The regular expression query was cancelled: the caller went away`);
    throw invalidParameter('query', `could not be run as a regular expression: ${(error as Error).message}`);
  }
}

async function treeOf(services: Services, caches: Caches, info: IndexedFileInfo, text: string): Promise<StatementFile | null> {
  const key = `${info.size}:${info.mtimeMs}`;
  const cached = caches.trees.get(info.file);
  if (cached && cached.key === key && cached.tree?.source.length === stripBom(text).length) {
    caches.trees.delete(info.file);
    caches.trees.set(info.file, cached);
    return cached.tree;
  }
  const tree = await parseStatements(languageById(info.language)?.syntax, text);
  const max = services.config.statements.cachedTrees;
  if (max > 0 && text.length <= CACHED_TREE_BYTES_MAX) {
    caches.trees.delete(info.file);
    caches.trees.set(info.file, { key, tree });
    while (caches.trees.size > max) caches.trees.delete(caches.trees.keys().next().value!);
  }
  return tree;
}

function stripBom(text: string): string {
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}

/** The file's matches in document order (parents before children), inside the scope's symbols when it has them. */
async function matchFile(matcher: Matcher, file: StatementFile, scope: FileScope, regex: RegexBudget): Promise<StatementNode[]> {
  const spans = scope.ranges ? symbolSpans(file, scope.ranges.map((r) => r.symbol)) : undefined;
  const inScope = (node: StatementNode): boolean => !spans || spans.some(([start, end]) => node.start >= start && node.end <= end && !(node.start === start && node.end === end && STRUCTURE_SHORTS.has(node.short)));

  if (matcher.kind === 'path') {
    if (!spans) return evaluatePath(file, matcher.query);
    const roots = structureRoots(file, scope.ranges!.map((r) => r.symbol), spans);
    const context: PathContext = { kind: 'nodes', nodes: roots };
    const seen = new Set<number>();
    return evaluatePath(file, matcher.query, context).filter((node) => !seen.has(node.index) && seen.add(node.index));
  }

  const statements = file.nodes.filter((node) => node.statement && inScope(node));
  if (matcher.kind === 'text') {
    const haystack = matcher.ignoreCase ? file.source.toLowerCase() : file.source;
    const occurrences: number[] = [];
    for (let at = haystack.indexOf(matcher.text); at >= 0; at = haystack.indexOf(matcher.text, at + 1)) occurrences.push(at);
    const length = matcher.text.length;
    return statements.filter((node) => {
      // The first occurrence at or after the node's start; a match if it ends inside the node.
      let lo = 0;
      let hi = occurrences.length;
      while (lo < hi) {
        const mid = (lo + hi) >> 1;
        if (occurrences[mid] < node.start) lo = mid + 1;
        else hi = mid;
      }
      return lo < occurrences.length && occurrences[lo] + length <= node.end;
    });
  }
  if (statements.length === 0) return [];
  const hits = await runRegex(matcher, { op: 'spans', text: file.source, starts: statements.map((n) => n.start), ends: statements.map((n) => n.end) }, regex);
  return hits.map((i) => statements[i]);
}

/** Source offsets of the symbols' ranges in this file. */
function symbolSpans(file: StatementFile, symbols: StoredSymbol[]): Array<[number, number]> {
  const lineStarts = [0];
  for (let i = file.source.indexOf('\n'); i >= 0; i = file.source.indexOf('\n', i + 1)) lineStarts.push(i + 1);
  const offset = (line: number, column: number): number => (lineStarts[line - 1] ?? file.source.length) + column - 1;
  return symbols.map((s) => [offset(s.range.start.line, s.range.start.column), offset(s.range.end.line, s.range.end.column)]);
}

/**
 * The method, function or class node of each symbol: the innermost one holding the symbol's name and
 * starting inside its range; else (a lambda bound to a variable) the outermost ones inside its range.
 */
function structureRoots(file: StatementFile, symbols: StoredSymbol[], spans: Array<[number, number]>): number[] {
  const names = symbolSpans(file, symbols.map((s) => ({ ...s, range: s.selectionRange })));
  const roots = new Set<number>();
  spans.forEach(([start, end], i) => {
    const name = names[i][0];
    let best: StatementNode | null = null;
    for (const node of file.nodes) {
      if (!STRUCTURE_SHORTS.has(node.short) || node.start > name || node.end <= name || node.start < start) continue;
      if (!best || node.end - node.start < best.end - best.start) best = node;
    }
    if (best) {
      roots.add(best.index);
      return;
    }
    for (const node of file.nodes) {
      const parent = node.parent >= 0 ? file.nodes[node.parent] : null;
      const inside = (n: StatementNode): boolean => n.start >= start && n.end <= end;
      if (STRUCTURE_SHORTS.has(node.short) && inside(node) && !(parent && inside(parent))) roots.add(node.index);
    }
  });
  return [...roots];
}

function toResult(info: IndexedFileInfo, file: StatementFile, node: StatementNode, maxCode: number): StatementResult {
  const full = file.source.slice(node.start, node.end);
  const cut = full.length > maxCode;
  const pathText = `/${info.package}/${fileInPackage(info)}${nodePath(file, node)}`;
  return {
    id: createHash('sha1').update(`${info.file}\u0000${pathText}`).digest('hex').slice(0, 16),
    path: pathText,
    type: { node: node.type, short: node.short },
    shortType: node.short,
    depth: node.depth,
    file: info.file,
    line: node.line,
    column: node.column,
    endLine: node.line + countLines(full),
    code: cut ? `${full.slice(0, maxCode)}…` : full,
    ...(cut ? { truncated: true } : {}),
    language: info.language,
  };
}

function countLines(text: string): number {
  let n = 0;
  for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) n++;
  return n;
}

function fileInPackage(info: IndexedFileInfo): string {
  if (info.packagePath === '.' || info.packagePath === '') return info.file;
  const relative = path.posix.relative(info.packagePath.split(path.sep).join('/'), info.file.split(path.sep).join('/'));
  return relative && !relative.startsWith('..') ? relative : info.file;
}

/** `/Class/method/if[1]/expression[2]`: named structure by name (with [n] past the first of that name), the rest by short type and position. */
function nodePath(file: StatementFile, node: StatementNode): string {
  const segments: string[] = [];
  for (let current: StatementNode | undefined = node; current; current = current.parent >= 0 ? file.nodes[current.parent] : undefined) {
    if (STRUCTURE_SHORTS.has(current.short) && current.name) segments.push(current.namePosition > 1 ? `${current.name}[${current.namePosition}]` : current.name);
    else segments.push(`${current.short}[${current.position}]`);
  }
  return `/${segments.reverse().join('/')}`;
}
