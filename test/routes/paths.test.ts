import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import t from 'tap';
import { getJson, startApp, tempDir } from '../helpers.js';

t.test('paths outside the workspace root are refused before anything is read', async (t) => {
  const outside = tempDir(t, 'plumb-outside-');
  writeFileSync(path.join(outside, 'secret.py'), 'SECRET = 1\n');
  const root = tempDir(t, 'plumb-root-');
  mkdirSync(path.join(root, 'pkg'));
  writeFileSync(path.join(root, 'pkg', 'mod.py'), 'class Inside:\n    pass\n');
  writeFileSync(path.join(root, 'README.txt'), 'not code\n');
  symlinkSync(path.join(outside, 'secret.py'), path.join(root, 'pkg', 'link.py'));
  symlinkSync(outside, path.join(root, 'linkdir'));
  const app = await startApp(t, root);

  for (const file of ['../' + path.basename(outside) + '/secret.py', path.join(outside, 'secret.py'), 'pkg/../../x.py', 'pkg/link.py', 'linkdir/secret.py', '/etc/passwd']) {
    const { status, body } = await getJson(app, `/outline?file=${encodeURIComponent(file)}`);
    t.equal(status, 400, `${file} is refused`);
    t.equal(body.error.code, 'path_outside_root', file);
    t.match(body.error.message, /Parameter 'file'.*outside the workspace root/);
  }
  const absoluteInside = await getJson(app, `/outline?file=${encodeURIComponent(path.join(root, 'pkg', 'mod.py'))}`);
  t.equal(absoluteInside.status, 200, 'an absolute path inside the root is fine');
  t.equal(absoluteInside.body.file, 'pkg/mod.py', 'and answered root-relative');

  const missing = await getJson(app, '/outline?file=pkg/nope.py');
  t.equal(missing.status, 404);
  t.equal(missing.body.error.code, 'file_not_found');
  t.match(missing.body.error.message, /File 'pkg\/nope\.py' not found/);

  const dir = await getJson(app, '/outline?file=pkg');
  t.equal(dir.status, 400);
  t.match(dir.body.error.message, /Parameter 'file' must name a file/);

  const text = await getJson(app, '/outline?file=README.txt');
  t.equal(text.status, 400);
  t.equal(text.body.error.code, 'unsupported_language');
  t.match(text.body.error.message, /README\.txt/);

  const empty = await getJson(app, '/outline?file=');
  t.equal(empty.status, 400);
  t.match(empty.body.error.message, /'file'/);
  const none = await getJson(app, '/outline');
  t.equal(none.status, 400);
  t.match(none.body.error.message, /Parameter 'file' is required/);
});

t.test('unknown routes and status', async (t) => {
  const root = tempDir(t);
  const app = await startApp(t, root);
  const unknown = await getJson(app, '/nope');
  t.equal(unknown.status, 404);
  t.equal(unknown.body.error.code, 'not_found');
  const health = await getJson(app, '/health');
  t.equal(health.status, 200);
  t.equal(health.body.status, 'ok');
  const status = await getJson(app, '/status');
  t.equal(status.status, 200);
  t.equal(status.body.root, root.startsWith('/tmp') ? status.body.root : root);
  t.ok(Array.isArray(status.body.servers));
  for (const server of status.body.servers) t.equal(server.state, 'stopped', `${server.language} starts only on first need`);
  const md = await app.inject({ url: '/status?format=markdown' });
  t.match(md.body, /\| Language \| State \|/);
});
