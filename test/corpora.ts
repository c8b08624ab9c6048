/**
 * Every piece of real code the tests read, and the tools they run, in one table: where it is and
 * what puts it there. `scripts/setup.sh --test` (the README's test set-up) installs all of it, the
 * Debian packages through its own list and scripts/test-corpora.txt, the npm ones as dependencies.
 *
 * A test names what it needs with `requireCorpora(t, ...)`: a missing corpus FAILS with the path and
 * the package, it does not skip, since a skip would hide a broken set-up.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const REPO = path.resolve(import.meta.dirname, '..');
const NODE_MODULES = path.join(REPO, 'node_modules');

interface Corpus {
  /** Where it is; a resolver returns undefined when nothing is found. */
  path: string | (() => string | undefined);
  /** How to name the place in a message when the resolver finds nothing (a pattern such as /usr/share/go-1.*). */
  where?: string;
  installedBy: Source;
}

/**
 * What installs it: a Debian package (scripts/setup.sh --test asks apt for it, from its own list or
 * scripts/test-corpora.txt), an npm dependency (package.json), or something outside the set-up.
 */
export type Source = { apt: string; note?: string } | { npm: string; dev: boolean } | { other: string };

interface Tool {
  /** The command, found on PATH. */
  command: string;
  /** Whether the command on PATH is the right one (`universal-ctags`, not another ctags). */
  works: () => boolean;
  installedBy: Source;
}

/** The directory entries of `dir` matching `pattern`, highest version (numeric, dot by dot) first. */
function newest(dir: string, pattern: RegExp): string | undefined {
  let names: string[];
  try {
    names = readdirSync(dir).filter((name) => pattern.test(name));
  } catch {
    return undefined;
  }
  const version = (name: string): number[] => (name.match(/\d+/g) ?? []).map(Number);
  names.sort((a, b) => {
    const [x, y] = [version(a), version(b)];
    for (let i = 0; i < Math.max(x.length, y.length); i++) if ((x[i] ?? -1) !== (y[i] ?? -1)) return (y[i] ?? -1) - (x[i] ?? -1);
    return 0;
  });
  return names[0] === undefined ? undefined : path.join(dir, names[0]);
}

const within = (found: string | undefined, ...rest: string[]): string | undefined => (found ? path.join(found, ...rest) : undefined);

const apt = (pkg: string, note?: string): Source => ({ apt: pkg, ...(note ? { note } : {}) });
const npm = (pkg: string, dev = true): Source => ({ npm: pkg, dev });

/** How to get it, as a failure message ends. */
function howToInstall(source: Source): string {
  if ('other' in source) return `it comes with ${source.other}`;
  const what = 'apt' in source ? `Debian package ${source.apt}${source.note ? `, ${source.note}` : ''}` : `npm ${source.dev ? 'devDependency' : 'dependency'} ${source.npm}`;
  return `scripts/setup.sh --test installs it (${what})`;
}

export const CORPORA = {
  /** C++ (a cmake project): clangd, the index, forward declarations, C++ recall. */
  googletest: { path: '/usr/src/googletest', installedBy: apt('googletest') },
  /** Python: pyright, the index, Python recall. */
  flask: { path: '/usr/lib/python3/dist-packages/flask', installedBy: apt('python3-flask') },
  /** The newest Python standard library (/usr/lib/python3.N). */
  'python-stdlib': { path: () => newest('/usr/lib', /^python3\.\d+$/), where: '/usr/lib/python3.*', installedBy: apt('python3-flask', 'through its dependency python3') },
  /** The newest Go tree (src/ is the standard library; runtime/cgo and misc/cgo carry C). */
  go: { path: () => newest('/usr/share', /^go-1\.\d+$/), where: '/usr/share/go-1.*', installedBy: apt('golang-src') },
  /** The JDK's sources. */
  'jdk-src': {
    path: () => ['openjdk-17', 'java-17-openjdk-amd64', 'java-17-openjdk-arm64'].map((jdk) => `/usr/lib/jvm/${jdk}/lib/src.zip`).find((zip) => existsSync(zip)),
    where: '/usr/lib/jvm/openjdk-17/lib/src.zip',
    installedBy: apt('openjdk-17-source'),
  },
  /** Rust crates' sources, the newest version of each. */
  'crate-regex': { path: () => within(newest('/usr/share/cargo/registry', /^regex-\d/), 'src'), where: '/usr/share/cargo/registry/regex-*/src', installedBy: apt('librust-regex-dev') },
  'crate-regex-syntax': { path: () => within(newest('/usr/share/cargo/registry', /^regex-syntax-\d/), 'src'), where: '/usr/share/cargo/registry/regex-syntax-*/src', installedBy: apt('librust-regex-dev') },
  'crate-anyhow': { path: () => within(newest('/usr/share/cargo/registry', /^anyhow-\d/), 'src'), where: '/usr/share/cargo/registry/anyhow-*/src', installedBy: apt('librust-anyhow-dev') },
  /** The newest libstdc++ headers' bits/ (macros and #if everywhere). */
  libstdcxx: { path: () => within(newest('/usr/include/c++', /^\d+$/), 'bits'), where: '/usr/include/c++/*/bits', installedBy: apt('libstdc++-12-dev') },
  /** Debian's Linux kernel source tarball: tests take slices of it out once (linuxSource), the bench the whole tree. */
  'linux-source': { path: () => newest('/usr/src', /^linux-source-6\.\d+\.tar\.xz$/), where: '/usr/src/linux-source-6.1.tar.xz', installedBy: apt('linux-source-6.1') },
  /** TypeScript packages (their src/ is what the tests read). */
  rxjs: { path: path.join(NODE_MODULES, 'rxjs'), installedBy: npm('rxjs') },
  zod: { path: path.join(NODE_MODULES, 'zod'), installedBy: npm('zod') },
  '@types/node': { path: path.join(NODE_MODULES, '@types/node'), installedBy: npm('@types/node') },
  /** JavaScript (CommonJS): fastify's lib/. */
  fastify: { path: path.join(NODE_MODULES, 'fastify'), installedBy: npm('fastify', false) },
  /** The one real C# file at hand; the C# recall test reads it when there, besides its fixtures (no test requires it). */
  'node-gyp-cs': {
    path: () => ['/usr/lib', '/usr/local/lib'].map((lib) => `${lib}/node_modules/npm/node_modules/node-gyp/lib/Find-VisualStudio.cs`).find((file) => existsSync(file)),
    where: '/usr/lib/node_modules/npm/node_modules/node-gyp/lib/Find-VisualStudio.cs',
    installedBy: { other: 'the npm that comes with Node.js' },
  },
} satisfies Record<string, Corpus>;

export const TOOLS = {
  /** The recall tests compare against universal-ctags' JSON output. */
  ctags: {
    command: 'ctags',
    works: () => /Universal Ctags/.test(spawnSync('ctags', ['--version'], { encoding: 'utf8' }).stdout ?? ''),
    installedBy: apt('universal-ctags'),
  },
  /** The Java recall test takes part of the JDK's src.zip out with it. */
  unzip: { command: 'unzip', works: () => spawnSync('unzip', ['-v']).status === 0, installedBy: apt('unzip') },
  /** The kernel tarball is xz-compressed. */
  xz: { command: 'xz', works: () => spawnSync('xz', ['--version']).status === 0, installedBy: apt('xz-utils') },
  /** googletest's compile database comes from cmake. */
  cmake: { command: 'cmake', works: () => spawnSync('cmake', ['--version']).status === 0, installedBy: apt('cmake') },
} satisfies Record<string, Tool>;

export type CorpusName = keyof typeof CORPORA;
export type ToolName = keyof typeof TOOLS;

/** Where a corpus is; when a resolver finds nothing, the place it looked (which does not exist). */
export function corpusPath(name: CorpusName): string {
  const corpus: Corpus = CORPORA[name];
  return typeof corpus.path === 'string' ? corpus.path : corpus.path() ?? corpus.where ?? name;
}

const toolWorks = new Map<ToolName, boolean>();

/** Why `name` is not there, or undefined when it is. */
export function missingReason(name: CorpusName | ToolName): string | undefined {
  if (name in TOOLS) {
    const tool: Tool = TOOLS[name as ToolName];
    if (!toolWorks.has(name as ToolName)) toolWorks.set(name as ToolName, tool.works());
    if (toolWorks.get(name as ToolName)) return undefined;
    return `missing test tool: ${tool.command} on PATH — ${howToInstall(tool.installedBy)}`;
  }
  const where = corpusPath(name as CorpusName);
  if (existsSync(where)) return undefined;
  return `missing test corpus: ${name} at ${where} — ${howToInstall((CORPORA[name as CorpusName] as Corpus).installedBy)}`;
}

/**
 * Whether every corpus and tool named is there; each one that is not is a failure of `t` naming
 * its path and the package that installs it. Use: `if (!requireCorpora(t, 'ctags', 'go')) return;`
 */
export function requireCorpora(t: { fail(message: string): unknown }, ...names: Array<CorpusName | ToolName>): boolean {
  let ok = true;
  for (const name of names) {
    const why = missingReason(name);
    if (why) {
      t.fail(why);
      ok = false;
    }
  }
  return ok;
}

export const GOOGLETEST = corpusPath('googletest');
export const FLASK = corpusPath('flask');
export const RXJS = corpusPath('rxjs');
export const ZOD = corpusPath('zod');
export const RXJS_SRC = path.join(RXJS, 'src');

/**
 * The kernel slices the C recall tests read: its core (mm/, kernel/), its most included headers, a file
 * system, a networking subsystem, and the generated register headers (a few of them over 16 MB of #defines).
 */
export const LINUX_SLICES = ['mm', 'kernel', 'include/linux', 'fs/ext4', 'net/netfilter', 'drivers/gpu/drm/amd/include/asic_reg'];

/**
 * The Linux tree from the 'linux-source' tarball, extracted once into `into` (by default a directory in the
 * temp dir, kept between runs like any cache), with only `members` (tree-relative paths; all when none).
 * Made beside and renamed into place, so processes starting together never see half of it. The tree's
 * .gitignore ends with Debian's `/*` and `!/debian/`, which would ignore all of it: those two lines go.
 */
export function linuxSource(members: string[] = LINUX_SLICES, into?: string): string {
  const tarball = corpusPath('linux-source');
  const version = path.basename(tarball).replace(/\.tar\.xz$/, '');
  const name = members.length ? `${version}-${createSliceTag(members)}` : version;
  const dest = into ?? path.join(os.tmpdir(), `plumb-test-${name}-${process.getuid?.() ?? 0}`);
  const stamp = path.join(dest, '.plumb-extracted');
  if (existsSync(stamp)) return dest;
  const parent = path.dirname(dest);
  mkdirSync(parent, { recursive: true });
  const fresh = mkdtempSync(path.join(parent, `.${path.basename(dest)}-`));
  try {
    const wanted = members.length ? [`${version}/.gitignore`, ...members.map((member) => `${version}/${member}`)] : [];
    const tar = spawnSync('tar', ['-xJf', tarball, '-C', fresh, '--strip-components=1', ...wanted], { encoding: 'utf8', maxBuffer: 1 << 26 });
    if (tar.status !== 0) throw new Error(`tar -xJf ${tarball} failed: ${tar.stderr}`);
    const gitignore = path.join(fresh, '.gitignore');
    if (existsSync(gitignore)) {
      const lines = readFileSync(gitignore, 'utf8').split('\n').filter((line) => line !== '/*' && line !== '!/debian/');
      writeFileSync(gitignore, lines.join('\n'));
    }
    writeFileSync(path.join(fresh, '.plumb-extracted'), `${members.join('\n')}\n`);
    rmSync(dest, { recursive: true, force: true });
    renameSync(fresh, dest);
  } catch (error) {
    rmSync(fresh, { recursive: true, force: true });
    // Another process put one there first: use it.
    if (existsSync(stamp)) return dest;
    throw error;
  }
  return dest;
}

/** A short name for a set of slices (the default set is 'slices'). */
function createSliceTag(members: string[]): string {
  if (members.join() === LINUX_SLICES.join()) return 'slices';
  return members.map((member) => member.replace(/[^\w]+/g, '_')).join('+').slice(0, 80);
}
