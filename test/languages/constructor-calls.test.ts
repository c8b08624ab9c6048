/**
 * What a constructor's calls spell is its language's rule (LanguageRules.constructorNames, src/languages/<id>/rules.ts),
 * not the call graph's (src/symbols/calls.ts): TypeScript's `constructor` is called as `new Subject()`. rxjs's
 * Subject.ts and two operators calling `new Subject` are read as TypeScript and, copied, as a language module that is
 * TypeScript without that rule (test/fixtures/languages/typescript-plain.ts): syntactic callers (no servers) of
 * Subject's constructor are the `new Subject` sites in the first, and none in the second, whose constructor is called
 * by its own name. Python and Rust name none (`__init__` is indexed as a method, Rust's `new` is a plain function).
 */
import { copyFileSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import t from 'tap';
import { addLanguageModules, rulesOf } from '../../src/languages/index.js';
import { RXJS_SRC, getJson, startApp, tempDir } from '../helpers.js';
import { indexReady } from '../index/helpers.js';

const PLAIN_MODULE = new URL('../fixtures/languages/typescript-plain.ts', import.meta.url).href;
const FILES = ['internal/Subject.ts', 'internal/operators/share.ts', 'internal/operators/window.ts'];
const NO_SERVERS = { languages: { cpp: { enabled: false }, python: { enabled: false }, typescript: { enabled: false }, go: { enabled: false } }, index: { watch: false } };

interface Caller { symbol: { name: string; file: string } }

t.test('each language says which constructor names its calls do not spell', async (t) => {
  t.same(rulesOf('typescript')?.constructorNames, ['constructor', 'new']);
  t.same(rulesOf('javascript')?.constructorNames, ['constructor', 'new'], 'one family, one rule');
  t.same(rulesOf('python')?.constructorNames, [], 'Python: __init__ is a method');
  t.same(rulesOf('rust')?.constructorNames, [], 'Rust: new is a convention');
  t.equal(rulesOf('cpp')?.constructorNames, undefined, 'C++: a constructor has its class\'s name already');
});

t.test('syntactic callers of a constructor follow its language\'s rule', async (t) => {
  await addLanguageModules([PLAIN_MODULE]);
  const root = tempDir(t, 'plumb-ctor-calls-');
  for (const file of FILES) {
    mkdirSync(path.dirname(path.join(root, 'ts', file)), { recursive: true });
    mkdirSync(path.dirname(path.join(root, 'plain', file)), { recursive: true });
    copyFileSync(path.join(RXJS_SRC, file), path.join(root, 'ts', file));
    copyFileSync(path.join(RXJS_SRC, file), path.join(root, 'plain', file.replace(/\.ts$/, '.tsplain')));
  }
  const app = await startApp(t, root, NO_SERVERS);
  await indexReady(app);

  const constructorOf = async (file: string): Promise<string> => {
    const found = await getJson(app, `/symbols?query=Subject::constructor&match=exact&kind=constructor`);
    t.equal(found.status, 200);
    const place = found.body.results.find((s: { file: string; containingType: string }) => s.file === file && s.containingType === 'Subject');
    t.ok(place, `Subject's constructor is indexed in ${file}`);
    return place?.id;
  };

  const ts = await getJson(app, `/symbols/callers?id=${await constructorOf('ts/internal/Subject.ts')}`);
  t.equal(ts.status, 200);
  t.match(ts.body, { precision: 'syntactic' });
  const files = new Set(ts.body.results.map((c: Caller) => c.symbol.file));
  t.ok(files.has('ts/internal/operators/share.ts') && files.has('ts/internal/operators/window.ts'), `TypeScript: the new Subject() sites are its callers (${[...files].join(', ')})`);

  const plain = await getJson(app, `/symbols/callers?id=${await constructorOf('plain/internal/Subject.tsplain')}`);
  t.equal(plain.status, 200);
  t.same(plain.body.results.map((c: Caller) => c.symbol.file), [], 'without the rule a constructor named `constructor` is called by that name: no call spells it');
});
