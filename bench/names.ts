/**
 * npx tsx bench/names.ts [ROOT] [--rounds N] [--answers DIR]: /symbols on common names over HTTP against /health
 * in the same run. ROOT (default sqlalchemy, `apt-get install python3-sqlalchemy`) is indexed once into a
 * scratch cache by a listening server in its own process (bench/serve.ts); then, one request at a time,
 * each path below and /health take turns, so both see the same machine. Prints p50/p99 per path, its ratio
 * to /health's p50, the answer's size and the server's own time (elapsedMs, JSON only): for searches asked
 * again (answered from the search cache) and for searches asked the first time (another page each round).
 * --answers DIR writes every answer (elapsedMs blanked) to DIR, to compare the bytes of two versions; each is asked
 * twice and the two must be equal.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { markdownTable, option, percentile, processCpuMs } from './measure.js';

const REPO = path.resolve(import.meta.dirname, '..');
const argv = process.argv.slice(2);
const ROOT = argv.find((arg, i) => !arg.startsWith('--') && !argv[i - 1]?.startsWith('--')) ?? '/usr/lib/python3/dist-packages/sqlalchemy';
const ROUNDS = Number(option('--rounds') ?? 300);
const answersDir = option('--answers');

/** Names sqlalchemy holds hundreds to thousands of times (exact, prefix, substring, signature tiers). */
const NAMES = ['Column', 'Table', 'select', 'Session'];
const PATHS = [
  ...NAMES.map((name) => `/symbols?query=${name}&limit=50`),
  ...NAMES.map((name) => `/symbols?query=${name}&limit=50&format=markdown`),
];
/**
 * The same searches never asked before, which the search cache cannot answer: round r asks a page of 45 to 55 results
 * starting 1 to 100 further on (1,100 pairs, each full for these names), `limit=L&offset=K` in the table.
 */
const FIRSTS = NAMES.map((name) => `/symbols?query=${name}&limit=L&offset=K`);
const firstAsk = (target: string, round: number): string => target.replace('limit=L', `limit=${45 + (round % 11)}`).replace('offset=K', `offset=${1 + (Math.floor(round / 11) % 100)}`);
/** More answers for the byte comparison: pages further on, filters, exact match, generic names. */
const CHECKED = [
  ...PATHS,
  ...NAMES.flatMap((name) => [`/symbols?query=${name}&limit=200&offset=100`, `/symbols?query=${name}&kind=class`, `/symbols?query=${name}&match=exact`, `/symbols?query=${name}&include_forward_declarations=true&limit=200`]),
  '/symbols?query=get&limit=200', '/symbols?query=sql.Column', '/symbols?query=CE&limit=100', '/symbols?query=execute&limit=200&offset=9900',
];

if (!existsSync(ROOT)) {
  console.log(`names bench: ${ROOT} is not installed (apt-get install python3-sqlalchemy): skipped`);
  process.exit(0);
}

const ms = (n: number): string => `${n.toFixed(2)} ms`;

const cacheDir = mkdtempSync(path.join(os.tmpdir(), 'plumb-bench-names-'));
const child = spawn(process.execPath, ['--import', 'tsx', path.join(REPO, 'bench/serve.ts'), ROOT, cacheDir, '[]'], { cwd: REPO, stdio: ['ignore', 'pipe', 'inherit'] });
try {
  const line = await new Promise<string>((resolve, reject) => {
    child.stdout.once('data', (chunk: Buffer) => resolve(chunk.toString()));
    child.once('exit', (code) => reject(new Error(`bench server exited with ${code}`)));
  });
  const { url, readyMs, status } = JSON.parse(line) as { url: string; readyMs: number; status: { symbols: number; filesIndexed: number } };
  console.log(`\n/symbols on common names vs /health: ${ROOT} (${status.filesIndexed} files, ${status.symbols} symbols, indexed in ${(readyMs / 1000).toFixed(1)} s), ${ROUNDS} rounds, one request at a time`);

  const get = async (target: string): Promise<{ ms: number; body: string; type: string }> => {
    const started = performance.now();
    const response = await fetch(url + target);
    const body = await response.text();
    const elapsed = performance.now() - started;
    if (response.status !== 200) throw new Error(`${target}: ${response.status} ${body.slice(0, 200)}`);
    return { ms: elapsed, body, type: response.headers.get('content-type') ?? '' };
  };

  if (answersDir) {
    mkdirSync(answersDir, { recursive: true });
    const blank = (body: string): string => body.replace(/"elapsedMs":[\d.e+-]+/g, '"elapsedMs":0');
    for (const [i, target] of CHECKED.entries()) {
      // Asked twice: the second answer (a repeat) must be the first, byte for byte.
      const first = blank((await get(target)).body);
      const again = blank((await get(target)).body);
      if (again !== first) throw new Error(`${target}: a repeated request answered differently`);
      writeFileSync(path.join(answersDir, `${String(i).padStart(2, '0')}.txt`), `${target}\n${first}`);
    }
    console.log(`answers of ${CHECKED.length} requests written to ${answersDir}`);
  }

  const targets = ['/health', ...PATHS, ...FIRSTS];
  const client = new Map(targets.map((t) => [t, [] as number[]]));
  const server = new Map(targets.map((t) => [t, [] as number[]]));
  const bytes = new Map<string, number>();
  const cpu = (): number => processCpuMs(child.pid!);
  let cpuStart = 0;
  const warmUp = Math.min(50, Math.floor(ROUNDS / 5));
  for (let round = 0; round < warmUp + ROUNDS; round++) {
    if (round === warmUp) cpuStart = cpu();
    for (const target of targets) {
      // /health before every other request: the two see the same moment of the machine.
      for (const t of target === '/health' ? [target] : ['/health', target]) {
        const answer = await get(firstAsk(t, round));
        if (round < warmUp) continue;
        client.get(t)!.push(answer.ms);
        bytes.set(t, Buffer.byteLength(answer.body));
        if (answer.type.startsWith('application/json') && t !== '/health') server.get(t)!.push((JSON.parse(answer.body) as { elapsedMs: number }).elapsedMs);
      }
    }
  }
  const requests = [...client.values()].reduce((n, v) => n + v.length, 0);
  const cpuPerRequest = (cpu() - cpuStart) / requests;
  const health = percentile(client.get('/health')!, 50);
  const rows = targets.map((t) => {
    const times = client.get(t)!;
    const own = server.get(t)!;
    return [t, ms(percentile(times, 50)), ms(percentile(times, 99)), `${(percentile(times, 50) / health).toFixed(1)}x`, `${((bytes.get(t) ?? 0) / 1024).toFixed(1)} KB`, own.length ? `${ms(percentile(own, 50))} / ${ms(percentile(own, 99))}` : ''];
  });
  const header = ['request', 'p50', 'p99', 'p50 / health p50', 'answer', 'server elapsedMs p50 / p99'];
  console.log(markdownTable(header, rows));
  const worst = (paths: string[]): string => `${(Math.max(...paths.map((t) => percentile(client.get(t)!, 50))) / health).toFixed(1)}x`;
  console.log(`worst p50 ratio to /health: ${worst(PATHS)} asked again (target at most 3x), ${worst(FIRSTS)} asked for the first time; server process CPU ${cpuPerRequest.toFixed(2)} ms per request on average over all ${requests}`);
} finally {
  child.kill('SIGTERM');
  await new Promise((resolve) => child.once('exit', resolve));
  rmSync(cacheDir, { recursive: true, force: true });
}
