/** C and C++: how names are declared, owned, inherited and looked up (DESIGN.md, "Precise rules"). */
import type { BaseCandidate, BaseLookup, LanguageRules, TestRules } from '../types.js';
import type { StoredSymbol } from '../../index/store.js';
import { endsWith, pathEndsWith, splitQualified, startsWith, writtenStatic } from '../names.js';

/**
 * C++ looks a base name up from the deriving class's scope outwards: the type must be a prefix of that scope
 * plus the written path; `using ns::Base;` or `using namespace ns;` in the deriving file brings it in, and an
 * included header holding it breaks ties.
 */
async function score(lookup: BaseLookup, child: StoredSymbol, written: string, segments: string[], candidate: BaseCandidate): Promise<number> {
  const target = splitQualified(candidate.symbol.qualifiedName);
  const childScope = splitQualified(child.qualifiedName).slice(0, -1);
  const global = written.trim().replace(/^(?:(?:public|protected|private|virtual)\s+)+/, '').startsWith('::');
  if (target.length < segments.length || !endsWith(target, segments)) return -1;
  const prefix = target.slice(0, target.length - segments.length);
  const imports = await lookup.importsOf(child);
  let value: number;
  if (global ? prefix.length === 0 : startsWith(childScope, prefix)) value = 2 + prefix.length / 100;
  else if (segments.length === 1 && (imports.usings.includes(target.join('::')) || imports.usingNamespaces.includes(prefix.join('::')))) value = 2;
  else value = 0.5;
  const includes = imports.includes;
  if (includes.length > 0 && candidate.places.some((place) => includes.some((include) => pathEndsWith(place.file, include)))) value += 1;
  return value;
}

/** A qualified base (`other::Base`) cannot be a type whose qualified name does not end so. */
function ruledOut(_child: StoredSymbol, _written: string, segments: string[], candidate: BaseCandidate): boolean {
  return segments.length > 1 && !endsWith(splitQualified(candidate.symbol.qualifiedName), segments);
}

/** googletest's test macros: `TEST(Suite, Name)` and its kin, indexed as functions whose two parameters are the names. */
const GTEST_MACROS = new Set(['TEST', 'TEST_F', 'TEST_P', 'TYPED_TEST', 'TYPED_TEST_P', 'GTEST_TEST']);

/** C and C++ tests: googletest's `TEST(Suite, Name)` macros (and the `Suite_Name_Test::TestBody` a server names), in `*_test.cc`, `*_unittest.cc`, `*-test.cc` files. */
const tests: TestRules = {
  file: /(^|\/)([^/]*[_-](unit)?tests?|test_[^/]*)\.(c|cc|cpp|cxx|c\+\+|h|hh|hpp)$/i,
  testName(symbol) {
    if (symbol.kind === 'function' && GTEST_MACROS.has(symbol.name) && symbol.parameters.length === 2) {
      return `${symbol.parameters[0].type}.${symbol.parameters[1].type}`;
    }
    const body = symbol.name === 'TestBody' ? /^(\w+?)_(\w+)_Test$/.exec(symbol.containingType ?? '') : null;
    return body ? `${body[1]}.${body[2]}` : undefined;
  },
};

/** A KUnit case's one parameter (`struct kunit *test`). */
const KUNIT_PARAMETER = /^struct\s+kunit\s*\*$/;

/**
 * C tests: googletest's, and the kernel's KUnit: a case is `void name(struct kunit *test)` (named as written;
 * KUnit's own `kunit_*` functions take the same argument and are no cases, nor are a suite's int-returning
 * init and exit), in `*_test.c`, `*-test.c` or `*_kunit.c` files (`lib/overflow_kunit.c`).
 */
const cTests: TestRules = {
  file: new RegExp(`${tests.file.source}|(^|/)[^/]*[_-]kunit\\.(c|h)$`, 'i'),
  testName(symbol, inTestFile) {
    const gtest = tests.testName?.(symbol, inTestFile);
    if (gtest) return gtest;
    const kunit = symbol.kind === 'function' && symbol.returnType === 'void' && symbol.parameters.length === 1 && KUNIT_PARAMETER.test(symbol.parameters[0].type.trim()) && !symbol.name.startsWith('kunit_');
    return kunit ? symbol.name : undefined;
  },
};

export const cppRules: LanguageRules = {
  family: 'c',
  overloads: true,
  separateDeclarations: true,
  membersLive: 'anywhere',
  overrides: 'name',
  uninherited: ['operator='],
  headerExtensions: ['.h', '.hh', '.hpp', '.hxx', '.h++', '.inl', '.ipp', '.tcc', '.cuh'],
  accessLabels: true,
  isStatic: (member) => writtenStatic(member.signature),
  bases: { score, ruledOut },
  tests,
};

/** C: C++'s rules without overloads, access labels or static members (a `static` function is file-local, not class-level). */
export const cRules: LanguageRules = {
  ...cppRules,
  overloads: false,
  uninherited: undefined,
  accessLabels: false,
  isStatic: undefined,
  noInheritance: true,
  tests: cTests,
};
