/**
 * GET /symbols/context (symbol_context): one symbol whole, so the usual next question needs no second call:
 * its places with code (find_declaration), doc, bases and members (list_members, for a type), its reach two
 * levels deep (find_impact's: callers, inheritors, overrides, and the tests that reach it), its callees
 * (find_callees) and its first usages (find_usages). Each part is capped, counted and says its precision; a
 * part that fails is said, and the others stand.
 */
import type { CallResult } from '../../schemas/calls.js';
import type { ContextPart, ContextQuery, ContextResponse } from '../../schemas/context.js';
import type { ImpactResult } from '../../schemas/impact.js';
import type { BaseRef, DeclarationPlace, Member } from '../../schemas/navigation.js';
import type { Usage } from '../../schemas/usages.js';
import { PlumbError } from '../errors.js';
import type { Services } from '../services.js';
import { findCalls } from './calls.js';
import { findDeclaration } from './declaration.js';
import { elapsedMs } from './elapsed.js';
import { partialOf, toIndexSymbol } from './envelope.js';
import { reachOf, summarize, toResult, type Affected } from './impact.js';
import { listMembers } from './members.js';
import { CALLABLE_KINDS, resolveOne, TYPE_KINDS } from './resolve-symbol.js';
import { plainDoc } from './signature.js';
import { findUsages } from './usages.js';

const PLACES_SHOWN = 4;
const CODE_LINES = 60;
const MEMBERS_SHOWN = 30;
const RELATED_SHOWN = 20;
const USAGES_SHOWN = 10;
const TESTS_SHOWN = 20;
/** How far the reach goes: callers of callers, inheritors of inheritors, and the tests among them. */
const REACH_DEPTH = 2;

export async function symbolContext(services: Services, query: ContextQuery, signal?: AbortSignal): Promise<ContextResponse> {
  const started = performance.now();
  const root = await resolveOne(services, query);
  const symbol = root.symbol;
  const callable = (CALLABLE_KINDS as readonly string[]).includes(symbol.kind);
  const type = (TYPE_KINDS as readonly string[]).includes(symbol.kind);
  const parts: ContextPart[] = [];
  const notes: string[] = [];
  // Each part on its own: one that fails is said, the rest of the answer stands.
  const attempt = async <T>(part: string, operation: string, run: () => Promise<T>): Promise<T | undefined> => {
    try {
      return await run();
    } catch (error) {
      if (error instanceof PlumbError && error.code === 'request_cancelled') throw error;
      const message = error instanceof Error ? error.message : String(error);
      parts.push({ part, operation, precision: 'syntactic', shown: 0, total: 0, reason: `failed: ${message}` });
      notes.push(`${part}: ${message}`);
      return undefined;
    }
  };

  const [declaration, members, reach, callees] = await Promise.all([
    attempt('places', 'find_declaration', () => findDeclaration(services, { id: symbol.id, include_body: true, limit: PLACES_SHOWN })),
    type ? attempt('members', 'list_members', () => listMembers(services, { id: symbol.id, limit: MEMBERS_SHOWN })) : Promise.resolve(undefined),
    attempt('callers', 'find_impact', () => reachOf(services, root, REACH_DEPTH, signal)),
    callable ? attempt('callees', 'find_callees', () => findCalls(services, { id: symbol.id, depth: 1, limit: RELATED_SHOWN }, 'outgoing', signal)) : Promise.resolve(undefined),
  ]);
  // The reach asked find_usages already (one more syntactic answer reads the whole tree again): its first usages, else asked now.
  const usages = reach?.usages
    ? { ...reach.usages, results: reach.usages.results.slice(0, USAGES_SHOWN) }
    : await attempt('usages', 'find_usages', () => findUsages(services, { id: symbol.id, limit: USAGES_SHOWN }, signal));

  const places: DeclarationPlace[] = (declaration?.results ?? []).map(cutCode);
  if (declaration) parts.push({ part: 'places', operation: 'find_declaration', precision: 'syntactic', shown: places.length, total: declaration.totalMatches });

  const memberList: Member[] = members?.results ?? [];
  const bases: BaseRef[] = members?.bases ?? [];
  if (members) parts.push({ part: 'members', operation: 'list_members', precision: 'syntactic', shown: memberList.length, total: members.totalMatches });

  let inheritors: Affected[] = [];
  let overrides: Affected[] = [];
  let callers: Affected[] = [];
  let tests: ContextResponse['tests'] = [];
  if (reach) {
    const summary = await summarize(services, reach.found);
    inheritors = summary.ordered.filter((entry) => entry.relation === 'inherits');
    overrides = summary.ordered.filter((entry) => entry.relation === 'overrides' || entry.relation === 'implements');
    callers = summary.ordered.filter((entry) => entry.relation === 'call' && entry.distance === 1);
    tests = summary.tests;
    const precisionOf = (relations: string[]): 'semantic' | 'syntactic' => {
      const relevant = reach.parts.filter((part) => relations.includes(part.relation) && part.found > 0);
      return relevant.length > 0 && relevant.every((part) => part.precision === 'semantic') ? 'semantic' : 'syntactic';
    };
    const reasons = (relations: string[]): string | undefined => reach.parts.filter((part) => relations.includes(part.relation) && part.reason).map((part) => `${part.operation}: ${part.reason}`).join('; ') || undefined;
    if (callable) parts.push({ part: 'callers', operation: 'find_callers', precision: precisionOf(['call']), shown: Math.min(callers.length, RELATED_SHOWN), total: callers.length, ...optional(reasons(['call'])) });
    if (type) parts.push({ part: 'inheritors', operation: 'find_inheritors', precision: precisionOf(['inherits']), shown: Math.min(inheritors.length, RELATED_SHOWN), total: inheritors.length, ...optional(reasons(['inherits'])) });
    if (overrides.length > 0 || symbol.containingType) parts.push({ part: 'overrides', operation: type ? 'find_inheritors' : 'find_implementations', precision: precisionOf(['overrides', 'implements']), shown: Math.min(overrides.length, RELATED_SHOWN), total: overrides.length });
    parts.push({ part: 'tests', operation: 'find_impact', precision: precisionOf(['call', 'usage']), shown: Math.min(tests.length, TESTS_SHOWN), total: tests.length });
    if (reach.partial) notes.push(...reach.notes);
  }
  const calleeList: CallResult[] = callees?.results ?? [];
  if (callees) parts.push({ part: 'callees', operation: 'find_callees', precision: callees.precision, shown: calleeList.length, total: callees.totalMatches, ...optional(callees.precision === 'syntactic' ? callees.reason : undefined) });
  const usageList: Usage[] = usages?.results ?? [];
  if (usages) parts.push({ part: 'usages', operation: 'find_usages', precision: usages.precision, shown: usageList.length, total: usages.totalMatches, ...optional(usages.precision === 'syntactic' ? usages.reason : undefined) });

  const doc = [symbol, ...root.places].map((place) => place.doc).find((text): text is string => Boolean(text));
  const index = partialOf(services);
  const reasons = [index.reason, ...notes].filter((r): r is string => Boolean(r));
  const related = (entries: Affected[]): ImpactResult[] => entries.slice(0, RELATED_SHOWN).map(toResult);
  return {
    symbol: toIndexSymbol(symbol),
    doc: doc ? plainDoc(doc) : null,
    places,
    placesTotal: declaration?.totalMatches ?? 0,
    bases,
    members: memberList,
    membersTotal: members?.totalMatches ?? 0,
    inheritors: related(inheritors),
    inheritorsTotal: inheritors.length,
    overrides: related(overrides),
    overridesTotal: overrides.length,
    callers: related(callers),
    callersTotal: callers.length,
    callees: calleeList,
    calleesTotal: callees?.totalMatches ?? 0,
    usages: usageList,
    usagesTotal: usages?.totalMatches ?? 0,
    tests: tests.slice(0, TESTS_SHOWN),
    testsTotal: tests.length,
    parts,
    ...(reasons.length > 0 ? { partial: true as const, reason: reasons.join('; ') } : {}),
    elapsedMs: elapsedMs(started),
  };
}

function optional(reason: string | undefined): { reason?: string } {
  return reason ? { reason } : {};
}

/** A place's code cut after CODE_LINES lines, saying how many more it has. */
function cutCode(place: DeclarationPlace): DeclarationPlace {
  const snippet = place.snippet;
  if (!snippet) return place;
  const lines = snippet.text.split('\n');
  if (lines.length <= CODE_LINES) return place;
  const endLine = snippet.startLine + CODE_LINES - 1;
  return {
    ...place,
    snippet: { ...snippet, text: lines.slice(0, CODE_LINES).join('\n'), endLine, truncated: true, omittedLines: (snippet.omittedLines ?? 0) + lines.length - CODE_LINES },
  };
}
