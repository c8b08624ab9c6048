/** TypeScript, TSX and JavaScript: one family; attributes by name; bases through the file's imports. */
import path from 'node:path';
import type { BaseCandidate, BaseLookup, LanguageRules, TestRules } from '../types.js';
import type { StoredSymbol } from '../../index/store.js';
import { dirOf, modifiersOf, writtenStatic } from '../names.js';

/** The module specifier a base's name is imported from, matched to the candidate's file (relative) or package (bare). */
async function score(lookup: BaseLookup, child: StoredSymbol, _written: string, segments: string[], candidate: BaseCandidate): Promise<number> {
  const imports = await lookup.importsOf(child);
  const head = segments[0];
  const specifier = segments.length === 1
    ? imports.names.find((n) => n.local === head)?.from
    : imports.modules.find((m) => m.local === head)?.from ?? imports.names.find((n) => n.local === head)?.from;
  if (!specifier) return segments.length === 1 ? 0.5 : 1;
  if (specifier.startsWith('.')) {
    const resolved = path.posix.normalize(path.posix.join(dirOf(child.file), specifier));
    let best = 0.5;
    for (const place of candidate.places) {
      const stem = place.file.replace(/\.(d\.)?[mc]?[jt]sx?$/, '');
      if (stem === resolved || stem === `${resolved}/index`) return 3;
      if (place.file.startsWith(`${resolved}/`) || dirOf(place.file) === dirOf(resolved)) best = Math.max(best, 2);
      else best = Math.max(best, 1);
    }
    return best;
  }
  // A package specifier: the type's package.
  return candidate.places.some((p) => specifier === p.package || specifier.startsWith(`${p.package}/`)) ? 2 : 1;
}

/** Jest, Vitest, Mocha and node:test: `*.test.ts` / `*.spec.js` files and `__tests__/`, tests named by their `describe` / `it` / `test` blocks. */
const tests: TestRules = {
  file: /[._-](test|spec)\.[cm]?[jt]sx?$|(^|\/)__tests__\//,
  blockCalls: ['describe', 'context', 'suite', 'it', 'test', 'specify', 'bench'],
};

export const scriptRules: LanguageRules = {
  family: 'script',
  overloads: false,
  separateDeclarations: false,
  membersLive: 'file',
  overrides: 'attribute',
  // A class's `constructor` is called as `new Subject()`; an interface's construct signature (`new (): T`, indexed
  // as a constructor named `new`) is read the same way: calls spelling its interface's name.
  constructorNames: ['constructor', 'new'],
  isStatic: (member) => writtenStatic(member.signature),
  visibility: (_type, member) => {
    if (member.name.startsWith('#')) return 'private';
    const written = /(^|\s)(private|protected|public)\s/.exec(`${modifiersOf(member.signature)} `);
    return written ? written[2] : 'public';
  },
  bases: { score },
  tests,
};
