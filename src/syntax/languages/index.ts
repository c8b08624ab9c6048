/** Which language module handles each LanguageId. */
import type { LanguageId } from '../../index/types.js';
import { c, cpp } from './cpp.js';
import { python } from './python.js';
import type { LanguageSpec } from './spec.js';
import { javascript, tsx, typescript } from './typescript.js';

export const LANGUAGE_SPECS: Partial<Record<LanguageId, LanguageSpec>> = {
  c,
  cpp,
  typescript,
  tsx,
  javascript,
  python,
};
