/**
 * No read outside the workspace root, on any path (hardening issue, items 1, 2 and 8): a workspace file
 * that is a symlink to /etc/passwd, an indexed file replaced by such a link, a file over the size cap,
 * a FIFO. On copies of flask, as a user's checkout would hold them.
 */
import { execFileSync } from 'node:child_process';
import { cpSync, mkdirSync, rmSync, symlinkSync, writeFileSync, truncateSync } from 'node:fs';
import path from 'node:path';
import t from 'tap';
import { FLASK, getJson, startApp, tempDir } from '../helpers.js';
import { eventually, indexReady } from '../index/helpers.js';

const PASSWD = '/etc/passwd';
/** What any line of /etc/passwd holds and no flask source does. */
const PASSWD_TEXT = /root:x:0:0|\/usr\/sbin\/nologin|\/bin\/(ba)?sh$/m;

function flaskCopy(dir: string): string {
  const root = path.join(dir, 'ws');
  mkdirSync(root);
  cpSync(FLASK, path.join(root, 'flask'), { recursive: true, filter: (src) => !src.includes('__pycache__') });
  return root;
}

const SWAPPED = [
  'def swap_target_function(value):',
  '    """Replaced by a link to /etc/passwd in the test."""',
  '    return value + swap_marker_7731',
  '',
].join('\n');

t.test('a symlink to /etc/passwd inside the workspace is never read', async (t) => {
  const root = flaskCopy(tempDir(t));
  symlinkSync(PASSWD, path.join(root, 'passwd_link.py'));
  writeFileSync(path.join(root, 'uses_link.py'), 'from passwd_link import root\n\nprint(root)\n');
  writeFileSync(path.join(root, 'swap_me.py'), SWAPPED);
  const app = await startApp(t, root, { index: { watch: true } });
  await indexReady(app);

  t.test('/symbols/resolve at the import names the target and does not read it', async (t) => {
    const { status, body } = await getJson(app, '/symbols/resolve?file=uses_link.py&line=1&column=25&context_lines=3');
    t.equal(status, 200);
    t.notMatch(JSON.stringify(body), PASSWD_TEXT, 'no line of /etc/passwd in the answer');
    t.equal(body.source, 'lsp', 'pyright answered (it follows the link)');
    t.match(body.target, { file: /passwd/ }, 'the target is named');
    t.equal(body.target?.text, '', 'its line is not read');
    t.notOk(body.symbol, 'and no symbol comes from a file outside the root');
    const line3 = await getJson(app, '/symbols/resolve?file=uses_link.py&line=3&column=7&context_lines=3');
    t.notMatch(JSON.stringify(line3.body), PASSWD_TEXT, 'nor at a use of the imported name');
  });

  t.test('/outline and /children on the link are refused', async (t) => {
    for (const url of ['/outline?file=passwd_link.py', '/children?file=passwd_link.py&line=1&column=1', '/statements?file=passwd_link.py&query=root']) {
      const { status, body } = await getJson(app, url);
      t.equal(status, 400, url);
      t.equal(body.error.code, 'path_outside_root', url);
      t.notMatch(JSON.stringify(body), PASSWD_TEXT);
    }
  });

  t.test('an indexed file replaced by a link leaves the index', async (t) => {
    const before = await getJson(app, '/symbols?query=swap_target_function&match=exact');
    t.equal(before.status, 200, 'indexed before the swap');
    rmSync(path.join(root, 'swap_me.py'));
    symlinkSync(PASSWD, path.join(root, 'swap_me.py'));
    await eventually(async () => (await getJson(app, '/symbols?query=swap_target_function&match=exact')).status === 404);
    const statements = await getJson(app, '/statements?query=nologin');
    t.equal(statements.status, 200);
    t.equal(statements.body.totalMatches, 0, 'no statement of /etc/passwd');
    t.notMatch(JSON.stringify(statements.body), PASSWD_TEXT);
    const status = await getJson(app, '/status');
    t.equal(status.body.index.filesIndexed, status.body.index.filesTotal, 'the counts agree after the removal');
  });
});

t.test('reads check containment at read time, before the watcher has caught up', async (t) => {
  const root = flaskCopy(tempDir(t));
  writeFileSync(path.join(root, 'swap_me.py'), SWAPPED);
  // Padding in comments: over the size caps, yet nothing for the index to hold (millions of symbols cost minutes).
  // C: tree-sitter-python takes longer than the index's parse budget over 5 MB of comment lines.
  writeFileSync(path.join(root, 'big.c'), `int big_marker(void)\n{\n\treturn 41;\n}\n${'// generated padding\n'.repeat(256 * 1024)}`);
  // Over the 64 MB the index parses, without taking the disk: a sparse file (its size is read before its text).
  writeFileSync(path.join(root, 'huge.c'), 'int x;\n');
  truncateSync(path.join(root, 'huge.c'), 65 * 1024 * 1024);
  execFileSync('mkfifo', [path.join(root, 'fifo.py')]);
  // Rust has no server here: its usages are the syntactic scan, which reads every Rust file.
  writeFileSync(path.join(root, 'lib.rs'), 'pub fn rust_marker_fn() -> u32 {\n    7\n}\n');
  writeFileSync(path.join(root, 'main.rs'), 'fn main() {\n    let _ = rust_marker_fn();\n}\n');
  writeFileSync(path.join(root, 'huge.rs'), '// rust_marker_fn\n');
  truncateSync(path.join(root, 'huge.rs'), 65 * 1024 * 1024);
  // No watcher: the index still holds swap_me.py as it was when the link replaces it.
  const app = await startApp(t, root, { index: { watch: false } });
  await indexReady(app);
  t.equal((await getJson(app, '/statements?query=swap_marker_7731')).body.totalMatches, 1, 'searched before the swap');
  rmSync(path.join(root, 'swap_me.py'));
  symlinkSync(PASSWD, path.join(root, 'swap_me.py'));

  t.test('statements name the file they did not read, and why', async (t) => {
    const { status, body } = await getJson(app, '/statements?query=nologin');
    t.equal(status, 200);
    t.equal(body.totalMatches, 0, 'no line of /etc/passwd');
    t.notMatch(JSON.stringify(body), PASSWD_TEXT);
    t.match(body.skippedFiles.filter((skip: { file: string }) => skip.file === 'swap_me.py'), [{ file: 'swap_me.py', reason: 'outside_root', message: /outside the workspace root/ }]);
    const cached = await getJson(app, '/statements?query=swap_marker_7731');
    t.equal(cached.body.totalMatches, 0, 'the text searched before is not answered from memory either');
  });

  t.test('declaration snippets, signatures, docs and context do not read through the link', async (t) => {
    for (const url of ['/symbols/declaration?symbol=swap_target_function&context_lines=5&include_body=true', '/symbols/signature?symbol=swap_target_function', '/symbols/doc?symbol=swap_target_function', '/symbols/context?symbol=swap_target_function']) {
      const { status, body } = await getJson(app, url);
      t.equal(status, 200, `${url}: the index still names the symbol`);
      t.notMatch(JSON.stringify(body), PASSWD_TEXT, `${url}: but shows nothing of /etc/passwd`);
    }
  });

  t.test('a file over the size cap is named with its reason; one the index parses is searched', async (t) => {
    const { status, body } = await getJson(app, '/statements?file=huge.c&query=x');
    t.equal(status, 200);
    t.equal(body.totalMatches, 0);
    t.equal(body.filesSkipped, 1);
    t.match(body.skippedFiles, [{ file: 'huge.c', reason: 'too_large', message: /larger than 64 MB/ }]);
    const markdown = await app.inject({ url: '/statements?file=huge.c&query=x&format=markdown' });
    t.match(markdown.body, /1 file not searched: huge\.c \(too large\)/);
    // 5 MB: over the 4 MB /statements once stopped at, within the 64 MB the index parses.
    const big = await getJson(app, '/statements?file=big.c&query=return 41');
    t.equal(big.status, 200);
    t.notOk(big.body.filesSkipped);
    t.match(big.body.results, [{ file: 'big.c', line: 3, code: 'return 41;' }]);
  });

  t.test('syntactic usages say which files they could not read', async (t) => {
    const { status, body } = await getJson(app, '/symbols/usages?symbol=rust_marker_fn');
    t.equal(status, 200);
    t.equal(body.precision, 'syntactic');
    t.match(body.results, [{ file: 'main.rs', line: 2 }], 'the readable use is found');
    t.equal(body.partial, true, 'partial: a file was not read');
    t.match(body.reason, /1 file was not read: huge\.rs \(is larger than 64 MB; not read\)/);
  });

  t.test('a FIFO is not called a directory', async (t) => {
    const { status, body } = await getJson(app, '/outline?file=fifo.py');
    t.equal(status, 400);
    t.match(body.error.message, /'file' must name a regular file.*not one/);
    t.notMatch(body.error.message, /directory/);
  });
});
