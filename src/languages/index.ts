/**
 * The languages plumb knows, one module each (src/languages/<id>.ts), and what is derived from the list:
 * the `LanguageId` type, `LANGUAGE_IDS` (the schemas' language enum), the index's extension map and the
 * language servers the pool runs (one per server descriptor, with the extensions of every language naming it).
 *
 * Adding a language: a module exporting a `Language` (grammar and extraction spec from src/syntax/languages/,
 * extensions, server if any), its entry in `LANGUAGES`, and where it has a server its install line in
 * scripts/setup.sh.
 */
import path from 'node:path';
import { c } from './c.js';
import { cpp } from './cpp.js';
import { csharp } from './csharp.js';
import { go } from './go.js';
import { java } from './java.js';
import { javascript } from './javascript.js';
import { python } from './python.js';
import { rust } from './rust.js';
import { tsx } from './tsx.js';
import { typescript } from './typescript.js';
import type { Language, LanguageDescriptor, ServerDescriptor } from './types.js';

export type { CommandSource, Language, LanguageDescriptor, ModulePathRule, ServerDescriptor } from './types.js';

/** Every language, in the order the schemas' enum lists them. */
export const LANGUAGES = [c, cpp, csharp, typescript, tsx, javascript, python, go, java, rust] as const;

/** A language the index parses: `c`, `cpp`, `python`, ... */
export type LanguageId = (typeof LANGUAGES)[number]['id'];

/** The values of the `language` parameter and field (schemas/symbols.ts `LanguageSchema`). */
export const LANGUAGE_IDS: readonly LanguageId[] = LANGUAGES.map((language) => language.id);

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
      this.ids.set(language.id, language);
      for (const extension of language.extensions) {
        if (extension !== extension.toLowerCase() || !extension.startsWith('.')) throw new Error(`language '${language.id}': extension '${extension}' must be lower case and start with a dot`);
        const claimed = this.extensionMap.get(extension);
        if (claimed) throw new Error(`extension '${extension}' belongs to both '${claimed.id}' and '${language.id}'`);
        this.extensionMap.set(extension, language);
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

/** The built-in languages. */
export const BUILTIN = new Languages(LANGUAGES);

/** Another set of languages, e.g. `withLanguages([...LANGUAGES, toy])` in a test; the built-in set is untouched. */
export function withLanguages(list: readonly Language[]): Languages {
  return new Languages(list);
}

/** The built-in language with this id (`LanguageId`s always have one). */
export function languageById(id: LanguageId): Language<LanguageId>;
export function languageById(id: string): Language | undefined;
export function languageById(id: string): Language | undefined {
  return BUILTIN.byId(id);
}

/** The built-in language a file is parsed as, by extension; undefined when none. */
export function languageOfPath(file: string): Language<LanguageId> | undefined {
  return BUILTIN.forPath(file) as Language<LanguageId> | undefined;
}

/** The built-in language servers; config `languages.<id>` overrides them or adds more (src/languages/resolve.ts). */
export const BUILTIN_SERVERS: readonly LanguageDescriptor[] = BUILTIN.servers();
