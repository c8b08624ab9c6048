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
    'node_modules/dep/index.js', 'dist/app.js', 'build/x.c', '.git/hooks/a.py', '.venv/lib/b.py', 'cmake-build-debug/c.cc', 'vendor/big.go',
    'src/app.test.ts',
  ]) write(root, file);
  write(root, '.gitignore', 'src/gen/\n*.log\n');
  write(root, 'lib/.gitignore', 'local/*\n!local/kept.py\n');
  const walk = await walkRoots([new RootFilter({ path: root, external: false }, { include: [], exclude: ['vendor/', '*.test.ts'], skip: [] })]);
  t.same(walk.files.map((f) => f.stored), ['lib/local/kept.py', 'lib/util.py', 'src/app.ts', 'src/keep.ts']);
  t.same(walk.files.map((f) => f.language), ['python', 'python', 'typescript', 'typescript']);

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
    'Plugins/Tool/Intermediate/Build/Win64/UnrealEditor/Inc/Tool/UHT/ToolWidget.generated.h', 'Plugins/Tool/Source/Tool/ToolWidget.h',
  ]) write(root, file, '#pragma once\n');
  // Unreal's own .gitignore leaves Intermediate/ out of git; the generated headers are still wanted.
  write(root, '.gitignore', 'Binaries/\nIntermediate/\nSaved/\n');
  const walk = await walkRoots([new RootFilter({ path: root, external: false }, { include: [], exclude: [], skip: [] })]);
  t.same(walk.files.map((f) => f.stored), [
    'Intermediate/Build/Linux/UnrealEditor/Inc/MyGame/Legacy.generated.h',
    `${uht}/MyCharacter.generated.h`,
    'Plugins/Tool/Intermediate/Build/Win64/UnrealEditor/Inc/Tool/UHT/ToolWidget.generated.h',
    'Plugins/Tool/Source/Tool/ToolWidget.h',
    'Source/MyGame/MyCharacter.h',
  ]);
  t.ok(walk.directories.every((d) => !d.includes(`${path.sep}ProjectFiles`) && !d.includes(`${path.sep}Development`)), 'the rest of Intermediate/ is not walked');
  const filter = new RootFilter({ path: root, external: false }, { include: [], exclude: [], skip: [] });
  t.equal(filter.acceptsPath(path.join(root, uht, 'New.generated.h')), 'cpp', 'a header the header tool writes later is picked up by the watcher');
  t.equal(filter.acceptsPath(path.join(root, uht, 'New.gen.cpp')), undefined);
  const excluded = new RootFilter({ path: root, external: false }, { include: [], exclude: ['Intermediate/'], skip: [] });
  t.equal(excluded.acceptsPath(path.join(root, uht, 'MyCharacter.generated.h')), undefined, 'an explicit exclude still wins');
});
