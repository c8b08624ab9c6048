/** C and C++: how names are declared, owned, inherited and looked up (DESIGN.md, "Precise rules"). */
import type { BaseCandidate, BaseLookup, LanguageRules, TestRules } from '../types.js';
import type { StoredSymbol } from '../../index/store.js';
import type { FileImports } from '../../syntax/bases.js';
import { endsWith, pathEndsWith, splitQualified, startsWith, writtenStatic } from '../names.js';

/**
 * Where a C++ base name is looked up from: the deriving class's own scope outwards, its enclosing namespaces
 * (`scope`: the type's namespace is that scope or one enclosing it), else what a `using a::Base;` or `using namespace
 * a;` of the deriving file brings in (`using`; a using written inside a namespace may name it relative to that
 * namespace, so `using namespace internal;` in `testing` reaches `testing::internal`); undefined when the type cannot
 * be named from there at all (a `Test` of `my_namespace::testing` from the global scope, whatever file holds it).
 */
function reach(child: StoredSymbol, written: string, segments: string[], target: string[], imports: FileImports): 'scope' | 'using' | undefined {
  if (target.length < segments.length || !endsWith(target, segments)) return undefined;
  const childScope = splitQualified(child.qualifiedName).slice(0, -1);
  const prefix = target.slice(0, target.length - segments.length);
  const global = written.trim().replace(/^(?:(?:public|protected|private|virtual)\s+)+/, '').startsWith('::');
  if (global) return prefix.length === 0 ? 'scope' : undefined;
  if (startsWith(childScope, prefix)) return 'scope';
  // What a using names, written as `a::b` inside some namespace of the child's scope: the target's path there.
  const named = (path: string[], using: string): boolean => {
    const parts = splitQualified(using);
    return endsWith(path, parts) && startsWith(childScope, path.slice(0, path.length - parts.length));
  };
  if (imports.usings.some((using) => named(target.slice(0, prefix.length + 1), using))) return 'using';
  if (prefix.length > 0 && imports.usingNamespaces.some((using) => named(prefix, using))) return 'using';
  return undefined;
}

/**
 * How well a C++ type fits a written base: 2 (and a little more for a deeper scope, the nearer one lookup finds
 * first) when the deriving class's scope reaches it, 2 when a using brings it in, 0.5 when neither does; an included
 * header holding it adds 1 and breaks ties.
 */
async function score(lookup: BaseLookup, child: StoredSymbol, written: string, segments: string[], candidate: BaseCandidate): Promise<number> {
  const target = splitQualified(candidate.symbol.qualifiedName);
  if (target.length < segments.length || !endsWith(target, segments)) return -1;
  const imports = await lookup.importsOf(child);
  const how = reach(child, written, segments, target, imports);
  let value = how === 'scope' ? 2 + (target.length - segments.length) / 100 : how === 'using' ? 2 : 0.5;
  const includes = imports.includes;
  if (includes.length > 0 && candidate.places.some((place) => includes.some((include) => pathEndsWith(place.file, include)))) value += 1;
  return value;
}

/** Whether C++ name lookup from the deriving class can find the type at all: its scope or a using reaches it. */
async function visible(lookup: BaseLookup, child: StoredSymbol, written: string, segments: string[], candidate: BaseCandidate): Promise<boolean> {
  return reach(child, written, segments, splitQualified(candidate.symbol.qualifiedName), await lookup.importsOf(child)) !== undefined;
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
  isDestructor: (member) => member.name.startsWith('~'),
  headerExtensions: ['.h', '.hh', '.hpp', '.hxx', '.h++', '.inl', '.ipp', '.tcc', '.cuh'],
  accessLabels: true,
  isStatic: (member) => writtenStatic(member.signature),
  bases: { score, ruledOut, visible },
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
