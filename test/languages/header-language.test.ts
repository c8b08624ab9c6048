import { cpSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import t from 'tap';
import { cppInText, headerLanguage, headerLanguageOf } from '../../src/languages/cpp/header-language.js';
import { RootFilter, walkRoots } from '../../src/index/walker.js';
import { getJson, startApp, tempDir } from '../helpers.js';
import { indexReady, waitFor } from '../wait.js';

const around = (siblings: string[], nearest: Record<string, number>): Parameters<typeof headerLanguage>[1] => ({ siblings: new Set(siblings), nearest: new Map(Object.entries(nearest)) });

t.test('a .h is C where the code around it is C, else C++', async (t) => {
  t.equal(headerLanguage('/k/include/linux/slab.h', around(['slab.h', 'mm.h'], { '.c': 32_013, '.cpp': 7, '.cc': 1 })), 'c', 'a stray few C++ files in a C tree');
  t.equal(headerLanguage('/p/include/api.h', around(['api.h'], { '.c': 60, '.cpp': 50 })), 'cpp', 'a mixed tree is C++');
  t.equal(headerLanguage('/p/include/api.h', around(['api.h'], { '.cpp': 50 })), 'cpp');
  t.equal(headerLanguage('/p/include/api.h', around(['api.h'], {})), 'cpp', 'a tree of headers alone is C++');
  t.equal(headerLanguage('/p/include/api.h', around(['api.h'], { '.c': 9, '.hpp': 1 })), 'cpp', 'C++ headers count as C++ code');
  t.equal(headerLanguage('/k/scripts/kconfig/qconf.h', around(['qconf.h', 'qconf.cc'], { '.c': 18, '.cc': 1 })), 'cpp', 'a C++ source of its name beside it');
  t.equal(headerLanguage('/p/src/lua.h', around(['lua.h', 'lua.c'], { '.c': 1, '.cpp': 100 })), 'c', 'a C source of its name beside it');
});

t.test("the walker asks the header's language with what it found around it", async (t) => {
  const root = tempDir(t);
  const files = [
    // A C++ project vendoring a C library: its own headers C++, the library's C.
    'game/include/game.h', 'game/src/game.cpp', 'game/src/world.cpp', 'game/third_party/zlib/zlib.h', 'game/third_party/zlib/inflate.c',
    'game/third_party/zlib/deflate.c', 'game/src/glue.h', 'game/src/glue.c',
    // A C tree, its headers in a folder of their own.
    'kernel/include/linux/slab.h', 'kernel/mm/slab.c', 'kernel/mm/util.c',
    // Headers alone, and C++'s own header extensions.
    'headers/only.h', 'headers/more.hpp', 'kernel/mm/inline.inl', 'headers/list.hh',
  ];
  for (const file of files) {
    mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
    writeFileSync(path.join(root, file), '');
  }
  const walk = await walkRoots([new RootFilter({ path: root, external: false }, { include: [], exclude: [], skip: [] })]);
  const language = Object.fromEntries(walk.files.map((file) => [file.stored, file.language]));
  t.same(language, {
    'game/include/game.h': 'cpp', 'game/src/game.cpp': 'cpp', 'game/src/world.cpp': 'cpp', 'game/src/glue.c': 'c', 'game/src/glue.h': 'c',
    'game/third_party/zlib/zlib.h': 'c', 'game/third_party/zlib/inflate.c': 'c', 'game/third_party/zlib/deflate.c': 'c',
    'kernel/include/linux/slab.h': 'c', 'kernel/mm/slab.c': 'c', 'kernel/mm/util.c': 'c', 'kernel/mm/inline.inl': 'cpp', 'headers/list.hh': 'cpp',
    'headers/only.h': 'cpp', 'headers/more.hpp': 'cpp',
  });
});

t.test('a header whose text is unmistakably C++ is C++ whatever its tree says; C naming C++\'s words stays C', async (t) => {
  const cpp = [
    'class pass : public opt_pass {', 'class pass\n{', 'class pass final {', 'struct pass : public opt_pass {', 'namespace {', 'namespace gcc::plugins {',
    'namespace alias = gcc::plugins;', 'using namespace std;', 'template <typename T>', 'template <>', 'template <int N> struct fixed;',
    'struct s {\npublic:\n\tint a;\n};', 'extern "C++" {', 'inline namespace v1 {',
  ];
  for (const text of cpp) t.ok(cppInText(`#include <x.h>\n${text}\n`), JSON.stringify(text));
  const c = [
    'struct class {\n\tint (*new)(struct class *class);\n};', 'struct device { struct class *class; void *template; int private; };',
    '\tint public = dev->private;', '\tclass = dev->class;', '\ttemplate = kmalloc(size, GFP_KERNEL);', '\t.class = PCI_CLASS_BRIDGE,',
    '/*\n * class foo {\n */', '// namespace x {', 'const char *s = "class x {";', '#define DECLARE(x) class x {',
    '#ifdef __cplusplus\nextern "C" {\nnamespace n {\n#endif', '#if defined(__cplusplus) && __GNUC__ > 4\n# define CPP_PROTO\n#endif\n#ifdef CPP_PROTO\nextern "C++" char *f(char *);\n#endif',
    '#if 0\nclass old {\npublic:\n};\n#endif', 'unsigned int class : 4;', 'struct s x : 3;',
  ];
  for (const text of c) t.notOk(cppInText(`#include <x.h>\n${text}\n`), JSON.stringify(text));
  t.equal(headerLanguageOf.ofText?.('/k/scripts/gcc-plugins/pass.h', 'c', 'namespace {\n}\n'), 'cpp');
  t.equal(headerLanguageOf.ofText?.('/p/api.h', 'cpp', 'int f(void);\n'), undefined, 'a header its tree calls C++ stays so');
});

t.test('the index reads a C tree\'s C++ header as C++, end to end', async (t) => {
  const root = tempDir(t);
  cpSync(path.join(import.meta.dirname, '..', 'fixtures', 'syntax', 'c-tree-cpp-header'), root, { recursive: true });
  const app = await startApp(t, root, { languages: { cpp: { command: '/nonexistent/clangd' } } });
  await indexReady(app, 60_000);
  const search = async (query: string): Promise<Array<{ name: string; kind: string; file: string; language: string }>> => (await getJson(app, `/symbols?${query}`)).body.results;
  t.match(await search('query=gate&language=cpp'), [{ name: 'gate', kind: 'method', file: 'pass.h', language: 'cpp' }], 'its methods are indexed, as C++');
  t.match(await search('query=my_pass&kind=class'), [{ name: 'my_pass', file: 'pass.h', language: 'cpp' }]);
  t.same(await search('query=my_pass&language=c'), [], 'language=c leaves it out');
  t.match(await search('query=pass_cast'), [{ name: 'pass_cast', kind: 'function', language: 'cpp' }]);
  t.match(await search('query=device&kind=struct'), [{ name: 'device', file: 'list.h', language: 'c' }], 'the C header naming `struct class` stays C');
  t.same((await search('query=device_count&language=c')).map((s) => `${s.file} ${s.language}`).sort(), ['device.c c', 'list.h c'], 'its prototype is C, as its definition is');

  // The watcher decides a new file the same way.
  writeFileSync(path.join(root, 'later.h'), 'namespace later {\nclass later_pass {\npublic:\n\tvoid run() {}\n};\n}\n');
  const found = await waitFor('later.h indexed', () => search('query=later_pass&kind=class'), (results) => results.length > 0, { timeoutMs: 20_000 });
  t.match(found, [{ file: 'later.h', language: 'cpp' }]);
});
