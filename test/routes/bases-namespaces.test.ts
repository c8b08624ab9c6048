/**
 * C++ base lookup by namespace (src/languages/cpp/rules.ts `visible`, asked by src/symbols/base-resolver.ts):
 * googletest's gtest_unittest.cc derives its fixtures from `Test` after `using testing::Test;`, and declares
 * further down, inside `namespace my_namespace { namespace testing {`, a `class Test {};` of its own. From the
 * global scope that one cannot be found, whatever file it is in: members and hierarchy both name gtest.h's
 * `::testing::Test`. Real files (googletest's headers and that test file) copied into a small workspace, no servers.
 */
import { cpSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import t from 'tap';
import { GOOGLETEST, getJson, startApp, tempDir } from '../helpers.js';
import { indexReady } from '../index/helpers.js';

interface Base { name: string; qualifiedName?: string; file?: string; depth: number; resolved: boolean }
interface Node { id?: string; qualifiedName?: string; file?: string; confidence?: string }

t.test('gtest_unittest.cc: fixtures written `Test` derive from ::testing::Test, not my_namespace::testing::Test', async (t) => {
  const root = tempDir(t, 'plumb-bases-ns-');
  cpSync(path.join(GOOGLETEST, 'googletest/include'), path.join(root, 'googletest/include'), { recursive: true });
  mkdirSync(path.join(root, 'googletest/test'), { recursive: true });
  cpSync(path.join(GOOGLETEST, 'googletest/test/gtest_unittest.cc'), path.join(root, 'googletest/test/gtest_unittest.cc'));
  const app = await startApp(t, root, { languages: { cpp: { enabled: false } }, index: { watch: false } });
  await indexReady(app);

  const namesake = await getJson(app, '/symbols?query=my_namespace::testing::Test&kind=class');
  t.ok(namesake.body.results.some((r: Node) => r.qualifiedName === 'my_namespace::testing::Test' && r.file === 'googletest/test/gtest_unittest.cc'), 'the namesake in the same file is indexed: the case is real');

  // Written `Test` (using testing::Test;) before and after the namesake's namespace, and written `testing::Test`.
  for (const fixture of ['SubClassOfTest', 'VectorShuffleTest', 'ProtectedFixtureMethodsTest', 'ShouldShardTest', 'DynamicUnitTestFixture']) {
    const members = await getJson(app, `/symbols/members?symbol=${fixture}&inherited=true&limit=1`);
    t.equal(members.status, 200, `${fixture}: members`);
    const direct = members.body.bases.filter((b: Base) => b.depth === 1);
    t.match(direct, [{ resolved: true, qualifiedName: 'testing::Test', file: 'googletest/include/gtest/gtest.h' }], `${fixture}: members' base is gtest.h's testing::Test`);

    const hierarchy = await getJson(app, `/symbols/hierarchy?symbol=${fixture}&direction=up&depth=1`);
    t.equal(hierarchy.status, 200, `${fixture}: hierarchy`);
    const supertypes = hierarchy.body.supertypes.filter((n: Node) => n.id).map((n: Node) => ({ qualifiedName: n.qualifiedName, file: n.file, confidence: n.confidence }));
    t.same(supertypes, [{ qualifiedName: 'testing::Test', file: 'googletest/include/gtest/gtest.h', confidence: undefined }], `${fixture}: the hierarchy confirms testing::Test alone`);
  }
});
