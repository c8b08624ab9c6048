/**
 * A real PostgreSQL cluster for a test: `initdb` into a fresh temporary directory, `pg_ctl` on a free
 * port (as the `postgres` system user when the tests run as root, since PostgreSQL refuses root), one
 * database, stopped and removed at the test's end. Debian's `postgresql` package provides the binaries
 * (scripts/setup.sh --test installs it); without them the test fails saying so, it does not skip.
 * startStandby() adds a hot standby streaming from such a cluster: `pg_basebackup -R` of it into another
 * temporary directory, started on its own port.
 */
import { spawnSync } from 'node:child_process';
import { chmodSync, chownSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';

export interface TestPostgres {
  /** postgres://USER@127.0.0.1:PORT/plumb */
  url: string;
  /** Stops the server (immediate shutdown: connections are cut, as when a database host goes away). */
  stop(): Promise<void>;
  /** Starts it again on the same port and data. */
  start(): Promise<void>;
  /**
   * Freezes the server: SIGSTOP to the postmaster and every process it started (its backends included), as a
   * host that stops answering or a network partition looks to a client: connections stay open, nothing answers.
   * The test's teardown thaws it whatever happens.
   */
  freeze(): void;
  /** SIGCONT to the processes freeze() stopped: the server answers again where it stopped. */
  thaw(): void;
  /** 127.0.0.1 and the port it listens on. */
  host: string;
  port: number;
  /** Runs one SQL statement through psql on the plumb database and gives its output (unaligned, tuples only). */
  sql(statement: string): string;
}

export interface TestStandby extends TestPostgres {
  /** Stops replaying the WAL it receives (pg_wal_replay_pause): it answers, from the state it replayed so far. */
  pauseReplay(): void;
  /** Replays again (pg_wal_replay_resume). */
  resumeReplay(): void;
}

/** The processes whose parent is `parent` (from /proc). */
function childrenOf(parent: number): number[] {
  const children: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      // pid (comm) state ppid ...: comm may hold spaces and parentheses, the last ')' ends it.
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      if (ppid === parent) children.push(Number(entry));
    } catch {
      // Gone meanwhile.
    }
  }
  return children;
}

interface Test {
  teardown(fn: () => unknown): void;
  fail(message: string): unknown;
}

const DATABASE = 'plumb';

/** The newest /usr/lib/postgresql/N/bin holding initdb and pg_ctl, or undefined. */
export function postgresBinaries(): string | undefined {
  const base = '/usr/lib/postgresql';
  let versions: string[];
  try {
    versions = readdirSync(base).filter((name) => /^\d+$/.test(name)).sort((a, b) => Number(b) - Number(a));
  } catch {
    return undefined;
  }
  return versions.map((v) => path.join(base, v, 'bin')).find((bin) => existsSync(path.join(bin, 'initdb')) && existsSync(path.join(bin, 'pg_ctl')));
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

/**
 * Starts a cluster for `t` and returns its URL. Fails `t` (and throws) when PostgreSQL is not installed.
 */
export async function startPostgres(t: Test): Promise<TestPostgres> {
  return cluster(t);
}

/**
 * Starts a hot standby of `primary` for `t`: `pg_basebackup -R` (streaming, with primary_conninfo and standby.signal
 * written) into a new temporary directory, then the server on its own port. The plumb database is there already.
 */
export async function startStandby(t: Test, primary: TestPostgres): Promise<TestStandby> {
  const standby = await cluster(t, primary);
  return {
    ...standby,
    pauseReplay: () => void standby.sql('SELECT pg_wal_replay_pause()'),
    resumeReplay: () => void standby.sql('SELECT pg_wal_replay_resume()'),
  };
}

async function cluster(t: Test, primary?: TestPostgres): Promise<TestPostgres> {
  const bin = postgresBinaries();
  if (!bin) {
    const message = 'missing PostgreSQL: no /usr/lib/postgresql/*/bin/initdb — scripts/setup.sh --test installs it (Debian package postgresql)';
    t.fail(message);
    throw new Error(message);
  }
  const root = process.getuid?.() === 0;
  const user = root ? 'postgres' : os.userInfo().username;
  const dir = mkdtempSync(path.join(os.tmpdir(), primary ? 'plumb-pg-standby-' : 'plumb-pg-'));
  const data = path.join(dir, 'data');
  const sockets = path.join(dir, 'sock');
  if (root) {
    const pw = spawnSync('id', ['-u', 'postgres'], { encoding: 'utf8' });
    const gid = spawnSync('id', ['-g', 'postgres'], { encoding: 'utf8' });
    if (pw.status !== 0) {
      rmSync(dir, { recursive: true, force: true });
      const message = 'missing the postgres system user (running as root, PostgreSQL must run as another user) — scripts/setup.sh --test installs PostgreSQL (Debian package postgresql)';
      t.fail(message);
      throw new Error(message);
    }
    chownSync(dir, Number(pw.stdout.trim()), Number(gid.stdout.trim()));
    chmodSync(dir, 0o700);
  }
  const run = (command: string, args: string[]): string => {
    const full = root ? ['runuser', ['-u', 'postgres', '--', path.join(bin, command), ...args]] as const : [path.join(bin, command), args] as const;
    const result = spawnSync(full[0], [...full[1]], { encoding: 'utf8', cwd: dir });
    if (result.status !== 0) throw new Error(`${command} ${args.join(' ')} failed (${result.status}): ${result.stderr || result.stdout}`);
    return result.stdout;
  };
  const port = await freePort();
  if (primary) {
    // A streaming standby of the primary: its data as of now, -R writes primary_conninfo and standby.signal.
    run('pg_basebackup', ['-h', primary.host, '-p', String(primary.port), '-U', user, '-D', data, '-R', '-X', 'stream', '-c', 'fast']);
  } else {
    run('initdb', ['-D', data, '-E', 'UTF8', '--locale=C', '-A', 'trust', '-U', user]);
  }
  if (root) spawnSync('runuser', ['-u', 'postgres', '--', 'mkdir', '-p', sockets]);
  else spawnSync('mkdir', ['-p', sockets]);
  // A standby reports what it replays to its primary quickly (the lag tests look at), and answers while replay is paused.
  const standbyOptions = primary ? ' -c wal_receiver_status_interval=1 -c hot_standby_feedback=on' : '';
  const options = `-p ${port} -k ${sockets} -c listen_addresses=127.0.0.1 -c fsync=off -c synchronous_commit=off -c full_page_writes=off${standbyOptions}`;
  const start = async (): Promise<void> => {
    run('pg_ctl', ['-D', data, '-l', path.join(dir, 'log'), '-w', '-t', '60', '-o', options, 'start']);
  };
  const stop = async (): Promise<void> => {
    run('pg_ctl', ['-D', data, '-m', 'immediate', '-w', 'stop']);
  };
  let running = false;
  let frozen: number[] = [];
  const thaw = (): void => {
    for (const pid of frozen.reverse()) {
      try {
        process.kill(pid, 'SIGCONT');
      } catch {
        // Gone.
      }
    }
    frozen = [];
  };
  const freeze = (): void => {
    if (frozen.length > 0) return;
    const postmaster = Number(readFileSync(path.join(data, 'postmaster.pid'), 'utf8').split('\n')[0]);
    if (!(postmaster > 0)) throw new Error(`no postmaster pid in ${data}/postmaster.pid`);
    // The postmaster first: it starts no backend after this, so the list of its children is complete.
    process.kill(postmaster, 'SIGSTOP');
    frozen.push(postmaster);
    for (const pid of childrenOf(postmaster)) {
      try {
        process.kill(pid, 'SIGSTOP');
        frozen.push(pid);
      } catch {
        // Exited meanwhile.
      }
    }
  };
  t.teardown(async () => {
    // A frozen server cannot be stopped: pg_ctl would wait for it.
    thaw();
    if (running) {
      try {
        await stop();
      } catch {
        // Already stopped.
      }
    }
    rmSync(dir, { recursive: true, force: true });
  });
  await start();
  running = true;
  if (!primary) run('createdb', ['-h', '127.0.0.1', '-p', String(port), '-U', user, DATABASE]);
  return {
    url: `postgres://${user}@127.0.0.1:${port}/${DATABASE}`,
    host: '127.0.0.1',
    port,
    stop: async () => {
      await stop();
      running = false;
    },
    start: async () => {
      await start();
      running = true;
    },
    freeze,
    thaw,
    sql: (statement) => run('psql', ['-h', '127.0.0.1', '-p', String(port), '-U', user, '-d', DATABASE, '-Atqc', statement]).trim(),
  };
}
