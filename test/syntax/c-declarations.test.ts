/**
 * C and C++ declarations read through their macros and past their directives, on small fixtures
 * (test/fixtures/syntax/macro_placements.{c,cpp}, preproc_anywhere.{c,cpp}): every placement of a macro a
 * declaration has no room for, and every place a directive stands where the grammar takes none. The real
 * trees are the recall tests' (recall-kernel*, recall-usr-include, recall-cpp).
 */
import t from 'tap';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ExtractedSymbol } from '../../src/syntax/types.js';
import { extractSymbols } from '../../src/syntax/index.js';
import { languageById } from '../../src/languages/index.js';

const FIXTURES = join(import.meta.dirname, '..', 'fixtures', 'syntax');

async function extract(name: string, language: 'c' | 'cpp' = name.endsWith('.c') ? 'c' : 'cpp'): Promise<ExtractedSymbol[]> {
  return extractSymbols(languageById(language), readFileSync(join(FIXTURES, name), 'utf8'));
}

/** The one symbol of that qualified name (and kind). */
function one(symbols: ExtractedSymbol[], qualifiedName: string, kind?: string): ExtractedSymbol {
  const found = symbols.filter((s) => s.qualifiedName === qualifiedName && (!kind || s.kind === kind));
  if (found.length !== 1) throw new Error(`${found.length} symbols ${qualifiedName}${kind ? ` (${kind})` : ''} among ${symbols.map((s) => `${s.kind} ${s.qualifiedName}`).join(', ')}`);
  return found[0];
}

const names = (symbols: ExtractedSymbol[]): string[] => symbols.map((s) => s.name);

t.test('C: a macro between the return type and the name, before the type, or before the declaration', async (t) => {
  const symbols = await extract('macro_placements.c');
  t.match(one(symbols, 'sched_init'), { kind: 'function', definition: true, returnType: 'void', signature: 'void sched_init(void)' }, 'void __init sched_init(void) is the function sched_init');
  t.match(one(symbols, 'two_attributes'), { kind: 'function', returnType: 'int' }, 'two attribute words');
  t.match(one(symbols, 'trace_clock'), { kind: 'function', returnType: 'u64' }, 'u64 notrace f: the type is the word not spelled as an attribute');
  t.match(one(symbols, 'noinline_fn'), { kind: 'function', returnType: 'int' });
  t.match(one(symbols, 'alloc_page_checked'), { kind: 'function', definition: false }, 'struct page *__must_check f(...)');
  t.match(one(symbols, 'ioremap_one'), { kind: 'function', definition: false }, 'void __iomem *f(...)');
  t.match(one(symbols, 'visible_fn'), { kind: 'function', returnType: 'void' }, '__visible void f(void)');
  t.match(one(symbols, 'kobject_set_name'), { kind: 'function', definition: false, returnType: 'int' }, 'extern __printf(2, 3) on the line above');
  t.match(one(symbols, 'early_printk'), { kind: 'function', definition: false }, '__printf(1, 2) void f(...)');
  t.match(one(symbols, 'before_extern'), { kind: 'function' }, 'a word before extern');
  t.match(one(symbols, 'printf_like_t'), { kind: 'type_alias' }, 'typedef __printf(1, 2) int (*t)(...)');
  for (const macro of ['__init', '__cold', 'notrace', 'noinline', '__must_check', '__iomem', '__visible', '__printf', '_XFUNCPROTOBEGIN']) {
    t.notOk(symbols.some((s) => s.name === macro), `no symbol named ${macro}`);
  }
});

t.test('C: a macro after a declarator', async (t) => {
  const symbols = await extract('macro_placements.c');
  t.match(one(symbols, 'kvmalloc_node'), { kind: 'function', definition: false, returnType: 'void*' }, 'f(...) __alloc_size(1);');
  t.same(one(symbols, 'kvmalloc_node').parameters.map((p) => p.name), ['size', 'flags', 'node']);
  t.match(one(symbols, 'atoi_like'), { kind: 'function', definition: false }, "glibc's __THROW __attribute_pure__ __nonnull((1)) __wur");
  t.match(one(symbols, 'locked'), { kind: 'function', definition: true }, ') __acquires(l) {');
  t.match(one(symbols, 'aligned_var'), { kind: 'variable' }, 'int v __aligned(8) = 3;');
  t.match(one(symbols, 'hook_fn'), { kind: 'variable' }, 'a function pointer then __read_mostly');
  t.match(one(symbols, 'cache::size'), { kind: 'field', returnType: 'unsigned int' }, 'unsigned int size ____cacheline_aligned_in_smp; is member size');
  t.match(one(symbols, 'cache::next'), { kind: 'field' }, 'struct list_head *next __rcu;');
  t.match(one(symbols, 'cache::regs'), { kind: 'field' }, 'void __iomem *regs;');
  t.match(one(symbols, 'cache::after_macros'), { kind: 'field' });
  t.match(one(symbols, 'mhp_t'), { kind: 'type_alias' }, 'typedef int __bitwise mhp_t;');
  for (const macro of ['____cacheline_aligned_in_smp', '__rcu', '__alloc_size', '__aligned', '__read_mostly', '__bitwise', '__packed']) {
    t.notOk(symbols.some((s) => s.name === macro), `no symbol named ${macro}`);
  }
});

t.test("C: after a type's closing brace, in parameters, around a declarator or a parameter list, in a function", async (t) => {
  const symbols = await extract('macro_placements.c');
  t.match(one(symbols, 'packed_thing', 'struct'), { definition: true }, '} __packed; declares no variable');
  t.match(one(symbols, 'aligned_instance'), { kind: 'variable' }, '} __aligned(4) name;');
  t.match(one(symbols, 'tty_like::flow'), { kind: 'field' }, '} __aligned(sizeof(unsigned long)) flow; in a struct');
  t.match(one(symbols, 'tty_like::flow::lock'), { kind: 'field' });
  t.same(names(symbols.filter((s) => /^tty_like::\w+$/.test(s.qualifiedName))), ['flow', 'transf_buf', 'whole', 'hw_stopped'], 'an unnamed union } __aligned(2 * sizeof(long)); holds members of the struct, and the struct goes on');
  t.match(one(symbols, 'futex_data'), { kind: 'variable' }, '} name __read_mostly __aligned(2*sizeof(long));');
  t.notOk(symbols.some((s) => s.name === 'sizeof' || s.name === '__aligned'), 'no symbol named sizeof or __aligned');
  t.same(one(symbols, 'write_user').parameters.map((p) => [p.name, p.type]), [['file', 'struct file *'], ['buf', 'const char *'], ['count', 'size_t'], ['ppos', 'loff_t *']], 'const char __user *buf, loff_t *ppos __maybe_unused');
  t.match(one(symbols, 'wrapped_declarator'), { kind: 'function' }, '__NTH (f (...)): the name inside the macro');
  t.match(one(symbols, 'wrapped_parameters'), { kind: 'function' }, "zlib's f OF((void))");
  t.match(one(symbols, 'local_aligned::local_name::a'), { kind: 'field' }, 'a local struct with } __aligned(8) name; keeps its field');
  t.match(one(symbols, 'after_local_aligned'), { kind: 'function', definition: true }, 'and costs nothing after it');
  t.match(one(symbols, 'PL_strlen'), { kind: 'function', returnType: 'PRUint32' }, 'PR_EXTERN(PRUint32) on the line above gives the type');
  t.match(one(symbols, 'ifaddrs', 'struct'), { definition: true }, '__BEGIN_DECLS before a struct');
  t.match(one(symbols, 'ifaddrs::ifa_next'), { kind: 'field' });
  t.match(one(symbols, 'OSSL_CRMF_MSGS'), { kind: 'type_alias' }, 'typedef STACK_OF(X) XS;');
  t.match(one(symbols, 'get0_regToken'), { kind: 'function', returnType: 'ASN1_UTF8STRING*' }, 'a type alone on the line above *f(...)');
});

t.test('C++: export macros, annotations alone or before a declaration, thread-safety annotations', async (t) => {
  const symbols = await extract('macro_placements.cpp');
  t.match(one(symbols, 'leveldb::Iterator', 'class'), { definition: true }, 'class LEVELDB_EXPORT Iterator');
  t.match(one(symbols, 'leveldb::Iterator::~Iterator'), { kind: 'method', definition: false }, '~Iterator() _GLIBCXX_TXN_SAFE_DYN _GLIBCXX_NOTHROW;');
  t.match(one(symbols, 'leveldb::Iterator::Valid'), { kind: 'method' });
  t.match(one(symbols, 'leveldb::AMyActor', 'class'), { bases: ['AActor'] }, 'class MYGAME_API AMyActor : public AActor');
  t.match(one(symbols, 'leveldb::AMyActor::OldFire'), { kind: 'method' }, 'UE_DEPRECATED(5.1, "...") before it');
  t.match(one(symbols, 'leveldb::AMyActor::Fire'), { kind: 'method' }, 'UFUNCTION(...) before it');
  t.match(one(symbols, 'leveldb::AMyActor::Ammo'), { kind: 'field', returnType: 'int32' }, 'UPROPERTY(...) before it');
  t.match(one(symbols, 'leveldb::DBImpl::imm_'), { kind: 'field', containingType: 'DBImpl' }, 'MemTable* imm_ GUARDED_BY(mutex_); is a member of its class');
  t.match(one(symbols, 'leveldb::DBImpl::logfile_number_'), { kind: 'field' });
  t.match(one(symbols, 'leveldb::DBImpl::CompactMemTable'), { kind: 'method', definition: false }, 'f() EXCLUSIVE_LOCKS_REQUIRED(mutex_);');
  t.match(one(symbols, 'leveldb::DBImpl::Recover'), { kind: 'method', definition: true }, 'f() EXCLUSIVE_LOCKS_REQUIRED(mutex_) {');
  t.match(one(symbols, 'leveldb::DBImpl::after_annotations_'), { kind: 'field' });
  t.match(one(symbols, 'leveldb::invokable'), { kind: 'function', returnType: 'int' }, 'Q_INVOKABLE int f()');
  t.match(one(symbols, 'leveldb::inlined_fn'), { kind: 'function', returnType: 'int32' }, 'static FORCEINLINE int32 f()');
  t.match(one(symbols, 'leveldb::win_api_fn'), { kind: 'function', returnType: 'HRESULT' }, 'HRESULT WINAPI f(int)');
  t.match(one(symbols, 'leveldb::DBImpl::counter_', 'field'), { containingType: 'DBImpl' }, 'int DBImpl::counter_ = 0; is a field of DBImpl');
  t.match(one(symbols, 'leveldb::Eternal', 'class'), { bases: ['Base'] }, 'two export macros, and a base behind a macro');
  t.same(symbols.filter((s) => s.qualifiedName === 'leveldb::Eternal::Eternal').map((s) => s.kind), ['constructor', 'constructor'], 'V8_INLINE Eternal() and V8_DEPRECATE_SOON("...") Eternal(int)');
  t.match(one(symbols, 'leveldb::Eternal::Initialize'), { kind: 'field' }, 'CK_RV (PR_CALLBACK *Initialize)(int)');
  t.match(one(symbols, 'leveldb::operator<='), { kind: 'function', definition: false }, 'bool operator<=(...) = delete;');
  t.match(one(symbols, 'leveldb::use_facet'), { kind: 'function', definition: false }, 'extern template ... use_facet<Facet>(...);');
  t.match(one(symbols, 'leveldb::SetInterruptFunction'), { kind: 'function' }, 'void f(void (*handler)()) is no void variable');
  t.notOk(symbols.some((s) => /^(LEVELDB_EXPORT|MYGAME_API|GENERATED_BODY|UE_DEPRECATED|UFUNCTION|UPROPERTY|GUARDED_BY|EXCLUSIVE_LOCKS_REQUIRED|Q_INVOKABLE|FORCEINLINE|WINAPI|V8_\w+|PR_CALLBACK)$/.test(s.name)), 'no macro is a symbol');
});

t.test('C: a directive where the grammar takes none costs nothing after it, and its macro is one', async (t) => {
  const symbols = await extract('preproc_anywhere.c');
  const functions = symbols.filter((s) => s.kind === 'function').map((s) => s.name);
  t.same(functions, ['after_array_initializer', 'after_define_in_initializer', 'after_conditional_in_initializer', 'argument_lists', 'after_argument_list',
    'expressions', 'after_expression', 'between_declarator_and_body', 'after_between', 'define_before_body', 'after_enum', 'after_struct', 'only_a', 'only_b', 'neither',
    'branch_head', 'the_end'], 'every function after every construct');
  t.same(symbols.filter((s) => s.kind === 'macro').map((s) => s.name), ['TWO', 'BOARD', 'IN_ARGUMENTS', 'IN_BODY', 'BODY_VALUE', 'E_A', 'E_MAX', 'S_FLAG', 'WIDE_ONLY', 'NARROW_ONLY', 'named_variadic'],
    'a #define in an array initializer, an initializer, an argument list, a function body, an enum, a struct, both branches of an #if');
  t.match(one(symbols, 'between_declarator_and_body'), { definition: true }, 'an #ifdef between the declarator and its body');
  t.match(one(symbols, 'define_before_body'), { definition: true }, 'a #define between the declarator and its body');
  t.same(names(symbols.filter((s) => s.kind === 'enum_member')), ['E_A', 'E_B', 'E_C', 'E_D', 'E_E'], 'both branches of an #ifdef in an enum, and what follows its #define');
  t.same(names(symbols.filter((s) => s.containingType === 'in_struct')), ['a', 'b', 'c', 'd'], 'both branches in a struct');
  t.match(one(symbols, 'branch_head'), { definition: true, parameters: [{ name: 'a', type: 'long' }, { name: 'b', type: 'int' }] }, 'branches that each open a parameter list: the first is parsed');
  t.match(one(symbols, 'named_variadic'), { kind: 'macro', parameters: [{ name: 'NAME' }, { name: 'MEMBERS' }] }, 'a GNU named variadic parameter');
});

t.test('C++: an #if in a member initializer list, in a class body, around an extern "C" block', async (t) => {
  const symbols = await extract('preproc_anywhere.cpp');
  t.match(one(symbols, 'Widget::Widget'), { kind: 'constructor', definition: true }, 'the constructor with an #if in its initializer list');
  t.same(names(symbols.filter((s) => s.containingType === 'Widget' && s.kind === 'field')), ['size_', 'editor_', 'count_'], 'no initializer read as a member');
  t.match(one(symbols, 'Widget::EditorOnly'), { kind: 'method' }, 'both branches in a class body');
  t.match(one(symbols, 'Widget::GameOnly'), { kind: 'method' });
  t.match(one(symbols, 'LaterWidget'), { kind: 'class', bases: ['IWidget'] }, 'the class after it, with its base');
  t.match(one(symbols, 'c_api'), { kind: 'function' }, 'inside extern "C" opened under #ifdef __cplusplus');
  t.match(one(symbols, 'C_API_VERSION'), { kind: 'macro' });
  t.match(one(symbols, 'after_extern_c'), { kind: 'function' });
});

t.test('C++: a #define between a method\'s declarator and its body, a nested namespace definition', async (t) => {
  const symbols = await extract('preproc_anywhere.cpp');
  t.match(one(symbols, 'DefineInBody::Size'), { kind: 'method', definition: true }, 'the method keeps its body');
  t.match(one(symbols, 'DEFINE_IN_BODY_SIZE'), { kind: 'macro', containers: [] }, 'the macro is one, of the file');
  t.match(one(symbols, 'DefineInBody::AfterDefine'), { kind: 'method' }, 'the class goes on after it');
  t.match(one(symbols, 'outer', 'namespace'), { name: 'outer', containers: [] }, 'namespace outer::inner { opens outer');
  t.match(one(symbols, 'outer::inner', 'namespace'), { name: 'inner', containers: ['outer'] }, 'and inner in it');
  t.match(one(symbols, 'outer::inner::in_nested'), { kind: 'function' });
});

t.test('a declaration in a header and its definition across attribute macros are one function by name and kind', async (t) => {
  const header = await extractSymbols(languageById('c'), 'extern void *kvmalloc_node(size_t size, gfp_t flags, int node) __alloc_size(1);\n');
  const source = await extractSymbols(languageById('c'), 'void *kvmalloc_node(size_t size, gfp_t flags, int node)\n{\n\treturn NULL;\n}\n');
  t.match(header, [{ name: 'kvmalloc_node', qualifiedName: 'kvmalloc_node', kind: 'function', definition: false }]);
  t.match(source, [{ name: 'kvmalloc_node', qualifiedName: 'kvmalloc_node', kind: 'function', definition: true }]);
  t.same(header[0].parameters, source[0].parameters, 'the same parameters');
});

t.test('an attribute after the declared name is no part of it: operator()[[nodiscard]](...), f [[deprecated]] (...)', async (t) => {
  // libstdc++'s bits/ranges_base.h writes `operator()[[nodiscard]](_Tp&& __t) const noexcept(...)`; C23 takes `[[...]]` there too.
  const cpp = await extractSymbols(languageById('cpp'), [
    'struct _Begin {',
    '  template<typename _Tp>',
    '    constexpr auto',
    '    operator()[[nodiscard]](_Tp&& __t) const noexcept(true)',
    '    { return __t; }',
    '  bool operator==[[nodiscard]](const _Begin &) const;',
    '  int size[[nodiscard]]() const;',
    '};',
    'int _Begin::size[[nodiscard]]() const { return 0; }',
  ].join('\n'));
  t.same(cpp.map((s) => `${s.kind} ${s.qualifiedName}${s.definition ? '' : ' (declaration)'}`),
    ['struct _Begin', 'method _Begin::operator()', 'method _Begin::operator== (declaration)', 'method _Begin::size (declaration)', 'method _Begin::size']);
  const c = await extractSymbols(languageById('c'), 'int f [[deprecated]] (int x);\nint g [[deprecated]] (int x) { return x; }\n');
  t.same(c.map((s) => `${s.kind} ${s.name}${s.definition ? '' : ' (declaration)'}`), ['function f (declaration)', 'function g']);
});

t.test('a macro call alone on its line that the next line initializes declares what it names (the kernel\'s clk drivers)', async (t) => {
  // drivers/clk/samsung/clk-exynos5433.c: `PNAME(x)` / `= { ... };`, read as a call declaring nothing, cost the file 15 definitions.
  const source = [
    '#define PNAME(x) static const char *const x[]',
    'PNAME(mout_short_p) = { "oscclk", "fout", };',
    'PNAME(mout_phyclk_usbhost30_uhost30_pipe_pclk_user_p)',
    '\t\t= { "oscclk", "phyclk_usbhost30_uhost30_pipe_pclk_phy", };',
    'PNAME(mout_phyclk_usbhost30_uhost30_phyclock_user_p)',
    '\t\t= { "oscclk", "phyclk_usbhost30_uhost30_phyclock_phy", };',
    'struct cmu_data {',
    '\tint nr_clk_save;',
    '};',
    'static int cmu_suspend(struct device *dev)',
    '{',
    '\treturn 0;',
    '}',
  ].join('\n');
  for (const language of ['c', 'cpp'] as const) {
    const symbols = await extractSymbols(languageById(language), source);
    t.match(one(symbols, 'cmu_data::nr_clk_save'), { kind: 'field' }, `${language}: the struct after them`);
    t.match(one(symbols, 'cmu_suspend'), { kind: 'function', definition: true }, `${language}: the function after them`);
  }
  // Inside a declaration it is an attribute still (libstdc++'s bits/allocator.h).
  const alias = await extractSymbols(languageById('cpp'), 'struct allocator {\n  using is_always_equal\n\t_GLIBCXX20_DEPRECATED_SUGGEST("std::allocator_traits::is_always_equal")\n\t= true_type;\n};\n');
  t.match(one(alias, 'allocator::is_always_equal'), { kind: 'type_alias' }, 'using X / MACRO("...") / = T;');
});
