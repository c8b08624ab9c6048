/**
 * Search pages already answered, kept while the store is unchanged. An agent repeats a search and
 * pages through it; a page of a common name (`Column`: hundreds of matches, every tier counted
 * exactly) costs a millisecond or more of SQL, its copy from here some microseconds. Backend-neutral:
 * a store gives each lookup a stamp that changes with every committed write (its own and, for a
 * shared store, other processes'); a different stamp empties the cache, so no answer is ever stale.
 */
import type { SearchHit, SearchPage, SearchSpec, StoredSymbol } from './store.js';

/** Pages kept, and symbols in them in all (a page holds at most its limit): about 10 MB at most. */
const MAX_PAGES = 256;
const MAX_SYMBOLS = 10_000;

export class SearchCache {
  /** Insertion order is recency: a hit is moved to the end, the first entry is the least recently used. */
  private readonly pages = new Map<string, SearchPage>();
  private stamp: string | number | undefined;
  private symbols = 0;

  constructor(
    private readonly maxPages = MAX_PAGES,
    private readonly maxSymbols = MAX_SYMBOLS,
  ) {}

  /** The page answered for `spec` under `stamp`, a copy the caller may change; `answer()` runs on a miss and its page is kept. */
  page(spec: SearchSpec, stamp: string | number, answer: () => SearchPage): SearchPage {
    if (this.maxPages <= 0) return answer();
    if (stamp !== this.stamp) this.clear(stamp);
    const key = keyOf(spec);
    const kept = this.pages.get(key);
    if (kept) {
      this.pages.delete(key);
      this.pages.set(key, kept);
      return copyPage(kept);
    }
    const page = answer();
    if (page.results.length <= this.maxSymbols) {
      this.pages.set(key, copyPage(page));
      this.symbols += page.results.length;
      for (const [oldest, evicted] of this.pages) {
        if (this.pages.size <= this.maxPages && this.symbols <= this.maxSymbols) break;
        this.pages.delete(oldest);
        this.symbols -= evicted.results.length;
      }
    }
    return page;
  }

  /**
   * page() for a store that answers asynchronously (PostgreSQL): `stamp` is read before the query; an answer is
   * kept only when no other stamp was seen while it ran, so an answer read before a change never outlives it.
   */
  async pageAsync(spec: SearchSpec, stamp: string | number, answer: () => Promise<SearchPage>): Promise<SearchPage> {
    if (this.maxPages <= 0) return answer();
    if (stamp !== this.stamp) this.clear(stamp);
    const key = keyOf(spec);
    const kept = this.pages.get(key);
    if (kept) return this.page(spec, stamp, () => kept);
    const page = await answer();
    return this.stamp === stamp ? this.page(spec, stamp, () => page) : page;
  }

  clear(stamp?: string | number): void {
    this.pages.clear();
    this.symbols = 0;
    this.stamp = stamp;
  }

  get size(): number {
    return this.pages.size;
  }
}

/**
 * Every field of a SearchSpec, names sorted: two specs asking the same thing have one key, whatever order they
 * were written in, and a field SearchSpec gains later is part of the key without a change here.
 */
export function keyOf(spec: SearchSpec): string {
  return JSON.stringify(spec, Object.keys(spec).sort());
}

function copyPage(page: SearchPage): SearchPage {
  const results: SearchHit[] = page.results.map((hit) => ({ symbol: copySymbol(hit.symbol), tier: hit.tier }));
  return page.countsCapped
    ? { results, totalMatches: page.totalMatches, forwardDeclarations: page.forwardDeclarations, countsCapped: true }
    : { results, totalMatches: page.totalMatches, forwardDeclarations: page.forwardDeclarations };
}

/** A StoredSymbol sharing nothing mutable with the one copied (its keys in the same order). */
export function copySymbol(s: StoredSymbol): StoredSymbol {
  return {
    id: s.id,
    name: s.name,
    kind: s.kind,
    file: s.file,
    line: s.line,
    column: s.column,
    range: { start: { line: s.range.start.line, column: s.range.start.column }, end: { line: s.range.end.line, column: s.range.end.column } },
    selectionRange: { start: { line: s.selectionRange.start.line, column: s.selectionRange.start.column }, end: { line: s.selectionRange.end.line, column: s.selectionRange.end.column } },
    containingType: s.containingType,
    qualifiedName: s.qualifiedName,
    signature: s.signature,
    parameters: s.parameters.map((p) => ({ name: p.name, type: p.type })),
    returnType: s.returnType,
    package: s.package,
    language: s.language,
    definition: s.definition,
    forwardDeclaration: s.forwardDeclaration,
    external: s.external,
    doc: s.doc,
    bases: [...s.bases],
  };
}
