import path from 'node:path';
import { ConfigError, type PlumbConfig } from '../config.js';
import { BUILTIN_SERVERS } from './index.js';
import type { LanguageDescriptor } from './types.js';

/**
 * The built-in servers (collected from the language modules) with config `languages.<id>` applied: any field overridden, `enabled: false`
 * removes a language, an unknown id adds one (then `command` and `extensions` are required).
 */
export function resolveLanguages(overrides: PlumbConfig['languages'], builtins: readonly LanguageDescriptor[] = BUILTIN_SERVERS): LanguageDescriptor[] {
  const byId = new Map(builtins.map((descriptor) => [descriptor.id, descriptor]));
  for (const [id, override] of Object.entries(overrides)) {
    const base = byId.get(id);
    if (override.enabled === false) {
      byId.delete(id);
      continue;
    }
    if (!base && (!override.command || !override.extensions?.length)) {
      throw new ConfigError(`languages.${id}: '${id}' is not a built-in language (${builtins.map((d) => d.id).join(', ')}), so 'command' and 'extensions' are required`);
    }
    const extensions = override.extensions?.map((extension) => extension.toLowerCase());
    byId.set(id, {
      id,
      name: base?.name ?? id,
      extensions: extensions ?? base?.extensions ?? [],
      languageIds: base?.languageIds ?? {},
      defaultLanguageId: base?.defaultLanguageId ?? id,
      command: override.command ? { kind: 'path', names: [override.command] } : base!.command,
      args: override.args ?? base?.args ?? [],
      installHint: override.installHint ?? base?.installHint ?? `install '${override.command}' or fix languages.${id}.command in plumb.json`,
      initializationOptions: override.initializationOptions ?? base?.initializationOptions,
      settings: override.settings ?? base?.settings,
      instances: override.instances ?? base?.instances ?? 1,
      compileDatabase: base?.compileDatabase ?? false,
      environment: base?.environment,
      readiness: base?.readiness ?? { openFileOnStart: true, indexingProgressTitles: [] },
    });
  }
  return [...byId.values()];
}

/** Maps file extensions to languages; a later language claiming an extension wins (config-added ones come last). */
export class LanguageTable {
  readonly languages: readonly LanguageDescriptor[];
  private readonly byExtension = new Map<string, LanguageDescriptor>();

  constructor(languages: readonly LanguageDescriptor[]) {
    this.languages = languages;
    for (const language of languages) for (const extension of language.extensions) this.byExtension.set(extension.toLowerCase(), language);
  }

  /** The language of a path by its extension, case-insensitively (`.C` is C++ too). */
  forPath(file: string): LanguageDescriptor | undefined {
    const extension = path.extname(file).toLowerCase();
    return extension ? this.byExtension.get(extension) : undefined;
  }

  languageIdOf(language: LanguageDescriptor, file: string): string {
    return language.languageIds[path.extname(file).toLowerCase()] ?? language.defaultLanguageId;
  }

  get extensions(): string[] {
    return [...this.byExtension.keys()].sort();
  }
}
