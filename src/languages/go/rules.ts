/** Go: a package is a directory; methods live anywhere in it; interfaces are satisfied without being named. */
import type { BaseCandidate, BaseLookup, LanguageRules, TestRules } from '../types.js';
import type { StoredSymbol } from '../../index/store.js';
import { dirOf, pathEndsWith } from '../names.js';

/** An embedded type is in the embedding type's package unless qualified by an imported package's name. */
async function score(lookup: BaseLookup, child: StoredSymbol, _written: string, segments: string[], candidate: BaseCandidate): Promise<number> {
  if (segments.length === 1) return candidate.places.some((p) => dirOf(p.file) === dirOf(child.file)) ? 3 : -1;
  const imports = await lookup.importsOf(child);
  const imported = imports.modules.find((m) => m.local === segments[0]);
  if (!imported) return candidate.places.some((p) => dirOf(p.file).split('/').pop() === segments[0]) ? 2 : -1;
  if (candidate.places.some((p) => pathEndsWith(dirOf(p.file), imported.from))) return 3;
  return candidate.places.some((p) => dirOf(p.file).split('/').pop() === imported.from.split('/').pop()) ? 2 : -1;
}

/** An unqualified embedded type is in the same package: the only type of its name elsewhere is not it. */
function ruledOut(child: StoredSymbol, _written: string, segments: string[], candidate: BaseCandidate): boolean {
  return segments.length === 1 && !candidate.places.some((p) => dirOf(p.file) === dirOf(child.file));
}

/** `go test`'s conventions: `*_test.go` files and their top-level `TestX`, `BenchmarkX`, `FuzzX` and `ExampleX` functions. */
const tests: TestRules = {
  file: /_test\.go$/,
  testName: (symbol, inTestFile) => (inTestFile && symbol.kind === 'function' && !symbol.containingType && /^(Test|Benchmark|Fuzz|Example)(?![a-z])/.test(symbol.name) ? symbol.name : undefined),
};

export const goRules: LanguageRules = {
  family: 'go',
  overloads: false,
  separateDeclarations: false,
  membersLive: 'directory',
  overrides: 'name',
  visibility: (_type, member) => (/^\p{Lu}/u.test(member.name) ? 'public' : 'package'),
  structuralTypes: true,
  bases: { squareBracketArguments: true, score, ruledOut },
  tests,
};
