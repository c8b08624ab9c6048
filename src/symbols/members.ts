/**
 * GET /symbols/members (list_members): the members of one type, from the index, in declaration order.
 * A member is a symbol whose container is the type: declared in its body (C++ members under annotation
 * macros included: the extractor blanks the macros), a C++ method defined out of line (merged with its
 * in-class declaration: one entry), a Go receiver method in any file of the struct's package, a Rust
 * method of an `impl` block, a Python `self.x = ...` of `__init__`. static/visibility come from the
 * syntax where the language writes them. The bases as written are resolved through the index (always:
 * an own member that overrides a base member says so); inherited=true adds the bases' members.
 */
import path from 'node:path';
import type { NormalizedKind } from '../kinds.js';
import type { StoredSymbol } from '../index/store.js';
import { isConstructorOrDestructor, languageById, rulesOf, sameFamily } from '../languages/index.js';
import { BaseResolver } from './base-resolver.js';
import type { Services } from '../services.js';
import type { BaseRef, Member, MembersQuery, MembersResponse } from '../../schemas/navigation.js';
import { invalidParameter } from '../errors.js';
import { elapsedMs } from './elapsed.js';
import { checkLimit, listEnvelope, pageOf, toIndexSymbol } from './envelope.js';
import { A_TYPE, CALLABLE_KINDS, TYPE_KINDS, findMatches, resolveOne } from './resolve-symbol.js';
import { parseKinds } from './search.js';
import { SourceLines } from './source-lines.js';

/** Candidates read per type name: every member of every type of that simple name, for any real code. */
const CONTAINER_CAP = 20_000;
/** Bases followed at most, transitively (a guard against pathological hierarchies). */
const BASES_MAX = 64;

export async function listMembers(services: Services, query: MembersQuery): Promise<MembersResponse> {
  const started = performance.now();
  const limit = checkLimit(query.limit);
  const offset = query.offset ?? 0;
  if (!Number.isInteger(offset) || offset < 0) throw invalidParameter('offset', 'must be an integer of 0 or more');
  const kinds = parseKinds(query.kind);
  // `kind` filters the members: the type itself is found by its name alone.
  const { symbol: type } = await resolveOne(services, { ...query, kind: undefined }, A_TYPE);

  const members = new MemberReader(services);
  const own = await members.of(type);
  const bases = await resolveBases(services, type);
  const baseMembers: Array<{ base: StoredSymbol; members: Member[] }> = [];
  for (const base of bases) if (base.symbol) baseMembers.push({ base: base.symbol, members: (await members.of(base.symbol)).members });

  // An own callable overriding a base member says which: the nearest base's, in the order the bases are written.
  for (const member of own.members) {
    const key = overrideKey(member);
    if (!key) continue;
    for (const { base, members: inherited } of baseMembers) {
      const overridden = inherited.find((candidate) => overrideKey(candidate) === key);
      if (overridden) {
        member.overrides = { id: overridden.id, qualifiedName: overridden.qualifiedName, inheritedFrom: base.qualifiedName };
        break;
      }
    }
  }

  const all: Member[] = [...own.members];
  if (query.inherited) {
    const seen = new Set(own.members.map(overrideKey).filter((key): key is string => key !== null));
    for (const { base, members: inherited } of baseMembers) {
      const added: string[] = [];
      for (const member of inherited) {
        if (!isInheritable(member)) continue;
        const key = overrideKey(member);
        if (key && seen.has(key)) continue;
        all.push({ ...member, inheritedFrom: base.qualifiedName });
        if (key) added.push(key);
      }
      // A deeper base's member of the same name is hidden by the nearer one.
      for (const key of added) seen.add(key);
    }
  }
  const filtered = kinds ? all.filter((member) => kinds.includes(member.kind)) : all;
  const page = pageOf(filtered, offset, limit);
  return {
    symbol: toIndexSymbol(type),
    bases: bases.map((base) => base.ref),
    results: page,
    ...listEnvelope({ limit, offset, totalMatches: filtered.length, returned: page.length, forwardDeclarations: own.forwardDeclarations }, services),
    source: 'index',
    elapsedMs: elapsedMs(started),
  };
}

/**
 * What a member is overridden by, by its language's rule (rules.overrides): any attribute of the same name
 * (Python, TypeScript), callables of the same name and parameter types (Java, C#), callables of the same name.
 */
function overrideKey(member: Member): string | null {
  if (isConstructorOrDestructor(member)) return null;
  const callable = (CALLABLE_KINDS as readonly string[]).includes(member.kind);
  switch (rulesOf(member.language)?.overrides) {
    case 'attribute':
      return member.kind === 'class' || member.kind === 'interface' ? null : member.name;
    case 'signature':
      return callable ? `${member.name}(${member.parameters.map((p) => p.type.replace(/\s+/g, '')).join(',')})` : null;
    default:
      return callable ? member.name : null;
  }
}

/** Constructors, destructors and what the language keeps with its type (C++ copy assignment) are not inherited. */
function isInheritable(member: Member): boolean {
  if (isConstructorOrDestructor(member)) return false;
  return !(rulesOf(member.language)?.uninherited ?? []).includes(member.name);
}

// ---- members of one type ----

interface OwnMembers {
  members: Member[];
  forwardDeclarations: number;
}

/** Reads types' members, each type once per request, each file once. */
class MemberReader {
  private readonly sources: SourceLines;
  private readonly cache = new Map<string, Promise<OwnMembers>>();

  constructor(private readonly services: Services) {
    this.sources = new SourceLines(services);
  }

  of(type: StoredSymbol): Promise<OwnMembers> {
    let pending = this.cache.get(type.id);
    if (!pending) {
      pending = this.load(type);
      this.cache.set(type.id, pending);
    }
    return pending;
  }

  private async load(type: StoredSymbol): Promise<OwnMembers> {
    const candidates = (await this.services.index.reader.symbolsInContainer(type.name, CONTAINER_CAP))
      .filter((candidate) => candidate.id !== type.id && sameFamily(candidate.language, type.language));
    const belonging: StoredSymbol[] = [];
    const elsewhere = new Map<string, StoredSymbol[]>();
    for (const candidate of candidates) {
      const qualifier = qualifierOf(candidate);
      if (qualifier === null) continue;
      if (qualifier === type.qualifiedName) {
        if (placedWith(candidate, type)) belonging.push(candidate);
      } else if (rulesOf(type.language)?.membersLive === 'anywhere' && ownerMayBe(qualifier, type.qualifiedName)) {
        // `Test::SetUp` written where `using namespace testing` holds: testing::Test's, unless a type is named exactly so.
        const list = elsewhere.get(qualifier) ?? [];
        list.push(candidate);
        elsewhere.set(qualifier, list);
      }
    }
    for (const [qualifier, list] of elsewhere) {
      if ((await typesNamedExactly(this.services, qualifier, type.language)).length === 0) belonging.push(...list);
    }
    const mine = rulesOf(type.language)?.membersLive === 'anywhere' && belonging.some((symbol) => symbol.file !== type.file)
      ? await this.ownedAmongNamesakes(type, belonging)
      : belonging;
    const forwardDeclarations = mine.filter((symbol) => symbol.forwardDeclaration).length;
    const grouped = groupMembers(type, mine.filter((symbol) => !symbol.forwardDeclaration));
    await this.addVisibility(type, grouped);
    return { members: grouped.map(({ inClass: _inClass, ...member }) => member), forwardDeclarations };
  }

  /**
   * C++ types of one qualified name defined in several files (a `class Foo` in each of two tests): a member
   * in another file than the type belongs to the namesake defined in its own file, else to one in a header
   * (out-of-line definitions implement a header's class), else to the namesake with the nearest path.
   */
  private async ownedAmongNamesakes(type: StoredSymbol, members: StoredSymbol[]): Promise<StoredSymbol[]> {
    const namesakes = (await typesNamedExactly(this.services, type.qualifiedName, type.language)).filter((other) => other.definition);
    if (namesakes.length <= 1) return members;
    return members.filter((member) => {
      if (member.file === type.file) return true;
      const local = namesakes.find((other) => other.file === member.file);
      if (local) return local.id === type.id;
      const headers = namesakes.filter((other) => HEADER.test(other.file));
      const pool = headers.length > 0 ? headers : namesakes;
      let best = pool[0];
      for (const other of pool) if (commonPrefix(other.file, member.file) > commonPrefix(best.file, member.file)) best = other;
      return best.id === type.id;
    });
  }

  /**
   * Visibility and static as the language's rules read them from each member's syntax; where visibility comes
   * from access labels in the body (C++ `public:`), from the labels, the default of class or struct before the first.
   */
  private async addVisibility(type: StoredSymbol, members: Array<Member & { inClass: boolean }>): Promise<void> {
    const rules = rulesOf(type.language);
    for (const member of members) {
      const memberRules = rulesOf(member.language);
      const visibility = memberRules?.visibility?.(type, member);
      if (visibility) member.visibility = visibility;
      const isStatic = STATIC_KINDS.has(member.kind) ? memberRules?.isStatic?.(member) : undefined;
      if (isStatic !== undefined) member.static = isStatic;
    }
    if (!rules?.accessLabels) return;
    const inClass = members.filter((member) => member.inClass);
    if (inClass.length === 0) return;
    const read = await this.sources.read(type.file);
    if ('error' in read) return;
    const nested = inClass.filter((member) => (TYPE_KINDS as readonly string[]).includes(member.kind) || member.kind === 'namespace');
    const labels: Array<{ line: number; access: string }> = [];
    const last = Math.min(type.range.end.line, read.lines.length);
    for (let line = type.range.start.line; line <= last; line++) {
      if (nested.some((inner) => line >= inner.range.start.line && line <= inner.range.end.line && inner.line !== line)) continue;
      const match = ACCESS_LABEL.exec(read.lines[line - 1]);
      if (match) labels.push({ line, access: match[1] });
    }
    const fallback = type.kind === 'class' ? 'private' : 'public';
    for (const member of inClass) {
      let access = fallback;
      for (const label of labels) if (label.line <= member.line) access = label.access;
      member.visibility = access;
    }
  }
}

const ACCESS_LABEL = /^\s*(public|protected|private)\s*(?:slots\s*|Q_SLOTS\s*)?:(?!:)/;

/** Places of one member merged (a C++ in-class declaration and its out-of-line definition; overload signatures), in declaration order. */
function groupMembers(type: StoredSymbol, symbols: StoredSymbol[]): Array<Member & { inClass: boolean }> {
  const groups = new Map<string, StoredSymbol[]>();
  for (const symbol of symbols) {
    const family = (CALLABLE_KINDS as readonly string[]).includes(symbol.kind) ? 'callable' : symbol.kind;
    const types = family === 'callable' && rulesOf(symbol.language)?.overloads ? symbol.parameters.map((p) => p.type.replace(/\s+/g, '').replace(/=.*$/, '')).join(',') : '';
    const key = `${family}\u0000${symbol.name}\u0000${types}`;
    const group = groups.get(key);
    if (group) group.push(symbol);
    else groups.set(key, [symbol]);
  }
  const entries = [...groups.values()].map((places) => {
    const inside = places.filter((place) => insideType(place, type));
    const entry = inside.find((place) => place.definition) ?? inside[0] ?? places.find((place) => place.definition) ?? places[0];
    const definition = entry.definition ? undefined : places.find((place) => place.definition);
    const first = inside[0] ?? entry;
    const member: Member & { inClass: boolean; order: [number, string, number, number] } = {
      ...toIndexSymbol(entry),
      ...(definition ? { definitionAt: { id: definition.id, file: definition.file, line: definition.line } } : {}),
      inClass: inside.length > 0,
      // In the body first, by position; then the rest (out-of-line, receiver methods), the type's file first.
      order: inside.length > 0 ? [0, '', first.range.start.line, first.range.start.column] : [entry.file === type.file ? 1 : 2, entry.file, entry.line, entry.column],
    };
    return member;
  });
  entries.sort((a, b) => a.order[0] - b.order[0] || (a.order[1] < b.order[1] ? -1 : a.order[1] > b.order[1] ? 1 : 0) || a.order[2] - b.order[2] || a.order[3] - b.order[3]);
  return entries.map(({ order: _order, ...member }) => member);
}

function insideType(symbol: StoredSymbol, type: StoredSymbol): boolean {
  if (symbol.file !== type.file) return false;
  const { start, end } = type.range;
  const at = symbol.selectionRange.start;
  return (at.line > start.line || (at.line === start.line && at.column >= start.column))
    && (at.line < end.line || (at.line === end.line && at.column <= end.column));
}

/** Where a member with the type's exact qualifier may live (rules.membersLive): anywhere, the type's directory, package, or file. */
function placedWith(member: StoredSymbol, type: StoredSymbol): boolean {
  switch (rulesOf(type.language)?.membersLive) {
    case 'anywhere':
      return true;
    case 'directory':
      return path.posix.dirname(member.file) === path.posix.dirname(type.file);
    case 'package':
      return member.package === type.package;
    default:
      return member.file === type.file;
  }
}

/** The qualified name without the member's own name (`testing::Test` of `testing::Test::SetUp`). */
function qualifierOf(symbol: StoredSymbol): string | null {
  const separator = languageById(symbol.language)?.syntax.separator ?? '.';
  const tail = `${separator}${symbol.name}`;
  return symbol.qualifiedName.endsWith(tail) ? symbol.qualifiedName.slice(0, -tail.length) : null;
}

/** A member qualified with a shorter name than the type's (C++ `Test::SetUp` for `testing::Test`): its segments end the type's. */
function ownerMayBe(qualifier: string, typeName: string): boolean {
  const q = qualifier.split('::');
  const t = typeName.split('::');
  if (q.length >= t.length) return false;
  return q.every((segment, i) => segment === t[t.length - q.length + i]);
}

async function typesNamedExactly(services: Services, qualified: string, language: string): Promise<StoredSymbol[]> {
  const matches = await findMatches(services, { symbol: qualified });
  return matches.symbols.filter((symbol) => symbol.qualifiedName === qualified && sameFamily(symbol.language, language) && (TYPE_KINDS as readonly string[]).includes(symbol.kind));
}

const HEADER = /\.(h|hh|hpp|hxx|h\+\+|inl|ipp|tpp|cuh)$/i;

function commonPrefix(a: string, b: string): number {
  let i = 0;
  while (i < a.length && i < b.length && a[i] === b[i]) i++;
  return i;
}

const STATIC_KINDS = new Set<NormalizedKind>(['method', 'function', 'field', 'property', 'constant', 'variable']);

// ---- bases ----

interface ResolvedBase {
  ref: BaseRef;
  symbol?: StoredSymbol;
}

/**
 * The type's bases as written, resolved through the one base resolver (the hierarchy's), transitively
 * (breadth first, each type once). A base the resolver cannot tell from a namesake takes the first of the
 * best (as the hierarchy lists it first).
 */
async function resolveBases(services: Services, type: StoredSymbol): Promise<ResolvedBase[]> {
  const resolver = new BaseResolver(services);
  const out: ResolvedBase[] = [];
  const visited = new Set<string>([type.id]);
  let level: Array<{ symbol: StoredSymbol; via?: string }> = [{ symbol: type }];
  for (let depth = 1; level.length > 0 && out.length < BASES_MAX; depth++) {
    const next: typeof level = [];
    for (const { symbol: derived } of level) {
      for (const written of derived.bases) {
        if (out.length >= BASES_MAX) break;
        const name = baseName(written, derived.language);
        if (!name) continue;
        const found = (await resolver.resolve(derived, written)).best[0]?.symbol;
        const via = depth > 1 ? derived.qualifiedName : undefined;
        if (!found) {
          if (!out.some((base) => !base.symbol && base.ref.name === name)) out.push({ ref: { name, resolved: false, depth, ...(via ? { via } : {}) } });
          continue;
        }
        if (visited.has(found.id)) continue;
        visited.add(found.id);
        out.push({ symbol: found, ref: { name, resolved: true, id: found.id, qualifiedName: found.qualifiedName, file: found.file, line: found.line, depth, ...(via ? { via } : {}) } });
        next.push({ symbol: found });
      }
    }
    level = next;
  }
  return out;
}

/** `public ::testing::Test` → `testing::Test`; `Observable<T>` → `Observable`; `Generic[T]` → `Generic`; `Shape("circle")` → `Shape`. */
export function baseName(written: string, language: string): string | null {
  const rules = rulesOf(language)?.bases;
  let name = written.trim()
    .replace(/^(?:(?:public|protected|private|virtual|internal)\s+)+/, '')
    .replace(/\s*\.\.\.$/, '');
  name = stripBracketed(name, '<', '>');
  if (rules?.squareBracketArguments) name = stripBracketed(name, '[', ']');
  name = stripBracketed(name, '(', ')');
  name = name.replace(/^\*+/, '').replace(/^::/, '').replace(/\s+/g, '').trim();
  if (name === '' || name === rules?.implicitRoot) return null;
  // Rust supertraits and TS intersections may list several bounds: take a single name only.
  if (!/^[\p{L}_$][\p{L}\p{N}_$]*(?:(?:::|\.)[\p{L}_$][\p{L}\p{N}_$]*)*$/u.test(name)) return null;
  return name;
}

/** Removes balanced bracketed parts (`Foo<Bar<T>>::Inner` → `Foo::Inner`). */
function stripBracketed(text: string, open: string, close: string): string {
  let out = '';
  let depth = 0;
  for (const char of text) {
    if (char === open) depth++;
    else if (char === close && depth > 0) depth--;
    else if (depth === 0) out += char;
  }
  return out;
}
