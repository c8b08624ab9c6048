/** Python: attributes looked up by name, modules by path, bases through what the file imports. */
import type { BaseCandidate, BaseLookup, LanguageRules, TestRules } from '../types.js';
import type { StoredSymbol } from '../../index/store.js';
import { dirOf, pathEndsWith } from '../names.js';

/** A `from` module as path segments, relative ones resolved against the importing file's package. */
function moduleOf(from: string, file: string): string[] {
  const dots = /^\.*/.exec(from)![0].length;
  const rest = from.slice(dots).split('.').filter(Boolean);
  if (dots === 0) return rest;
  const dir = dirOf(file).split('/').filter(Boolean);
  return [...dir.slice(0, Math.max(0, dir.length - (dots - 1))), ...rest];
}

/** 3 when a place's file is the module (`a/b.py`, `a/b/__init__.py`), 2 when it lies in the module's package, else 1. */
function moduleFileScore(candidate: BaseCandidate, modulePath: string[]): number {
  const wanted = modulePath.join('/');
  let best = 1;
  for (const place of candidate.places) {
    const stem = place.file.replace(/\.pyi?$/, '').replace(/\/__init__$/, '');
    if (pathEndsWith(stem, wanted)) return 3;
    if (dirOf(place.file).endsWith(wanted) || pathEndsWith(dirOf(stem), wanted)) best = 2;
  }
  return best;
}

/** The module a base's name comes from (`from m import Base`, `import m as x; x.Base`), matched to the candidate's file. */
async function score(lookup: BaseLookup, child: StoredSymbol, _written: string, segments: string[], candidate: BaseCandidate): Promise<number> {
  const imports = await lookup.importsOf(child);
  const name = segments[segments.length - 1];
  let modulePath: string[] | undefined;
  if (segments.length === 1) {
    const imported = imports.names.find((n) => n.local === name);
    if (imported) modulePath = moduleOf(imported.from, child.file);
  } else {
    const head = segments[0];
    const whole = imports.modules.find((m) => m.local === head);
    const fromName = imports.names.find((n) => n.local === head);
    if (whole) modulePath = [...whole.from.split('.'), ...segments.slice(1, -1)];
    else if (fromName) modulePath = [...moduleOf(fromName.from, child.file), fromName.imported, ...segments.slice(1, -1)];
    else modulePath = segments.slice(0, -1);
  }
  if (!modulePath || modulePath.length === 0) return 1;
  return moduleFileScore(candidate, modulePath);
}

/** pytest's conventions: `test_*.py` / `*_test.py` files, their `test*` functions and the `test*` methods of their classes, named as pytest's node ids. */
const tests: TestRules = {
  file: /(^|\/)(test_[^/]*|[^/]*_test|conftest)\.py$/,
  testName(symbol, inTestFile) {
    if (!inTestFile || !symbol.name.startsWith('test')) return undefined;
    if (symbol.kind === 'function' && !symbol.containingType) return `${symbol.file}::${symbol.name}`;
    if (symbol.kind === 'method' && symbol.containingType) return `${symbol.file}::${symbol.containingType}::${symbol.name}`;
    return undefined;
  },
};

export const pythonRules: LanguageRules = {
  family: 'python',
  overloads: false,
  separateDeclarations: false,
  membersLive: 'file',
  overrides: 'attribute',
  // None: `__init__` is indexed as a method (python/syntax.ts), not a constructor, and its calls are the ones that spell
  // `__init__` (`super().__init__(...)`); `Flask(...)` is a call of the class.
  constructorNames: [],
  isStatic: (member) => (member.kind === 'method' ? /@\s*(staticmethod|classmethod)\b/.test(member.signature) : undefined),
  bases: { squareBracketArguments: true, implicitRoot: 'object', score },
  colonEndsHead: true,
  tests,
};
