import { PassThrough } from 'node:stream';
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
