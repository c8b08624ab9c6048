/**
 * tsx bench/http.ts CACHE_DIR: /symbols over HTTP on an already built million-symbol index (a copy of
 * $PLUMB_BENCH_CACHE/million, so nothing is rebuilt): server time (elapsedMs) and loopback latency
 * p50/p99 for the bench queries and for generic ones, and the server process's CPU per request.
 */
import { spawn } from 'node:child_process';
import path from 'node:path';
const REPO = path.resolve(import.meta.dirname, '..');
import { percentile as pct, processCpuMs } from './measure.js';
import { GENERIC, MILLION_EXTRA as EXTRA, QUERIES } from './million.js';
const child = spawn(process.execPath, ['--import', 'tsx', path.join(REPO, 'bench/serve.ts'), '/usr/src/googletest', process.argv[2], JSON.stringify(EXTRA)], { cwd: REPO, stdio: ['ignore', 'pipe', 'inherit'] });
const line = await new Promise<string>((resolve) => child.stdout.once('data', (c: Buffer) => resolve(c.toString())));
const { url, readyMs } = JSON.parse(line) as { url: string; readyMs: number };
console.log('ready', readyMs.toFixed(0), 'ms');
const cpu = (): number => processCpuMs(child.pid!);
for (const [label, queries, rounds] of [['bench 18', QUERIES, 20], ['generic', GENERIC, 5]] as const) {
  const client: number[] = []; const server: number[] = [];
  let c0 = 0; let n = 0;
  for (let round = 0; round <= rounds; round++) {
    if (round === 1) c0 = cpu();
    for (const q of queries) {
      const t0 = performance.now();
      // limit=50, 51...: every request a first one (a repeat is answered from the search cache).
      const r = await fetch(`${url}/symbols?query=${encodeURIComponent(q)}&limit=${50 + round}`);
      const body = (await r.json()) as { elapsedMs: number };
      if (round === 0) continue;
      n++;
      client.push(performance.now() - t0); server.push(body.elapsedMs);
    }
  }
  const cpuPer = (cpu() - c0) / n;
  console.log(`${label}: server p50 ${pct(server, 50).toFixed(2)} p99 ${pct(server, 99).toFixed(2)} | http p50 ${pct(client, 50).toFixed(2)} p99 ${pct(client, 99).toFixed(2)} | server process CPU per request (mean) ${cpuPer.toFixed(2)} ms (${n} requests)`);
}
child.kill('SIGTERM');
