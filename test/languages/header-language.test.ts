import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import t from 'tap';
import { headerLanguage } from '../../src/languages/cpp/header-language.js';
import { RootFilter, walkRoots } from '../../src/index/walker.js';
import { tempDir } from '../helpers.js';

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
