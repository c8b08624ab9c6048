import { existsSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Value } from 'typebox/value';
import { PlumbConfig } from '../schemas/config.js';

export type { PlumbConfig } from '../schemas/config.js';

export class ConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ConfigError';
  }
}

/** Environment variables that override the config file, and the field each sets. */
export const ENV_OVERRIDES: Record<string, { field: string; parse: (raw: string) => unknown }> = {
  PLUMB_HOST: { field: 'host', parse: (raw) => raw },
  PLUMB_PORT: { field: 'port', parse: (raw) => (/^\d+$/.test(raw) ? Number(raw) : raw) },
  PLUMB_LOG_LEVEL: { field: 'logLevel', parse: (raw) => raw },
  PLUMB_CACHE_DIR: { field: 'cacheDir', parse: (raw) => raw },
  PLUMB_TOKEN: { field: 'token', parse: (raw) => raw },
  PLUMB_ALLOW_UNPROTECTED: { field: 'allowUnprotected', parse: (raw) => raw === '1' || raw === 'true' },
  PLUMB_STORE: { field: 'store', parse: (raw) => raw },
  PLUMB_WORKSPACE: { field: 'workspace', parse: (raw) => raw },
};

export interface LoadConfigOptions {
  root: string;
  /** --config; otherwise ROOT/plumb.json when it exists. */
  configPath?: string;
  env?: NodeJS.ProcessEnv;
  /** Values from command-line flags: they win over the file and the environment. */
  overrides?: Partial<Record<'host' | 'port' | 'logLevel' | 'cacheDir' | 'store' | 'workspace' | 'readOnly', unknown>>;
}

/**
 * Reads plumb.json (or --config), applies environment and flag overrides, fills defaults and
 * validates against the schema. A bad config throws ConfigError naming the field and what is allowed.
 */
export function loadConfig(options: LoadConfigOptions): PlumbConfig {
  const env = options.env ?? process.env;
  const file = options.configPath ? path.resolve(options.configPath) : path.join(options.root, 'plumb.json');
  let raw: Record<string, unknown> = {};
  const fromFile = Boolean(options.configPath) || existsSync(file);
  /** Where each overridden field came from, so an error names the variable or flag, not the file. */
  const origins: Record<string, string> = {};
  if (fromFile) {
    let text: string;
    try {
      text = readFileSync(file, 'utf8');
    } catch {
      throw new ConfigError(`Config file '${file}' cannot be read`);
    }
    try {
      raw = JSON.parse(text);
    } catch (error) {
      throw new ConfigError(`Config file '${file}' is not valid JSON: ${(error as Error).message}`);
    }
    if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) throw new ConfigError(`Config file '${file}' must hold a JSON object`);
  }
  for (const [name, { field, parse }] of Object.entries(ENV_OVERRIDES)) {
    const value = env[name];
    if (value !== undefined && value !== '') {
      raw[field] = parse(value);
      origins[field] = `the environment variable ${name}`;
    }
  }
  for (const [field, value] of Object.entries(options.overrides ?? {})) {
    if (value !== undefined) {
      raw[field] = value;
      origins[field] = `the command-line option --${field.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}`;
    }
  }
  return validateConfig(raw, fromFile ? file : 'configuration', origins);
}

/** `source` names the config file (or `configuration` when there is none); `origins` the fields set elsewhere. */
export function validateConfig(raw: unknown, source = 'config', origins: Record<string, string> = {}): PlumbConfig {
  const withDefaults = Value.Default(PlumbConfig, Value.Clone(raw));
  if (Value.Check(PlumbConfig, withDefaults)) {
    if (withDefaults.readOnly && !withDefaults.store) {
      const origin = origins.readOnly ? ` (set by ${origins.readOnly})` : '';
      throw new ConfigError(`Invalid ${source}:\n  readOnly${origin}: a read-only replica needs a shared store: set store (--store postgres://user@host:port/db, PLUMB_STORE)`);
    }
    return withDefaults;
  }
  const problems = [...Value.Errors(PlumbConfig, withDefaults)]
    // The additionalProperties error says which key; its 'schema is false' twin adds nothing.
    .filter((error) => error.keyword !== 'boolean')
    .slice(0, 5)
    .map((error) => {
      const origin = origins[error.instancePath.split('/')[1] ?? ''];
      return `${describeConfigError(error)}${origin ? ` (set by ${origin})` : ''}`;
    });
  throw new ConfigError(`Invalid ${source}:\n  ${problems.join('\n  ')}`);
}

interface SchemaError {
  keyword: string;
  instancePath: string;
  params: Record<string, unknown>;
  message: string;
}

function describeConfigError(error: SchemaError): string {
  const field = error.instancePath.replace(/^\//, '').split('/').join('.') || '(top level)';
  if (error.keyword === 'additionalProperties') {
    const extra = (error.params.additionalProperties as string[] | undefined) ?? [];
    return `${field}: unknown field${extra.length > 1 ? 's' : ''} ${extra.map((k) => `'${k}'`).join(', ')}`;
  }
  if (error.keyword === 'pattern' && field === 'store') return `${field}: must be a PostgreSQL URL, postgres://user:password@host:port/database`;
  if (error.keyword === 'enum' && Array.isArray(error.params.allowedValues)) {
    return `${field}: must be one of ${error.params.allowedValues.join(', ')}`;
  }
  return `${field}: ${error.message}`;
}

/** plumb's cache directory: config, else $XDG_CACHE_HOME/plumb, else ~/.cache/plumb. */
export function cacheDirectory(config: PlumbConfig, env: NodeJS.ProcessEnv = process.env): string {
  if (config.cacheDir) return path.resolve(config.cacheDir);
  const base = env.XDG_CACHE_HOME && path.isAbsolute(env.XDG_CACHE_HOME) ? env.XDG_CACHE_HOME : path.join(os.homedir(), '.cache');
  return path.join(base, 'plumb');
}

/** Host names compare without case (`LOCALHOST`); addresses have none. */
export function isLoopback(host: string): boolean {
  const name = host.toLowerCase();
  return name === 'localhost' || name === '::1' || name === '[::1]' || /^127\.\d+\.\d+\.\d+$/.test(name);
}
