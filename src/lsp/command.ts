import { accessSync, constants, existsSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import type { CommandSource } from '../languages/types.js';

/** A server command ready to spawn. */
export interface ResolvedCommand {
  executable: string;
  /** Arguments before the descriptor's own (the script path for Node scripts). */
  prefixArgs: string[];
}

const require = createRequire(import.meta.url);

/** Short name for messages: "clangd-19", "pyright-langserver", "tsc". */
export function commandDisplayName(source: CommandSource): string {
  return source.kind === 'path' ? source.names[0] : source.display;
}

/** Finds the executable a command source names; undefined when it is not installed. */
export function resolveCommand(source: CommandSource, env: NodeJS.ProcessEnv = process.env): ResolvedCommand | undefined {
  switch (source.kind) {
    case 'path': {
      for (const name of source.names) {
        const found = findExecutable(name, env);
        if (found) return { executable: found, prefixArgs: [] };
      }
      return undefined;
    }
    case 'node-script': {
      const packageDir = resolvePackageDir(source.package);
      const script = packageDir && path.join(packageDir, source.script);
      return script && existsSync(script) ? { executable: process.execPath, prefixArgs: [script] } : undefined;
    }
    case 'platform-binary': {
      const packageDir = resolvePackageDir(source.package);
      if (!packageDir) return undefined;
      const platformPackage = source.platformPackage.replace('{platform}', process.platform).replace('{arch}', process.arch);
      // The platform package is the main package's optional dependency, so resolve it from there.
      const platformDir = resolvePackageDir(platformPackage, path.join(packageDir, 'package.json'));
      const binary = platformDir && path.join(platformDir, process.platform === 'win32' ? `${source.file}.exe` : source.file);
      return binary && isExecutable(binary) ? { executable: binary, prefixArgs: [] } : undefined;
    }
  }
}

function resolvePackageDir(name: string, from?: string): string | undefined {
  try {
    const resolver = from ? createRequire(from) : require;
    return path.dirname(resolver.resolve(`${name}/package.json`));
  } catch {
    return undefined;
  }
}

/** PATH lookup like `which`; a name with a slash is taken as a path. */
export function findExecutable(name: string, env: NodeJS.ProcessEnv = process.env): string | undefined {
  if (name.includes('/') || name.includes(path.sep)) return isExecutable(path.resolve(name)) ? path.resolve(name) : undefined;
  for (const directory of (env.PATH ?? '').split(path.delimiter)) {
    if (!directory) continue;
    const candidate = path.join(directory, name);
    if (isExecutable(candidate)) return candidate;
  }
  return undefined;
}

function isExecutable(file: string): boolean {
  try {
    accessSync(file, constants.X_OK);
    return statSync(file).isFile();
  } catch {
    return false;
  }
}
