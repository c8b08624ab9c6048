import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import t from 'tap';
import { RootFilter, walkRoots } from '../../src/index/walker.js';
import { tempDir } from '../helpers.js';

function write(root: string, file: string, text = ''): void {
  mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
  writeFileSync(path.join(root, file), text);
}

t.test('the walk honours .gitignore (nested too), default exclusions, include and exclude', async (t) => {
  const root = tempDir(t);
  for (const file of [
    'src/app.ts', 'src/gen/out.ts', 'src/keep.ts', 'src/notes.txt', 'lib/util.py', 'lib/local/secret.py', 'lib/local/kept.py',
    'node_modules/dep/index.js', 'dist/app.js', 'build/x.c', 'build/CMakeCache.txt', '.git/hooks/a.py', '.venv/lib/b.py', 'cmake-build-debug/c.cc', 'vendor/big.go',
    'src/app.test.ts', 'package.json',
  ]) write(root, file);
  write(root, '.gitignore', 'src/gen/\n*.log\n');
  write(root, 'lib/.gitignore', 'local/*\n!local/kept.py\n');
  const walk = await walkRoots([new RootFilter({ path: root, external: false }, { include: [], exclude: ['vendor/', '*.test.ts'], skip: [] })]);
  t.same(walk.files.map((f) => f.stored), ['lib/local/kept.py', 'lib/util.py', 'src/app.ts', 'src/keep.ts']);
  t.same(walk.files.map((f) => f.language), ['python', 'python', 'typescript', 'typescript']);
  t.same(walk.buildOutput.map((o) => [path.relative(root, o.directory), o.reason]).sort(), [
    ['build', 'holds CMakeCache.txt: a CMake build tree'],
    ['dist', 'beside package.json: npm writes its output to dist/'],
  ], 'build output is told by what is in it or beside it, and said');

  const only = await walkRoots([new RootFilter({ path: root, external: false }, { include: ['src/**'], exclude: [], skip: [] })]);
  t.same(only.files.map((f) => f.stored), ['src/app.test.ts', 'src/app.ts', 'src/keep.ts'], 'include keeps only matching files');
});

t.test('files of an extra root are stored with absolute paths and marked external', async (t) => {
  const root = tempDir(t);
  write(root, 'engine/Core.h', 'class Core;');
  const walk = await walkRoots([new RootFilter({ path: root, external: true }, { include: [], exclude: [], skip: [] })]);
  t.equal(walk.files.length, 1);
  t.equal(walk.files[0].stored, path.join(root, 'engine/Core.h'));
  t.equal(walk.files[0].root.external, true);
});

t.test('watcher paths are judged like walked ones', async (t) => {
  const root = tempDir(t);
  write(root, '.gitignore', 'generated/\n');
  const filter = new RootFilter({ path: root, external: false }, { include: [], exclude: [], skip: [] });
  t.equal(filter.acceptsPath(path.join(root, 'src/a.go')), 'go');
  t.equal(filter.acceptsPath(path.join(root, 'generated/a.go')), undefined);
  t.equal(filter.acceptsPath(path.join(root, 'node_modules/x/a.js')), undefined);
  t.equal(filter.acceptsPath(path.join(root, 'README.md')), undefined);
});

t.test("Unreal's generated headers under Intermediate/ are indexed; the rest of Intermediate/ is not", async (t) => {
  const root = tempDir(t);
  const uht = 'Intermediate/Build/Linux/UnrealEditor/Inc/MyGame/UHT';
  for (const file of [
    'Source/MyGame/MyCharacter.h', `${uht}/MyCharacter.generated.h`, `${uht}/MyCharacter.gen.cpp`, `${uht}/MyGame.init.gen.cpp`,
    'Intermediate/Build/Linux/UnrealEditor/Inc/MyGame/Legacy.generated.h', 'Intermediate/Build/Linux/UnrealEditor/Development/MyGame/Module.MyGame.cpp',
    'Intermediate/ProjectFiles/Stub.h', 'Intermediate/Other.generated.h.bak', 'Intermediate/Build/Linux/x.generated.h',
    'Intermediate/Build/Win64/x64/UnrealEditor/Inc/MyGame/UHT/Weapon.generated.h', 'Intermediate/Plugins/Tool/Inc/Tool/Panel.generated.h',
    'Plugins/Tool/Intermediate/Build/Win64/UnrealEditor/Inc/Tool/UHT/ToolWidget.generated.h', 'Plugins/Tool/Source/Tool/ToolWidget.h',
  ]) write(root, file, '#pragma once\n');
  // Unreal's own .gitignore leaves Intermediate/ out of git; the generated headers are still wanted.
  write(root, '.gitignore', 'Binaries/\nIntermediate/\nSaved/\n');
  const walk = await walkRoots([new RootFilter({ path: root, external: false }, { include: [], exclude: [], skip: [] })]);
  t.same(walk.files.map((f) => f.stored), [
    'Intermediate/Build/Linux/UnrealEditor/Inc/MyGame/Legacy.generated.h',
    `${uht}/MyCharacter.generated.h`,
    'Intermediate/Build/Linux/x.generated.h',
    'Intermediate/Build/Win64/x64/UnrealEditor/Inc/MyGame/UHT/Weapon.generated.h',
    'Intermediate/Plugins/Tool/Inc/Tool/Panel.generated.h',
    'Plugins/Tool/Intermediate/Build/Win64/UnrealEditor/Inc/Tool/UHT/ToolWidget.generated.h',
    'Plugins/Tool/Source/Tool/ToolWidget.h',
    'Source/MyGame/MyCharacter.h',
  ], 'a generated header anywhere under Intermediate/ (the x64 layout of UE5 on Windows, a plugin\'s), nothing else of it');
  const filter = new RootFilter({ path: root, external: false }, { include: [], exclude: [], skip: [] });
  t.equal(filter.acceptsPath(path.join(root, uht, 'New.generated.h')), 'cpp', 'a header the header tool writes later is picked up by the watcher');
  t.equal(filter.acceptsPath(path.join(root, uht, 'New.gen.cpp')), undefined);
  const excluded = new RootFilter({ path: root, external: false }, { include: [], exclude: ['Intermediate/'], skip: [] });
  t.equal(excluded.acceptsPath(path.join(root, uht, 'MyCharacter.generated.h')), undefined, 'an explicit exclude still wins');
});

t.test('a directory named build, target, out, bin or obj is build output only where something says so', async (t) => {
  const root = tempDir(t);
  const files: Record<string, string> = {
    // Sources in folders named like build output (the kernel's drivers/target, tools/build): walked.
    'drivers/target/target_core.c': 'int x;', 'tools/build/fixdep.c': 'int y;', 'bin/tool.py': 'x = 1', 'out/report.go': 'package out',
    // CMake: a build tree of any name, but not an in-source build beside CMakeLists.txt.
    'out/build/x64-Debug/CMakeCache.txt': '', 'out/build/x64-Debug/CMakeFiles/3.25/CompilerIdC/CMakeCCompilerId.c': 'int id;',
    'lib/CMakeLists.txt': '', 'lib/CMakeCache.txt': '', 'lib/lib.c': 'int lib;',
    // Cargo's target/ (a cache directory tag, or Cargo.toml beside it), Maven's, .NET's bin/ and obj/.
    'rust/Cargo.toml': '', 'rust/src/main.rs': 'fn main() {}', 'rust/target/debug/build/out.rs': 'fn gen() {}',
    'tagged/target/CACHEDIR.TAG': 'Signature: 8a477f597d28d172789f06886806bc55', 'tagged/target/gen.rs': 'fn gen() {}',
    'java/target/maven-status/x.lst': '', 'java/target/generated-sources/Gen.java': 'class Gen {}',
    'cs/App.csproj': '', 'cs/App.cs': 'class App {}', 'cs/bin/Debug/Gen.cs': 'class Gen {}', 'cs/obj/project.assets.json': '{}', 'cs/obj/Gen.g.cs': 'class G {}',
    // TypeScript's outDir; a build/ of scripts beside a package.json is not npm's output.
    'web/tsconfig.json': '{\n  // comments are allowed\n  "compilerOptions": { "outDir": "./build/js" }\n}', 'web/src/a.ts': 'export const a = 1;', 'web/build/js/a.ts': 'export const a = 1;',
    'tools/package.json': '{}', 'tools/build/gulpfile.ts': 'export const task = 1;', 'tools/dist/bundle.js': 'var b;',
  };
  for (const [file, text] of Object.entries(files)) write(root, file, text);
  const walk = await walkRoots([new RootFilter({ path: root, external: false }, { include: [], exclude: [], skip: [] })]);
  t.same(walk.files.map((f) => f.stored), [
    'bin/tool.py', 'cs/App.cs', 'drivers/target/target_core.c', 'lib/lib.c', 'out/report.go', 'rust/src/main.rs', 'tools/build/fixdep.c', 'tools/build/gulpfile.ts', 'web/src/a.ts',
  ]);
  t.same(walk.buildOutput.map((o) => `${path.relative(root, o.directory)}: ${o.reason}`).sort(), [
    'cs/bin: beside App.csproj: MSBuild writes its output to bin/',
    'cs/obj: holds project.assets.json: .NET\'s obj directory',
    'java/target: holds maven-status: Maven\'s target directory',
    'out/build/x64-Debug: holds CMakeCache.txt: a CMake build tree',
    'rust/target: beside Cargo.toml: Cargo writes its output to target/',
    'tagged/target: holds CACHEDIR.TAG: a cache directory tag',
    'tools/dist: beside package.json: npm writes its output to dist/',
    'web/build: tsconfig.json names it its outDir',
  ]);
  const filter = new RootFilter({ path: root, external: false }, { include: [], exclude: [], skip: [] });
  t.equal(filter.acceptsPath(path.join(root, 'drivers/target/new.c')), 'c', 'the watcher judges alike');
  t.equal(filter.acceptsPath(path.join(root, 'rust/target/debug/new.rs')), undefined);
  t.equal(filter.acceptsPath(path.join(root, 'out/build/x64-Debug/new.c')), undefined);
  write(root, 'drivers/target/CMakeCache.txt');
  t.equal(filter.acceptsPath(path.join(root, 'drivers/target/new.c')), 'c', 'a judgement is kept');
  filter.forgetBuildOutput(path.join(root, 'drivers/target'));
  t.equal(filter.acceptsPath(path.join(root, 'drivers/target/new.c')), undefined, 'until a marker changes there');
});
