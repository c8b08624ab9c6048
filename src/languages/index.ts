/**
 * The languages plumb knows, one folder each (src/languages/<id>/), and what is derived from the list:
 * `LANGUAGE_IDS` (ids.ts: the schemas' language enum), the index's extension map, the language servers the
 * pool runs (one per server descriptor, with the extensions of every language naming it), and the lookups
 * generic code asks a language's rules through (`languageById`, `languageOfPath`, `rulesOf`, `sameFamily`).
 *
 * Adding a language: its folder (index.ts with the `Language`, syntax.ts with the tree-sitter spec, rules.ts
 * with its rules), its id in ids.ts and its module in `LANGUAGES`, and where it has a server its install
 * line in scripts/setup.sh.
 */
import path from 'node:path';
import { c } from './c/index.js';
import { cpp } from './cpp/index.js';
import { csharp } from './csharp/index.js';
import { go } from './go/index.js';
import { java } from './java/index.js';
import { javascript } from './javascript/index.js';
import { python } from './python/index.js';
import { rust } from './rust/index.js';
import { tsx } from './tsx/index.js';
import { typescript } from './typescript/index.js';
import type { Language, LanguageDescriptor, LanguageRules, ServerDescriptor } from './types.js';
import { LANGUAGE_IDS, type LanguageId } from './ids.js';

export type { BaseCandidate, BaseLookup, CommandSource, FilesAround, Language, LanguageDescriptor, LanguageOfFile, LanguageRules, ModulePathRule, ServerDescriptor, SourcePiece } from './types.js';

/** Every language, in the order the schemas' enum lists them. */
export const LANGUAGES = [c, cpp, csharp, typescript, tsx, javascript, python, go, java, rust] as const;

export { LANGUAGE_IDS, type LanguageId } from './ids.js';

if (LANGUAGES.map((language) => language.id).join() !== LANGUAGE_IDS.join()) {
  throw new Error(`src/languages/ids.ts lists ${LANGUAGE_IDS.join(', ')} but LANGUAGES holds ${LANGUAGES.map((language) => language.id).join(', ')}: keep them the same, in the same order`);
}

/**
 * A set of languages with its lookups. `BUILTIN` holds `LANGUAGES`; `withLanguages()` makes another
 * (a test adding a toy language) without touching the built-in one.
 */
export class Languages {
  readonly list: readonly Language[];
  private readonly ids = new Map<string, Language>();
  private readonly extensionMap = new Map<string, Language>();

  constructor(list: readonly Language[]) {
    this.list = list;
    const serverIds = new Map<string, ServerDescriptor>();
    for (const language of list) {
      if (this.ids.has(language.id)) throw new Error(`language '${language.id}' is listed twice`);
      const missing = missingFields(language);
      if (missing.length > 0) throw new Error(`language '${language.id}' lacks ${missing.join(', ')} (see src/languages/types.ts)`);
      this.ids.set(language.id, language);
      for (const extension of language.extensions) {
        if (extension !== extension.toLowerCase() || !extension.startsWith('.')) throw new Error(`language '${language.id}': extension '${extension}' must be lower case and start with a dot`);
        const claimed = this.extensionMap.get(extension);
        if (claimed) throw new Error(`extension '${extension}' belongs to both '${claimed.id}' and '${language.id}'`);
        this.extensionMap.set(extension, language);
      }
      for (const extension of language.languageOf?.extensions ?? []) {
        if (!language.extensions.includes(extension)) throw new Error(`language '${language.id}': languageOf decides '${extension}', which is not one of its extensions`);
      }
      const server = language.server;
      if (server && serverIds.get(server.id) && serverIds.get(server.id) !== server) throw new Error(`two server descriptors share the id '${server.id}': languages sharing a server share its object`);
      if (server) serverIds.set(server.id, server);
    }
  }

  /** The language with this id. */
  byId(id: string): Language | undefined {
    return this.ids.get(id);
  }

  /** The language a file is parsed as, by its extension, case-insensitively (`X.HPP` is C++); undefined when none. */
  forPath(file: string): Language | undefined {
    const extension = path.extname(file).toLowerCase();
    return extension ? this.extensionMap.get(extension) : undefined;
  }

  /** Every extension the index parses, sorted. */
  get extensions(): string[] {
    return [...this.extensionMap.keys()].sort();
  }

  /**
   * The language servers to run, in the order their first language is listed: each descriptor with the
   * extensions of every language naming it and their LSP languageIds, plus the files only the server takes.
   */
  servers(): LanguageDescriptor[] {
    const byServer = new Map<ServerDescriptor, LanguageDescriptor>();
    for (const language of this.list) {
      const server = language.server;
      if (!server) continue;
      let descriptor = byServer.get(server);
      if (!descriptor) {
        const { otherFiles: _, ...rest } = server;
        descriptor = { ...rest, extensions: [], languageIds: {} };
        byServer.set(server, descriptor);
      }
      for (const extension of language.extensions) {
        descriptor.extensions.push(extension);
        descriptor.languageIds[extension] = language.lspLanguageIdByExtension?.[extension] ?? language.lspLanguageId;
      }
    }
    for (const [server, descriptor] of byServer) {
      for (const [extension, languageId] of Object.entries(server.otherFiles ?? {})) {
        if (this.extensionMap.has(extension)) continue;
        descriptor.extensions.push(extension);
        descriptor.languageIds[extension] = languageId;
      }
    }
    return [...byServer.values()];
  }
}

/** What a language module must give that a plain JavaScript module could leave out. */
function missingFields(language: Language): string[] {
  const missing: string[] = [];
  const rules = language.rules as Partial<Language['rules']> | undefined;
  if (!rules) return ['rules'];
  for (const field of ['family', 'overloads', 'separateDeclarations', 'membersLive', 'overrides', 'bases'] as const) if (rules[field] === undefined) missing.push(`rules.${field}`);
  if (!Array.isArray(language.syntax?.skippedTokens)) missing.push('syntax.skippedTokens');
  if (typeof language.fence !== 'string') missing.push('fence');
  return missing;
}

/** The built-in languages. */
export const BUILTIN = new Languages(LANGUAGES);

/** Another set of languages, e.g. `withLanguages([...LANGUAGES, toy])` in a test; the built-in set is untouched. */
export function withLanguages(list: readonly Language[]): Languages {
  return new Languages(list);
}

/** The languages in use: the built-in ones, plus those a language module added (addLanguageModules). */
let active: Languages = BUILTIN;
const activeModules: string[] = [];

/** The languages in use (the index's walker, extraction, the use cases all ask these). */
export function activeLanguages(): Languages {
  return active;
}

/**
 * Adds languages from modules (file URLs) that each export `language`, a `Language`: for a language kept
 * outside src/languages/ — a test's toy language. The index's parser threads load the same modules
 * (languageModules), so the whole service treats them as built-in ones.
 */
export async function addLanguageModules(urls: readonly string[]): Promise<void> {
  const added: Language[] = [];
  for (const url of urls) {
    if (activeModules.includes(url)) continue;
    const loaded = (await import(url)) as { language?: Language };
    if (!loaded.language) throw new Error(`language module ${url} exports no 'language'`);
    added.push(loaded.language);
    activeModules.push(url);
  }
  if (added.length > 0) active = new Languages([...active.list, ...added]);
}

/** The language modules added so far, for the parser threads to load. */
export function languageModules(): readonly string[] {
  return activeModules;
}

/** The language with this id (`LanguageId`s always have one). */
export function languageById(id: LanguageId): Language<LanguageId>;
export function languageById(id: string): Language | undefined;
export function languageById(id: string): Language | undefined {
  return active.byId(id);
}

/** The language a file is parsed as, by extension; undefined when none. */
export function languageOfPath(file: string): Language<LanguageId> | undefined {
  return active.forPath(file) as Language<LanguageId> | undefined;
}

/** The built-in language servers; config `languages.<id>` overrides them or adds more (src/languages/resolve.ts). */
export const BUILTIN_SERVERS: readonly LanguageDescriptor[] = BUILTIN.servers();

/** The rules of a language (`Language.rules`); undefined for an id that is none. */
export function rulesOf(id: string): LanguageRules | undefined {
  return active.byId(id)?.rules;
}

/** A constructor, or what its language calls a destructor (rules.isDestructor): members no type inherits or overrides. */
export function isConstructorOrDestructor(member: { name: string; kind: string; language: string }): boolean {
  return member.kind === 'constructor' || (rulesOf(member.language)?.isDestructor?.(member) ?? false);
}

/**
 * The files of the languages whose functions are declared in one file and defined in another (`rules.separateDeclarations`:
 * C and C++), by extension: `headers` their `rules.headerExtensions`, `sources` their other extensions and the files only
 * their server takes (Objective-C's `.m`, `.mm`). Counterparts pair the two; the synthesized compile database compiles
 * the sources and puts the headers' directories on the include path.
 */
export function declarationFiles(): { headers: ReadonlySet<string>; sources: ReadonlySet<string> } {
  const declaring = active.list.filter((language) => language.rules.separateDeclarations);
  const headers = new Set(declaring.flatMap((language) => language.rules.headerExtensions ?? []));
  const sources = new Set(declaring.flatMap((language) => [...language.extensions, ...Object.keys(language.server?.otherFiles ?? {})]).filter((extension) => !headers.has(extension)));
  return { headers, sources };
}

/** Whether two languages' files see each other's names (one `rules.family`): C with C++, TypeScript with JavaScript. */
export function sameFamily(a: string, b: string): boolean {
  if (a === b) return true;
  const first = active.byId(a)?.rules.family;
  return first !== undefined && first === active.byId(b)?.rules.family;
}
