import { cpp } from './cpp.js';
import { go } from './go.js';
import { python } from './python.js';
import { typescript } from './typescript.js';
import type { LanguageDescriptor } from './types.js';

export type { CommandSource, LanguageDescriptor } from './types.js';

/** The built-in languages; config `languages.<id>` overrides them or adds more (src/languages/resolve.ts). */
export const BUILTIN_LANGUAGES: readonly LanguageDescriptor[] = [cpp, typescript, python, go];
