/**
 * Resolution: from what a caller names (`symbol` short or qualified, narrowed by containingType, kind,
 * package, language; or `id`) to the index's symbols. Every operation that takes a symbol goes through
 * here. List operations (declaration) take every match; operations about one symbol take resolveOne:
 * the candidates that fit the operation, forward declarations dropped, a declaration merged with its
 * definition; one left is the answer, several a 409 listing them with ids.
 */
import { rulesOf } from '../languages/index.js';
import { invalidParameter, PlumbError } from '../errors.js';
import type { NormalizedKind } from '../kinds.js';
import { parseQuery } from '../index/ranking.js';
import type { StoredSymbol } from '../index/store.js';
import type { LanguageId } from '../syntax/types.js';
import type { Services } from '../services.js';
import { partialOf } from './envelope.js';
import { parseKinds, resolvePackageName } from './search.js';

/** The parameters every symbol operation takes to name its symbol. */
export interface SymbolSelector {
  symbol?: string;
  id?: string;
  containingType?: string;
  kind?: string;
  package?: string;
  language?: LanguageId;
}

/** Which symbols an operation can be about. */
export interface Fit {
  /** Kinds the operation takes (types for members and inheritors); undefined takes any. */
  kinds?: readonly NormalizedKind[];
  /** What the operation needs, for the message when a name matches only other kinds: "a type". */
  what: string;
}

export const TYPE_KINDS: readonly NormalizedKind[] = ['class', 'struct', 'interface', 'enum', 'type_alias'];
export const CALLABLE_KINDS: readonly NormalizedKind[] = ['function', 'method', 'constructor'];
export const ANY_SYMBOL: Fit = { what: 'a symbol' };
export const A_TYPE: Fit = { kinds: TYPE_KINDS, what: 'a type (class, struct, interface, enum, type alias)' };
export const A_CALLABLE: Fit = { kinds: CALLABLE_KINDS, what: 'a function or method' };

/** One symbol as a caller means it: its definition when it has one, and every place declaring it. */
export interface ResolvedSymbol {
  /** The definition, else the first declaration. */
  symbol: StoredSymbol;
  /** Definitions first, then declarations, each once (the symbol itself among them). */
  places: StoredSymbol[];
}

export interface Matches {
  /** What was asked for, for messages: the name or `id <id>`. */
  asked: string;
  /** Every match that is not a forward declaration, definitions before declarations, workspace first. */
  symbols: StoredSymbol[];
  forwardDeclarations: StoredSymbol[];
}

/** Enough for any real name: a name with more exact matches than this is not one symbol. */
const MATCH_CAP = 1000;

/** Every symbol the selector names, exactly (case-sensitive first; case-insensitive only when that finds none). */
export async function findMatches(services: Services, selector: SymbolSelector): Promise<Matches> {
  const reader = services.index.reader;
  const id = selector.id?.trim();
  if (id) {
    const symbol = await reader.symbolById(id);
    if (!symbol) throw new PlumbError('symbol_not_found', `Symbol with id '${id}' not found (the file changed or left the index); search by name again`, { details: { id } });
    return symbol.forwardDeclaration
      ? { asked: `id ${id}`, symbols: [], forwardDeclarations: [symbol] }
      : { asked: `id ${id}`, symbols: [symbol], forwardDeclarations: [] };
  }
  const text = selector.symbol?.trim() ?? '';
  if (text === '') throw new PlumbError('invalid_parameter', "Parameter 'symbol' or 'id' is required: a name (`Flask`, `Config.from_object`, `ns::Type::method`) or an id from an earlier answer", { details: { parameter: 'symbol' } });
  if (text.length > 500) throw invalidParameter('symbol', 'must be at most 500 characters');
  const { name, qualifier } = parseQuery(text);
  const spec = {
    name,
    qualifier,
    kinds: parseKinds(selector.kind),
    packages: selector.package !== undefined && selector.package !== '' ? [await resolvePackageName(reader, selector.package)] : undefined,
    language: selector.language,
    containingType: selector.containingType?.trim() || undefined,
    offset: 0,
    limit: MATCH_CAP,
    includeForwardDeclarations: true,
  };
  // Case-insensitive matches only when there is no case-sensitive one: asking for both at once reads every
  // `TEST` macro invocation when the name is `Test`.
  let page = await reader.search({ ...spec, tiers: ['exact'] });
  if (page.results.length === 0) page = await reader.search({ ...spec, tiers: ['exact_case_insensitive'] });
  const hits = page.results.map((hit) => hit.symbol);
  return {
    asked: text,
    symbols: hits.filter((symbol) => !symbol.forwardDeclaration),
    forwardDeclarations: hits.filter((symbol) => symbol.forwardDeclaration),
  };
}

/** 404 for a name with no match, saying when the index is still building. */
export function notFound(services: Services, asked: string, extra = ''): PlumbError {
  const partial = partialOf(services);
  const message = [`Symbol '${asked}' not found${extra}`, partial.reason].filter(Boolean).join('. ');
  return new PlumbError('symbol_not_found', message, { details: { symbol: asked, ...partial } });
}

/** The one symbol an operation is about; 404 when none fits, 409 listing the candidates when several do. */
export async function resolveOne(services: Services, selector: SymbolSelector, fit: Fit = ANY_SYMBOL): Promise<ResolvedSymbol> {
  const matches = await findMatches(services, selector);
  const fitting = fit.kinds ? matches.symbols.filter((symbol) => fit.kinds!.includes(symbol.kind)) : matches.symbols;
  if (fitting.length === 0) {
    if (matches.symbols.length > 0) {
      const kinds = [...new Set(matches.symbols.map((symbol) => symbol.kind))].join(', ');
      throw new PlumbError('symbol_not_found', `Symbol '${matches.asked}' is a ${kinds}; this operation needs ${fit.what}`, { details: { symbol: matches.asked, kinds } });
    }
    if (matches.forwardDeclarations.length > 0 && (!fit.kinds || matches.forwardDeclarations.some((s) => fit.kinds!.includes(s.kind)))) {
      const where = matches.forwardDeclarations.slice(0, 3).map((s) => `${s.file}:${s.line}`).join(', ');
      throw notFound(services, matches.asked, ` (only forward declarations, at ${where}; the definition is outside the index)`);
    }
    throw notFound(services, matches.asked);
  }
  const grouped = groupPlaces(fitting);
  // A type and its own constructors are one name: the type answers.
  const types = grouped.filter((group) => TYPE_KINDS.includes(group.symbol.kind));
  const groups = grouped.filter((group) => !types.some((type) => isConstructorOf(group.symbol, type.symbol)));
  if (groups.length === 1) return groups[0];
  // Never a silent first pick: every candidate, the best placed first (workspace code, then tests and tools).
  groups.sort((a, b) => placeRank(a.symbol) - placeRank(b.symbol));
  const candidates = groups.map(({ symbol }) => ({ id: symbol.id, qualifiedName: symbol.qualifiedName, kind: symbol.kind, file: symbol.file, line: symbol.line, signature: symbol.signature }));
  const shown = candidates.slice(0, 10).map((c) => `${c.qualifiedName} (${c.kind}, ${c.file}:${c.line}, id ${c.id})`).join('; ');
  const more = candidates.length > 10 ? `; and ${candidates.length - 10} more` : '';
  throw new PlumbError('ambiguous_symbol', `Symbol '${matches.asked}' is ambiguous: ${candidates.length} symbols match. Narrow it with containingType, kind, package or language, or pass one id: ${shown}${more}`, {
    details: { symbol: matches.asked, candidates: candidates.slice(0, 50), totalCandidates: candidates.length },
  });
}

/**
 * Declarations and definitions of one symbol, grouped: same language, same qualified name, same kind family
 * and (for callables) the same parameter types, so overloads stay apart and a C++ method declared in its
 * class and defined out of line is one symbol. Groups keep the order of `symbols`.
 */
export function groupPlaces(symbols: StoredSymbol[]): ResolvedSymbol[] {
  const groups = new Map<string, StoredSymbol[]>();
  for (const symbol of symbols) {
    const key = identityKey(symbol);
    const group = groups.get(key);
    if (group) group.push(symbol);
    else groups.set(key, [symbol]);
  }
  return [...groups.values()].flatMap(splitDefinitions).map((places) => {
    const ordered = [...places.filter((s) => s.definition), ...places.filter((s) => !s.definition)];
    return { symbol: ordered[0], places: ordered };
  });
}

/**
 * Places of one qualified name defined in several files are several symbols (a struct of two programs, a
 * static function of two files, a test's stub of a library function): each file's definitions are one, and
 * a declaration joins the definition in its own file, else the one whose file has its stem (`slab.h` and
 * `slab.c`), else the best placed (placeRank). Places with one defining file (or none) stay one symbol.
 */
function splitDefinitions(places: StoredSymbol[]): StoredSymbol[][] {
  const byFile = new Map<string, StoredSymbol[]>();
  for (const place of places) {
    if (!place.definition) continue;
    const list = byFile.get(place.file);
    if (list) list.push(place);
    else byFile.set(place.file, [place]);
  }
  if (byFile.size <= 1) return [places];
  const ranked = [...byFile.values()].map((list) => list[0]).sort((a, b) => placeRank(a) - placeRank(b));
  for (const declaration of places) {
    if (declaration.definition) continue;
    const home = byFile.get(declaration.file) ?? byFile.get(ranked.find((d) => stemOf(d.file) === stemOf(declaration.file))?.file ?? ranked[0].file)!;
    home.push(declaration);
  }
  return [...byFile.values()];
}

function stemOf(file: string): string {
  return file.replace(/\.[^./]*$/, '');
}

/** Tests, samples, examples, tools and benchmarks: code that uses a library rather than being it. */
const AUXILIARY = /(^|\/)(tests?|testing|testdata|selftests|samples?|examples?|tools|benchmarks?|bench|mocks?|fixtures|demos?)\/|(^|\/)test_[^/]*$|_(test|tests|unittest)\.[^/.]+$|\.(test|spec)\.[^/.]+$/i;

/**
 * How well placed a symbol's place is, lower first: workspace code before extra roots, code before tests,
 * samples and tools, a definition before a declaration, and where declarations and definitions are apart
 * (C, C++) a header's definition before a file-local one.
 */
export function placeRank(symbol: StoredSymbol): number {
  let rank = 0;
  if (symbol.external) rank += 100;
  if (AUXILIARY.test(symbol.file)) rank += 10;
  if (!symbol.definition) rank += 2;
  const headers = rulesOf(symbol.language)?.headerExtensions;
  if (headers && !headers.some((extension) => symbol.file.toLowerCase().endsWith(extension))) rank += 1;
  return rank;
}

/** A type's own constructor: a constructor whose qualifier is the type's qualified name. */
function isConstructorOf(constructor: StoredSymbol, type: StoredSymbol): boolean {
  if (constructor.kind !== 'constructor') return false;
  const qualified = constructor.qualifiedName;
  for (const separator of ['::', '.']) {
    if (qualified.startsWith(`${type.qualifiedName}${separator}`) && !qualified.slice(type.qualifiedName.length + separator.length).includes(separator)) return true;
  }
  return false;
}

function identityKey(symbol: StoredSymbol): string {
  const family = (CALLABLE_KINDS as readonly string[]).includes(symbol.kind) ? 'callable' : symbol.kind;
  const qualified = symbol.qualifiedName.replace(/::|#/g, '.');
  // Overloads are separate symbols where the language has them; a TypeScript overload list is one function.
  const rules = rulesOf(symbol.language);
  const types = family === 'callable' && rules?.overloads ? symbol.parameters.map((p) => normalizeType(p.type)).join(',') : '';
  // Where a language splits one symbol between a declaration and a definition (C, C++), its places are one
  // symbol in any file; elsewhere two definitions of one qualified name in two files are two symbols (two
  // modules' `main`, two packages' `Config`).
  const place = rules?.separateDeclarations ? '' : `${symbol.file}\u0000`;
  return `${rules?.family ?? symbol.language}\u0000${place}${family}\u0000${qualified}\u0000${types}`;
}

function normalizeType(type: string): string {
  return type.replace(/\s+/g, '').replace(/=.*$/, '');
}
