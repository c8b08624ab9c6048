/** Rust: impl blocks across a crate; a method without `self` is an associated (static) function; private by default. */
import type { LanguageRules } from '../types.js';
import { modifiersOf } from '../names.js';

export const rustRules: LanguageRules = {
  family: 'rust',
  overloads: false,
  separateDeclarations: false,
  membersLive: 'package',
  overrides: 'name',
  isStatic: (member) => (member.kind === 'method' ? !/\(\s*(&\s*('\w+\s+)?)?(mut\s+)?self\b/.test(member.signature) : undefined),
  visibility: (type, member) => {
    if (type.kind === 'interface' || member.kind === 'enum_member') return 'public';
    const written = /(^|\s)pub(\s*\(\s*([\w:]+)[^)]*\))?/.exec(modifiersOf(member.signature));
    if (!written) return 'private';
    return written[3] === 'crate' ? 'crate' : written[3] ? `pub(${written[3]})` : 'public';
  },
  bases: {},
};
