/**
 * CPU time of the calling thread (user + system), for the build's profile: Node reports the whole
 * process's CPU only, and a worker's share is what tells parsing from writing. Linux only (read from
 * /proc/thread-self/stat, in clock ticks of 10 ms); undefined elsewhere.
 */
import { readFileSync } from 'node:fs';

const TICK_MS = 10;

export function threadCpuMs(): number | undefined {
  try {
    const stat = readFileSync('/proc/thread-self/stat', 'utf8');
    // Fields after the command name (which may hold spaces) in parentheses: utime and stime are the 12th and 13th.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) * TICK_MS;
  } catch {
    return undefined;
  }
}
