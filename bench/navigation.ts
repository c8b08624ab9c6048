/**
 * npx tsx bench/navigation.ts ROOT [--names N] [--rounds N] [--cache DIR] [--extra ROOT...]: /symbols/declaration and
 * /symbols/members as their use cases answer them (no HTTP), over ROOT's index (built or brought up to
 * date first, in plumb's cache unless --cache says otherwise). Declarations are asked by qualified name
 * (resolution included, context snippets read from disk); members by the type's id, with and without
 * inherited; inheritors by the type's id from the index alone (no server confirmation), depth 1 and all.
 * Prints p50/p99/max per operation.
 */
import { pino } from 'pino';
import type { FastifyBaseLogger } from 'fastify';
import { validateConfig } from '../src/config.js';
import { createServices } from '../src/services.js';
import type { StoredSymbol } from '../src/index/store.js';
import { findDeclaration } from '../src/symbols/declaration.js';
import { listMembers } from '../src/symbols/members.js';
import { findInheritors } from '../src/symbols/inheritors.js';
import { option } from './measure.js';

const argv = process.argv.slice(2);
const root = argv.find((arg, i) => !arg.startsWith('--') && !argv[i - 1]?.startsWith('--'));
if (!root) {
  console.error('usage: npx tsx bench/navigation.ts ROOT [--names N] [--rounds N] [--cache DIR]');
  process.exit(2);
}
const nameCount = Number(option('--names') ?? 100);
const rounds = Number(option('--rounds') ?? 3);

// --extra ROOT (repeatable): extra roots, as the million-symbol index of npm run bench has them (its cache must see the same roots).
const extraRoots = argv.flatMap((arg, i) => (arg === '--extra' && argv[i + 1] ? [argv[i + 1]] : []));
const config = validateConfig({ logLevel: 'silent', index: { watch: false, extraRoots }, ...(option('--cache') ? { cacheDir: option('--cache') } : {}) });
const services = await createServices({ root, config, logger: pino({ level: 'silent' }) as unknown as FastifyBaseLogger, startIndex: false });
const built = performance.now();
await services.index.build();
const counts = await services.index.reader.counts();
console.log(`index of ${root}: ${counts.files} files, ${counts.symbols} symbols (${((performance.now() - built) / 1000).toFixed(1)} s to build or check)`);

// Names spread over the index: every package's types and callables, evenly sampled.
const reader = services.index.reader;
const types: StoredSymbol[] = [];
const callables: StoredSymbol[] = [];
for (const pkg of await reader.listPackages()) {
  const page = await reader.packageSymbols({ packageName: pkg.name, kinds: ['class', 'struct', 'interface', 'method', 'function'], offset: 0, limit: 5000, includeForwardDeclarations: false });
  for (const symbol of page.results) ((symbol.kind === 'method' || symbol.kind === 'function') ? callables : types).push(symbol);
}
const sample = <T>(items: T[], n: number): T[] => (items.length <= n ? items : Array.from({ length: n }, (_, i) => items[Math.floor((i * items.length) / n)]));
const declarationNames = [...new Set(sample(callables, nameCount).map((s) => s.qualifiedName))];
const memberTypes = sample(types, nameCount);

async function measure(label: string, items: unknown[], run: (item: never) => Promise<unknown>): Promise<void> {
  const times: number[] = [];
  let failures = 0;
  for (const item of items) await run(item as never).catch(() => undefined); // warm-up: page cache, statements
  for (let round = 0; round < rounds; round++) {
    for (const item of items) {
      const started = performance.now();
      try {
        await run(item as never);
      } catch {
        failures++;
      }
      times.push(performance.now() - started);
    }
  }
  times.sort((a, b) => a - b);
  const at = (q: number): string => times[Math.min(times.length - 1, Math.floor(q * times.length))].toFixed(2);
  console.log(`${label.padEnd(28)} n=${String(times.length).padStart(5)}  p50 ${at(0.5).padStart(7)} ms  p99 ${at(0.99).padStart(7)} ms  max ${times[times.length - 1].toFixed(2).padStart(7)} ms${failures ? `  (${failures} answered 4xx)` : ''}`);
}

await measure('declaration (by name)', declarationNames, (symbol: string) => findDeclaration(services, { symbol }));
await measure('declaration include_body', declarationNames, (symbol: string) => findDeclaration(services, { symbol, include_body: true }));
await measure('members (by id)', memberTypes, (type: StoredSymbol) => listMembers(services, { id: type.id }));
await measure('members inherited=true', memberTypes, (type: StoredSymbol) => listMembers(services, { id: type.id, inherited: true }));
// Index only (no server confirmation): the types whose written bases name each sampled type.
await measure('inheritors index-only d=1', memberTypes, (type: StoredSymbol) => findInheritors(services, { id: type.id }, undefined, { useServer: false }));
await measure('inheritors index-only all', memberTypes, (type: StoredSymbol) => findInheritors(services, { id: type.id, depth: 'all' }, undefined, { useServer: false }));
await services.close();
