/**
 * The ids of the languages the index parses, in the order the schemas' enum lists them. This file imports
 * nothing, so the syntax layer and the schemas can name a language without the registry
 * (src/languages/index.ts), which checks at load that its list has exactly these ids.
 */
export const LANGUAGE_IDS = ['c', 'cpp', 'csharp', 'typescript', 'tsx', 'javascript', 'python', 'go', 'java', 'rust'] as const;

/** A language the index parses: `c`, `cpp`, `python`, ... */
export type LanguageId = (typeof LANGUAGE_IDS)[number];
