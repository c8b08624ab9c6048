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
function setsAside(misread: Misread, source: string, tag: Omit<Tag, 'path'>, fileMacros: ReadonlySet<string> = new Set()): boolean {
  const lines = source.split('\n');
  return misread.matches({ tag: { path: 'x.c', ...tag }, lines, fileMacros });
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

t.test('untyped-call-as-function: storage words alone on the line above', async (t) => {
  const misread = rule('untyped-call-as-function');
  // net/rds/page.c
  const source = ['};', '', 'static', 'DEFINE_PER_CPU_SHARED_ALIGNED(struct rds_page_remainder, rds_page_remainders);', 'static int', 'rds_page_copy(int a);'].join('\n');
  t.ok(setsAside(misread, source, { name: 'DEFINE_PER_CPU_SHARED_ALIGNED', line: 4, kind: 'prototype' }));
  t.notOk(setsAside(misread, source, { name: 'rds_page_copy', line: 6, kind: 'prototype' }), 'a prototype whose type is on the line above stays');
});

t.test('macro-list-as-enumerator', async (t) => {
  const misread = rule('macro-list-as-enumerator');
  // drivers/net/wireless/broadcom/brcm80211/brcmfmac/feature.h, drivers/gpu/drm/amd/pm/swsmu/inc/smu_types.h
  const source = [
    'enum brcmf_feat_id {',
    '\tBRCMF_FEAT_LIST',
    '\tBRCMF_FEAT_LAST',
    '};',
    'enum smu_message_type {',
    '\tSMU_MESSAGE_TYPES /* all of them */',
    '\tSMU_MSG_MAX_COUNT,',
    '\tA = 1, B,',
    '\tC',
    '};',
    '#ifndef _NT_PROM',
    '\tPeripheralClass',
    '#else',
    '\tAdapterClass,',
  ].join('\n');
  t.ok(setsAside(misread, source, { name: 'BRCMF_FEAT_LIST', line: 2, kind: 'enumerator', scope: 'brcmf_feat_id' }));
  t.ok(setsAside(misread, source, { name: 'SMU_MESSAGE_TYPES', line: 6, kind: 'enumerator', scope: 'smu_message_type' }), 'with a comment after it');
  for (const [name, line] of [['BRCMF_FEAT_LAST', 3], ['SMU_MSG_MAX_COUNT', 7], ['A', 8], ['B', 8], ['C', 9], ['PeripheralClass', 12]] as const) {
    t.notOk(setsAside(misread, source, { name, line, kind: 'enumerator' }), `${name} stays`);
  }
});

t.test('assembly-as-prototype', async (t) => {
  const misread = rule('assembly-as-prototype');
  // arch/arc/include/asm/entry-arcv2.h
  const source = [
    '#ifdef __ASSEMBLY__',
    '.macro __SAVE_REGFILE_SOFT',
    '',
    '\tST2\tgp, fp, PT_r26\t\t; gp (r26), fp (r27)',
    '.endm',
    '#else',
    'int gp(int r26);',
    '#endif',
  ].join('\n');
  t.ok(setsAside(misread, source, { name: 'gp', line: 4, kind: 'prototype' }));
  t.notOk(setsAside(misread, source, { name: 'gp', line: 7, kind: 'prototype' }), 'a prototype after .endm stays');
});

t.test('attribute-call-above-declarator', async (t) => {
  const misread = rule('attribute-call-above-declarator');
  // drivers/net/wireless/intel/iwlwifi/fw/notif-wait.h
  const source = [
    'void __acquires(wait_entry)',
    'iwl_init_notification_wait(struct iwl_notif_wait_data *notif_data,',
    '\t\t\t   void *fn_data);',
    'int __must_check __releases(wait_entry)',
    'iwl_wait_notification(struct iwl_notif_wait_data *notif_data);',
    'static void __exit_thing(int a)',
    '{',
    'static void __lock_sock(struct sock *sk)',
    '\t__releases(&sk->sk_lock.slock)',
  ].join('\n');
  t.ok(setsAside(misread, source, { name: '__acquires', line: 1, kind: 'prototype' }));
  t.ok(setsAside(misread, source, { name: '__releases', line: 4, kind: 'prototype' }), 'after another attribute word');
  t.notOk(setsAside(misread, source, { name: '__exit_thing', line: 6, kind: 'function' }), 'a function whose body opens on the next line stays');
  t.notOk(setsAside(misread, source, { name: '__lock_sock', line: 8, kind: 'function' }), 'a function whose parameter list ends its line, annotations below, stays (net/core/sock.c)');
});

t.test('extern-as-typedef', async (t) => {
  const misread = rule('extern-as-typedef');
  // drivers/mtd/chips/gen_probe.c, arch/arm/probes/kprobes/core.h
  const source = [
    'typedef struct mtd_info *cfi_cmdset_fn_t(struct map_info *, int);',
    '',
    'extern cfi_cmdset_fn_t cfi_cmdset_0001;',
    'extern const union decode_action kprobes_t32_actions[];',
    'typedef int real_t;',
  ].join('\n');
  t.ok(setsAside(misread, source, { name: 'cfi_cmdset_0001', line: 3, kind: 'typedef' }));
  t.ok(setsAside(misread, source, { name: 'kprobes_t32_actions', line: 4, kind: 'typedef' }));
  t.notOk(setsAside(misread, source, { name: 'cfi_cmdset_fn_t', line: 1, kind: 'typedef' }), 'the typedef itself stays');
  t.notOk(setsAside(misread, source, { name: 'real_t', line: 5, kind: 'typedef' }));
});

t.test('attribute-as-member: a macro of the file after the member', async (t) => {
  const misread = rule('attribute-as-member');
  // tools/testing/selftests/bpf/progs/test_btf_decl_tag.c
  const source = [
    '#define __tag2 __attribute__((btf_decl_tag("tag2")))',
    'struct key_t {',
    '\tint b __tag1 __tag2;',
    '\ttime_t st_atime;',
    '} __tag1 __tag2;',
    'typedef struct {',
    '\tint a;',
    '} value_t __tag1 __tag2;',
  ].join('\n');
  const macros = new Set(['__tag1', '__tag2', 'st_atime', '__hc32']);
  // drivers/usb/host/uhci-hcd.h: a typedef the file also defines as a macro of a type in another branch.
  const hc = ['#ifdef CONFIG_BIG_ENDIAN', '#define __hc32 __le32', '#else', 'typedef __u32 __bitwise __hc32;', '#endif'].join('\n');
  t.notOk(setsAside(misread, hc, { name: '__hc32', line: 4, kind: 'typedef' }, macros), 'a macro of the file that makes a type, not an attribute: the typedef stays');
  t.ok(setsAside(misread, source, { name: '__tag2', line: 3, kind: 'member', scope: 'key_t' }, macros));
  t.ok(setsAside(misread, source, { name: '__tag2', line: 8, kind: 'typedef' }, macros), 'after a typedef\'s name');
  t.notOk(setsAside(misread, source, { name: '__tag2', line: 3, kind: 'member', scope: 'key_t' }), 'not a macro of the file, nor named as attributes are: stays');
  t.notOk(setsAside(misread, source, { name: 'st_atime', line: 4, kind: 'member', scope: 'key_t' }, macros), 'a member a macro of the same name aliases stays');
});

t.test('requires-type-as-member', async (t) => {
  const misread = rule('requires-type-as-member');
  // c++/12/bits/iterator_concepts.h, c++/12/experimental/bits/net.h
  const source = [
    '  template<typename _Tp> requires requires { typename _Tp::difference_type; }',
    '    struct incrementable_traits<_Tp>',
    '    { using difference_type = typename _Tp::difference_type; };',
    '      concept __iter_with_nested_types = requires {',
    '\ttypename _Iter::iterator_category;',
    '\ttypename incrementable_traits<_Iter>::difference_type;',
    '      };',
    '    typename _Tp::type member_;',
  ].join('\n');
  t.ok(setsAside(misread, source, { name: 'difference_type', line: 1, kind: 'member', scope: 'std::_Tp' }), 'in a requires-clause on the template head');
  t.ok(setsAside(misread, source, { name: 'iterator_category', line: 5, kind: 'member', scope: 'std::__detail::_Iter' }), 'in a concept\'s requires-expression');
  t.ok(setsAside(misread, source, { name: 'difference_type', line: 6, kind: 'member', scope: 'std::__detail::incrementable_traits<_Iter>' }), 'after a template-id');
  t.notOk(setsAside(misread, source, { name: 'member_', line: 8, kind: 'member' }), 'a member whose type is a typename-qualified name stays');
});

t.test('requirement-as-prototype', async (t) => {
  const misread = rule('requirement-as-prototype');
  // c++/12/bits/ranges_base.h, c++/12/bits/iterator_concepts.h, c++/12/experimental/bits/net.h
  const source = [
    '  template<typename _Tp>',
    '    concept range = requires(_Tp& __t)',
    '      {',
    '\tranges::begin(__t);',
    '\t{ __b.size() } -> same_as<size_t>;',
    '\t__b.resize(__s);',
    '      };',
    '      && requires(_Tp&& __t) { iter_move(static_cast<_Tp&&>(__t)); };',
    '  struct S {',
    '    void begin(int);',
    '  };',
  ].join('\n');
  t.ok(setsAside(misread, source, { name: 'begin', line: 4, kind: 'prototype', scope: 'std::ranges' }), 'a qualified call in a concept\'s requires-expression');
  t.ok(setsAside(misread, source, { name: 'resize', line: 6, kind: 'prototype' }), 'after a compound requirement');
  t.ok(setsAside(misread, source, { name: 'iter_move', line: 8, kind: 'prototype' }), 'on the requires line itself');
  t.notOk(setsAside(misread, source, { name: 'begin', line: 10, kind: 'prototype', scope: 'S' }), 'a member prototype in a class stays');
});

t.test('template-argument-as-enumerator', async (t) => {
  const misread = rule('template-argument-as-enumerator');
  // c++/12/ext/pb_ds/detail/tree_policy/node_metadata_selector.hpp
  const source = ['      enum', '\t{', '\t  null_update = is_same<__node_u, __nnode_u>::value', '\t};', 'enum { A = 1, B, C };'].join('\n');
  t.ok(setsAside(misread, source, { name: '__nnode_u', line: 3, kind: 'enumerator' }));
  t.notOk(setsAside(misread, source, { name: 'null_update', line: 3, kind: 'enumerator' }), 'the enumerator itself stays');
  t.notOk(setsAside(misread, source, { name: 'B', line: 5, kind: 'enumerator' }), 'enumerators after a plain value stay');
});

t.test('keyword-typedef-as-type', async (t) => {
  const misread = rule('keyword-typedef-as-type');
  // uchar.h
  const source = ['#ifndef __USE_ISOCXX11', 'typedef __uint_least16_t char16_t;', '#endif', 'typedef __uint_least16_t my16_t;'].join('\n');
  t.ok(setsAside(misread, source, { name: '__uint_least16_t', line: 2, kind: 'typedef' }));
  t.notOk(setsAside(misread, source, { name: 'my16_t', line: 4, kind: 'typedef' }));
});
