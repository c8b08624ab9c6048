import { spawn, spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import t from 'tap';
import { REPO, tempDir } from './helpers.js';

const CLI = path.join(REPO, 'src/cli.ts');
const run = (args: string[], env: NodeJS.ProcessEnv = {}) =>
  spawnSync(process.execPath, ['--import=tsx', CLI, ...args], { cwd: REPO, encoding: 'utf8', env: { ...process.env, ...env }, timeout: 30_000 });

t.test('--help says what each flag does', async (t) => {
  const main = run(['--help']);
  t.equal(main.status, 0);
  t.match(main.stdout, /plumb serve \[ROOT\]/);
  const serve = run(['serve', '--help']);
  t.equal(serve.status, 0);
  for (const flag of ['--host', '--port', '--config', '--log-level', '--cache-dir']) t.match(serve.stdout, new RegExp(`${flag} \\S+\\s+\\S`), `${flag} described`);
  t.match(serve.stdout, /default 7077/);
});

t.test('a bad config stops the start with a message naming the field', async (t) => {
  const root = tempDir(t);
  writeFileSync(path.join(root, 'plumb.json'), JSON.stringify({ port: 'eighty', lsp: { requestTimeoutMs: 5 }, languages: { cpp: { comand: 'clangd' } } }));
  const result = run(['serve', root]);
  t.equal(result.status, 2);
  t.match(result.stderr, /port: must be integer/);
  t.match(result.stderr, /lsp\.requestTimeoutMs: must be >= 100/);
  t.match(result.stderr, /languages\.cpp: unknown field 'comand'/);
  t.notMatch(result.stderr, /at .*\.ts:\d+/, 'no stack trace');

  writeFileSync(path.join(root, 'plumb.json'), '{ not json');
  const broken = run(['serve', root]);
  t.equal(broken.status, 2);
  t.match(broken.stderr, /is not valid JSON/);

  const missingConfig = run(['serve', root, '--config', path.join(root, 'missing.json')]);
  t.match(missingConfig.stderr, /cannot be read/);

  writeFileSync(path.join(root, 'plumb.json'), '{}');
  const env = run(['serve', root], { PLUMB_LOG_LEVEL: 'loud' });
  t.equal(env.status, 2);
  t.match(env.stderr, /logLevel: must be one of fatal, error, warn, info, debug, trace, silent/);
  const flag = run(['serve', root, '--port', 'x']);
  t.match(flag.stderr, /--port must be a number/);
  const unknown = run(['serve', root, '--colour']);
  t.equal(unknown.status, 2);
  t.match(unknown.stderr, /Unknown option '--colour'/);
});

t.test('a shared store: a URL of PostgreSQL, and a replica only with one', async (t) => {
  const root = tempDir(t);
  const help = run(['serve', '--help']);
  for (const flag of ['--store', '--workspace']) t.match(help.stdout, new RegExp(`${flag} \\S+\\s+\\S`), `${flag} described`);
  t.match(help.stdout, /--read-only\s+Serve as a replica/);
  const wrong = run(['index', root, '--store', 'mysql://db/plumb']);
  t.equal(wrong.status, 2);
  t.match(wrong.stderr, /store: must be a PostgreSQL URL, postgres:\/\/user:password@host:port\/database \(set by the command-line option --store\)/);
  const fromEnv = run(['serve', root], { PLUMB_STORE: 'sqlite:///tmp/x' });
  t.match(fromEnv.stderr, /set by the environment variable PLUMB_STORE/);
  const replica = run(['serve', root, '--read-only']);
  t.equal(replica.status, 2);
  t.match(replica.stderr, /readOnly \(set by the command-line option --read-only\): a read-only replica needs a shared store/);
  t.equal(run(['index', root, '--read-only']).status, 2, 'plumb index writes: no --read-only there');
});

t.test('refuses a non-loopback address without a token', async (t) => {
  const root = tempDir(t);
  const result = run(['serve', root, '--host', '0.0.0.0']);
  t.equal(result.status, 2);
  t.match(result.stderr, /refusing to listen on 0\.0\.0\.0 without a token/);
});

t.test('serve answers over HTTP and stops on SIGTERM, leaving no language server behind', async (t) => {
  const root = tempDir(t);
  writeFileSync(path.join(root, 'shapes.py'), 'class Square:\n    def area(self) -> int:\n        return 4\n');
  const child = spawn(process.execPath, ['--import=tsx', CLI, 'serve', root, '--port', '0', '--cache-dir', tempDir(t)], { cwd: REPO });
  let output = '';
  const address = await new Promise<string>((resolve, reject) => {
    const onData = (chunk: Buffer): void => {
      output += chunk.toString();
      const match = /Server listening at (http:\/\/127\.0\.0\.1:\d+)/.exec(output);
      if (match) resolve(match[1]);
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.once('exit', () => reject(new Error(`exited early: ${output}`)));
  });
  t.equal((await fetch(`${address}/health`)).status, 200);
  const outline = await fetch(`${address}/outline?file=shapes.py`);
  t.equal(outline.status, 200);
  t.match(await outline.json(), { results: [{ name: 'Square', children: [{ name: 'area' }] }] });
  const status = (await (await fetch(`${address}/status`)).json()) as { servers: { language: string; pid: number | null }[] };
  const pid = status.servers.find((s) => s.language === 'python')?.pid;
  t.ok(pid, 'pyright is running');

  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  child.kill('SIGTERM');
  t.equal(await exited, 0, 'clean exit on SIGTERM');
  t.throws(() => process.kill(pid!, 0), { code: 'ESRCH' }, 'the language server is gone too');
});
