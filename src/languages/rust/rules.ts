/** Rust: impl blocks across a crate; a method without `self` is an associated (static) function; private by default. */
import type { LanguageRules, TestRules } from '../types.js';
import { modifiersOf } from '../names.js';

/** `cargo test`: `tests/*.rs` integration tests and `#[test]` functions (in a `mod tests` or anywhere), named by their path. */
const tests: TestRules = {
  file: /(^|\/)tests\/[^/]*\.rs$/,
  testName(symbol, inTestFile) {
    if (symbol.kind !== 'function') return undefined;
    const marked = /#\[\s*(tokio::)?test\b/.test(symbol.signature) || /(^|::)tests::/.test(symbol.qualifiedName) || (inTestFile && !symbol.containingType);
    return marked ? symbol.qualifiedName : undefined;
  },
};

export const rustRules: LanguageRules = {
  family: 'rust',
  overloads: false,
  separateDeclarations: false,
  membersLive: 'package',
  overrides: 'name',
  // None: Rust has no constructors. `new` is a convention, an associated function indexed as a method and called as
  // `Type::new(...)`, so its calls spell `new`.
  constructorNames: [],
  isStatic: (member) => (member.kind === 'method' ? !/\(\s*(&\s*('\w+\s+)?)?(mut\s+)?self\b/.test(member.signature) : undefined),
  visibility: (type, member) => {
    if (type.kind === 'interface' || member.kind === 'enum_member') return 'public';
    const written = /(^|\s)pub(\s*\(\s*([\w:]+)[^)]*\))?/.exec(modifiersOf(member.signature));
    if (!written) return 'private';
    return written[3] === 'crate' ? 'crate' : written[3] ? `pub(${written[3]})` : 'public';
  },
  bases: {},
  tests,
};
