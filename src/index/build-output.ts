/**
 * Build output among a tree's directories, told by what a build tool leaves there, never by a name alone: the
 * kernel's drivers/target, drivers/nvme/target, include/target and tools/build are sources. A directory is
 * build output when it holds a build tool's marker (CMakeCache.txt, a cache directory tag, .NET's
 * project.assets.json...), or its name is one a manifest beside it says its tool writes to (Cargo.toml's
 * target/, a .csproj's bin/ and obj/). `.gitignore` decides for itself (walker.ts); a directory with none of
 * these is walked, and holds nothing to index when it holds no sources.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';

/** Names build tools write their output under, which are source folder names too: build output only where something says so. */
export const BUILD_OUTPUT_NAMES: ReadonlySet<string> = new Set(['build', 'out', 'target', 'bin', 'obj', 'dist', 'coverage']);

interface Marker {
  /** A file or directory name the tool leaves in its output directory. */
  entry: string;
  what: string;
  /** It marks a directory of any name (otherwise only one of BUILD_OUTPUT_NAMES). */
  anyName?: boolean;
  /** Not when this is beside it too: CMake's in-source build leaves CMakeCache.txt beside CMakeLists.txt, among the sources. */
  unlessBeside?: string;
}

const MARKERS: readonly Marker[] = [
  // https://bford.info/cachedir/: Cargo's target/, and any tool's cache that follows the specification.
  { entry: 'CACHEDIR.TAG', what: 'a cache directory tag', anyName: true },
  { entry: 'CMakeCache.txt', what: 'a CMake build tree', anyName: true, unlessBeside: 'CMakeLists.txt' },
  { entry: 'CMakeFiles', what: 'a CMake build tree', unlessBeside: 'CMakeLists.txt' },
  { entry: 'build.ninja', what: 'a Ninja build tree (CMake, Meson, GN)' },
  { entry: 'meson-private', what: 'a Meson build tree' },
  { entry: 'config.status', what: 'an Autotools build tree' },
  { entry: 'project.assets.json', what: ".NET's obj directory" },
  { entry: 'maven-status', what: "Maven's target directory" },
  { entry: 'maven-archiver', what: "Maven's target directory" },
];

interface OutputBeside {
  manifest: RegExp;
  tool: string;
  /** The directory names its tool writes to beside it. */
  directories: readonly string[];
}

const OUTPUT_BESIDE: readonly OutputBeside[] = [
  { manifest: /^Cargo\.toml$/, tool: 'Cargo', directories: ['target'] },
  { manifest: /^pom\.xml$/, tool: 'Maven', directories: ['target'] },
  { manifest: /^build\.sbt$/, tool: 'sbt', directories: ['target'] },
  { manifest: /^(build|settings)\.gradle(\.kts)?$/, tool: 'Gradle', directories: ['build'] },
  { manifest: /\.(cs|fs|vb)proj$/, tool: 'MSBuild', directories: ['bin', 'obj'] },
  { manifest: /^package\.json$/, tool: 'npm', directories: ['dist', 'coverage'] },
  { manifest: /^(setup\.py|pyproject\.toml)$/, tool: 'Python packaging', directories: ['build', 'dist'] },
];

/** tsconfig.json's and jsconfig.json's compilerOptions.outDir: TypeScript writes there. */
const TS_CONFIGS = ['tsconfig.json', 'jsconfig.json'];

/**
 * Why a directory is build output, or undefined when it is not: `name` is its name, `entries` the names it holds,
 * `parent` its parent directory and `parentEntries` what that holds (read only when asked for).
 */
export function buildOutputReason(name: string, entries: readonly string[], parent: string, parentEntries: () => readonly string[]): string | undefined {
  const named = BUILD_OUTPUT_NAMES.has(name);
  const held = new Set(entries);
  for (const marker of MARKERS) {
    if (!held.has(marker.entry) || (!marker.anyName && !named) || (marker.unlessBeside && held.has(marker.unlessBeside))) continue;
    return `holds ${marker.entry}: ${marker.what}`;
  }
  if (!named) return undefined;
  const beside = parentEntries();
  for (const output of OUTPUT_BESIDE) {
    if (!output.directories.includes(name)) continue;
    const manifest = beside.find((entry) => output.manifest.test(entry));
    if (manifest) return `beside ${manifest}: ${output.tool} writes its output to ${name}/`;
  }
  for (const config of TS_CONFIGS) {
    if (beside.includes(config) && outDirOf(path.join(parent, config)) === name) return `${config} names it its outDir`;
  }
  return undefined;
}

/** Whether a file or directory of this name may decide that its directory is build output (the watcher asks again when one changes). */
export function mayMarkBuildOutput(name: string): boolean {
  return MARKERS.some((marker) => marker.entry === name || marker.unlessBeside === name) || OUTPUT_BESIDE.some((output) => output.manifest.test(name)) || TS_CONFIGS.includes(name);
}

/** The first segment of a TypeScript config's outDir when it is a directory beside the config (`./build/js` → build). */
function outDirOf(config: string): string | undefined {
  let text: string;
  try {
    text = readFileSync(config, 'utf8');
  } catch {
    return undefined;
  }
  // JSON with comments: the one field is found without parsing the rest (a config may not be valid JSON).
  const found = /"outDir"\s*:\s*"([^"]*)"/.exec(text.replace(/\/\*[\s\S]*?\*\/|(^|[^:"])\/\/.*$/gm, '$1'));
  if (!found) return undefined;
  const first = path.posix.normalize(found[1].replace(/\\/g, '/')).split('/')[0];
  return first && first !== '..' && first !== '.' ? first : undefined;
}
