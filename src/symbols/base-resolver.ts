/**
 * The one resolver of written bases: which indexed type `class Derived : public ns::Base<T>`,
 * `class Child(mod.Base)` or `struct S { pkg.Embedded }` names. Every operation that follows a base —
 * members with inherited=true, hierarchy, inheritors, implementations — asks here, so two of them never
 * disagree on what a base names. The candidates are every type of the base's last name in the deriving
 * type's language family; each language's rules (`rules.bases.score`, src/languages/<id>/rules.ts) score
 * them by the deriving file's scope, imports and includes, after their name lookup (`rules.bases.visible`) has
 * set aside the types it cannot find from the deriving type (C++: a namesake in an unrelated namespace, even in the
 * deriving file). One resolver per request: it caches the files' imports and the types of each name it read.
 */
import path from 'node:path';
import type { StoredSymbol } from '../index/store.js';
import { languageById, rulesOf, sameFamily, type LanguageRules } from '../languages/index.js';
import { dirOf, endsWith, splitQualified } from '../languages/names.js';
import type { Services } from '../services.js';
import { basePath, baseKey, parseImports, type FileImports } from '../syntax/bases.js';
import { groupPlaces, TYPE_KINDS, type ResolvedSymbol } from './resolve-symbol.js';

/** Types of one name read to tell them apart. */
const SAME_NAME_CAP = 200;

export interface ResolvedBase {
  /** The top-scored types (several when the written base cannot tell them apart); [] when none fits. */
  best: ResolvedSymbol[];
  /** The scope or imports point at one type, or it is the only one its file could reach. */
  confirmed: boolean;
}

export class BaseResolver {
  private readonly imports = new Map<string, Promise<FileImports>>();
  private readonly typesNamed = new Map<string, Promise<ResolvedSymbol[]>>();
  private readonly lookup = { importsOf: (symbol: StoredSymbol) => this.importsOf(symbol) };

  constructor(private readonly services: Services) {}

  /** The type name a written base stands for: its last segment, or what an import alias renames. */
  async nameOf(child: StoredSymbol, written: string): Promise<string | undefined> {
    const segments = basePath(written);
    const key = baseKey(written);
    if (segments.length === 1 && key && languageById(child.language)?.syntax.importsRename) {
      const imports = await this.importsOf(child);
      const alias = imports.names.find((n) => n.local === key && n.imported !== 'default');
      if (alias) return alias.imported;
    }
    return key;
  }

  /**
   * Which index type a base written in `child` names: every type of that name in the language family,
   * scored by the language's rules; `best` are the top-scored, `confirmed` when one stands out (or is the
   * only one of its name and nothing written rules it out).
   */
  async resolve(child: StoredSymbol, written: string): Promise<ResolvedBase> {
    const rules = rulesOf(child.language);
    const name = await this.nameOf(child, written);
    if (!name || !rules || name === rules.bases.implicitRoot) return { best: [], confirmed: false };
    const groups = (await this.typesNamedIn(name, child.language)).filter((g) => !g.places.some((p) => p.id === child.id));
    if (groups.length === 0) return { best: [], confirmed: false };
    const segments = basePath(written);
    if (groups.length === 1) {
      const ruledOut = rules.bases.ruledOut?.(child, written, segments, groups[0]) ?? false;
      return ruledOut ? { best: [], confirmed: false } : { best: groups, confirmed: true };
    }
    // Name lookup first, then proximity: where the language's lookup finds some of the types, the others are out.
    const visibility = rules.bases.visible;
    const seen = visibility ? await Promise.all(groups.map((group) => visibility(this.lookup, child, written, segments, group))) : [];
    const found = seen.some(Boolean) ? groups.filter((_, i) => seen[i]) : groups;
    const scored = await Promise.all(found.map(async (group) => ({ group, score: await this.score(rules, child, written, segments, group) })));
    const top = Math.max(...scored.map((s) => s.score));
    if (top < 0) return { best: [], confirmed: false };
    const best = scored.filter((s) => s.score === top).map((s) => s.group);
    const second = Math.max(-1, ...scored.filter((s) => s.score !== top).map((s) => s.score));
    return { best, confirmed: best.length === 1 && (top >= 2 || (top >= 1 && second < 1)) };
  }

  /** The imports of a symbol's file, read once per resolver. */
  importsOf(symbol: StoredSymbol): Promise<FileImports> {
    let imports = this.imports.get(symbol.file);
    if (!imports) {
      const absolute = path.isAbsolute(symbol.file) ? symbol.file : path.join(this.services.workspace.root, symbol.file);
      const spec = languageById(symbol.language)?.syntax;
      imports = this.services.workspace.files.text(absolute).then((text) => parseImports(spec, text ?? ''));
      this.imports.set(symbol.file, imports);
    }
    return imports;
  }

  /** How well a type the lookup can find fits: the same file first, then the language's own scoring (by default its directory). */
  private async score(rules: LanguageRules, child: StoredSymbol, written: string, segments: string[], group: ResolvedSymbol): Promise<number> {
    if (group.places.some((p) => p.file === child.file)) {
      return segments.length === 1 || endsWith(splitQualified(group.symbol.qualifiedName), segments) ? 3 : 2;
    }
    if (rules.bases.score) return rules.bases.score(this.lookup, child, written, segments, group);
    return dirOf(group.symbol.file) === dirOf(child.file) ? 2 : 1;
  }

  private typesNamedIn(name: string, language: string): Promise<ResolvedSymbol[]> {
    const key = `${rulesOf(language)?.family ?? language}\u0000${name}`;
    let found = this.typesNamed.get(key);
    if (!found) {
      found = this.services.index.reader.search({ name, tiers: ['exact'], kinds: [...TYPE_KINDS], offset: 0, limit: SAME_NAME_CAP, includeForwardDeclarations: false })
        .then((page) => groupPlaces(page.results.map((hit) => hit.symbol).filter((s) => sameFamily(s.language, language) && !s.forwardDeclaration)));
      this.typesNamed.set(key, found);
    }
    return found;
  }
}
