/**
 * Rust's `impl Trait for Type` records the trait as a base of the type (rules in src/languages/rust/): on the
 * regex crate as Debian ships it, the types implementing its `Input` trait are its inheritors, and their
 * methods are the implementations of the trait's methods. Rust has no server here: the index answers.
 */
import t from 'tap';
import { getJson, startApp } from '../helpers.js';
import { corpusPath, requireCorpora } from '../corpora.js';
import { indexReady } from '../index/helpers.js';

t.test('the regex crate: Input and its implementations', async (t) => {
  if (!requireCorpora(t, 'crate-regex')) return;
  const app = await startApp(t, corpusPath('crate-regex'));
  await indexReady(app);

  const inheritors = await getJson(app, '/symbols/inheritors?symbol=Input&kind=interface&language=rust');
  t.equal(inheritors.status, 200);
  const names = inheritors.body.results.map((r: { name: string; file: string }) => `${r.name} ${r.file}`);
  t.ok(names.includes('CharInput input.rs'), `CharInput implements Input (${names.join(', ')})`);
  t.ok(names.includes('ByteInput input.rs'), 'ByteInput implements Input');

  const hierarchy = await getJson(app, '/symbols/hierarchy?symbol=CharInput&direction=up');
  const supertypes = hierarchy.body.supertypes.map((n: { name: string; file?: string; external?: boolean }) => `${n.name} ${n.file ?? 'external'}`);
  t.ok(supertypes.includes('Input input.rs'), `the trait is CharInput's supertype (${supertypes.join(', ')})`);
  t.ok(supertypes.includes('ops::Deref external'), 'and so is the std trait it implements, named, outside the index');

  const implementations = await getJson(app, '/symbols/implementations?symbol=Input::at');
  t.equal(implementations.status, 200);
  const owners = implementations.body.results.map((r: { qualifiedName: string }) => r.qualifiedName).sort();
  t.ok(owners.includes('CharInput::at') && owners.includes('ByteInput::at'), `the impl blocks' methods implement the trait's (${owners.join(', ')})`);
});
