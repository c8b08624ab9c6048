import { readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import Database from 'better-sqlite3';
import t from 'tap';
import { runIndexCommand } from '../../src/index/cli-command.js';
import { FLASK, tempDir, testConfig } from '../helpers.js';

function capture(): { stream: PassThrough; text: () => string } {
  const stream = new PassThrough();
  const chunks: Buffer[] = [];
  stream.on('data', (chunk: Buffer) => chunks.push(chunk));
  return { stream, text: () => Buffer.concat(chunks).toString() };
}

t.test('plumb index builds with progress, prints counts per language, and skips unchanged files next time', async (t) => {
  const config = testConfig(tempDir(t, 'plumb-cache-'));
  const out = capture();
  const err = capture();
  t.equal(await runIndexCommand(FLASK, config, { out: out.stream, err: err.stream }), 0);
  t.match(err.text(), /\[#+\] 100%  \d+\/\d+ files  [\d,]+ symbols/, 'a progress bar reaching 100%');
  t.match(out.text(), /Indexed .*flask\n  (\d+) files: \1 parsed, 0 unchanged, 0 removed/);
  t.match(out.text(), /python\s+\d+\s+[\d,]+/, 'symbols per language');
  const again = capture();
  t.equal(await runIndexCommand(FLASK, config, { out: again.stream, err: capture().stream }), 0);
  t.match(again.text(), /(\d+) files: 0 parsed, \1 unchanged/, 'the second run parses nothing');
});

t.test('plumb index starts a build again when the store was busy, from what it committed, and says so', async (t) => {
  const root = tempDir(t, 'plumb-busy-');
  const cacheDir = tempDir(t, 'plumb-cache-');
  const config = testConfig(cacheDir);
  writeFileSync(path.join(root, 'first.py'), 'def first_function():\n    return 1\n');
  t.equal(await runIndexCommand(root, config, { out: capture().stream, err: capture().stream }), 0);
  writeFileSync(path.join(root, 'added.py'), 'def added_while_locked():\n    return 2\n');
  // Another process holds the database's write lock for longer than SQLite's busy timeout (5 s): the first attempt fails.
  const file = readdirSync(cacheDir, { recursive: true }).map(String).find((entry) => entry.endsWith('index.sqlite'));
  const lock = new Database(path.join(cacheDir, file!));
  lock.exec('BEGIN EXCLUSIVE');
  const released = new Promise<void>((resolve) => setTimeout(() => {
    lock.exec('COMMIT');
    lock.close();
    resolve();
  }, 6500));
  const out = capture();
  const err = capture();
  t.equal(await runIndexCommand(root, config, { out: out.stream, err: err.stream }), 0, 'the build ends well');
  await released;
  t.match(err.text(), /index: the build stopped \(.*locked.*\); trying again in 1 s from what it committed \(attempt 2 of 5\)/i, 'saying it tries again, and why');
  t.match(out.text(), /2 files: 1 parsed, 1 unchanged/, 'the new file indexed');
});
