import { ImpactQuery, ImpactResponse } from '../../schemas/impact.js';
import { impactMarkdown } from '../format/impact.js';
import { findImpact } from '../symbols/impact.js';
import { defineOperation } from './operation.js';

export const impactOperation = defineOperation({
  http: {
    path: '/symbols/impact',
    summary: 'What may need a change if a symbol changes',
    description: [
      'The blast radius of a change to one symbol, built on the operations that answer each relation and with their precision: for a function or method its callers, transitively to `depth` (find_callers\' walk), and its other usages (references that are not calls: a type position, an import, the function passed as a value); for a virtual or interface method its overrides and implementations; for a type its usages, its inheritors (transitively) and their overrides of its methods; past distance 1, the callers of what was found.',
      'Each result is `{symbol, distance, relation, via, sites, precision}`, nearest first (one symbol once per relation); `files` lists each file reached with its nearest distance, and `tests` the tests among them by each language\'s conventions (gtest `TEST`/`TEST_F`, Go `TestX` in `*_test.go`, pytest `test_*` in `test_*.py`, `describe`/`it` blocks in `*.test.ts`, JUnit `@Test`, the kernel\'s KUnit cases `void f(struct kunit *)` in `*_test.c`/`*_kunit.c`), else the test file itself.',
      '`precision` is `semantic` when every part came from a language server, `syntactic` when none did, else `mixed`; `parts` says which operation gave what. Caps (callers per walk, usages, symbols expanded) are counted in `omitted` and said in `reason`.',
    ].join(' '),
    tags: ['navigation'],
    errors: [400, 404, 409],
    example: '/symbols/impact?symbol=testing::internal::CodePointToUtf8&depth=2',
  },
  tool: {
    name: 'find_impact',
    title: 'What a change to a symbol may break',
    description: [
      'Lists everything that may need a change if a function, method or type changes: callers (transitively, `depth` 1-5, default 2), other usages, overrides and implementations, inheritors, each with its distance, relation and sites, plus the affected files and the tests that reach it (run those).',
      'Use it before changing a signature or behaviour; find_callers or find_usages give one relation in full.',
      'Example: {"symbol": "CodePointToUtf8", "depth": 2}',
    ].join(' '),
  },
  input: ImpactQuery,
  response: ImpactResponse,
  run: (services, query, signal) => findImpact(services, query, signal),
  markdown: impactMarkdown,
});
