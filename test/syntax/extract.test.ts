/**
 * What a user of the index would check on small hand-written files: names, kinds, containers,
 * definition flags, positions. Fixtures are in test/fixtures/syntax/.
 */
import t from 'tap';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ExtractedSymbol } from '../../src/syntax/types.js';
import { extractSymbols } from '../../src/syntax/index.js';
import { languageById, languageOfPath } from '../../src/languages/index.js';

const syntaxLanguageOf = (file: string) => languageOfPath(file)?.id;

const FIXTURES = join(dirname(fileURLToPath(import.meta.url)), '..', 'fixtures', 'syntax');

async function extractFixture(name: string): Promise<ExtractedSymbol[]> {
  const language = languageOfPath(name);
  if (!language) throw new Error(`no language for ${name}`);
  return extractSymbols(language, readFileSync(join(FIXTURES, name), 'utf8'));
}

/** The one symbol with this qualified name (and kind, when several share it). */
function only(symbols: ExtractedSymbol[], qualifiedName: string, kind?: string, line?: number): ExtractedSymbol {
  const found = symbols.filter((s) => s.qualifiedName === qualifiedName && (!kind || s.kind === kind) && (!line || s.selectionRange.start.line === line));
  if (found.length !== 1) throw new Error(`${found.length} symbols named ${qualifiedName}${kind ? ` (${kind})` : ''}: ${symbols.map((s) => `${s.kind} ${s.qualifiedName}@${s.selectionRange.start.line}`).join(', ')}`);
  return found[0];
}

t.test('Unreal-style macros do not break a class, its members or its enums', async (t) => {
  const symbols = await extractFixture('unreal.h');
  const actor = only(symbols, 'AMyActor', 'class');
  t.match(actor, { kind: 'class', definition: true, forwardDeclaration: false, bases: ['AActor', 'IMyInterface'], doc: 'An actor that does things.' });
  t.same(actor.selectionRange.start, { line: 13, column: 18 }, 'the name after the export macro');

  const fire = only(symbols, 'AMyActor::Fire');
  t.match(fire, { kind: 'method', containers: ['AMyActor'], containingType: 'AMyActor', definition: false, forwardDeclaration: false, returnType: 'void' });
  t.same(fire.parameters, [{ name: 'Count', type: 'int32' }, { name: 'Reason', type: 'const FString&' }]);
  t.equal(fire.doc, 'Called when the game starts.', 'the comment above UFUNCTION(...) documents the method');

  t.match(only(symbols, 'AMyActor::CanFire'), { kind: 'method', definition: false, forwardDeclaration: false }, 'a pure virtual is a declaration');
  t.match(only(symbols, 'AMyActor::AMyActor'), { kind: 'constructor', definition: false });
  t.match(only(symbols, 'AMyActor::Ammo'), { kind: 'field', containingType: 'AMyActor', returnType: 'int32' });
  t.match(only(symbols, 'FMyData', 'struct'), { definition: true });
  t.match(only(symbols, 'FMyData::Weight'), { kind: 'field' });
  t.same(symbols.filter((s) => s.containingType === 'EMyState').map((s) => s.name), ['Idle', 'Firing'], 'UMETA(...) leaves the enumerators');
  t.notOk(symbols.some((s) => /^(UCLASS|UFUNCTION|UPROPERTY|GENERATED_BODY|MYGAME_API)$/.test(s.name)), 'no macro shows up as a symbol');
});

t.test('a full Unreal header: interfaces, delegates, FORCEINLINE, PURE_VIRTUAL, deprecations', async (t) => {
  const symbols = await extractFixture('MyCharacter.h');
  const character = only(symbols, 'AMyCharacter');
  t.match(character, { kind: 'class', bases: ['ACharacter', 'IDamageable'], doc: "The player's character.", definition: true });
  t.same(character.selectionRange.start, { line: 41, column: 18 });
  t.match(only(symbols, 'UDamageable'), { kind: 'class', bases: ['UInterface'] });
  t.match(only(symbols, 'IDamageable::TakeHit'), { kind: 'method', definition: false });
  t.match(only(symbols, 'IDamageable::GetArmor'), { kind: 'method', returnType: 'int32', definition: false });
  t.match(only(symbols, 'AMyCharacter::GetHealth'), { kind: 'method', returnType: 'float', definition: true, doc: 'Returns the health.', signature: 'float GetHealth() const' });
  t.match(only(symbols, 'AMyCharacter::GetHP'), { kind: 'method', definition: false });
  t.match(only(symbols, 'AMyCharacter::CameraBoom'), { kind: 'field' });
  t.match(only(symbols, 'AMyCharacter::SpawnClasses'), { kind: 'field', returnType: 'TArray<TSubclassOf<AActor>>' });
  t.match(only(symbols, 'AMyCharacter::Health'), { kind: 'field', returnType: 'float' });
  t.match(only(symbols, 'AMyCharacter::ServerFire'), { kind: 'method', parameters: [{ name: 'Origin', type: 'const FVector&' }] });
  t.same(symbols.filter((s) => s.containingType === 'EMyFlags').map((s) => s.name), ['None', 'Fast']);
  t.notOk(symbols.some((s) => /^[A-Z][A-Z0-9_]+$/.test(s.name) && s.kind !== 'enum_member'), `no macro as a symbol: ${symbols.map((s) => s.name).join(', ')}`);
});

t.test('scope and pragma macros on their own line, and #if branches that each open a parenthesis', async (t) => {
  const symbols = await extractFixture('scope_macros.h');
  t.match(only(symbols, 'QThing'), { kind: 'class', bases: ['QObject'], definition: true });
  t.match(only(symbols, 'QThing::size'), { kind: 'method', definition: false });
  t.same(symbols.filter((s) => s.kind === 'enum_member').map((s) => s.name), ['KIND_BEGIN', 'KIND_END'], 'a last enumerator named *_END is kept');
  t.match(only(symbols, 'platform'), { kind: 'function', definition: true, signature: 'void platform(int a, int b)' }, 'the first branch is kept');
});

t.test('C++ forward declarations are flagged; definitions are not', async (t) => {
  const symbols = await extractFixture('unreal.h');
  t.match(only(symbols, 'UStaticMeshComponent'), { kind: 'class', forwardDeclaration: true, definition: false });
  t.match(only(symbols, 'FHitResult'), { kind: 'struct', forwardDeclaration: true });
  t.match(only(symbols, 'EMyState', 'enum', 9), { forwardDeclaration: true, definition: false }, 'enum class X : T;');
  t.match(only(symbols, 'EMyState', 'enum', 36), { forwardDeclaration: false, definition: true });
});

t.test('out-of-line C++ definitions belong to their class, inside their namespaces', async (t) => {
  const symbols = await extractFixture('out_of_line.cpp');
  const beginPlay = only(symbols, 'game::AMyActor::BeginPlay');
  t.match(beginPlay, { kind: 'method', containers: ['game', 'AMyActor'], containingType: 'AMyActor', definition: true, signature: 'void AMyActor::BeginPlay()' });
  t.same(beginPlay.selectionRange.start, { line: 21, column: 16 }, 'line and column of the name, not of the qualifier');
  t.same(beginPlay.range.start, { line: 21, column: 1 });
  t.same(beginPlay.range.end, { line: 23, column: 2 });

  t.match(only(symbols, 'game::AMyActor::AMyActor'), { kind: 'constructor', definition: true, doc: 'Constructs the actor.' });
  const twice = only(symbols, 'game::detail::Box::twice');
  t.match(twice, { kind: 'method', containingType: 'Box', returnType: 'T' });
  t.equal(twice.range.start.line, 25, 'the template head is in the range');

  const box = only(symbols, 'game::detail::Box');
  t.match(box, { kind: 'struct', bases: ['Base<T>'] });
  t.equal(box.range.start.line, 10);
  t.equal(box.selectionRange.start.line, 11);

  const helpers = symbols.filter((s) => s.name === 'helper');
  t.same(helpers.map((s) => [s.kind, s.qualifiedName, s.containingType, s.definition]), [
    ['function', 'game::detail::helper', null, false],
    ['function', 'game::detail::helper', null, true],
  ], '`ns::f` defined out of line is a function of the namespace, not a method');

  t.match(only(symbols, 'MY_MAX'), { kind: 'macro', parameters: [{ name: 'a' }, { name: 'b' }] });
  t.match(only(symbols, 'Streamable::operator=='), { kind: 'function', containingType: null, definition: true }, 'a friend defined in the class is a free function');
  t.notOk(symbols.some((s) => s.name === 'Helper'), '`friend class X;` declares no symbol');
  t.match(only(symbols, 'Holder::operator T*'), { kind: 'method', definition: true }, 'conversion operator');
  t.match(only(symbols, 'kMaxItems'), { kind: 'enum_member', containers: [] }, 'an anonymous enum\'s enumerators');
  t.match(only(symbols, 'Variant::f'), { kind: 'field', containingType: 'Variant' }, 'an anonymous union\'s members');
  t.match(only(symbols, 'game::Score'), { kind: 'type_alias' });
  t.match(only(symbols, 'game::Id'), { kind: 'type_alias' });
});

t.test('C: prototypes, forward structs, typedefs', async (t) => {
  const symbols = await extractFixture('prototypes.c');
  t.ok(symbols.every((s) => s.language === 'c'));
  t.match(only(symbols, 'point', 'struct', 5), { forwardDeclaration: true });
  t.match(only(symbols, 'point', 'struct', 11), { forwardDeclaration: false, definition: true });
  t.match(only(symbols, 'add', 'function', 9), { definition: false, doc: 'Adds two numbers.' });
  t.match(only(symbols, 'add', 'function', 24), { definition: true });
  t.match(only(symbols, 'named_t', 'struct'), { definition: true });
  t.match(only(symbols, 'named_t::name'), { kind: 'field', returnType: 'const char *' });
  t.match(only(symbols, 'counter'), { kind: 'variable', returnType: 'int' });
  t.match(only(symbols, 'die'), { kind: 'function', definition: true, parameters: [{ name: 'format', type: 'const char *' }, { name: '...' }] }, 'attribute macros before the name');
  t.match(only(symbols, 'handler_for'), { kind: 'function', definition: true }, 'a function returning a function pointer');
  t.match(only(symbols, 'describe'), { returnType: 'const char*', parameters: [{ name: 'p', type: 'const struct point *' }, { name: '...' }] });
});

t.test('TypeScript overloads and declare are declarations; members and bases as written', async (t) => {
  const symbols = await extractFixture('overloads.ts');
  const parses = symbols.filter((s) => s.name === 'parse');
  t.same(parses.map((s) => s.definition), [false, false, true], 'two overload signatures, one implementation');
  t.equal(parses[0].doc, 'Parses a value.');
  t.same(parses[2].parameters, [{ name: 'input', type: 'string | number' }]);
  t.equal(parses[2].returnType, 'number');

  t.match(only(symbols, 'external'), { kind: 'function', definition: false });
  t.match(only(symbols, 'VERSION'), { definition: false, returnType: 'string' });
  t.match(only(symbols, 'Shape'), { kind: 'interface', bases: ['Named', 'Sized<number>'] });
  t.match(only(symbols, 'Shape.area'), { kind: 'method', containingType: 'Shape' });

  const base = only(symbols, 'Base');
  t.match(base, { kind: 'class', bases: ['Root<T>', 'Shape', 'Other'] });
  t.equal(base.range.start.line, 22, 'the decorator is in the range');
  t.match(only(symbols, 'Base.constructor'), { kind: 'constructor', containingType: 'Base' });
  t.match(only(symbols, 'Base.name'), { kind: 'property', returnType: 'string' }, 'a constructor parameter property');
  t.match(only(symbols, 'Base.area'), { kind: 'method', definition: false }, 'abstract');
  t.same(symbols.filter((s) => s.qualifiedName === 'Base.format').map((s) => s.definition), [false, true]);
  t.match(only(symbols, 'Base.count'), { kind: 'property' });

  t.match(only(symbols, 'double'), { kind: 'function', parameters: [{ name: 'x', type: 'number' }], returnType: 'number' });
  t.match(only(symbols, 'MAX_SIZE'), { kind: 'constant' });
  t.match(only(symbols, 'Color.Green'), { kind: 'enum_member', containingType: 'Color' });
  t.match(only(symbols, 'Id'), { kind: 'type_alias' });
  t.match(only(symbols, 'Outer.Inner'), { kind: 'namespace' });
  t.match(only(symbols, 'Outer.Inner.deep'), { kind: 'function', containers: ['Outer', 'Inner'] });
  t.match(only(symbols, 'some-module.fromModule'), { definition: false });
  const onClick = only(symbols, 'Component.onClick');
  t.equal(onClick.range.start.line, onClick.selectionRange.start.line - 1, 'a member decorator is in the range');
  t.match(only(symbols, 'Component.name'), { kind: 'property', doc: 'The name.' }, 'the doc above the decorator');
});

t.test('TSX: components as functions and classes', async (t) => {
  const symbols = await extractFixture('Widget.tsx');
  t.ok(symbols.every((s) => s.language === 'tsx'));
  t.match(only(symbols, 'Widget'), { kind: 'function', doc: 'Shows a widget.', returnType: 'JSX.Element', parameters: [{ name: '{ title, onClose }', type: 'WidgetProps' }] });
  t.match(only(symbols, 'Badge'), { kind: 'function' });
  t.match(only(symbols, 'Panel'), { kind: 'class', bases: ['React.Component<WidgetProps>'] });
  t.match(only(symbols, 'Panel.render'), { kind: 'method' });
  t.match(only(symbols, 'WidgetProps.onClose'), { kind: 'property', returnType: '() => void' });
});

t.test('Python decorators are in the range; docstrings are docs; module and class variables', async (t) => {
  const symbols = await extractFixture('decorators.py');
  const cached = only(symbols, 'cached');
  t.equal(cached.range.start.line, 16, 'the range starts at the first decorator');
  t.same(cached.selectionRange.start, { line: 18, column: 5 });

  const plain = only(symbols, 'plain');
  t.match(plain, { kind: 'function', doc: 'Do a plain thing.', returnType: 'str' });
  t.same(plain.parameters, [{ name: 'x', type: 'int' }, { name: '*args', type: '' }, { name: 'flag', type: 'bool' }, { name: '**kwargs', type: '' }]);
  t.match(only(symbols, 'plain.inner'), { kind: 'function', containers: ['plain'], containingType: null });

  t.match(only(symbols, 'Widget'), { kind: 'class', bases: ['Base'], doc: 'A widget.\n\nWith details.' });
  t.match(only(symbols, 'Widget.__init__'), { kind: 'method', containingType: 'Widget' });
  t.match(only(symbols, 'Widget.area'), { kind: 'method', signature: '@property def area(self) -> int' });
  t.match(only(symbols, 'Widget.fetch'), { definition: false }, 'a `...` body is a stub');
  t.match(only(symbols, 'Widget.size'), { kind: 'field', returnType: 'int' }, 'declared in the class body, assigned again in __init__: one field');
  t.match(only(symbols, 'Widget.label'), { kind: 'field', returnType: 'str', containingType: 'Widget' }, 'self.x in __init__ is a field');
  t.equal(only(symbols, 'Widget._cache').selectionRange.start.line, 34, 'the first assignment');
  t.match(only(symbols, 'Widget.Inner'), { kind: 'class', containingType: 'Widget' });
  t.match(only(symbols, 'MAX_RETRIES'), { kind: 'constant' });
  t.match(only(symbols, 'default_name'), { kind: 'variable', returnType: 'str' });
  t.ok(symbols.some((s) => s.name === 'conditional'), 'definitions under `if` at module level');
  t.equal(symbols.filter((s) => s.name === 'speedy').length, 1, 'the fallback under `except ImportError`');
  t.same(symbols.filter((s) => s.name === 'convert').map((s) => s.definition), [false, false, true], '@overload signatures are declarations');
});

t.test('columns count UTF-16 code units', async (t) => {
  const symbols = await extractFixture('utf16.ts');
  t.same(only(symbols, 'afterEmoji').selectionRange, { start: { line: 1, column: 39 }, end: { line: 1, column: 49 } }, 'two emoji before the name count 4 units');
  t.same(only(symbols, 'Été').selectionRange.start, { line: 3, column: 14 });
  t.equal(only(symbols, 'Été').doc, 'café 🎉');
});

t.test('Go: receivers make methods, embedded fields make bases', async (t) => {
  const symbols = await extractFixture('server.go');
  t.match(only(symbols, 'Server.Start'), { kind: 'method', containingType: 'Server', returnType: '(bool, error)', doc: 'Start starts the server.' });
  t.same(only(symbols, 'Server.Start').parameters, [{ name: 'port', type: 'int' }, { name: 'hosts', type: '...string' }]);
  t.match(only(symbols, 'List.Len'), { kind: 'method', containingType: 'List' }, 'a generic receiver');
  t.match(only(symbols, 'Server'), { kind: 'struct', bases: ['Base'], signature: 'type Server struct' });
  t.match(only(symbols, 'Handler'), { kind: 'interface', bases: ['Namer'] });
  t.match(only(symbols, 'Handler.Serve'), { kind: 'method', definition: false });
  t.match(only(symbols, 'MaxConns'), { kind: 'constant', doc: 'MaxConns limits connections.' });
  t.match(only(symbols, 'New'), { kind: 'function', returnType: '*Server' });
});

t.test('Java: classes, members, nested types', async (t) => {
  const symbols = await extractFixture('Registry.java');
  t.match(only(symbols, 'Registry'), { kind: 'class', bases: ['Base<T>', 'Iterable<T>', 'AutoCloseable'], doc: 'Keeps things.' });
  t.equal(only(symbols, 'Registry').range.start.line, 6, 'the annotation is in the range');
  t.match(only(symbols, 'Registry.Registry'), { kind: 'constructor' });
  t.match(only(symbols, 'Registry.LIMIT'), { kind: 'constant', returnType: 'int' });
  t.match(only(symbols, 'Registry.items'), { kind: 'field', returnType: 'List<T>' });
  t.match(only(symbols, 'Registry.add'), { kind: 'method', doc: 'Adds an item.', parameters: [{ name: 'item', type: 'T' }, { name: 'tags', type: 'String...' }] });
  t.match(only(symbols, 'Registry.size'), { definition: false }, 'abstract');
  t.match(only(symbols, 'Registry.Listener.changed'), { kind: 'method', containingType: 'Listener' });
  t.match(only(symbols, 'Registry.State.OPEN'), { kind: 'enum_member' });
  t.match(only(symbols, 'Registry.Entry'), { kind: 'class' });
  t.match(only(symbols, 'Registry.Entry.key'), { kind: 'field', returnType: 'String' }, 'record components are fields');
});

t.test('C#: namespaces, members, file-scoped namespaces', async (t) => {
  const symbols = await extractFixture('Shapes.cs');
  t.match(only(symbols, 'Geometry.Shapes.Shape'), { kind: 'class', bases: ['IShape', 'IComparable<Shape>'], containers: ['Geometry', 'Shapes'] });
  t.match(only(symbols, 'Geometry.Shapes.IShape'), { kind: 'interface', doc: '<summary>A shape with an area.</summary>' });
  t.match(only(symbols, 'Geometry.Shapes.Shape.Area'), { definition: false });
  t.match(only(symbols, 'Geometry.Shapes.Circle.Area'), { definition: true });
  t.match(only(symbols, 'Geometry.Shapes.Circle'), { bases: ['Shape'] });
  t.match(only(symbols, 'Geometry.Shapes.Circle.Radius'), { kind: 'property', returnType: 'double' }, 'positional record parameters are properties');
  t.match(only(symbols, 'Geometry.Shapes.Shape.Shape'), { kind: 'constructor' });
  t.match(only(symbols, 'Geometry.Shapes.Shape.MaxSides'), { kind: 'constant' });
  t.match(only(symbols, 'Geometry.Shapes.Shape.Name'), { kind: 'property' });
  t.match(only(symbols, 'Geometry.Shapes.Color.Blue'), { kind: 'enum_member' });
  t.match(only(symbols, 'Runner.Run.Twice'), { kind: 'function' }, 'a local function');
  const scoped = await extractFixture('FileScoped.cs');
  t.match(only(scoped, 'Company.Product.Service.Run'), { kind: 'method', containingType: 'Service' });
});

t.test('Rust: impl blocks give methods their type; traits have bounds as bases', async (t) => {
  const symbols = await extractFixture('shapes.rs');
  t.match(only(symbols, 'Point'), { kind: 'struct', doc: 'A point in space.' });
  t.equal(only(symbols, 'Point').range.start.line, 4, '#[derive(...)] is in the range');
  t.match(only(symbols, 'Point::new'), { kind: 'method', containingType: 'Point', doc: 'Makes a point.', returnType: 'Self' });
  t.match(only(symbols, 'Wrapper::area'), { kind: 'method', containingType: 'Wrapper' });
  t.match(only(symbols, 'Area'), { kind: 'interface', bases: ['Debug', 'Clone'] });
  t.match(only(symbols, 'Area::area'), { definition: false });
  t.match(only(symbols, 'Area::describe'), { definition: true });
  t.match(only(symbols, 'geometry::distance'), { kind: 'function', containers: ['geometry'] });
  t.match(only(symbols, 'Shape::Square'), { kind: 'enum_member' });
  t.match(only(symbols, 'abs'), { definition: false }, 'declared in an extern block');
  t.match(only(symbols, 'square'), { kind: 'macro' });
  t.notOk(symbols.some((s) => s.kind === 'struct' && s.name === 'Wrapper'), 'an impl block is no symbol of its own');
});

t.test('CRLF files give the same symbols, positions and docs as LF files', async (t) => {
  for (const name of ['MyCharacter.h', 'unreal.h', 'out_of_line.cpp', 'decorators.py', 'overloads.ts', 'shapes.rs', 'Shapes.cs', 'server.go', 'Registry.java']) {
    const source = readFileSync(join(FIXTURES, name), 'utf8');
    const language = languageOfPath(name)!;
    const key = (s: ExtractedSymbol) => `${s.qualifiedName} ${s.kind} ${s.selectionRange.start.line}:${s.selectionRange.start.column} ${s.definition} ${s.signature} ${JSON.stringify(s.doc)}`;
    const lf = (await extractSymbols(language, source)).map(key);
    const crlf = (await extractSymbols(language, source.replace(/\n/g, '\r\n'))).map(key);
    t.same(crlf, lf, name);
  }
});

t.test('languages by extension', async (t) => {
  t.equal(syntaxLanguageOf('a/b/x.h'), 'cpp');
  t.equal(syntaxLanguageOf('x.c'), 'c');
  t.equal(syntaxLanguageOf('X.HPP'), 'cpp');
  t.equal(syntaxLanguageOf('x.inl'), 'cpp');
  t.equal(syntaxLanguageOf('x.tcc'), 'cpp', 'template implementation files are C++');
  t.equal(syntaxLanguageOf('x.mm'), undefined, 'Objective-C is served by clangd only: no grammar indexes it');
  t.equal(syntaxLanguageOf('x.mts'), 'typescript');
  t.equal(syntaxLanguageOf('x.tsx'), 'tsx');
  t.equal(syntaxLanguageOf('x.jsx'), 'javascript');
  t.equal(syntaxLanguageOf('x.pyi'), 'python');
  t.equal(syntaxLanguageOf('x.cs'), 'csharp');
  t.equal(syntaxLanguageOf('x.rs'), 'rust');
  t.equal(syntaxLanguageOf('README.md'), undefined);
  t.equal(syntaxLanguageOf('Makefile'), undefined);
});

t.test('an export macro wrapping the return type leaves the declarator its name (curses.h style)', async (t) => {
  const source = [
    'extern NCURSES_EXPORT(int) endwin (void);\t\t/* implemented */',
    'extern NCURSES_EXPORT(WINDOW *) derwin (WINDOW *,int,int,int,int);\t/* implemented */',
    'extern NCURSES_EXPORT_VAR(WINDOW *) stdscr;',
    'extern NCURSES_EXPORT(int) doupdate (void);',
  ].join('\n');
  const symbols = await extractSymbols(languageById('cpp'), source);
  t.same(symbols.map((s) => s.name), ['endwin', 'derwin', 'stdscr', 'doupdate']);
  t.match(only(symbols, 'endwin'), { kind: 'function', definition: false, returnType: 'int', selectionRange: { start: { line: 1, column: 28 } } });
  t.match(only(symbols, 'derwin'), { kind: 'function', returnType: 'WINDOW*' });
});

t.test('a huge inferred type is clipped to one line in returnType and parameters', async (t) => {
  const members = Array.from({ length: 400 }, (_, i) => `  'icon-${i}': () => Promise<typeof icon${i}>;`).join('\n');
  const source = `declare const dynamicIconImports: {\n${members}\n};\nexport function take(options: {\n${members}\n}): void;\n`;
  const symbols = await extractSymbols(languageById('typescript'), source);
  const icons = only(symbols, 'dynamicIconImports');
  t.ok(icons.returnType && icons.returnType.length <= 300 && icons.returnType.endsWith('…'), `returnType clipped (${icons.returnType?.length} characters)`);
  t.notMatch(icons.returnType ?? '', /\n/);
  const take = only(symbols, 'take');
  t.ok(take.parameters[0].type.length <= 300, 'parameter type clipped');
  t.equal(take.parameters[0].name, 'options');
});
