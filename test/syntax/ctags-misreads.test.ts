/**
 * The rules that set aside ctags' misreadings (test/syntax/ctags-compare.ts CTAGS_MISREADS), each on a small snippet
 * shaped as the real code it was written for: it sets aside the tags ctags gets wrong there, and keeps the real
 * definitions of the same shape next to them.
 */
import t from 'tap';
import { CTAGS_MISREADS, type Misread } from './ctags-compare.js';
import type { Tag } from './recall.js';

function rule(name: string): Misread {
  const found = CTAGS_MISREADS.find((misread) => misread.name === name);
  if (!found) throw new Error(`no rule ${name}`);
  return found;
}

/** Whether `misread` sets aside a tag of that kind and name at that line (1-based) of `source`. */
function setsAside(misread: Misread, source: string, tag: Omit<Tag, 'path'>): boolean {
  const lines = source.split('\n');
  return misread.matches({ tag: { path: 'x.c', ...tag }, lines, fileMacros: new Set() });
}

t.test('enum-typed-variable-as-enum', async (t) => {
  const misread = rule('enum-typed-variable-as-enum');
  // drivers/power/supply/bq27xxx_battery.c, drivers/media/dvb-frontends/stv0910.c, drivers/clk/mxs/clk-imx23.c,
  // drivers/net/ethernet/mellanox/mlxsw/spectrum_ethtool.c
  const source = [
    'enum power_supply_property {',
    '\tPOWER_SUPPLY_PROP_STATUS = 0,',
    '\tPOWER_SUPPLY_PROP_PRESENT,',
    '};',
    'static enum power_supply_property bq27000_props[] = {',
    '\tPOWER_SUPPLY_PROP_STATUS,',
    '\tPOWER_SUPPLY_PROP_PRESENT,',
    '};',
    'static int get_frontend(void)',
    '{',
    '\tconst enum fe_modulation modcod2mod[0x20] = {',
    '\t\tQPSK, QPSK, PSK_8,',
    '\t};',
    '}',
    'static enum imx23_clk clks_init_on[] __initdata = {',
    '\tcpu, hbus,',
    '};',
    'static const enum ethtool_link_mode_bit_indices',
    'mlxsw_sp2_mask_ethtool_sgmii_100m[] = {',
    '\tETHTOOL_LINK_MODE_100baseT_Full_BIT,',
    '};',
    'enum __packed attr_enum {',
    '\tREAL_ONE,',
    '};',
  ].join('\n');
  t.ok(setsAside(misread, source, { name: 'bq27000_props', line: 5, kind: 'enum' }), 'the array read as an enum');
  t.ok(setsAside(misread, source, { name: 'POWER_SUPPLY_PROP_STATUS', line: 6, kind: 'enumerator', scope: 'bq27000_props' }), 'a constant of its initializer read as an enumerator');
  t.ok(setsAside(misread, source, { name: 'modcod2mod', line: 11, kind: 'enum', scope: 'get_frontend' }), 'a local const array');
  t.ok(setsAside(misread, source, { name: 'QPSK', line: 12, kind: 'enumerator', scope: 'get_frontend::modcod2mod' }), 'its constants, scoped in the function');
  t.ok(setsAside(misread, source, { name: '__initdata', line: 15, kind: 'enum' }), 'named after the attribute before `=`');
  t.ok(setsAside(misread, source, { name: 'cpu', line: 16, kind: 'enumerator', scope: '__initdata' }));
  t.ok(setsAside(misread, source, { name: 'mlxsw_sp2_mask_ethtool_sgmii_100m', line: 19, kind: 'enum' }), 'the name on the line after the type');
  t.ok(setsAside(misread, source, { name: 'ETHTOOL_LINK_MODE_100baseT_Full_BIT', line: 20, kind: 'enumerator', scope: 'mlxsw_sp2_mask_ethtool_sgmii_100m' }));
  t.notOk(setsAside(misread, source, { name: 'power_supply_property', line: 1, kind: 'enum' }), 'a real enum stays');
  t.notOk(setsAside(misread, source, { name: 'POWER_SUPPLY_PROP_STATUS', line: 2, kind: 'enumerator', scope: 'power_supply_property' }), 'its real enumerators stay');
  t.notOk(setsAside(misread, source, { name: 'attr_enum', line: 22, kind: 'enum' }), 'an enum with an attribute before its name stays');
  t.notOk(setsAside(misread, source, { name: 'REAL_ONE', line: 23, kind: 'enumerator', scope: 'attr_enum' }));
});

t.test('unnamed-bit-field-as-member', async (t) => {
  const misread = rule('unnamed-bit-field-as-member');
  // arch/s390/kvm/gaccess.c, arch/m68k/include/asm/amigahw.h, drivers/scsi/BusLogic.h
  const source = [
    'struct region {',
    '\tunsigned long origin : 52;',
    '\tunsigned long\t : 2;',
    '\tunsigned int  :28, second2:4;',
    '\tunsigned char:4;',
    '\tu32 :4;',
    '\tunsigned int',
    '\t\tflag : 1;',
    '};',
  ].join('\n');
  t.ok(setsAside(misread, source, { name: 'long', line: 3, kind: 'member', scope: 'region' }), 'unsigned long : 2; read as a member long');
  t.ok(setsAside(misread, source, { name: 'int', line: 4, kind: 'member', scope: 'region' }), 'unsigned int :28, then a named one');
  t.ok(setsAside(misread, source, { name: 'char', line: 5, kind: 'member', scope: 'region' }), 'unsigned char:4;');
  t.ok(setsAside(misread, source, { name: 'u32', line: 6, kind: 'member', scope: 'region' }), 'a typedef type alone before the width');
  t.notOk(setsAside(misread, source, { name: 'origin', line: 2, kind: 'member', scope: 'region' }), 'a named bit-field stays');
  t.notOk(setsAside(misread, source, { name: 'second2', line: 4, kind: 'member', scope: 'region' }), 'the named one after the unnamed stays');
  t.notOk(setsAside(misread, source, { name: 'flag', line: 8, kind: 'member', scope: 'region' }), 'a named bit-field whose type ends the line above stays');
});

t.test('attribute-after-body-as-member', async (t) => {
  const misread = rule('attribute-after-body-as-member');
  // drivers/net/wireless/realtek/rtl818x/rtl818x.h, drivers/net/wireless/broadcom/b43/xmit.h
  const source = [
    'struct rtl818x_csr {',
    '\tunion {',
    '\t\tstruct {',
    '\t\t\tu8 reserved_01[3];',
    '\t\t} __packed;',
    '\t} __packed;',
    '\tstruct { u8 a; } named;',
    '};',
  ].join('\n');
  t.ok(setsAside(misread, source, { name: '__packed', line: 5, kind: 'member', scope: 'rtl818x_csr' }), '} __packed; read as a member __packed');
  t.notOk(setsAside(misread, source, { name: 'named', line: 7, kind: 'member', scope: 'rtl818x_csr' }), 'a member named after a body stays');
});

t.test('attribute-call-as-prototype: after attribute words, and in a typedef', async (t) => {
  const misread = rule('attribute-call-as-prototype');
  // arch/arm/mm/kasan_init.c, arch/m68k/lib/ashldi3.c
  const source = [
    'static pgd_t tmp_pgd_table[PTRS_PER_PGD] __initdata __aligned(PGD_SIZE);',
    'typedef\t\t int SItype\t__mode(SI);',
    'typedef int (*cmp_t)(const void *a, const void *b);',
    'static __page_aligned_bss pud_t espfix_pud_page[PTRS_PER_PUD]',
    '\t__aligned(PAGE_SIZE);',
    'static int f(void)',
    '\t__acquires(lock);',
  ].join('\n');
  t.ok(setsAside(misread, source, { name: '__aligned', line: 1, kind: 'prototype' }), 'a[N] __initdata __aligned(N);');
  t.ok(setsAside(misread, source, { name: '__mode', line: 2, kind: 'typedef' }), 'typedef int SItype __mode(SI); read as a typedef __mode');
  t.notOk(setsAside(misread, source, { name: 'cmp_t', line: 3, kind: 'typedef' }), 'a function pointer typedef stays');
  t.ok(setsAside(misread, source, { name: '__aligned', line: 5, kind: 'prototype' }), 'alone on its line after the declarator');
  t.notOk(setsAside(misread, source, { name: 'f', line: 6, kind: 'prototype' }), 'the prototype before an attribute on its own line stays');
});

t.test('call-in-expression: after a cast or an address-of', async (t) => {
  const misread = rule('call-in-expression');
  // arch/mips/ralink/bootrom.c, arch/arm64/kvm/pkvm.c
  const source = [
    'static void __iomem *membase = (void __iomem *) KSEG1ADDR(BOOTROM_OFFSET);',
    'static unsigned int *hyp_memblock_nr_ptr = &kvm_nvhe_sym(hyp_memblock_nr);',
    'int &value(int index);',
    'void __attribute__((noreturn)) die(const char *why);',
  ].join('\n');
  t.ok(setsAside(misread, source, { name: 'KSEG1ADDR', line: 1, kind: 'prototype' }), 'a call after a cast');
  t.ok(setsAside(misread, source, { name: 'kvm_nvhe_sym', line: 2, kind: 'prototype' }), 'a call after = &');
  t.notOk(setsAside(misread, source, { name: 'value', line: 3, kind: 'prototype' }), 'a C++ function returning a reference stays');
  t.notOk(setsAside(misread, source, { name: 'die', line: 4, kind: 'prototype' }), 'a prototype after an attribute stays');
});

t.test('initialized-wrapper-as-prototype', async (t) => {
  const misread = rule('initialized-wrapper-as-prototype');
  // arch/s390/boot/startup.c
  const source = [
    'int __bootdata(is_full_image) = 1;',
    '  virtual int size(T t) = 0;',
    '  Foo(Foo other) = delete;',
    'int f(x);',
    '  virtual fn_ptr ReturnsFunctionPointer2(int) = 0;',
  ].join('\n');
  t.ok(setsAside(misread, source, { name: '__bootdata', line: 1, kind: 'prototype' }), 'a macro around an initialized variable');
  t.notOk(setsAside(misread, source, { name: 'size', line: 2, kind: 'prototype' }), 'a pure virtual stays');
  t.notOk(setsAside(misread, source, { name: 'Foo', line: 3, kind: 'prototype' }), 'a deleted constructor stays');
  t.notOk(setsAside(misread, source, { name: 'f', line: 4, kind: 'prototype' }), 'a prototype stays');
  t.notOk(setsAside(misread, source, { name: 'ReturnsFunctionPointer2', line: 5, kind: 'prototype' }), 'a pure virtual of a parameter named by its type alone stays (googletest)');
});

t.test('attribute-after-typedef-declarator', async (t) => {
  const misread = rule('attribute-after-typedef-declarator');
  // arch/powerpc/kexec/core_32.c
  const source = [
    'typedef void (*relocate_new_kernel_t)(',
    '\t\t\t\tunsigned long indirection_page,',
    '\t\t\t\tunsigned long start_address) __noreturn;',
    'extern void f(int a,',
    '\t\tint b) __noreturn;',
  ].join('\n');
  t.ok(setsAside(misread, source, { name: '__noreturn', line: 3, kind: 'typedef' }), ') __noreturn; ending a function pointer typedef');
  t.notOk(setsAside(misread, source, { name: '__noreturn', line: 5, kind: 'typedef' }), 'not after a prototype');
});

t.test('untyped-call-as-function: after a macro call ending its line without a semicolon', async (t) => {
  const misread = rule('untyped-call-as-function');
  // fs/efs/super.c, drivers/net/wireless/intel/iwlwifi/iwl-debug.c, tools/testing/selftests/vm/migration.c
  const source = [
    'module_init(init_efs_fs)',
    'module_exit(exit_efs_fs)',
    '\t\tif (!pid)',
    '\t\t\taccess_mem(ptr);',
    'static int f(int a)',
    'int g(void);',
  ].join('\n');
  t.ok(setsAside(misread, source, { name: 'module_exit', line: 2, kind: 'function' }), 'module_exit(g) after module_init(f)');
  t.ok(setsAside(misread, source, { name: 'access_mem', line: 4, kind: 'prototype' }), 'a call as the body of an if');
  t.notOk(setsAside(misread, source, { name: 'g', line: 6, kind: 'prototype' }), 'a prototype with its type stays');
});

t.test('attribute-as-typedef: a macro making the whole typedef', async (t) => {
  const misread = rule('attribute-as-typedef');
  // tools/testing/selftests/bpf/map_tests/htab_map_batch_ops.c
  const source = ['\ttypedef BPF_DECLARE_PERCPU(int, value);', 'typedef int (*fn_t)(int);'].join('\n');
  t.ok(setsAside(misread, source, { name: 'BPF_DECLARE_PERCPU', line: 1, kind: 'typedef' }));
  t.notOk(setsAside(misread, source, { name: 'fn_t', line: 2, kind: 'typedef' }));
});

t.test('attribute-call-as-prototype: after an attribute call', async (t) => {
  const misread = rule('attribute-call-as-prototype');
  // arch/powerpc/mm/pgtable.c
  const source = 'pgd_t swapper_pg_dir[MAX_PTRS_PER_PGD] __section(".bss..page_aligned") __aligned(PGD_ALIGN);';
  t.ok(setsAside(misread, source, { name: '__aligned', line: 1, kind: 'prototype' }));
});
