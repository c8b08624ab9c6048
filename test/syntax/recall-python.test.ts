/**
 * Python recall against universal-ctags on part of the standard library and on flask.
 */
import t from 'tap';
import { corpusPath, FLASK, requireCorpora } from '../corpora.js';
import { describeMisses, listFiles, recallOf, summary } from './recall.js';

const STDLIB = corpusPath('python-stdlib');
/** A few dozen modules of every style: old and new, classes and functions, packages. */
const STDLIB_MODULES = [
  'argparse.py', 'ast.py', 'asyncio', 'base64.py', 'calendar.py', 'collections', 'configparser.py', 'contextlib.py',
  'csv.py', 'dataclasses.py', 'datetime.py', 'difflib.py', 'email', 'enum.py', 'fractions.py', 'functools.py',
  'gettext.py', 'heapq.py', 'http', 'inspect.py', 'ipaddress.py', 'json', 'logging', 'mailbox.py', 'pathlib.py',
  'pickle.py', 'pprint.py', 'queue.py', 'random.py', 're', 'shutil.py', 'socket.py', 'statistics.py', 'string.py',
  'subprocess.py', 'tarfile.py', 'tempfile.py', 'textwrap.py', 'threading.py', 'tomllib', 'typing.py', 'unittest',
  'urllib', 'uuid.py', 'weakref.py', 'zipfile.py',
];
const KINDS = ['class', 'function', 'member'];

t.test('finds at least 99% of the classes, functions and methods ctags finds in a few dozen stdlib modules', async (t) => {
  if (!requireCorpora(t, 'ctags', 'python-stdlib')) return;
  const files = listFiles(STDLIB, ['.py']).filter((file) => STDLIB_MODULES.some((module) => file === module || file.startsWith(`${module}/`)));
  const result = await recallOf({ root: STDLIB, files, ctagsArgs: ['--languages=Python'], kinds: KINDS });
  t.comment(summary(result));
  if (result.misses.length) t.comment(`misses:\n${describeMisses(result)}`);
  t.ok(result.recall >= 0.99, summary(result));
});

t.test('finds at least 99% of the classes, functions and methods ctags finds in flask', async (t) => {
  if (!requireCorpora(t, 'ctags', 'flask')) return;
  const result = await recallOf({ root: FLASK, files: listFiles(FLASK, ['.py']), ctagsArgs: ['--languages=Python'], kinds: KINDS });
  t.comment(summary(result));
  if (result.misses.length) t.comment(`misses:\n${describeMisses(result)}`);
  t.ok(result.recall >= 0.99, summary(result));
});
