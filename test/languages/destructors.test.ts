/**
 * Which members tear an object down is the language's rule (LanguageRules.isDestructor): C++'s destructor and C#'s
 * finalizer, both written and indexed as `~Name`, are like constructors no members to inherit and no overrides,
 * while Java and Python have no such member. The C# case is a small hand-written fixture (no C# corpus is installed,
 * and no C# server runs: members answer from the index); C++'s is covered on googletest by test/routes/members.test.ts.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import t from 'tap';
import { isConstructorOrDestructor, rulesOf } from '../../src/languages/index.js';
import { getJson, startApp, tempDir } from '../helpers.js';
import { indexReady } from '../index/helpers.js';

interface Member { name: string; kind: string; inheritedFrom?: string; overrides?: { qualifiedName: string } }

t.test('each language says what its destructors are', async (t) => {
  t.equal(rulesOf('cpp')?.isDestructor?.({ name: '~Test', kind: 'method' }), true);
  t.equal(rulesOf('csharp')?.isDestructor?.({ name: '~Resource', kind: 'method' }), true, 'a C# finalizer');
  t.equal(rulesOf('cpp')?.isDestructor?.({ name: 'operator~', kind: 'method' }), false, 'operator~ is a method like any other');
  t.equal(rulesOf('java')?.isDestructor, undefined);
  t.equal(isConstructorOrDestructor({ name: 'Resource', kind: 'constructor', language: 'java' }), true);
  t.equal(isConstructorOrDestructor({ name: '~x', kind: 'method', language: 'python' }), false, 'not a rule of Python');
});

t.test('a C# finalizer is not inherited and overrides nothing', async (t) => {
  const root = tempDir(t, 'plumb-destructors-');
  mkdirSync(path.join(root, 'src'));
  writeFileSync(path.join(root, 'src/Resources.cs'), [
    'namespace Demo {',
    '  public class Resource {',
    '    public Resource() {}',
    '    ~Resource() {}',
    '    public virtual void Close() {}',
    '    public int Handle;',
    '  }',
    '  public class FileResource : Resource {',
    '    public FileResource() {}',
    '    ~FileResource() {}',
    '    public override void Close() {}',
    '  }',
    '}',
    '',
  ].join('\n'));
  const app = await startApp(t, root, { index: { watch: false } });
  await indexReady(app);
  const own = (await getJson(app, '/symbols/members?symbol=FileResource')).body as { results: Member[] };
  t.same(own.results.map((m) => m.name).sort(), ['Close', 'FileResource', '~FileResource']);
  t.match(own.results.find((m) => m.name === 'Close')?.overrides, { qualifiedName: 'Demo.Resource.Close' }, 'a method overrides its base\'s');
  t.equal(own.results.find((m) => m.name === '~FileResource')?.overrides, undefined, 'the finalizer overrides no other');
  const all = (await getJson(app, '/symbols/members?symbol=FileResource&inherited=true')).body as { results: Member[] };
  t.same(all.results.filter((m) => m.inheritedFrom).map((m) => m.name), ['Handle'], 'Resource\'s constructor and finalizer are not inherited, Close is overridden');
});
