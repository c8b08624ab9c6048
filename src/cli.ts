#!/usr/bin/env node
import { existsSync, statSync } from 'node:fs';
import path from 'node:path';
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { ConfigError, isLoopback, loadConfig, type PlumbConfig } from './config.js';
import { VERSION } from './version.js';

const MAIN_HELP = `plumb ${VERSION} — solution-wide code navigation over HTTP and MCP

Usage:
  plumb serve [ROOT] [options]   Serve the workspace at ROOT (default: the current directory)
  plumb mcp [ROOT] [options]     Serve the same workspace's MCP tools over stdio, for MCP clients
                                 that start their servers as processes
  plumb index [ROOT] [options]   Build or update the symbol index of ROOT, with a progress bar,
                                 and print its counts per language
  plumb --help                   This text; 'plumb COMMAND --help' lists a command's options
  plumb --version                The version

Configuration: ROOT/plumb.json (or --config FILE), then environment variables
(PLUMB_HOST, PLUMB_PORT, PLUMB_LOG_LEVEL, PLUMB_CACHE_DIR, PLUMB_TOKEN, PLUMB_ALLOW_UNPROTECTED,
PLUMB_STORE, PLUMB_WORKSPACE), then command-line flags, each overriding the one before.

A team shares one index in PostgreSQL: 'plumb index ROOT --store URL' (or 'plumb serve ROOT
--store URL') writes it, any number of 'plumb serve ROOT --store URL --read-only' answer from it.
`;

const SERVE_HELP = `Usage: plumb serve [ROOT] [options]

Serves the workspace at ROOT (default: the current directory) over HTTP: the REST
endpoints (/outline, /children, /status, ...) and the OpenAPI description at /openapi.json.

Options:
  --host HOST         Address to listen on (default 127.0.0.1)
  --port PORT         TCP port (default 7077; 0 picks a free one)
  --config FILE       Config file (default ROOT/plumb.json when it exists)
  --log-level LEVEL   fatal, error, warn, info (default), debug, trace or silent
  --cache-dir DIR     Where plumb keeps its index and compile databases
                      (default $XDG_CACHE_HOME/plumb or ~/.cache/plumb)
  --allow-unprotected Listen on a non-loopback address without a token
  --store URL         Keep the index in a shared PostgreSQL store (postgres://user@host:port/db)
                      instead of SQLite in the cache directory
  --workspace NAME    This workspace's key in the shared store (default: the real path of ROOT)
  --read-only         Serve as a replica of the shared store: build and watch nothing, answer
                      from what the writer commits (needs --store)
  -h, --help          This text
`;

const MCP_HELP = `Usage: plumb mcp [ROOT] [options]

Serves the MCP tools of the workspace at ROOT (default: the current directory) over
stdio: JSON-RPC on stdin and stdout, logs on stderr. The same tools as /mcp of
'plumb serve'. For a client's config: {"command": "plumb", "args": ["mcp", "/path/to/repo"]}.

Options:
  --config FILE       Config file (default ROOT/plumb.json when it exists)
  --log-level LEVEL   fatal, error, warn (default here), info, debug, trace or silent
  --cache-dir DIR     Where plumb keeps its index and compile databases
                      (default $XDG_CACHE_HOME/plumb or ~/.cache/plumb)
  --store URL         Keep the index in a shared PostgreSQL store (postgres://user@host:port/db)
                      instead of SQLite in the cache directory
  --workspace NAME    This workspace's key in the shared store (default: the real path of ROOT)
  -h, --help          This text
`;

const INDEX_HELP = `Usage: plumb index [ROOT] [options]

Builds the symbol index of the workspace at ROOT (default: the current directory), or brings
it up to date: unchanged files are skipped. Shows progress on stderr, then prints files and
symbols per language. 'plumb serve' uses the same index and keeps it fresh. A build the store
cuts short (unreachable, past its deadline, an SQLite database locked by another process) starts
again from what it committed, up to 5 times in all, saying so on stderr.

Options:
  --config FILE       Config file (default ROOT/plumb.json when it exists): index.include,
                      index.exclude, index.extraRoots, index.workers
  --log-level LEVEL   fatal, error, warn, info (default), debug, trace or silent
  --cache-dir DIR     Where plumb keeps its index (default $XDG_CACHE_HOME/plumb or ~/.cache/plumb)
  --store URL         Keep the index in a shared PostgreSQL store (postgres://user@host:port/db)
                      instead of SQLite in the cache directory
  --workspace NAME    This workspace's key in the shared store (default: the real path of ROOT)
  -h, --help          This text
`;

const MCP_OPTIONS = {
  config: { type: 'string' },
  'log-level': { type: 'string' },
  'cache-dir': { type: 'string' },
  store: { type: 'string' },
  workspace: { type: 'string' },
  help: { type: 'boolean', short: 'h' },
} satisfies ParseArgsConfig['options'];

const SERVE_OPTIONS = {
  host: { type: 'string' },
  port: { type: 'string' },
  config: { type: 'string' },
  'log-level': { type: 'string' },
  'cache-dir': { type: 'string' },
  'allow-unprotected': { type: 'boolean' },
  store: { type: 'string' },
  workspace: { type: 'string' },
  'read-only': { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
} satisfies ParseArgsConfig['options'];

class UsageError extends Error {}

async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  if (command === undefined || command === '--help' || command === '-h' || command === 'help') {
    process.stdout.write(MAIN_HELP);
    return command === undefined ? 2 : 0;
  }
  if (command === '--version' || command === '-v') {
    process.stdout.write(`${VERSION}\n`);
    return 0;
  }
  try {
    if (command === 'serve') return await serve(rest);
    if (command === 'mcp') return await mcp(rest);
    if (command === 'index') return await buildIndex(rest);
    throw new UsageError(`unknown command '${command}'; see 'plumb --help'`);
  } catch (error) {
    if (error instanceof ConfigError || error instanceof UsageError) {
      process.stderr.write(`plumb: ${error.message}\n`);
      return 2;
    }
    throw error;
  }
}

interface CommonArgs {
  root: string;
  config: PlumbConfig;
  values: Record<string, string | boolean | undefined>;
}

function parseCommon(args: string[], help: string, options: typeof MCP_OPTIONS | typeof SERVE_OPTIONS = SERVE_OPTIONS): CommonArgs | undefined {
  let parsed;
  try {
    // MCP_OPTIONS is a subset of SERVE_OPTIONS: the flags it lacks are rejected by strict parsing and read as undefined.
    parsed = parseArgs({ args, options: options as typeof SERVE_OPTIONS, allowPositionals: true, strict: true });
  } catch (error) {
    throw new UsageError(`${(error as Error).message}\n\n${help}`);
  }
  const { values, positionals } = parsed;
  if (values.help) {
    process.stdout.write(help);
    return undefined;
  }
  if (positionals.length > 1) throw new UsageError(`expected at most one ROOT, got ${positionals.length}: ${positionals.join(' ')}`);
  const root = path.resolve(positionals[0] ?? '.');
  if (!existsSync(root) || !statSync(root).isDirectory()) throw new UsageError(`ROOT '${root}' is not a directory`);
  if (values.port !== undefined && !/^\d+$/.test(values.port)) throw new UsageError(`--port must be a number from 0 to 65535, got '${values.port}'`);
  const config = loadConfig({
    root,
    configPath: values.config,
    overrides: {
      host: values.host,
      port: values.port === undefined ? undefined : Number(values.port),
      logLevel: values['log-level'],
      cacheDir: values['cache-dir'],
      store: values.store,
      workspace: values.workspace,
      ...(values['allow-unprotected'] ? { allowUnprotected: true } : {}),
      ...(values['read-only'] ? { readOnly: true } : {}),
    },
  });
  return { root, config, values };
}

async function serve(args: string[]): Promise<number> {
  const common = parseCommon(args, SERVE_HELP);
  if (!common) return 0;
  const { root, config } = common;
  if (!isLoopback(config.host) && !config.token && !config.allowUnprotected) {
    throw new UsageError(`refusing to listen on ${config.host} without a token: set PLUMB_TOKEN (or "token" in plumb.json), or pass --allow-unprotected to serve anyone who can reach this address`);
  }
  const { buildApp } = await import('./app.js');
  const app = await buildApp({ root, config });
  let closing = false;
  const stop = (signal: string): void => {
    if (closing) return;
    closing = true;
    app.log.info({ signal }, 'shutting down');
    const force = setTimeout(() => process.exit(1), 10_000);
    force.unref();
    app.close().then(() => process.exit(0), () => process.exit(1));
  };
  process.once('SIGINT', () => stop('SIGINT'));
  process.once('SIGTERM', () => stop('SIGTERM'));
  await app.listen({ host: config.host, port: config.port });
  app.log.info(`plumb serving ${root}; API description at /openapi.json`);
  return -1;
}

async function mcp(args: string[]): Promise<number> {
  const common = parseCommon(args, MCP_HELP, MCP_OPTIONS);
  if (!common) return 0;
  const { root, config } = common;
  const { createServices } = await import('./services.js');
  const { serveMcpOverStdio } = await import('./mcp/stdio.js');
  const { pino } = await import('pino');
  // stdout carries the protocol: logs go to stderr, quieter unless asked.
  const level = common.values['log-level'] === undefined && !process.env.PLUMB_LOG_LEVEL ? 'warn' : config.logLevel;
  const services = await createServices({ root, config, logger: pino({ level }, pino.destination(2)) });
  await serveMcpOverStdio(services);
  return -1;
}

async function buildIndex(args: string[]): Promise<number> {
  const common = parseCommon(args, INDEX_HELP, MCP_OPTIONS);
  if (!common) return 0;
  const { runIndexCommand } = await import('./index/cli-command.js');
  return runIndexCommand(common.root, common.config);
}

main(process.argv.slice(2)).then(
  (code) => {
    // -1: a server is running and ends on a signal.
    if (code >= 0) process.exitCode = code;
  },
  (error: unknown) => {
    process.stderr.write(`plumb: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exitCode = 1;
  },
);
