/**
 * Package names from manifests: the nearest manifest above a file names its package; a file with
 * none takes the top-level directory's name (the workspace's own name at the root).
 */
import { closeSync, constants, openSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { PackageRef } from './store.js';
import { isInside } from '../workspace.js';

export interface Manifest {
  name: string;
  /** The manifest's file name. */
  file: string;
}

/** File names that are manifests (by exact name); `*.csproj` and `*.Build.cs` are matched by suffix. */
const MANIFEST_FILES = ['package.json', 'go.mod', 'Cargo.toml', 'pyproject.toml', 'setup.cfg', 'pom.xml', 'CMakeLists.txt'];

export function isManifestFile(fileName: string): boolean {
  return MANIFEST_FILES.includes(fileName) || fileName.endsWith('.csproj') || fileName.endsWith('.Build.cs');
}

/** Reads the package a directory's manifest declares; undefined when it has none that names one. */
export function readManifest(directory: string, entries?: readonly string[]): Manifest | undefined {
  let names: readonly string[];
  try {
    names = entries ?? readdirSync(directory);
  } catch {
    return undefined;
  }
  // Language-specific manifests first: a package.json next to a pyproject.toml usually only holds tooling.
  const ordered = [...names].filter(isManifestFile).sort((a, b) => manifestPriority(a) - manifestPriority(b));
  for (const file of ordered) {
    let name: string | undefined;
    try {
      name = manifestName(file, readText(path.join(directory, file)));
    } catch {
      name = undefined;
    }
    if (name) return { name, file };
  }
  return undefined;
}

function manifestPriority(file: string): number {
  if (file.endsWith('.Build.cs')) return 0;
  if (file.endsWith('.csproj')) return 1;
  const order = ['go.mod', 'Cargo.toml', 'pyproject.toml', 'setup.cfg', 'pom.xml', 'package.json', 'CMakeLists.txt'];
  return 2 + order.indexOf(file);
}

function readText(file: string): string {
  // Manifests are small; a huge one is not a manifest worth parsing.
  // Not through a link: a manifest linked to a file outside the workspace would name a package by that file.
  const fd = openSync(file, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  let text: string;
  try {
    text = readFileSync(fd, 'utf8');
  } finally {
    closeSync(fd);
  }
  return text.length > 1_000_000 ? '' : text;
}

/** The package name a manifest's text declares, by the manifest's kind. */
export function manifestName(file: string, text: string): string | undefined {
  if (file.endsWith('.Build.cs')) return file.slice(0, -'.Build.cs'.length) || undefined;
  if (file.endsWith('.csproj')) return /<AssemblyName>\s*([^<\s]+)\s*<\/AssemblyName>/.exec(text)?.[1] ?? (file.slice(0, -'.csproj'.length) || undefined);
  switch (file) {
    case 'package.json': {
      const parsed: unknown = JSON.parse(text);
      const name = parsed && typeof parsed === 'object' ? (parsed as { name?: unknown }).name : undefined;
      return typeof name === 'string' && name.trim() !== '' ? name.trim() : undefined;
    }
    case 'go.mod':
      return /^\s*module\s+("?)([^\s"]+)\1/m.exec(text)?.[2];
    case 'Cargo.toml':
      return tomlString(text, 'package', 'name');
    case 'pyproject.toml':
      return tomlString(text, 'project', 'name') ?? tomlString(text, 'tool.poetry', 'name');
    case 'setup.cfg':
      return iniValue(text, 'metadata', 'name');
    case 'pom.xml':
      return pomArtifactId(text);
    case 'CMakeLists.txt':
      return /^\s*project\s*\(\s*("?)([A-Za-z0-9_.+-]+)\1/im.exec(stripCmakeComments(text))?.[2];
    default:
      return undefined;
  }
}

/** `key = "value"` inside `[table]` of a TOML file (enough for manifest names). */
function tomlString(text: string, table: string, key: string): string | undefined {
  const pattern = new RegExp(`^${key.replace(/\./g, '\\.')}\\s*=\\s*(?:"([^"]*)"|'([^']*)')`);
  for (const line of sectionLines(text, table)) {
    const match = pattern.exec(line);
    if (match) return (match[1] ?? match[2]).trim() || undefined;
  }
  return undefined;
}

/** `key = value` or `key: value` inside `[section]` of an INI file (setup.cfg). */
function iniValue(text: string, section: string, key: string): string | undefined {
  const pattern = new RegExp(`^${key}\\s*[=:]\\s*(.+)$`);
  for (const line of sectionLines(text, section)) {
    const match = pattern.exec(line);
    if (match) return match[1].trim() || undefined;
  }
  return undefined;
}

/** The trimmed lines under a `[section]` header of a TOML or INI file. */
function* sectionLines(text: string, section: string): Generator<string> {
  let current = '';
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.trim();
    const header = /^\[\s*([^\]]+?)\s*\]$/.exec(line);
    if (header) current = header[1];
    else if (current === section) yield line;
  }
}

/** The project's own artifactId: the first one outside <parent>, <dependencies>, <build> and the like. */
function pomArtifactId(text: string): string | undefined {
  const withoutComments = text.replace(/<!--[\s\S]*?-->/g, '');
  const stripped = withoutComments.replace(/<(parent|dependencies|dependencyManagement|build|plugins|profiles|reporting|modules)\b[\s\S]*?<\/\1>/g, '');
  return /<artifactId>\s*([^<\s]+)\s*<\/artifactId>/.exec(stripped)?.[1];
}

function stripCmakeComments(text: string): string {
  return text.replace(/#[^\n]*/g, '');
}

/**
 * Resolves files to packages, reading each directory's manifest once. Directories are absolute;
 * `top` is the root the file was found under (the workspace or an extra root).
 */
export class PackageResolver {
  private readonly byDirectory = new Map<string, { manifest?: Manifest; directory: string } | null>();

  /** The package of a file under `top`; `stored` turns an absolute directory into the stored path form. */
  packageOf(absoluteFile: string, top: string, external: boolean, stored: (absoluteDir: string) => string): PackageRef {
    const found = this.nearest(path.dirname(absoluteFile), top);
    if (found?.manifest) return { name: found.manifest.name, path: stored(found.directory), manifest: found.manifest.file, external };
    const relative = path.relative(top, absoluteFile).split(path.sep);
    if (relative.length <= 1) return { name: path.basename(top), path: stored(top), manifest: null, external };
    const topLevel = path.join(top, relative[0]);
    return { name: relative[0], path: stored(topLevel), manifest: null, external };
  }

  /** Records a directory's manifest from a listing the walker already has, sparing a readdir. */
  noteDirectory(directory: string, entries: readonly string[]): Manifest | undefined {
    if (this.byDirectory.has(directory)) return this.byDirectory.get(directory)?.manifest;
    const manifest = entries.some(isManifestFile) ? readManifest(directory, entries) : undefined;
    this.byDirectory.set(directory, manifest ? { manifest, directory } : null);
    return manifest;
  }

  private nearest(directory: string, top: string): { manifest?: Manifest; directory: string } | undefined {
    let current = directory;
    let found: { manifest?: Manifest; directory: string } | undefined;
    for (;;) {
      const cached = this.byDirectory.get(current);
      if (cached !== undefined) {
        if (cached) {
          found = cached;
          break;
        }
      } else {
        const manifest = readManifest(current);
        const entry = manifest ? { manifest, directory: current } : null;
        this.byDirectory.set(current, entry);
        if (entry) {
          found = entry;
          break;
        }
      }
      if (current === top || path.dirname(current) === current || !isInside(current, top)) break;
      current = path.dirname(current);
    }
    return found;
  }

  /** Forgets a directory's manifest (it changed on disk). */
  forget(directory: string): void {
    this.byDirectory.delete(directory);
  }
}
