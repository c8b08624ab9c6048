/**
 * Constructs of real kernel files that cost every declaration after them (test/fixtures/syntax/kernel_initializers.c):
 * an attribute between a declarator and its initializer, a macro declaring a whole variable whose arguments are numbers,
 * strings, calls or a braced list, a `#define` without a value but with spaces after it, an unnamed enum in a
 * function body, an attribute then an upper-case typedef name after a body, a member macro alone on its line,
 * bit-fields a macro lays out without a `;` before the body's end, GCC's `__volatile__` and `__const`, an `#if`
 * over two lines inside the first branch of an `#ifdef`, a struct defined in a function's return type, an attribute in
 * a typedef, macro words for members, members of upper-case enum and struct types, member macros after comments, and a
 * comment from a #define's line onto the next, and designated initializers among a macro call's arguments. Read as C (a .c file) and as C++ (a .h file in a C++ tree).
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
    t.ok(has('function', 'last_function'), 'the last function of the file');
    for (const macro of ['__attribute__', 'DECLARE_TLV_DB_RANGE', 'AMBA_APB_DEVICE', 'TLV_DB_SCALE_ITEM', '__BITFIELD_FIELD', '__u32', '__volatile__']) {
      t.notOk(symbols.some((s) => s.name === macro), `no symbol named ${macro}`);
    }
    t.notOk(symbols.some((s) => s.name === ''), 'no symbol without a name');
  });
}

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
