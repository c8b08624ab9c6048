/**
 * Function bodies blanked before parsing (src/syntax/bodies.ts): which braces are
 * blanked, which are only searched, and that blanking keeps every offset and line. The recall
 * tests check the same on real trees against ctags.
 */
import t from 'tap';
import { blankBodies, blankableBodies, type BodyRules } from '../../src/syntax/bodies.js';
import { CPP_BODIES } from '../../src/languages/cpp/syntax.js';
import { blankDeclarationHeads, blankMacroRules } from '../../src/languages/cpp/macros.js';
import { GO_BODIES } from '../../src/languages/go/syntax.js';
import { JAVA_BODIES } from '../../src/languages/java/syntax.js';
import { RUST_BODIES } from '../../src/languages/rust/syntax.js';
import { extractSymbols } from '../../src/syntax/index.js';
import { languageById } from '../../src/languages/index.js';

/** The text of each blanked range. */
function blanked(source: string, rules: BodyRules): string[] {
  return blankableBodies(source, rules).map(([from, to]) => source.slice(from, to).trim());
}

t.test('C++: method and function bodies are blanked, class and namespace bodies searched', async (t) => {
  const source = [
    'namespace ns {',
    'template <class T> class Box : public Base<T> {',
    ' public:',
    '  int get() const { return value_; }',
    '  Box() : value_{1} { init(); }',
    '  T value_;',
    '};',
    'void Box<int>::reset(int v) {',
    '  if (v) { value_ = v; }',
    '}',
    'enum class Color : int { kRed, kGreen };',
    'extern "C" { int c_api(void); }',
    'static const int kTable[] = { f(1), 2 };',
    '}  // namespace ns',
  ].join('\n');
  t.same(blanked(source, CPP_BODIES), ['return value_;', 'init();', 'if (v) { value_ = v; }', 'f(1), 2']);
});

t.test('C and C++: an initializer\'s values are blanked with no filler, its declaration and what follows kept', async (t) => {
  const source = [
    'static const struct pci_device_id ids[] = {',
    '  { PCI_DEVICE(0x8086, 0x1234), .driver_data = 1 },',
    '#ifdef CONFIG_X',
    '  { 0, }',
    '#endif',
    '};',
    'int a = { 1 }, b = {2};',
    'struct S s = { .f = (struct T){ 1 }, .g = sizeof(struct U) };',
    'bool same = x == y; int c[] = { x >= 1 };',
    'auto make = [] { struct Local { int z; }; return Local{}; };',
    'auto kept = { [] { struct Local { int z; }; return 0; }() };',
    'void f(Opts o = { 1, 2 });',
    'template <int N = 1> struct Q { int v = { N }; };',
  ].join('\n');
  t.same(blanked(source, CPP_BODIES), [
    '{ PCI_DEVICE(0x8086, 0x1234), .driver_data = 1 },\n#ifdef CONFIG_X\n  { 0, }\n#endif',
    '.f = (struct T){ 1 }, .g = sizeof(struct U)', 'x >= 1', 'N',
  ], 'the initializers of declarations of one declarator (a declarator\'s signature runs from its declaration\'s start), not a lambda\'s body, one defining a type, a default argument');
  const prepared = blankBodies(source, CPP_BODIES);
  t.equal(prepared.length, source.length, 'offsets kept');
  t.same(prepared.split('\n').map((line) => line.length), source.split('\n').map((line) => line.length), 'lines kept');
  t.match(prepared, /^static const struct pci_device_id ids\[\] = \{\s+\};\nint a = \{ 1 \}, b = \{2\};/, 'no filler in an initializer, its directives blanked too');
  // The same symbols, ranges and signatures as when initializers are parsed whole.
  const cpp = languageById('cpp')!;
  const whole = { ...cpp, syntax: { ...cpp.syntax!, prepare: (text: string) => blankDeclarationHeads(blankBodies(blankMacroRules(text), { ...CPP_BODIES, initializers: false })) } };
  const symbols = await extractSymbols(cpp, source);
  t.same(symbols, await extractSymbols(whole, source), 'the same symbols as with initializers parsed');
  t.same(symbols.filter((s) => ['ids', 'a', 'b', 's', 'c'].includes(s.name)).map((s) => `${s.name}: ${s.signature}`),
    ['ids: static const struct pci_device_id ids[]', 'a: int a', 'b: int a = { 1 }, b', 's: struct S s', 'c: int c[]'], 'each initialized variable, its own value left out of its signature');
});

t.test('C: what an initializer holds is no declaration, whatever error recovery would make of it', async (t) => {
  // The shape of the kernel's drivers/net/wireless/zydas/zd1211rw/zd_rf_*.c tables and a directive inside an initializer.
  const source = [
    'static struct lcdc_info lcdc_info = {', '#if defined(CONFIG_WVGA)', '\t.clock_source = LCDC_CLK_BUS,', '#else', '\t.clock_source = 0,', '#endif', '};',
    'static const u32 table[][3] = {', '\tRF_CHANNEL( 1) = { 0x03f790, 0x033331, },', '\tRF_CHANNEL( 2) = { 0x03f790, 0x0b3331, },', '};',
    'int after(void);',
  ].join('\n');
  const symbols = await extractSymbols(languageById('c')!, source);
  t.same(symbols.map((s) => `${s.kind} ${s.name}: ${s.signature} -> ${s.returnType}`), [
    'variable lcdc_info: static struct lcdc_info lcdc_info -> struct lcdc_info',
    'constant table: static const u32 table[][3] -> const u32 [][3]',
    'function after: int after(void) -> int',
  ], 'no RF_CHANNEL constant, no initializer text in a type');
});

t.test('Rust: a block after `=` may hold items, and is not blanked as an initializer', async (t) => {
  t.same(blanked('const _: () = { impl Foo for Bar { fn f() { g(); } } };\n', RUST_BODIES), ['g();']);
});

t.test('C++: a body that may declare a local type is parsed whole', async (t) => {
  const source = 'void f() {\n  struct Local { int x; };\n}\nvoid g() { h(); }\n';
  t.same(blanked(source, CPP_BODIES), ['h();']);
});

t.test('C++: braces in strings, raw strings, characters, comments and directives count for nothing', async (t) => {
  const source = [
    'void f() {',
    '  const char* a = "}";',
    '  const char* b = R"x(}})x";',
    '  char c = \'}\';',
    '  // }',
    '  /* } */',
    '#pragma CLOSE }',
    '  int d = 1\'000;',
    '}',
    'class After { void g() { x(); } };',
  ].join('\n');
  const ranges = blanked(source, CPP_BODIES);
  t.equal(ranges.length, 2);
  t.ok(ranges[0].startsWith('const char* a') && ranges[0].endsWith("int d = 1'000;"), ranges[0]);
  t.equal(ranges[1], 'x();');
});

t.test('Java: method bodies are blanked; enum constant bodies and anonymous classes are kept', async (t) => {
  const source = [
    'public enum Unit {',
    '  SECONDS(1) { long toMillis(long d) { return d * 1000; } },',
    '  MILLIS(2);',
    '  Unit(int code) { this.code = code; }',
    '  @SuppressWarnings("unchecked") public int code() { return code; }',
    '  Runnable task() { return new Runnable() { public void run() { go(); } }; }',
    '  String text() { return """',
    '    }"""; }',
    '}',
  ].join('\n');
  t.same(blanked(source, JAVA_BODIES), ['return d * 1000;', 'return code;', 'go();', 'return """\n    }""";']);
});

t.test('blanking keeps offsets and line breaks, and leaves a statement for the grammar', async (t) => {
  const source = 'int f(int a) {\n  return a +\n    1;\n}\nint g() { return 2; }\n';
  const out = blankBodies(source, CPP_BODIES);
  t.equal(out.length, source.length);
  t.same(out.split('\n').map((line) => line.length), source.split('\n').map((line) => line.length));
  t.equal(out, 'int f(int a) {\nx;          \n      \n}\nint g() {x;         }\n');
});

t.test('Go: func bodies are blanked; type literals in a head and bodiless funcs are not bodies', async (t) => {
  const source = [
    'package p',
    '//go:linkname now runtime.now',
    'func now() (int64, int32)',
    'var table = [...]byte{\'{\', 0}',
    'type T struct {',
    '\tf func() int',
    '}',
    'func (t *T) Set(m map[string]struct{}) interface{ M() } {',
    '\treturn nil',
    '}',
    'func F[K interface{ ~int }](k K) {',
    '\ts := `}`',
    '\t_ = s',
    '}',
  ].join('\n');
  t.same(blanked(source, GO_BODIES), ['return nil', 's := `}`\n\t_ = s']);
});

t.test('Rust: fn bodies are blanked; impl, trait and mod bodies are searched', async (t) => {
  const source = [
    'impl<F: Fn(u8)> Runner for F {',
    '    fn run(&self) -> impl Iterator<Item = u8> { let s = r#"}"#; s.bytes() }',
    '}',
    "fn label<'a>(x: &'a str) -> char { '}' }",
    'fn nested() { fn inner() {} }',
  ].join('\n');
  t.same(blanked(source, RUST_BODIES), ['let s = r#"}"#; s.bytes()', "'}'"]);
});

t.test('symbols come out the same with bodies blanked', async (t) => {
  const source = [
    '/// Doc for f.',
    'int f(int a) {',
    '  struct Local { int x; };',
    '  return a;',
    '}',
    'class Widget {',
    ' public:',
    '  void draw() const { paint(); }',
    '  MOCK_METHOD0(Size, int());',
    '};',
    'TEST(WidgetTest, Draws) {',
    '  Widget w;',
    '}',
  ].join('\n');
  const symbols = await extractSymbols(languageById('cpp'), source);
  t.same(symbols.map((s) => `${s.kind} ${s.qualifiedName} ${s.range.start.line}-${s.range.end.line}`), [
    'function f 2-5',
    'struct f::Local 3-3',
    'field f::Local::x 3-3',
    'class Widget 6-10',
    'method Widget::draw 8-8',
    'function TEST 11-13',
  ]);
  t.equal(symbols[0].doc, 'Doc for f.');
  t.equal(symbols.find((s) => s.name === 'draw')?.signature, 'void draw() const');
});
