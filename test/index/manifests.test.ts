import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import t from 'tap';
import { manifestName, PackageResolver, readManifest } from '../../src/index/manifests.js';
import { GOOGLETEST, tempDir } from '../helpers.js';
import { RXJS, ZOD } from './helpers.js';

t.test('each manifest kind names its package as the manifest spells it', async (t) => {
  t.equal(manifestName('package.json', '{"name": "@scope/widgets", "version": "1.0.0"}'), '@scope/widgets');
  t.equal(manifestName('package.json', '{"private": true}'), undefined, 'a package.json without a name is tooling, not a package');
  t.equal(manifestName('go.mod', 'module github.com/acme/tool\n\ngo 1.22\n'), 'github.com/acme/tool');
  t.equal(manifestName('Cargo.toml', '[workspace]\nmembers = ["a"]\n\n[package]\nname = "ripper"\nversion = "0.1.0"\n'), 'ripper');
  t.equal(manifestName('Cargo.toml', '[workspace]\nmembers = ["a"]\n'), undefined);
  t.equal(manifestName('pyproject.toml', '[build-system]\nrequires = []\n[project]\nname = "flask"\n'), 'flask');
  t.equal(manifestName('pyproject.toml', '[tool.poetry]\nname = "poet"\n'), 'poet');
  t.equal(manifestName('setup.cfg', '[metadata]\nname = legacy-pkg\nversion = 1\n'), 'legacy-pkg');
  t.equal(manifestName('pom.xml', '<project><parent><artifactId>parent-pom</artifactId></parent><artifactId>core-lib</artifactId><dependencies><dependency><artifactId>junit</artifactId></dependency></dependencies></project>'), 'core-lib');
  t.equal(manifestName('Game.csproj', '<Project Sdk="Microsoft.NET.Sdk"></Project>'), 'Game');
  t.equal(manifestName('Game.csproj', '<Project><PropertyGroup><AssemblyName>Game.Core</AssemblyName></PropertyGroup></Project>'), 'Game.Core');
  t.equal(manifestName('MyModule.Build.cs', 'public class MyModule : ModuleRules {}'), 'MyModule');
  t.equal(manifestName('CMakeLists.txt', '# project(commented)\ncmake_minimum_required(VERSION 3.13)\nproject(gtest VERSION 1.14 LANGUAGES CXX C)\n'), 'gtest');
  t.equal(manifestName('CMakeLists.txt', 'add_library(foo foo.cc)\n'), undefined, 'a CMakeLists.txt without project() does not start a package');
});

t.test('real manifests: googletest (CMake), rxjs and zod (package.json)', async (t) => {
  t.equal(readManifest(path.join(GOOGLETEST, 'googletest'))?.name, 'gtest');
  t.equal(readManifest(path.join(GOOGLETEST, 'googlemock'))?.name, 'gmock');
  t.equal(readManifest(GOOGLETEST)?.name, 'googletest-distribution');
  t.equal(readManifest(RXJS)?.name, 'rxjs');
  t.equal(readManifest(ZOD)?.name, 'zod');
});

t.test('the nearest manifest above a file wins; else the top-level directory; at the root, the workspace name', async (t) => {
  const root = path.join(tempDir(t), 'shop');
  mkdirSync(path.join(root, 'services/payments/src/deep'), { recursive: true });
  mkdirSync(path.join(root, 'tools/scripts'), { recursive: true });
  writeFileSync(path.join(root, 'services/payments/package.json'), JSON.stringify({ name: '@shop/payments' }));
  writeFileSync(path.join(root, 'services/payments/src/deep/package.json'), JSON.stringify({ type: 'module' }));
  const resolver = new PackageResolver();
  const stored = (dir: string): string => path.relative(root, dir) || '.';
  const pkg = (file: string) => resolver.packageOf(path.join(root, file), root, false, stored);
  t.match(pkg('services/payments/src/deep/pay.ts'), { name: '@shop/payments', path: 'services/payments', manifest: 'package.json' }, 'a nameless package.json is skipped');
  t.match(pkg('tools/scripts/run.py'), { name: 'tools', path: 'tools', manifest: null });
  t.match(pkg('main.c'), { name: 'shop', path: '.', manifest: null });
});
