import { spawn, type ChildProcess } from 'node:child_process';
import {
  createProtocolConnection,
  ExitNotification,
  ShutdownRequest,
  StreamMessageReader,
  StreamMessageWriter,
  type Message,
  type MessageWriter,
  type ProtocolConnection,
} from 'vscode-languageserver-protocol/node.js';
import type { ResolvedCommand } from './command.js';

const SHUTDOWN_WAIT_MS = 1500;
const KILL_WAIT_MS = 15_000;
const STDERR_TAIL = 2000;

/**
 * Every server process alive, so a plumb that exits without shutdown() still leaves none behind:
 * one process-wide 'exit' listener (installed with the first child) SIGKILLs whatever is left.
 */
class LiveChildren {
  private readonly children = new Set<ChildProcess>();
  private hooked = false;

  add(child: ChildProcess): void {
    this.children.add(child);
    child.once('exit', () => this.children.delete(child));
    if (this.hooked) return;
    this.hooked = true;
    process.once('exit', () => {
      for (const alive of this.children) alive.kill('SIGKILL');
    });
  }
}

const liveChildren = new LiveChildren();

export interface ServerProcessOptions {
  command: ResolvedCommand;
  args: string[];
  cwd: string;
  /** The server's environment (default: plumb's own). */
  env?: NodeJS.ProcessEnv;
  /** The process ended (exit code or signal) or could not be run. */
  onExit(reason: string): void;
}

/**
 * One spawned language-server process and the JSON-RPC connection over its stdio (not yet
 * listening: handlers come first). Killed on plumb's exit; keeps the tail of its stderr for the
 * crash report; stops with shutdown/exit, then SIGKILL.
 */
export class ServerProcess {
  readonly child: ChildProcess;
  readonly pid: number | null;
  /** Resolves when the process has exited (or failed to run). */
  readonly exited: Promise<void>;
  readonly connection: ProtocolConnection;
  private stderr = '';

  /** Throws when the process cannot be spawned at all. */
  constructor(options: ServerProcessOptions) {
    const { command, args } = options;
    const child = spawn(command.executable, [...command.prefixArgs, ...args], { cwd: options.cwd, stdio: ['pipe', 'pipe', 'pipe'], env: options.env });
    this.child = child;
    this.pid = child.pid ?? null;
    if (child.pid !== undefined) liveChildren.add(child);
    // A dead server's pipes raise EPIPE and friends: they are reported through 'exit', not thrown.
    for (const stream of [child.stdin, child.stdout, child.stderr]) stream?.on('error', () => {});
    child.stderr?.on('data', (chunk: Buffer) => {
      this.stderr = (this.stderr + chunk.toString('utf8')).slice(-STDERR_TAIL);
    });
    let reportExit: (reason: string) => void = () => {};
    this.exited = new Promise<void>((resolve) => {
      reportExit = (reason) => {
        resolve();
        options.onExit(reason);
      };
    });
    child.once('exit', (code, signal) => reportExit(signal ? `was killed by ${signal}` : `exited with code ${code}`));
    child.once('error', (error) => reportExit(`failed: ${error.message}`));
    this.connection = createProtocolConnection(new StreamMessageReader(child.stdout!), new QuietMessageWriter(new StreamMessageWriter(child.stdin!)));
  }

  /** The last lines the server wrote to stderr, joined with " | " (empty when it wrote none). */
  get stderrTail(): string {
    return this.stderr.trim().split('\n').slice(-3).join(' | ');
  }

  get stdinDestroyed(): boolean {
    return this.child.stdin?.destroyed ?? false;
  }

  kill(): void {
    try {
      this.child.kill('SIGKILL');
    } catch {}
  }

  /** True when the process exited within `ms`. */
  waitForExit(ms: number): Promise<boolean> {
    return withTimeout(this.exited.then(() => true), ms).catch(() => false);
  }

  /**
   * Graceful: the shutdown request and exit notification, then SIGKILL when the process is still
   * there; otherwise (a server still in initialize cannot take shutdown) SIGKILL right away. Either
   * way waits for the exit itself (a loaded machine may take seconds to report it after SIGKILL), so
   * a stopped server leaves no process behind.
   */
  async shutdown(connection: ProtocolConnection | undefined): Promise<void> {
    if (!connection) this.kill();
    else {
      try {
        await withTimeout(connection.sendRequest(ShutdownRequest.type), SHUTDOWN_WAIT_MS);
        await connection.sendNotification(ExitNotification.type);
      } catch {
        // A server that does not answer shutdown is killed below.
      }
    }
    if (!(await this.waitForExit(SHUTDOWN_WAIT_MS))) this.kill();
    await this.waitForExit(KILL_WAIT_MS);
  }
}

/**
 * vscode-jsonrpc rethrows a failed request write inside an async Promise executor, an unhandled
 * rejection that would end plumb (EPIPE to a dead server). Writes here never reject: the failure still
 * reaches onError, which treats the server as lost and fails its requests.
 */
class QuietMessageWriter implements MessageWriter {
  readonly onError: MessageWriter['onError'];
  readonly onClose: MessageWriter['onClose'];

  constructor(private readonly inner: StreamMessageWriter) {
    this.onError = inner.onError;
    this.onClose = inner.onClose;
  }

  write(message: Message): Promise<void> {
    return this.inner.write(message).catch(() => undefined);
  }

  end(): void {
    this.inner.end();
  }

  dispose(): void {
    this.inner.dispose();
  }
}

export function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  return Promise.race([
    promise,
    new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`timed out after ${ms} ms`)), ms);
    }),
  ]).finally(() => clearTimeout(timer));
}
