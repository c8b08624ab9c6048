/** Which language module handles each LanguageId. */
import type { LanguageId } from '../types.js';
import { c, cpp } from './cpp.js';
import { csharp } from './csharp.js';
import { go } from './go.js';
import { java } from './java.js';
import { python } from './python.js';
import { rust } from './rust.js';
import type { LanguageSpec } from './spec.js';
import { javascript, tsx, typescript } from './typescript.js';

export const LANGUAGE_SPECS: Record<LanguageId, LanguageSpec> = {
  c,
  cpp,
  typescript,
  tsx,
  javascript,
  python,
  go,
  java,
  csharp,
  rust,
};
