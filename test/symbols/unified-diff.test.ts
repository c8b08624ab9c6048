/** Unified diffs as git and diff -u write them: files, paths, renames, hunks, and both sides rebuilt from one. */
import t from 'tap';
import { changedLines, forwardApply, parseUnifiedDiff, reverseApply, unquote } from '../../src/symbols/unified-diff.js';

const GIT = [
  'diff --git a/src/list.go b/src/list.go',
  'index 1111111..2222222 100644',
  '--- a/src/list.go',
  '+++ b/src/list.go',
  '@@ -2,3 +2,4 @@ package list',
  ' a',
  '-b',
  '+B',
  '+B2',
  ' c',
  '@@ -9,2 +9,0 @@',
  '-x',
  '-y',
  'diff --git a/old name.go b/new name.go',
  'similarity index 90%',
  'rename from old name.go',
  'rename to new name.go',
  'diff --git a/added.go b/added.go',
  'new file mode 100644',
  '--- /dev/null',
  '+++ b/added.go',
  '@@ -0,0 +1,2 @@',
  '+package x',
  '+func F() {}',
  'diff --git a/gone.go b/gone.go',
  'deleted file mode 100644',
  '--- a/gone.go',
  '+++ /dev/null',
  '@@ -1 +0,0 @@',
  '-package gone',
  '\\ No newline at end of file',
  'diff --git a/logo.png b/logo.png',
  'Binary files a/logo.png and b/logo.png differ',
  '',
].join('\n');

t.test('git diff: modified, renamed, added, deleted and binary files', async (t) => {
  const files = parseUnifiedDiff(GIT);
  t.same(files.map((f) => [f.oldPath, f.newPath, f.status, f.binary]), [
    ['src/list.go', 'src/list.go', 'modified', false],
    ['old name.go', 'new name.go', 'renamed', false],
    [null, 'added.go', 'added', false],
    ['gone.go', null, 'deleted', false],
    ['logo.png', 'logo.png', 'modified', true],
  ]);
  t.match(files[0].hunks, [{ oldStart: 2, oldLines: 3, newStart: 2, newLines: 4 }, { oldStart: 9, oldLines: 2, newStart: 9, newLines: 0 }]);
  const lines = changedLines(files[0].hunks);
  t.same([...lines.added], [3, 4], 'added lines in new numbering');
  t.same([...lines.removed], [3, 9, 10], 'removed lines in old numbering');
  t.same([...lines.newGaps], [2, 9], 'where lines went, between new lines');
});

t.test('diff -u with timestamps and no prefixes; quoted names', async (t) => {
  const plain = '--- lib/a.py\t2024-01-01 10:00:00.000000000 +0100\n+++ lib/a.py\t2024-01-02 10:00:00.000000000 +0100\n@@ -1 +1 @@\n-x = 1\n+x = 2\n';
  t.match(parseUnifiedDiff(plain), [{ oldPath: 'lib/a.py', newPath: 'lib/a.py', status: 'modified' }]);
  t.equal(unquote('"caf\\303\\251.c"'), 'café.c');
  const quoted = 'diff --git "a/caf\\303\\251.c" "b/caf\\303\\251.c"\n--- "a/caf\\303\\251.c"\n+++ "b/caf\\303\\251.c"\n@@ -1 +1 @@\n-a\n+b\n';
  t.match(parseUnifiedDiff(quoted), [{ oldPath: 'café.c', newPath: 'café.c' }]);
});

t.test('not a diff', async (t) => {
  t.throws(() => parseUnifiedDiff('hello\nworld\n'), { name: 'NotADiff', message: /no file header/ });
  t.throws(() => parseUnifiedDiff('--- a/x\n+++ b/x\n@@ -1,3 +1,3 @@\n-a\n+b\n'), { name: 'NotADiff', message: /cut short/ }, 'a hunk cut short');
});

t.test('one side rebuilt from the other', async (t) => {
  const [file] = parseUnifiedDiff(GIT);
  const oldSide = ['p', 'a', 'b', 'c', 'd', 'e', 'f', 'g', 'x', 'y', 'z'];
  const newSide = forwardApply(oldSide, file.hunks);
  t.same(newSide, ['p', 'a', 'B', 'B2', 'c', 'd', 'e', 'f', 'g', 'z']);
  t.same(reverseApply(newSide, file.hunks), oldSide);
});
