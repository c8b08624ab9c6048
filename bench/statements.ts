/**
 * tsx bench/statements.ts ROOT [--rounds N] [--text T] [--regex R] [--path P]: /statements' use case on
 * a tree, cold (a fresh process per query type, its first answer: no text cache, no tree cache, no
 * grammar loaded) and warm (the same query again, p50/p99), beside `grep -rn` of the same text.
 * The index is built once first (in a temp cache, reused by the children).
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pino from 'pino';
import { validateConfig } from '../src/config.js';
import { createServices } from '../src/services.js';
import { searchStatements } from '../src/symbols/statements.js';
import type { StatementsQuery } from '../schemas/statements.js';
import { option } from './measure.js';

const argv = process.argv.slice(2);
const root = path.resolve(argv[0] ?? '.');
const rounds = Number(option('--rounds') ?? 20);
const child = option('--child');
const cacheDir = option('--cache') ?? mkdtempSync(path.join(os.tmpdir(), 'plumb-bench-statements-'));
const QUERIES: Array<{ label: string; query: StatementsQuery }> = [
  { label: 'text', query: { query: option('--text') ?? 'Deadline' } },
  { label: 'regex', query: { query: option('--regex') ?? 'SetDeadline\\(\\w+\\)', type: 'regex' } },
  { label: 'path (named)', query: { query: option('--path') ?? '//method[Close]//call', type: 'path' } },
  { label: 'path //if', query: { query: '//if', type: 'path' } },
];

async function open() {
  const config = validateConfig({ cacheDir, logLevel: 'silent', index: { watch: false } });
  const services = await createServices({ root, config, logger: pino({ level: 'silent' }) });
  for (let i = 0; i < 6000 && services.index.status().state !== 'ready'; i++) await new Promise((resolve) => setTimeout(resolve, 100));
  return services;
}

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

if (child !== undefined) {
  const { query } = QUERIES[Number(child)];
  const services = await open();
  const run = async (): Promise<{ ms: number; total: number; parsed: number; searched: number }> => {
    const started = performance.now();
    const answer = await searchStatements(services, query);
    return { ms: performance.now() - started, total: answer.totalMatches, parsed: answer.filesParsed, searched: answer.filesSearched };
  };
  const cold = await run();
  const warm: number[] = [];
  for (let i = 0; i < rounds; i++) warm.push((await run()).ms);
  process.stdout.write(JSON.stringify({ cold, warm }));
  await services.close();
  process.exit(0);
}

const started = performance.now();
const services = await open();
const status = services.index.status();
await services.close();
const lines = Number(execFileSync('bash', ['-c', `find ${JSON.stringify(root)} -type f \\( -name '*.go' -o -name '*.ts' -o -name '*.py' -o -name '*.c' -o -name '*.cc' -o -name '*.h' -o -name '*.java' -o -name '*.cs' -o -name '*.rs' -o -name '*.js' \\) -print0 | xargs -0 cat | wc -l`], { encoding: 'utf8' }).trim());
console.log(`${root}: ${status.filesIndexed} files, ${lines.toLocaleString('en-US')} source lines; index built in ${((performance.now() - started) / 1000).toFixed(1)} s`);
console.log('| query | matches | files parsed / searched | cold (fresh process) | warm p50 | warm p99 | grep -rn |');
console.log('|---|---|---|---|---|---|---|');
for (const [i, { label, query }] of QUERIES.entries()) {
  const out = spawnSync(process.execPath, [...process.execArgv, import.meta.filename ?? process.argv[1], root, '--child', String(i), '--cache', cacheDir, '--rounds', String(rounds)], { encoding: 'utf8', maxBuffer: 16 * 1024 * 1024 });
  if (out.status !== 0) {
    console.log(`| ${label} | failed: ${out.stderr.slice(0, 200)} |`);
    continue;
  }
  const { cold, warm } = JSON.parse(out.stdout) as { cold: { ms: number; total: number; parsed: number; searched: number }; warm: number[] };
  let grep = '';
  if (label === 'text' || label === 'regex') {
    const grepStarted = performance.now();
    spawnSync('grep', ['-rn', ...(label === 'regex' ? ['-E'] : ['-F']), query.query.replace(/\\w/g, '[[:alnum:]_]').replace(/\\\(/g, '\\(').replace(/\\\)/g, '\\)'), root], { stdio: 'ignore' });
    grep = `${(performance.now() - grepStarted).toFixed(0)} ms`;
  }
  console.log(`| ${label} \`${query.query}\` | ${cold.total} | ${cold.parsed} / ${cold.searched} | ${cold.ms.toFixed(0)} ms | ${percentile(warm, 50).toFixed(1)} ms | ${percentile(warm, 99).toFixed(1)} ms | ${grep} |`);
}
if (!option('--cache')) rmSync(cacheDir, { recursive: true, force: true });
