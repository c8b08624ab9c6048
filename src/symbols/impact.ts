/**
 * GET /symbols/impact (find_impact): everything that may need a change if one symbol changes, built on the
 * operations that answer each relation, with their precision: callers (transitively, find_callers' walk),
 * the other usages (find_usages, grouped by the symbol holding them), the overrides and implementations of a
 * method (find_implementations), the inheritors of a type (find_inheritors) and their overrides of its
 * methods; then, level by level to `depth`, the callers of what was found. POST /changes merges the reach of
 * each changed symbol (`reachOf`, `reachOfName` for one the diff removed).
 */
import path from 'node:path';
import { CALLS_DEPTH_MAX, type CallNode, type CallSite, type CallsResponse } from '../../schemas/calls.js';
import type { UsagesResponse } from '../../schemas/usages.js';
import {
  IMPACT_DEPTH_DEFAULT, IMPACT_DEPTH_MAX, IMPACT_LIMIT_DEFAULT, IMPACT_LIMIT_MAX,
  type ImpactFile, type ImpactPart, type ImpactQuery, type ImpactResponse, type ImpactResult, type ImpactTest, type Relation,
} from '../../schemas/impact.js';
import { invalidParameter, isCancelled, PlumbError } from '../errors.js';
import type { StoredSymbol } from '../index/store.js';
import { isConstructorOrDestructor, languageOfPath, sameFamily } from '../languages/index.js';
import { forEachLimit } from '../map-limit.js';
import type { Services } from '../services.js';
import { scanOccurrences } from '../syntax/identifiers.js';
import { classifyPositions, sharedTrees } from '../syntax/usage-kind.js';
import { READ_BYTES_MAX, stripBom } from '../files.js';
import { findCalls } from './calls.js';
import { rangeHolds } from './document-symbols.js';
import { elapsedMs } from './elapsed.js';
import { checkLimit, listEnvelope, pageOf, partialOf, toIndexSymbol } from './envelope.js';
import { findImplementations } from './implementations.js';
import { findInheritors } from './inheritors.js';
import { CALLABLE_KINDS, groupPlaces, resolveOne, TYPE_KINDS, type ResolvedSymbol } from './resolve-symbol.js';
import { testNameOf, testsAmong } from './tests.js';
import { findUsages } from './usages.js';

type Precision = 'semantic' | 'syntactic';

/** One symbol reached, through one relation. */
export interface Affected {
  key: string;
  relation: Relation;
  node: CallNode;
  stored?: StoredSymbol;
  distance: number;
  via?: { id?: string; name: string };
  sites: CallSite[];
  precision: Precision;
}

/** What one symbol reaches: the symbols, the parts they came from, and what caps left out. */
export interface Reach {
  found: Affected[];
  parts: ImpactPart[];
  notes: string[];
  omitted: number;
  partial: boolean;
  /** find_usages' answer for the root (up to USAGES_MAX), when it answered: symbol_context lists its first ones without asking again. */
  usages?: UsagesResponse;
}

/** Callers read per find_callers walk (one page of the walk); past it they are counted in `omitted`. */
const CALLERS_PAGE = 200;
/** Usages read per symbol. */
const USAGES_MAX = 1000;
/** Inheritors read per type. */
const INHERITORS_MAX = 200;
/** Inheritors whose members are read for overrides. */
const OVERRIDE_TYPES_MAX = 100;
/** Symbols whose callers are asked for past the first relations (each one find_callers walk), per symbol. */
const EXPANSIONS_MAX = 24;
/** Symbols per distance whose name the test files are searched for. */
const MENTIONS_MAX = 100;
/**
 * Time the walks past the first relations may take in all. A walk starts only when the slowest one so far would
 * still end within it (a syntactic walk reads the whole tree: seconds on the kernel, where three at once would
 * take the answer far past it).
 */
const EXPAND_BUDGET_MS = 5000;
/** Walks in flight at once. */
const CONCURRENCY = 3;
/** Sites listed per result. */
const SITES_SHOWN = 10;
/** Files and tests listed per answer. */
export const FILES_SHOWN = 200;
export const TESTS_SHOWN = 200;
/** The syntactic name search for a removed symbol: files read and the time it may take. */
const SCAN_FILES_MAX = 50_000;
const SCAN_BUDGET_MS = 10_000;

const RELATION_ORDER: Record<Relation, number> = { call: 0, overrides: 1, implements: 2, inherits: 3, usage: 4 };

export async function findImpact(services: Services, query: ImpactQuery, signal?: AbortSignal): Promise<ImpactResponse> {
  const started = performance.now();
  const limit = checkLimit(query.limit, IMPACT_LIMIT_MAX, IMPACT_LIMIT_DEFAULT);
  const offset = checkOffset(query.offset);
  const depth = checkDepth(query.depth);
  const root = await resolveOne(services, query);
  const reach = await reachOf(services, root, depth, signal);
  const summary = await summarize(services, reach.found);
  const page = pageOf(summary.ordered, offset, limit).map(toResult);
  const reasons = [partialOf(services).reason, ...reach.notes].filter((r): r is string => Boolean(r));
  const partial = reach.partial || partialOf(services).partial === true;
  return {
    symbol: toIndexSymbol(root.symbol),
    depth,
    results: page,
    ...listEnvelope({ limit, offset, totalMatches: summary.ordered.length, returned: page.length }),
    ...(partial ? { partial: true as const } : {}),
    ...(reasons.length > 0 ? { reason: reasons.join('; ') } : {}),
    ...precisionOf(reach.parts),
    parts: reach.parts,
    files: summary.files.slice(0, FILES_SHOWN),
    filesTotal: summary.files.length,
    tests: summary.tests.slice(0, TESTS_SHOWN),
    testsTotal: summary.tests.length,
    omitted: reach.omitted,
    elapsedMs: elapsedMs(started),
  };
}

export function checkDepth(depth: number | undefined): number {
  if (depth === undefined) return IMPACT_DEPTH_DEFAULT;
  if (!Number.isInteger(depth) || depth < 1 || depth > IMPACT_DEPTH_MAX) throw invalidParameter('depth', `must be an integer from 1 to ${IMPACT_DEPTH_MAX}`);
  return depth;
}

export function checkOffset(offset: number | undefined): number {
  if (offset === undefined) return 0;
  if (!Number.isInteger(offset) || offset < 0) throw invalidParameter('offset', 'must be an integer of 0 or more');
  return offset;
}

/** `precision` and `source` of an answer from its parts. */
export function precisionOf(parts: ImpactPart[]): { precision: 'semantic' | 'syntactic' | 'mixed'; source: 'lsp' | 'index' | 'both' } {
  const kinds = new Set(parts.filter((part) => part.found > 0 || parts.every((p) => p.found === 0)).map((part) => part.precision));
  if (kinds.size === 0 || (kinds.size === 1 && kinds.has('syntactic'))) return { precision: 'syntactic', source: 'index' };
  if (kinds.size === 1) return { precision: 'semantic', source: 'lsp' };
  return { precision: 'mixed', source: 'both' };
}

/** Results in answer order, the files they are in and the tests among them. */
export async function summarize(services: Services, found: Affected[]): Promise<{ ordered: Affected[]; files: ImpactFile[]; tests: ImpactTest[] }> {
  const ordered = [...found].sort(compareAffected);
  const files = new Map<string, ImpactFile>();
  for (const entry of ordered) {
    for (const file of filesOf(entry)) {
      const known = files.get(file);
      if (known) {
        known.results++;
        known.distance = Math.min(known.distance, entry.distance);
      } else {
        files.set(file, { file, distance: entry.distance, results: 1, test: false });
      }
    }
  }
  const tests = await testsAmong(services, ordered.map((entry) => ({ file: fileOfNode(entry.node) ?? '', symbol: entry.stored, sites: entry.sites, distance: entry.distance })));
  const testFiles = new Set(tests.map((test) => test.file));
  for (const file of files.values()) file.test = testFiles.has(file.file) || isTestPath(file.file);
  return {
    ordered,
    files: [...files.values()].sort((a, b) => a.distance - b.distance || (a.file < b.file ? -1 : a.file > b.file ? 1 : 0)),
    tests,
  };
}

function isTestPath(file: string): boolean {
  return languageOfPath(file)?.rules.tests?.file.test(file) === true;
}

export function toResult(entry: Affected): ImpactResult {
  const test = entry.stored ? testNameOf(entry.stored) : undefined;
  return {
    symbol: entry.node,
    distance: entry.distance,
    relation: entry.relation,
    ...(entry.via ? { via: entry.via } : {}),
    sites: entry.sites.slice(0, SITES_SHOWN),
    sitesTotal: entry.sites.length,
    precision: entry.precision,
    ...(test ? { test } : {}),
  };
}

export function compareAffected(a: Affected, b: Affected): number {
  return a.distance - b.distance || RELATION_ORDER[a.relation] - RELATION_ORDER[b.relation] || compareText(fileOfNode(a.node) ?? '', fileOfNode(b.node) ?? '') || (lineOfNode(a.node) ?? 0) - (lineOfNode(b.node) ?? 0) || compareText(a.key, b.key);
}

function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function fileOfNode(node: CallNode): string | null {
  return node.file;
}

function lineOfNode(node: CallNode): number | null {
  return node.line;
}

function filesOf(entry: Affected): string[] {
  const files = new Set<string>();
  const own = fileOfNode(entry.node);
  if (own) files.add(own);
  for (const site of entry.sites) files.add(site.file);
  return [...files];
}

// ---- the walk ------------------------------------------------------------------------------------

/** Collects what one root reaches; entries keyed by symbol and relation, each at its nearest distance. */
class Collector {
  readonly found = new Map<string, Affected>();
  readonly parts = new Map<string, ImpactPart>();
  readonly notes: string[] = [];
  omitted = 0;
  partial = false;
  /** The longest find_callers walk of this answer so far, and the walks running now. */
  slowestWalkMs = 0;
  walking = 0;
  private held = 0;
  /** Symbols whose callers were asked for already (a walk went past them). */
  readonly expanded = new Set<string>();
  /** Symbols whose name the test files were searched for. */
  readonly mentioned = new Set<string>();
  private tests: Promise<string[]> | undefined;

  /** The indexed test files of the workspace, read once per answer. */
  testFiles(services: Services): Promise<string[]> {
    this.tests ??= services.index.reader.indexedFiles().then((files) => files.filter((file) => !path.isAbsolute(file) && isTestPath(file)));
    return this.tests;
  }

  constructor(private readonly exclude: Set<string>) {}

  add(entry: Omit<Affected, 'key'> & { key?: string }): Affected | undefined {
    const symbolKey = entry.key ?? nodeKey(entry.node, entry.distance);
    if (this.exclude.has(symbolKey)) return undefined;
    const key = `${symbolKey}\u0000${entry.relation}`;
    const known = this.found.get(key);
    if (!known) {
      const added: Affected = { ...entry, key: symbolKey, sites: dedupeSites(entry.sites) };
      this.found.set(key, added);
      this.held += 1 + added.sites.length;
      return added;
    }
    // Each symbol at its nearest distance, with the sites of that distance (farther ones depend on something else).
    if (entry.distance > known.distance) return known;
    const had = known.sites.length;
    if (entry.distance < known.distance) {
      known.distance = entry.distance;
      known.via = entry.via;
      known.sites = dedupeSites(entry.sites);
    } else {
      known.sites = dedupeSites([...known.sites, ...entry.sites]);
    }
    this.held += known.sites.length - had;
    if (entry.precision === 'semantic') known.precision = 'semantic';
    return known;
  }

  part(relation: Relation, operation: string, precision: Precision, found: number, reason?: string): void {
    const key = `${relation}\u0000${operation}`;
    const known = this.parts.get(key);
    if (known) {
      known.found += found;
      if (precision === 'syntactic') known.precision = 'syntactic';
      if (reason && !known.reason?.includes(reason)) known.reason = known.reason ? `${known.reason}; ${reason}` : reason;
      return;
    }
    this.parts.set(key, { relation, operation, precision, found, ...(reason ? { reason } : {}) });
  }

  /** Entries and sites held in all: whether an add() added anything. */
  size(): number {
    return this.held;
  }

  note(note: string, partial = true): void {
    if (!this.notes.includes(note)) this.notes.push(note);
    if (partial) this.partial = true;
  }

  reach(): Reach {
    return { found: [...this.found.values()], parts: [...this.parts.values()], notes: this.notes, omitted: this.omitted, partial: this.partial };
  }
}

function dedupeSites(sites: CallSite[]): CallSite[] {
  const seen = new Set<string>();
  return sites.filter((site) => {
    const key = `${site.file}\u0000${site.line}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  }).sort((a, b) => compareText(a.file, b.file) || a.line - b.line || a.column - b.column);
}

export function nodeKey(node: CallNode, distance?: number): string {
  if ('id' in node) return node.id;
  // Code outside any symbol (a test file's describe/it callbacks) is one node per file and distance: what it calls at one distance is not what it calls at another.
  return `${node.file ?? ''}\u0000${node.line ?? ''}\u0000${node.name}${distance !== undefined ? `\u0000${distance}` : ''}`;
}

function storedOf(node: CallNode): StoredSymbol | undefined {
  if (!('id' in node)) return undefined;
  const { match: _, ...stored } = node as CallNode & { match?: unknown };
  return stored as StoredSymbol;
}

function isCallable(symbol: Pick<StoredSymbol, 'kind'>): boolean {
  return (CALLABLE_KINDS as readonly string[]).includes(symbol.kind);
}

function isType(symbol: Pick<StoredSymbol, 'kind'>): boolean {
  return (TYPE_KINDS as readonly string[]).includes(symbol.kind);
}

function nameOf(symbol: StoredSymbol): { id: string; name: string } {
  return { id: symbol.id, name: symbol.qualifiedName || symbol.name };
}

/** What `root` reaches to `depth`: its relations, then the callers of what was found. */
export async function reachOf(services: Services, root: ResolvedSymbol, depth: number, signal?: AbortSignal): Promise<Reach> {
  const collector = new Collector(new Set(root.places.map((place) => place.id)));
  const symbol = root.symbol;
  // Usages are asked for alongside, and placed last: a base clause is an inheritor's, a call the callers'.
  const usages = askUsages(services, root, signal);
  const tasks: Array<Promise<unknown>> = [];
  if (isCallable(symbol)) {
    collector.expanded.add(symbol.id);
    tasks.push(callersOf(services, collector, symbol, 0, depth, signal));
    if (symbol.kind === 'method' || symbol.containingType) tasks.push(implementationsOf(services, collector, root, signal));
  }
  if (isType(symbol)) tasks.push(inheritorsOf(services, collector, root, depth, signal));
  await Promise.all(tasks);
  const asked = await usages;
  await usagesOf(services, collector, root, asked);
  await testFileMentions(services, collector, symbol, 0);
  await expand(services, collector, depth, signal, isCallable(symbol));
  return { ...collector.reach(), ...(asked.ok ? { usages: asked.answer } : {}) };
}

/**
 * What a symbol the diff removed reached, read from the source by its name (the index and the servers no
 * longer hold it): each identifier naming it in the files of its language family, by the symbol holding it.
 */
export async function reachOfName(services: Services, removed: { name: string; language: string }, depth: number, signal?: AbortSignal): Promise<Reach> {
  const collector = new Collector(new Set());
  const started = performance.now();
  const files = (await services.index.reader.indexedFiles()).filter((file) => {
    const language = languageOfPath(file)?.id;
    return language !== undefined && sameFamily(language, removed.language);
  });
  if (files.length > SCAN_FILES_MAX) collector.note(`only the first ${SCAN_FILES_MAX} of ${files.length} files were searched for '${removed.name}'`);
  const hits: Array<{ file: string; line: number; column: number; kind: string; text: string }> = [];
  await mentioningFiles(services, files.slice(0, SCAN_FILES_MAX), removed.name, async (file, text) => {
    for (const hit of await mentionsIn(services, file, removed.name, text)) hits.push({ file, ...hit });
  }, () => !!signal?.aborted || performance.now() - started > SCAN_BUDGET_MS);
  if (signal?.aborted) throw cancelled();
  if (performance.now() - started > SCAN_BUDGET_MS) collector.note(`the search for '${removed.name}' stopped after ${SCAN_BUDGET_MS / 1000} s`);
  const byFile = new Map<string, typeof hits>();
  for (const hit of hits) byFile.set(hit.file, [...(byFile.get(hit.file) ?? []), hit]);
  let calls = 0;
  let usages = 0;
  for (const [file, list] of byFile) {
    const symbols = (await services.index.reader.symbolsInFile(file)).filter((s) => !s.forwardDeclaration);
    for (const hit of list) {
      // The removed symbol's own name where the index still holds a declaration of it (a prototype left in a header).
      if (symbols.some((s) => s.name === removed.name && rangeHolds(s.selectionRange, hit))) continue;
      const holder = innermost(symbols, hit);
      const relation: Relation = hit.kind === 'call' ? 'call' : 'usage';
      if (relation === 'call') calls++;
      else usages++;
      collector.add({
        relation,
        node: holder ? toIndexSymbol(holder) : topLevel(file),
        stored: holder,
        distance: 1,
        sites: [{ file, line: hit.line, column: hit.column, text: hit.text }],
        precision: 'syntactic',
      });
    }
  }
  const reason = `'${removed.name}' is gone from the index and the servers: identifiers naming it, read from the source (same-named symbols are not told apart)`;
  collector.part('call', 'name search', 'syntactic', calls, reason);
  collector.part('usage', 'name search', 'syntactic', usages, reason);
  await expand(services, collector, depth, signal, true);
  return collector.reach();
}

/** find_callers' walk from `symbol` (found at `at`), its results placed at `at` + their depth. */
async function callersOf(services: Services, collector: Collector, symbol: StoredSymbol, at: number, depth: number, signal?: AbortSignal): Promise<void> {
  const levels = Math.min(depth - at, CALLS_DEPTH_MAX);
  if (levels < 1) return;
  let answer: CallsResponse;
  const started = performance.now();
  collector.walking++;
  try {
    answer = await findCalls(services, { id: symbol.id, depth: levels, limit: CALLERS_PAGE }, 'incoming', signal);
  } catch (error) {
    failed(collector, error, 'call', 'find_callers', symbol);
    return;
  } finally {
    collector.walking--;
    collector.slowestWalkMs = Math.max(collector.slowestWalkMs, performance.now() - started);
  }
  let results = answer.results;
  if (answer.totalMatches > results.length) {
    try {
      const more = await findCalls(services, { id: symbol.id, depth: levels, limit: CALLERS_PAGE, offset: CALLERS_PAGE }, 'incoming', signal);
      results = [...results, ...more.results];
    } catch (error) {
      failed(collector, error, 'call', 'find_callers', symbol);
    }
  }
  const left = answer.totalMatches - results.length + answer.omitted;
  if (left > 0) {
    collector.omitted += left;
    collector.note(`${left} callers of '${symbol.qualifiedName || symbol.name}' past the first ${results.length} were left out`);
  }
  collector.part('call', 'find_callers', answer.precision, results.length, answer.precision === 'syntactic' || answer.partial ? answer.reason : undefined);
  if (answer.partial) collector.note(answer.reason ?? `the callers of '${symbol.name}' are incomplete`);
  for (const result of results) {
    const distance = at + result.depth;
    const via = result.depth === 1 ? (at > 0 ? nameOf(symbol) : undefined) : result.via;
    const added = collector.add({ relation: 'call', node: result.symbol, stored: storedOf(result.symbol), distance, ...(via ? { via } : {}), sites: result.calls, precision: answer.precision });
    // Past the walk's last level its callers are in already; at the last level they are expand()'s to ask for.
    if (added && result.depth < levels) collector.expanded.add(added.key);
  }
}

type UsagesAnswer = { ok: true; answer: UsagesResponse } | { ok: false; error: unknown };

async function askUsages(services: Services, root: ResolvedSymbol, signal?: AbortSignal): Promise<UsagesAnswer> {
  try {
    return { ok: true, answer: await findUsages(services, { id: root.symbol.id, limit: USAGES_MAX }, signal) };
  } catch (error) {
    return { ok: false, error };
  }
}

/** The other usages of the root, grouped by the symbol holding each; calls the callers missed join them. */
async function usagesOf(services: Services, collector: Collector, root: ResolvedSymbol, asked: UsagesAnswer): Promise<void> {
  if (!asked.ok) {
    failed(collector, asked.error, 'usage', 'find_usages', root.symbol);
    return;
  }
  const answer = asked.answer;
  if (answer.totalMatches > answer.results.length) {
    collector.omitted += answer.totalMatches - answer.results.length;
    collector.note(`${answer.totalMatches - answer.results.length} usages of '${root.symbol.name}' past the first ${answer.results.length} were left out`);
  }
  if (answer.partial) collector.note(answer.reason ?? `the usages of '${root.symbol.name}' are incomplete`);
  const holders = new Map<string, StoredSymbol | undefined>();
  await forEachLimit([...new Set(answer.results.flatMap((u) => (u.enclosingSymbol ? [u.enclosingSymbol.id] : [])))], 8, async (id) => {
    holders.set(id, await services.index.reader.symbolById(id));
  });
  let count = 0;
  for (const usage of answer.results) {
    const holder = usage.enclosingSymbol ? holders.get(usage.enclosingSymbol.id) : undefined;
    // A derived type's base clause is the inheritor itself; a call is the callers' (joined to them when they missed it).
    if (usage.usageKind === 'inheritance' && holder && collector.found.has(`${holder.id}\u0000inherits`)) continue;
    const relation: Relation = usage.usageKind === 'call' ? 'call' : 'usage';
    const node = holder ? toIndexSymbol(holder) : topLevel(usage.file);
    collector.add({ relation, node, stored: holder, distance: 1, sites: [{ file: usage.file, line: usage.line, column: usage.column, text: usage.text }], precision: answer.precision });
    count++;
  }
  collector.part('usage', 'find_usages', answer.precision, count, answer.precision === 'syntactic' ? answer.reason : undefined);
}

/** The overrides and implementations of a method. */
async function implementationsOf(services: Services, collector: Collector, root: ResolvedSymbol, signal?: AbortSignal): Promise<void> {
  let answer;
  try {
    answer = await findImplementations(services, { id: root.symbol.id, limit: INHERITORS_MAX }, signal);
  } catch (error) {
    failed(collector, error, 'overrides', 'find_implementations', root.symbol);
    return;
  }
  const relation: Relation = (await ownerKind(services, root.symbol)) === 'interface' ? 'implements' : 'overrides';
  if (answer.totalMatches > answer.results.length) collector.omitted += answer.totalMatches - answer.results.length;
  if (answer.partial) collector.note(answer.reason ?? `the implementations of '${root.symbol.name}' are incomplete`);
  for (const result of answer.results) {
    const { source, depth: _depth, confidence: _confidence, ...symbol } = result;
    collector.add({ relation, node: symbol, stored: symbol, distance: 1, sites: [], precision: source === 'index' ? 'syntactic' : 'semantic' });
  }
  if (answer.results.length > 0) collector.part(relation, 'find_implementations', answer.results.some((r) => r.source !== 'index') ? 'semantic' : 'syntactic', answer.results.length);
}

/** The kind of the type a member is declared in, from its file. */
async function ownerKind(services: Services, member: StoredSymbol): Promise<string | undefined> {
  if (!member.containingType) return undefined;
  const symbols = await services.index.reader.symbolsInFile(member.file);
  const owner = symbols.filter((s) => s.name === member.containingType && isType(s) && rangeHolds(s.range, member.selectionRange.start));
  return owner.at(-1)?.kind;
}

/** The inheritors of a type, transitively to `depth`, and their overrides of its methods. */
async function inheritorsOf(services: Services, collector: Collector, root: ResolvedSymbol, depth: number, signal?: AbortSignal): Promise<void> {
  let answer;
  try {
    answer = await findInheritors(services, { id: root.symbol.id, depth: String(depth), limit: INHERITORS_MAX }, signal);
  } catch (error) {
    failed(collector, error, 'inherits', 'find_inheritors', root.symbol);
    return;
  }
  if (answer.totalMatches > answer.results.length) {
    collector.omitted += answer.totalMatches - answer.results.length;
    collector.note(`${answer.totalMatches - answer.results.length} inheritors of '${root.symbol.name}' past the first ${answer.results.length} were left out`);
  }
  if (answer.partial) collector.note(answer.reason ?? `the inheritors of '${root.symbol.name}' are incomplete`);
  const inheritors: Array<{ symbol: StoredSymbol; depth: number; precision: Precision }> = [];
  for (const result of answer.results) {
    const { source, depth: level, via, base: _base, confidence: _confidence, ...symbol } = result;
    const precision: Precision = source === 'index' ? 'syntactic' : 'semantic';
    collector.add({ relation: 'inherits', node: symbol, stored: symbol, distance: level, ...(via ? { via: { id: via.id, name: via.qualifiedName || via.name } } : {}), sites: [], precision });
    inheritors.push({ symbol, depth: level, precision });
  }
  collector.part('inherits', 'find_inheritors', answer.results.some((r) => r.source !== 'index') ? 'semantic' : 'syntactic', answer.results.length,
    answer.results.length > 0 && answer.results.every((r) => r.source === 'index') ? 'inheritors from the base names as written, resolved through the index (no server confirmed them)' : undefined);

  // Their overrides of the type's methods: members of the same name (the type's constructors and destructor are no methods to override).
  const methods = new Set((await ownMembers(services, root.symbol)).filter((m) => isCallable(m) && !isConstructorOrDestructor(m)).map((m) => m.name));
  if (methods.size === 0) return;
  let overrides = 0;
  for (const inheritor of inheritors.slice(0, OVERRIDE_TYPES_MAX)) {
    const members = (await ownMembers(services, inheritor.symbol)).filter((m) => isCallable(m) && methods.has(m.name));
    for (const group of groupPlaces(members)) {
      collector.add({ relation: 'overrides', node: toIndexSymbol(group.symbol), stored: group.symbol, distance: inheritor.depth, via: nameOf(inheritor.symbol), sites: [], precision: inheritor.precision });
      overrides++;
    }
  }
  if (inheritors.length > OVERRIDE_TYPES_MAX) collector.note(`the overrides of ${inheritors.length - OVERRIDE_TYPES_MAX} inheritors past the first ${OVERRIDE_TYPES_MAX} were not read`);
  if (overrides > 0) collector.part('overrides', 'find_inheritors', inheritors.some((i) => i.precision === 'semantic') ? 'semantic' : 'syntactic', overrides, 'the inheritors\' members named like a method of the type');
}

/** A type's own members as the index holds them: named in it, declared in its body or qualified by its name. */
async function ownMembers(services: Services, type: StoredSymbol): Promise<StoredSymbol[]> {
  const candidates = await services.index.reader.symbolsInContainer(type.name, 2000);
  const qualified = type.qualifiedName.replace(/::/g, '.');
  return candidates.filter((member) => {
    if (member.forwardDeclaration || !sameFamily(member.language, type.language)) return false;
    if (member.file === type.file && rangeHolds(type.range, member.selectionRange.start)) return true;
    const owner = member.qualifiedName.replace(/::/g, '.').split('.').slice(0, -1).join('.');
    return owner === qualified || qualified.endsWith(`.${owner}`) || owner.endsWith(`.${qualified}`);
  });
}

/**
 * The callers of what was found through another relation (a usage's holder, an override, an inheritor's
 * method), and of the callers at the last level a walk reached, level by level to `depth`.
 */
async function expand(services: Services, collector: Collector, depth: number, signal: AbortSignal | undefined, overrides: boolean): Promise<void> {
  let budget = EXPANSIONS_MAX;
  const started = performance.now();
  // A type's inheritors' overrides are called through the type's own methods: their callers are no more the type's.
  const relations = new Set<Relation>(overrides ? ['call', 'usage', 'overrides', 'implements'] : ['call', 'usage']);
  for (let distance = 1; distance < depth; distance++) {
    // Test files no walk answered for, searched for each symbol at this distance (the server may not cover them).
    const named = [...new Map([...collector.found.values()]
      .filter((entry) => entry.distance === distance && relations.has(entry.relation) && entry.stored && isCallable(entry.stored) && !testNameOf(entry.stored) && !collector.mentioned.has(entry.key))
      .sort(compareAffected)
      .map((entry) => [entry.key, entry])).values()].slice(0, MENTIONS_MAX);
    for (const entry of named) collector.mentioned.add(entry.key);
    await forEachLimit(named, CONCURRENCY, (entry) => testFileMentions(services, collector, entry.stored!, distance));
    const due = [...collector.found.values()]
      // A test is where the reach ends: nothing calls it.
      .filter((entry) => entry.distance === distance && relations.has(entry.relation) && entry.stored && isCallable(entry.stored) && !collector.expanded.has(entry.key) && !testNameOf(entry.stored))
      .sort(compareAffected);
    const unique = [...new Map(due.map((entry) => [entry.key, entry])).values()];
    const now = unique.slice(0, budget);
    if (unique.length > now.length) {
      collector.omitted += unique.length - now.length;
      collector.note(`the callers of ${unique.length - now.length} symbols at distance ${distance} were not asked for (a budget of ${EXPANSIONS_MAX} walks)`);
    }
    budget -= now.length;
    for (const entry of now) collector.expanded.add(entry.key);
    let stopped = 0;
    let rest = now;
    if (collector.slowestWalkMs === 0 && now.length > 0) {
      // No walk timed yet (a type's reach starts with usages): the first runs alone, and how long it took decides how many more fit.
      await callersOf(services, collector, now[0].stored!, distance, depth, signal);
      rest = now.slice(1);
    }
    await forEachLimit(rest, CONCURRENCY, async (entry) => {
      // The walks share one thread: one more ends after those running now, each as slow as the slowest so far.
      if (performance.now() - started + collector.slowestWalkMs * (collector.walking + 1) > EXPAND_BUDGET_MS) {
        stopped++;
        return;
      }
      await callersOf(services, collector, entry.stored!, distance, depth, signal);
    });
    if (stopped > 0) {
      collector.omitted += stopped;
      const slow = collector.slowestWalkMs > EXPAND_BUDGET_MS / 2 ? `; a walk takes ${(collector.slowestWalkMs / 1000).toFixed(1)} s here` : '';
      collector.note(`the callers of ${stopped} symbols at distance ${distance} were not asked for (they would end past the ${EXPAND_BUDGET_MS / 1000} s budget${slow})`);
    }
    if (budget <= 0 || stopped > 0) break;
  }
}

/**
 * Test files a server may not cover (a C++ test outside the compile database, a TypeScript test outside the
 * project): where one names the symbol and no result is in it yet, its mentions are added, marked syntactic.
 */
async function testFileMentions(services: Services, collector: Collector, symbol: StoredSymbol, at: number): Promise<void> {
  const files = (await collector.testFiles(services)).filter((file) => sameFamily(languageOfPath(file)!.id, symbol.language));
  // Files a server answered for (it covers them), and those something reached through this very symbol is in.
  const covered = new Set([...collector.found.values()]
    .filter((entry) => entry.precision === 'semantic' || (at === 0 ? entry.distance === 1 : entry.via?.id === symbol.id))
    .flatMap((entry) => filesOf(entry)));
  const via = at > 0 ? nameOf(symbol) : undefined;
  let added = 0;
  await mentioningFiles(services, files.filter((file) => !covered.has(file)), symbol.name, async (file, text) => {
    const hits = await mentionsIn(services, file, symbol.name, text);
    if (hits.length === 0) return;
    const symbols = (await services.index.reader.symbolsInFile(file)).filter((s) => !s.forwardDeclaration);
    for (const hit of hits) {
      const holder = innermost(symbols, hit);
      if (holder && symbol.id === holder.id) continue;
      const before = collector.size();
      const entry = collector.add({
        relation: hit.kind === 'call' ? 'call' : 'usage',
        node: holder ? toIndexSymbol(holder) : topLevel(file),
        stored: holder,
        distance: at + 1,
        ...(via ? { via } : {}),
        sites: [{ file, line: hit.line, column: hit.column, text: hit.text }],
        precision: 'syntactic',
      });
      if (entry && collector.size() > before) added++;
    }
  });
  if (added > 0) collector.part('call', 'test files by name', 'syntactic', added, 'test files no server answered for, searched for the name (a server may not cover them: clangd a C/C++ test outside the compile database, the TypeScript server a test outside its project)');
}

/** The text of each of `files` that holds `name` (not binary), to `each` in the index's order until `stop()` says enough. */
async function mentioningFiles(services: Services, files: string[], name: string, each: (file: string, text: string) => Promise<void>, stop?: () => boolean): Promise<void> {
  await services.workspace.files.scan(files.map((file) => services.workspace.absolute(file)), name, READ_BYTES_MAX, (i, read) => {
    if (read.ok && !read.binary && read.text !== null) return each(files[i], stripBom(read.text));
  }, stop);
}

/** Identifiers named `name` in a file's text, each with its usage kind and line text. */
async function mentionsIn(services: Services, file: string, name: string, text: string): Promise<Array<{ line: number; column: number; kind: string; text: string }>> {
  const language = languageOfPath(file);
  if (!language) return [];
  const occurrences = scanOccurrences(language.syntax, text, name);
  if (occurrences.length === 0) return [];
  const tree = await sharedTrees.get(services.workspace.files.stamp(services.workspace.absolute(file)), language.syntax, () => text);
  const kinds = tree ? classifyPositions(tree, occurrences, language.syntax) : occurrences.map(() => 'other');
  const lines = text.split(/\r?\n/);
  return occurrences.map((occurrence, i) => ({ ...occurrence, kind: kinds[i], text: clip((lines[occurrence.line - 1] ?? '').trim()) }));
}

/** A part that failed outright (a 503, a timeout) is said, the rest of the answer stands. */
function failed(collector: Collector, error: unknown, relation: Relation, operation: string, symbol: StoredSymbol): void {
  if (isCancelled(error)) throw error;
  const message = error instanceof Error ? error.message : String(error);
  collector.part(relation, operation, 'syntactic', 0, `${operation} failed for '${symbol.name}': ${message}`);
  collector.note(`${operation} failed for '${symbol.qualifiedName || symbol.name}': ${message}`);
}

function topLevel(file: string): CallNode {
  return { indexed: false, name: '(top level)', kind: 'module', file, line: 1, column: 1, external: path.isAbsolute(file) };
}

function innermost(symbols: StoredSymbol[], position: { line: number; column: number }): StoredSymbol | undefined {
  let inner: StoredSymbol | undefined;
  for (const symbol of symbols) {
    if (!rangeHolds(symbol.range, position)) continue;
    if (!inner || rangeHolds(inner.range, symbol.range.start)) inner = symbol;
  }
  return inner;
}

function clip(text: string): string {
  return text.length > 300 ? `${text.slice(0, 299)}…` : text;
}

function cancelled(): PlumbError {
  return new PlumbError('request_cancelled', 'The impact search was cancelled: the caller went away');
}
