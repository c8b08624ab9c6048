/**
 * Python recall against universal-ctags on part of the standard library and on flask.
 * Needs (apt): universal-ctags python3-flask (the stdlib is /usr/lib/python3.11)
 */
import t from 'tap';
import { existsSync } from 'node:fs';
import { describeMisses, existingDir, hasCtags, listFiles, recallOf, summary } from './recall.js';

const STDLIB = existingDir('/usr/lib/python3.11', '/usr/lib/python3.12', '/usr/lib/python3.13');
/** A few dozen modules of every style: old and new, classes and functions, packages. */
const STDLIB_MODULES = [
  'argparse.py', 'ast.py', 'asyncio', 'base64.py', 'calendar.py', 'collections', 'configparser.py', 'contextlib.py',
  'csv.py', 'dataclasses.py', 'datetime.py', 'difflib.py', 'email', 'enum.py', 'fractions.py', 'functools.py',
  'gettext.py', 'heapq.py', 'http', 'inspect.py', 'ipaddress.py', 'json', 'logging', 'mailbox.py', 'pathlib.py',
  'pickle.py', 'pprint.py', 'queue.py', 'random.py', 're', 'shutil.py', 'socket.py', 'statistics.py', 'string.py',
  'subprocess.py', 'tarfile.py', 'tempfile.py', 'textwrap.py', 'threading.py', 'tomllib', 'typing.py', 'unittest',
  'urllib', 'uuid.py', 'weakref.py', 'zipfile.py',
];
const FLASK = '/usr/lib/python3/dist-packages/flask';
const KINDS = ['class', 'function', 'member'];
const noCtags = !hasCtags() ? 'needs universal-ctags (apt-get install -y universal-ctags)' : false;

t.test('finds at least 99% of the classes, functions and methods ctags finds in a few dozen stdlib modules', async (t) => {
  // The README's test set-up installs every corpus: a missing one fails rather than skips.
  const missingCorpus = noCtags || (!STDLIB && 'needs python3.11');
  if (missingCorpus) return void t.fail(`missing test corpus: ${missingCorpus}`);
  const files = listFiles(STDLIB!, ['.py']).filter((file) => STDLIB_MODULES.some((module) => file === module || file.startsWith(`${module}/`)));
  const result = await recallOf({ root: STDLIB!, files, ctagsArgs: ['--languages=Python'], kinds: KINDS });
  t.comment(summary(result));
  if (result.misses.length) t.comment(`misses:\n${describeMisses(result)}`);
  t.ok(result.recall >= 0.99, summary(result));
});

t.test('finds at least 99% of the classes, functions and methods ctags finds in flask', async (t) => {
  // The README's test set-up installs every corpus: a missing one fails rather than skips.
  const missingCorpus = noCtags || (!existsSync(FLASK) && 'needs python3-flask');
  if (missingCorpus) return void t.fail(`missing test corpus: ${missingCorpus}`);
  const result = await recallOf({ root: FLASK, files: listFiles(FLASK, ['.py']), ctagsArgs: ['--languages=Python'], kinds: KINDS });
  t.comment(summary(result));
  if (result.misses.length) t.comment(`misses:\n${describeMisses(result)}`);
  t.ok(result.recall >= 0.99, summary(result));
});
