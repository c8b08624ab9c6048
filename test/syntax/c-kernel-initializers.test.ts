/**
 * Constructs of real kernel files that cost every declaration after them (test/fixtures/syntax/kernel_initializers.c):
 * an attribute between a declarator and its initializer, a macro declaring a whole variable whose arguments are numbers,
 * strings, calls or a braced list, a `#define` without a value but with spaces after it, an unnamed enum in a
 * function body, an attribute then an upper-case typedef name after a body, a member macro alone on its line,
 * bit-fields a macro lays out without a `;` before the body's end, GCC's `__volatile__` and `__const`, an `#if`
 * over two lines inside the first branch of an `#ifdef`, a struct defined in a function's return type, an attribute in
 * a typedef, macro words for members, members of upper-case enum and struct types, member macros after comments, and a
 * comment from a #define's line onto the next, designated initializers among a macro call's arguments, statement macros
 * with a body between `if` and `else` in a body that names a struct, braced lists as a macro call's arguments, a
 * `#define` going on onto a blank line, `typedef unsigned long (name)(...)`, types defined in a test macro's body
 * (`TEST_F(a, b) {`, `TEST(x) {`, also after a `#define` ending in `} while (0)`). Read as C (a .c file) and as C++ (a .h file in a C++ tree).
 */
import t from 'tap';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { extractSymbols } from '../../src/syntax/index.js';
import { languageById } from '../../src/languages/index.js';

const SOURCE = readFileSync(join(import.meta.dirname, '..', 'fixtures', 'syntax', 'kernel_initializers.c'), 'utf8');

for (const language of ['c', 'cpp'] as const) {
  t.test(`${language}: nothing after these constructs is lost`, async (t) => {
    const symbols = await extractSymbols(languageById(language), SOURCE);
    const has = (kind: string, name: string): boolean => symbols.some((s) => s.kind === kind && s.name === name);
    t.ok(has('variable', '__mld2_query_bugs'), 'static int bugs[] __attribute__((__unused__)) = {...} is the variable');
    t.ok(has('variable', 'mld2_all_mcr'), 'the variable after it');
    t.ok(has('function', 'igmp6_join_group'), 'the prototype after it');
    t.ok(has('constant', 'rt5682_data_select'), 'the array after static const DECLARE_TLV_DB_RANGE(bst_tlv, 0, 0, TLV_DB_SCALE_ITEM(...), ...);');
    t.ok(has('function', 'rt5682_reset'), 'the function after static AMBA_APB_DEVICE(uart1, "apb:uart1", 0x41010, ..., { IRQ }, &data);');
    t.ok(has('function', 'do_kiss_params'), 'a function whose body holds #define PKP(a,b) with a space after it');
    t.ok(has('macro', 'PKP'), 'the macro itself');
    t.ok(has('macro', 'NOTHING'), '#define NOTHING with a space after it');
    t.ok(has('function', 'hdlcdrv_transmitter'), 'the function after it');
    t.ok(has('enum_member', 'S_CLOCK') && has('enum_member', 'S_DATA'), 'the enumerators of an unnamed enum in a function body');
    t.ok(has('type_alias', 'NEGOTIATE_REQ'), '} __attribute__((packed)) NEGOTIATE_REQ; names the typedef');
    t.ok(has('field', 'regmap') && has('field', 'nport'), 'the fields around DECLARE_BITMAP(...); lines');
    t.ok(has('struct', 'ieee754dp') && symbols.some((s) => s.kind === 'field' && s.qualifiedName === 'ieee754dp::bits'), 'a union whose bit-fields __BITFIELD_FIELD lays out, and its field after');
    t.ok(['p_csr', 'p_addr', 'p_const'].every((name) => has('field', name)), '__volatile__ __u32 p_csr; and __const int p_const; are fields');
    t.equal(symbols.filter((s) => s.kind === 'function' && s.name === '__enable_fpu').length, 2, 'both branches of an #ifdef whose first holds an #if over two lines');
    t.ok(has('function', 'own_fpu'), 'the #else branch');
    t.ok(has('struct', 'mock_fence') && has('field', 'lock') && has('function', 'to_mock_fence'), 'a struct defined in a function\'s return type, and the function');
    t.ok(has('type_alias', '__u8_alias_t'), 'typedef __u8 __attribute__((__may_alias__)) __u8_alias_t;');
    t.ok(has('struct', 'acpi_object_notify_common'), 'a struct whose members are macro words');
    t.ok(has('field', 'ChipType') && has('field', 'CUTVersion'), 'enum HAL_CHIP_TYPE ChipType; and struct HAL_CUT CUTVersion; are fields');
    t.ok(has('field', 'pdev') && has('field', 'serial_format'), 'fields around member macros after comments');
    t.ok(has('macro', 'CPM_MAP_SIZE') && has('function', 'cpm2_reset'), 'a #define whose comment goes on over lines, and the function after');
    t.ok(has('constant', 'gen7_common_cmds') && has('struct', 'drm_i915_reg_descriptor') && has('field', 'addr'), 'designated initializers among a macro call\'s arguments, and the struct after');
    t.ok(has('enum_member', 'IMX_RPROC_SCU_API'), 'an enumerator named like an export macro');
    t.ok(has('function', 'skl_log_buffer_offset'), 'the function after a body holding `if (x) for_each_set_bit(...) { ... } else` and a braced macro argument');
    t.ok(has('function', 'acpi_device_override_status'), 'the function after braced lists as a macro call\'s arguments');
    t.ok(has('macro', 'TIME') && has('function', 'null_syscall_main'), 'a #define going on onto a blank line, and the function after it');
    t.ok(has('type_alias', 'probes_check_cc'), 'typedef unsigned long (probes_check_cc)(unsigned long);');
    t.ok(has('struct', 'mount_attr_large') && has('field', 'attr2'), 'a struct defined in TEST_F(a, b) { ... }, and its fields');
    t.ok(has('field', 'buf') && has('field', '_align'), 'the fields of an unnamed union variable in TEST(x) { ... }');
    t.ok(has('field', 'is_error') && has('field', 'rval'), 'the fields of a local struct in TEST(x) { ... } after a #define ending in `} while (0)`');
    t.ok(has('function', 'last_function'), 'the last function of the file');
    for (const macro of ['__attribute__', 'DECLARE_TLV_DB_RANGE', 'AMBA_APB_DEVICE', 'TLV_DB_SCALE_ITEM', '__BITFIELD_FIELD', '__u32', '__volatile__', 'long', 'for_each_set_bit']) {
      t.notOk(symbols.some((s) => s.name === macro), `no symbol named ${macro}`);
    }
    t.notOk(symbols.some((s) => s.name === ''), 'no symbol without a name');
  });
}

t.test('c: a K&R function\'s local types (arch/parisc/math-emu/fpudispatch.c)', async (t) => {
  const source = [
    'static u_int',
    'decode_06(ir,fpregs)',
    'u_int ir;',
    'u_int fpregs[];',
    '{',
    '\tu_int status;',
    '\tunion {',
    '\t\tdouble dbl;',
    '\t\tfloat flt;',
    '\t\tstruct { u_int i1; u_int i2; } ints;',
    '\t} mtmp, atmp;',
    '\treturn 0;',
    '}',
    'int after(void) { return 1; }',
  ].join('\n');
  const symbols = await extractSymbols(languageById('c'), source);
  for (const name of ['dbl', 'flt', 'ints', 'i1', 'i2']) t.ok(symbols.some((s) => s.kind === 'field' && s.name === name), `field ${name}`);
  t.ok(symbols.some((s) => s.kind === 'function' && s.name === 'decode_06') && symbols.some((s) => s.kind === 'function' && s.name === 'after'), 'the function and the one after it');
});

t.test('cpp: a member template specialized on a decltype keeps the `;` after its body', async (t) => {
  // Shaped as c++/12/bits/stl_function.h's greater<void>: only a `;` the rules left alone in a type's body goes.
  const source = [
    'template<>',
    '  struct greater<void>',
    '  {',
    '    template <typename _Tp, typename _Up>',
    '      constexpr auto',
    '      operator()(_Tp&& __t, _Up&& __u) const',
    '      noexcept(noexcept(std::forward<_Tp>(__t) > std::forward<_Up>(__u)))',
    '      -> decltype(std::forward<_Tp>(__t) > std::forward<_Up>(__u))',
    '      { return std::forward<_Tp>(__t) > std::forward<_Up>(__u); }',
    '',
    '  private:',
    '    template<typename _Tp, typename _Up, typename = void>',
    '      struct __not_overloaded2 : true_type { };',
    '',
    '    template<typename _Tp, typename _Up>',
    '      struct __not_overloaded2<_Tp, _Up, __void_t<',
    '        decltype(std::declval<_Tp>().operator>(std::declval<_Up>()))>>',
    '      : false_type { };',
    '',
    '    template<typename _Tp, typename _Up, typename = void>',
    '      struct __not_overloaded : __not_overloaded2<_Tp, _Up> { };',
    '',
    '    template<typename _Tp, typename _Up>',
    '      struct __not_overloaded<_Tp, _Up, __void_t<',
    '        decltype(operator>(std::declval<_Tp>(), std::declval<_Up>()))>>',
    '      : false_type { };',
    '  };',
  ].join('\n');
  const symbols = await extractSymbols(languageById('cpp'), source);
  t.equal(symbols.filter((s) => s.kind === 'struct' && s.name === '__not_overloaded2').length, 2, 'the template and its specialization');
  t.equal(symbols.filter((s) => s.kind === 'struct' && s.name === '__not_overloaded').length, 2, 'and those after them');
});

t.test('cpp: an attribute call after a prototype whose type a macro gives', async (t) => {
  // python3.11/sysmodule.h
  const source = [
    'PyAPI_FUNC(void) PySys_WriteStdout(const char *format, ...)',
    '                 Py_GCC_ATTRIBUTE((format(printf, 1, 2)));',
    'PyAPI_FUNC(void) PySys_WriteStderr(const char *format, ...)',
    '                 Py_GCC_ATTRIBUTE((format(printf, 1, 2)));',
    'Py_DEPRECATED(3.11) PyAPI_FUNC(int) PySys_HasWarnOptions(void);',
  ].join('\n');
  const symbols = await extractSymbols(languageById('cpp'), source);
  for (const name of ['PySys_WriteStdout', 'PySys_WriteStderr', 'PySys_HasWarnOptions']) {
    t.match(symbols.find((s) => s.name === name), { kind: 'function', definition: false }, name);
  }
  t.notOk(symbols.some((s) => s.name === 'PyAPI_FUNC' || s.name === 'Py_GCC_ATTRIBUTE'), 'no symbol named after the macros');
});

t.test('cpp: constructs of /usr/include\'s C++ headers that cost the declarations after them', async (t) => {
  const source = [
    // llvm-14/llvm/IR/Module.h: a pointer-to-member return type.
    'class Module {',
    '  static GlobalListType Module::*getSublistAccess(GlobalVariable*) {',
    '    return &Module::GlobalList;',
    '  }',
    '  FunctionListType &getFunctionList() { return FunctionList; }',
    // llvm-14/llvm/Analysis/DomTreeUpdater.h: a deprecation macro around a whole declaration.
    '  LLVM_ATTRIBUTE_DEPRECATED(void insertEdge(BasicBlock *From, BasicBlock *To),',
    '                            "Use applyUpdates() instead.");',
    // node/cppgc/member.h: an unnamed pointer template parameter with a default.
    '  template <typename U,',
    '            std::enable_if_t<internal::IsDecayedSameV<T, U>>* = nullptr>',
    '  Module(const Module<U>& other) : Module(other.Get()) {}',
    '  int afterTemplate();',
    '};',
    // x86_64-linux-gnu/c++/12/bits/c++config.h: an attribute after a namespace's name, an inline namespace a macro opens.
    'namespace std',
    '{',
    '  inline namespace __cxx11 __attribute__((__abi_tag__ ("cxx11"))) { }',
    'inline _GLIBCXX_BEGIN_NAMESPACE_VERSION',
    '  inline namespace literals {',
    '    inline namespace chrono_literals { }',
    '  }',
    '_GLIBCXX_END_NAMESPACE_VERSION',
    // c++/12/bits/functional_hash.h: __extension__ alone on its line before a macro call.
    '  __extension__',
    '  _Cxx_hashtable_define_trivial_hash(__GLIBCXX_TYPE_INT_N_0 unsigned)',
    '  struct _Hash_impl',
    '  {',
    '    static size_t hash(const void* __ptr, size_t __clength);',
    '  };',
    '}',
    // nspr/obsolete/probslet.h: an upper-case function after a macro standing for its type.
    'NSPR_API(void)        PR_FD_ZERO(PR_fd_set *set);',
    'NSPR_API(PRInt32)     PR_FD_ISSET(PRFileDesc *fd, PR_fd_set *set);',
    // c++/12/ext/pb_ds/detail/*/constructors_destructor_fn_imps.hpp: a constructor a macro names, an #ifdef among its initializers.
    'PB_DS_CLASS_T_DEC',
    'PB_DS_CLASS_C_DEC::',
    'PB_DS_GP_HASH_NAME(const PB_DS_CLASS_C_DEC& other) :',
    '#ifdef _GLIBCXX_DEBUG',
    '  debug_base(other),',
    '#endif',
    '  m_num_e(other.m_num_e)',
    '{',
    '  initialize();',
    '}',
    // node/cppgc/member.h: a default in a template head, an operator= whose body calls operator=, a macro call holding a string.
    'template <typename T>',
    'class V8_TRIVIAL_ABI BasicMember final : private MemberBase<T> {',
    ' public:',
    '  template <typename U,',
    '            typename = std::enable_if_t<std::is_base_of<T, U>::value>>',
    '  V8_INLINE BasicMember(const BasicPersistent<U>& p)  // NOLINT',
    '      : BasicMember(p.Get()) {}',
    '  V8_INLINE BasicMember& operator=(const BasicMember& other) {',
    '    return operator=(other.GetRawStorage());',
    '  }',
    '  V8_INLINE V8_CLANG_NO_SANITIZE("cfi-unrelated-cast") T* Get() const {',
    '    return static_cast<T*>(const_cast<void*>(MemberBase::GetRaw()));',
    '  }',
    '  V8_INLINE void Clear() { SetRawStorageAtomic(RawStorage{}); }',
    '};',
    // c++/12/bits/list.tcc: an #if between an out-of-line member's qualified name and its own name.
    'template<typename _Tp, typename _Alloc>',
    '  typename list<_Tp, _Alloc>::iterator',
    '  list<_Tp, _Alloc>::',
    '#if __cplusplus >= 201103L',
    '  insert(const_iterator __position, const value_type& __x)',
    '#else',
    '  insert(iterator __position, const value_type& __x)',
    '#endif',
    '  {',
    '    return iterator(__tmp);',
    '  }',
    'template<typename _Tp, typename _Alloc>',
    '  void list<_Tp, _Alloc>::merge(list&& __x)',
    '  {',
    '  }',
    // nspr/plbase64.h: a macro for the type, the name and the parameter list each on a line of their own.
    'PR_EXTERN(char *)',
    'PL_Base64Decode',
    '(',
    '    const char *src,',
    '    PRUint32    srclen',
    ');',
    // c++/12/bits/stl_heap.h: a local typedef of a __decltype in a function template.
    'template<typename _RandomAccessIterator, typename _Compare>',
    '    _GLIBCXX20_CONSTEXPR',
    '    inline bool',
    '    __is_heap(_RandomAccessIterator __first, _Compare __comp)',
    '    {',
    '      typedef __decltype(__comp) _Cmp;',
    '      return true;',
    '    }',
    // c++/12/pstl/algorithm_impl.h: an enum in a lambda in a function.
    'template <class _ExecutionPolicy>',
    'bool __pattern_is_partitioned(_ExecutionPolicy&& __exec)',
    '{',
    '    return __internal::__except_handler([&]() {',
    '        enum _ReduceType { __not_init = -1, __broken };',
    '        return true;',
    '    });',
    '}',
    'int lastFunction();',
  ].join('\n');
  const symbols = await extractSymbols(languageById('cpp'), source);
  const has = (kind: string, name: string): boolean => symbols.some((s) => s.kind === kind && s.name === name);
  t.ok(has('method', 'getSublistAccess') && has('method', 'getFunctionList'), 'a method returning a pointer to member, and the one after it');
  t.ok(has('method', 'insertEdge'), 'a declaration a deprecation macro wraps');
  t.ok(has('constructor', 'Module') && has('method', 'afterTemplate'), 'a constructor after an unnamed pointer template parameter, and what follows');
  t.ok(has('namespace', '__cxx11') && has('namespace', 'literals') && has('namespace', 'chrono_literals'), 'namespaces with an attribute, after a macro opening one');
  t.ok(has('struct', '_Hash_impl') && has('method', 'hash'), 'a struct after __extension__ and a macro call');
  t.ok(has('function', 'PR_FD_ZERO') && has('function', 'PR_FD_ISSET'), 'upper-case functions after a macro standing for their type');
  t.ok(symbols.some((s) => s.name === 'PB_DS_GP_HASH_NAME' && (s.kind === 'method' || s.kind === 'constructor' || s.kind === 'function')), 'a constructor a macro names, an #ifdef among its initializers');
  t.ok(has('class', 'BasicMember') && symbols.filter((s) => s.containingType === 'BasicMember' && ['constructor', 'method'].includes(s.kind)).map((s) => s.name).join(' ') === 'BasicMember operator= Get Clear',
    'a class\'s constructor after a default in its template head, operator= calling operator=, a method after a macro call holding a string, and the method after them');
  t.ok(symbols.some((s) => s.name === 'insert' && s.containingType === 'list') && symbols.some((s) => s.name === 'merge' && s.containingType === 'list'), 'an out-of-line member whose name an #if follows the qualifier of, and the one after it');
  t.ok(has('function', 'PL_Base64Decode'), 'PR_EXTERN(char *) / PL_Base64Decode / ( ... );');
  t.ok(has('type_alias', '_Cmp') && !symbols.some((s) => s.name === '__comp'), 'typedef __decltype(__comp) _Cmp; in a function template');
  t.ok(has('enum', '_ReduceType') && has('enum_member', '__broken'), 'an enum in a lambda in a function');
  t.ok(has('function', 'lastFunction'), 'the last declaration');
});
