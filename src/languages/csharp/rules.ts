/** C#: overloads by parameter types; partial classes across a project; private by default. */
import type { LanguageRules, TestRules } from '../types.js';
import { modifiersOf, writtenStatic } from '../names.js';

/** NUnit, xUnit and MSTest: `*Tests.cs` files and `*.Tests/` projects, methods marked `[Test]`, `[Fact]`, `[Theory]`, `[TestMethod]`, `[TestCase]`. */
const tests: TestRules = {
  file: /Tests?\.cs$|(^|\/)[^/]*\.Tests?\//,
  testName: (symbol) => (symbol.kind === 'method' && symbol.containingType && /\[\s*(Test|Fact|Theory|TestMethod|TestCase)\b/.test(symbol.signature) ? `${symbol.containingType}.${symbol.name}` : undefined),
};

export const csharpRules: LanguageRules = {
  family: 'csharp',
  overloads: true,
  separateDeclarations: false,
  membersLive: 'package',
  overrides: 'signature',
  // A finalizer is indexed as `~Name` (syntax.ts).
  isDestructor: (member) => member.name.startsWith('~'),
  isStatic: (member) => writtenStatic(member.signature),
  visibility: (type, member) => {
    const written = /\b(protected\s+internal|private\s+protected|public|protected|internal|private)\b/.exec(modifiersOf(member.signature));
    if (written) return written[1].replace(/\s+/g, ' ');
    return type.kind === 'interface' || member.kind === 'enum_member' ? 'public' : 'private';
  },
  bases: {},
  tests,
};
