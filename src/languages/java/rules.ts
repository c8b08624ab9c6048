/** Java: overloads by parameter types; package-private by default. */
import type { LanguageRules, TestRules } from '../types.js';
import { modifiersOf, writtenStatic } from '../names.js';

/** JUnit: `src/test/` and `*Test.java` files, methods annotated `@Test` (or JUnit 3's `test*` in a test file), named `Class.method`. */
const tests: TestRules = {
  file: /(^|\/)src\/test\/|(Test|Tests|IT)\.java$/,
  testName(symbol, inTestFile) {
    if (symbol.kind !== 'method' || !symbol.containingType) return undefined;
    const annotated = /@(Test|ParameterizedTest|RepeatedTest|TestFactory|TestTemplate)\b/.test(symbol.signature);
    return annotated || (inTestFile && /^test/.test(symbol.name)) ? `${symbol.containingType}.${symbol.name}` : undefined;
  },
};

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
  tests,
};
