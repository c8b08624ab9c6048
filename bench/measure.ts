/**
 * What the benches measure with: percentiles, a process's CPU time from /proc (and a PostgreSQL cluster's), and the
 * markdown table they print their figures in.
 */
import { readdirSync, readFileSync } from 'node:fs';

/** The p-th percentile of `values` (nearest rank, unrounded). */
/** The value after a command-line option (`--names 300` → '300'), or undefined when the option is not given. */
export function option(name: string): string | undefined {
  const argv = process.argv.slice(2);
  const at = argv.indexOf(name);
  return at >= 0 ? argv[at + 1] : undefined;
}

export function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

/** CPU milliseconds (user + system) a process has used so far, or 0 once it is gone. */
export function processCpuMs(pid: number): number {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return 0;
  }
}

/**
 * Every postgres process of the machine: pid, parent, CPU milliseconds so far (a postmaster's with those of its
 * children that exited: a closed connection's backend counts after it is gone), and its command line.
 */
function postgresProcesses(): Map<number, { ppid: number; cpu: number; cmdline: string }> {
  const all = new Map<number, { ppid: number; cpu: number; cmdline: string }>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (readFileSync(`/proc/${entry}/comm`, 'utf8').trim() !== 'postgres') continue;
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      // pid (comm) state ppid ...: comm may hold spaces and parentheses, the last ')' ends it.
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      // utime, stime, then cutime, cstime: the children it waited for (the postmaster waits for its backends).
      const cpu = (Number(fields[11]) + Number(fields[12]) + Number(fields[13]) + Number(fields[14])) * 10;
      all.set(Number(entry), { ppid: Number(fields[1]), cpu, cmdline: readFileSync(`/proc/${entry}/cmdline`, 'utf8') });
    } catch {
      // Gone meanwhile.
    }
  }
  return all;
}

/**
 * CPU milliseconds of one PostgreSQL cluster so far: the postmaster listening on `port` (started with `-p PORT`, as
 * test/postgres.ts starts them) and its children (backends, WAL sender, checkpointer...); 0 when there is none.
 */
export function clusterCpuMs(port: number): number {
  const all = postgresProcesses();
  const postmaster = [...all].find(([, p]) => p.cmdline.split('\0').join(' ').includes(`-p ${port} `))?.[0];
  if (postmaster === undefined) return 0;
  let total = 0;
  for (const [pid, p] of all) if (pid === postmaster || p.ppid === postmaster) total += p.cpu;
  return total;
}

/** CPU milliseconds of every postgres process of the machine so far (what one cluster costs when it is the only one). */
export function postgresCpuMs(): number {
  let total = 0;
  for (const p of postgresProcesses().values()) total += p.cpu;
  return total;
}

/** A markdown table, columns padded to their widest cell. */
export function markdownTable(header: string[], rows: string[][]): string {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  const line = (cells: string[]): string => `| ${cells.map((c, i) => c.padEnd(widths[i])).join(' | ')} |`;
  return [line(header), `|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`, ...rows.map(line)].join('\n');
}
