/**
 * C and C++ recall against universal-ctags on Debian's /usr/include (whatever the machine has installed:
 * glibc, the kernel's UAPI headers, libstdc++, LLVM, Node, Python, OpenSSL, X11...), every header read as C++
 * as the index reads a .h, file by file, every kind ctags finds: 99% overall, 95% in every file but those
 * KNOWN_GAPS lists, each with what plumb does not read there yet. A file newly below 95% fails; one of the
 * list back above it is said, so the list only shrinks.
 */
import t from 'tap';
import { requireCorpora } from '../corpora.js';
import { languageById } from '../../src/languages/index.js';
import { compareWithCtags, describeComparison, describeFiles, describeKinds, filesBelow, recallOfComparison, RECALL_BAR } from './ctags-compare.js';
import { listFiles } from './recall.js';

const ROOT = '/usr/include';

/** Files below 95% for reasons in plumb (not ctags' misreadings), by reason. */
const KNOWN_GAPS: Record<string, string> = {
  // The grammar cannot take the construct, and loses what follows it.
  'llvm-14/llvm/IR/Module.h': 'a pointer-to-member return type (static GlobalListType Module::*getSublistAccess(GlobalVariable*))',
  'llvm-14/llvm/IR/Function.h': 'a pointer-to-member return type (Function::*getSublistAccess)',
  'llvm-14/llvm/MC/MCSection.h': 'a pointer-to-member return type (MCSection::*getSublistAccess)',
  'llvm-14/llvm/Analysis/DomTreeUpdater.h': 'LLVM_ATTRIBUTE_DEPRECATED(void f(...), "message") wrapping a whole declaration',
  'c++/12/bits/iterator_concepts.h': 'C++20 requires-expressions in partial specializations (requires requires { typename _Tp::difference_type; })',
  'c++/12/bits/ptr_traits.h': 'C++20 requires-expressions in partial specializations',
  'c++/12/bits/ranges_base.h': 'C++20 deleted overloads with auto parameters and requires-clauses',
  'c++/12/experimental/bits/net.h': 'C++20 requires-expressions in partial specializations',
  'c++/12/experimental/bits/simd.h': 'conversion operators to template parameters (operator _To()) and _GLIBCXX_SIMD_* attribute macros between template heads',
  'c++/12/bits/functional_hash.h': 'a struct after a run of macro-generated specializations (_Cxx_hashtable_define_trivial_hash(bool) and so on)',
  'c++/12/bits/list.tcc': 'an #if between an out-of-line member\'s qualified name (list<_Tp, _Alloc>::) and the member\'s own name',
  'c++/12/pstl/algorithm_impl.h': 'an enum inside a lambda inside a function template',
  'c++/12/ext/pb_ds/detail/gp_hash_table_map_/constructor_destructor_fn_imps.hpp': 'constructors named by a macro (PB_DS_CLASS_C_DEC::PB_DS_GP_HASH_NAME())',
  'c++/12/ext/pb_ds/detail/bin_search_tree_/constructors_destructor_fn_imps.hpp': 'a constructor named by a macro',
  'c++/12/ext/pb_ds/detail/pat_trie_/constructors_destructor_fn_imps.hpp': 'a constructor named by a macro',
  'c++/12/ext/pb_ds/detail/ov_tree_map_/constructors_destructor_fn_imps.hpp': 'a constructor named by a macro',
  'c++/12/ext/pb_ds/detail/tree_policy/node_metadata_selector.hpp': 'an enumerator of an unnamed enum in a template struct',
  'c++/12/ext/pb_ds/detail/trie_policy/node_metadata_selector.hpp': 'an enumerator of an unnamed enum in a template struct',
  'x86_64-linux-gnu/c++/12/bits/c++config.h': 'inline namespaces opened by macros (_GLIBCXX_BEGIN_NAMESPACE_CXX11) under #if',
  'node/cppgc/member.h': 'constructors after V8_INLINE and template heads with default arguments',
  'node/cppgc/persistent.h': 'a class whose template head holds default template arguments of macro types',
  'node/cppgc/cross-thread-persistent.h': 'a class whose template head holds default template arguments of macro types',
  'nspr/plbase64.h': 'a prototype after PR_EXTERN(char *) whose name and parameter list each stand on a line of their own',
  'nspr/obsolete/probslet.h': 'prototypes of functions a macro of the same name shadows (#define PR_FD_ZERO ...)',
  'uchar.h': 'a typedef of char16_t and char32_t, types of their own in C++',
};

t.setTimeout(600_000);

t.test('finds what ctags finds in /usr/include, file by file', async (t) => {
  if (!requireCorpora(t, 'ctags')) return;
  const cpp = languageById('cpp');
  const files = listFiles(ROOT, ['.h', '.hh', '.hpp', '.hxx', '.inl', '.ipp', '.tcc']);
  const result = await compareWithCtags({ root: ROOT, files, ctagsArgs: ['--language-force=C++'], languageOf: () => cpp });
  t.comment(describeComparison(result));
  t.comment(`by kind:\n${describeKinds(result)}`);
  t.comment(`${filesBelow(result, 1).length} files below 100%:\n${describeFiles(result)}`);
  t.ok(recallOfComparison(result) >= RECALL_BAR.overall, `overall recall ${(recallOfComparison(result) * 100).toFixed(2)}% >= ${RECALL_BAR.overall * 100}%`);
  const below = filesBelow(result, RECALL_BAR.perFile);
  const present = new Set(result.files.map((file) => file.path));
  const unexpected = below.filter((file) => !(file.path in KNOWN_GAPS)).map((file) => `${file.path} ${((file.found / file.expected) * 100).toFixed(1)}% (${file.found}/${file.expected})`);
  t.same(unexpected, [], `no file below ${RECALL_BAR.perFile * 100}% but the known gaps`);
  const fixed = Object.keys(KNOWN_GAPS).filter((path) => present.has(path) && !below.some((file) => file.path === path));
  if (fixed.length) t.comment(`known gaps now at 95% or more (take them off KNOWN_GAPS): ${fixed.join(', ')}`);
});
