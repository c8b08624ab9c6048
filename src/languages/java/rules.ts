/** Java: overloads by parameter types; package-private by default. */
import type { LanguageRules } from '../types.js';
import { modifiersOf, writtenStatic } from '../names.js';

export const javaRules: LanguageRules = {
  family: 'java',
  overloads: true,
  separateDeclarations: false,
  membersLive: 'file',
  overrides: 'signature',
  isStatic: (member) => writtenStatic(member.signature),
  visibility: (type, member) => {
    const written = /\b(public|protected|private)\b/.exec(modifiersOf(member.signature));
    if (written) return written[1];
    return type.kind === 'interface' || member.kind === 'enum_member' ? 'public' : 'package';
  },
  bases: {},
};
