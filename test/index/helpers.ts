import { cpSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { FLASK, RXJS, ZOD } from '../corpora.js';
import { waitUntil } from '../wait.js';

export { RXJS, ZOD } from '../corpora.js';

export { indexReady } from '../wait.js';

/** Polls until `check` holds (watcher tests); returns how long it took. */
export function eventually(check: () => Promise<boolean>, timeoutMs = 10_000): Promise<number> {
  return waitUntil('the condition the test polls for', check, { timeoutMs, intervalMs: 20 });
}

/**
 * A workspace of real code: rxjs and zod sources with their package.json (TypeScript, two
 * manifests) and flask (Python, no manifest: named after its directory), copied so tests may write.
 */
export function polyglotWorkspace(dir: string): string {
  const root = path.join(dir, 'ws');
  for (const [from, to] of [[RXJS, 'rxjs'], [ZOD, 'zod']] as const) {
    mkdirSync(path.join(root, to), { recursive: true });
    cpSync(path.join(from, 'package.json'), path.join(root, to, 'package.json'));
    cpSync(path.join(from, 'src'), path.join(root, to, 'src'), { recursive: true });
  }
  cpSync(FLASK, path.join(root, 'flask'), { recursive: true, filter: (src) => !src.includes('__pycache__') });
  return root;
}

/** The polyglot workspace plus a scoped package and a package without symbols. */
export function packagesWorkspace(dir: string): string {
  const root = polyglotWorkspace(dir);
  mkdirSync(path.join(root, 'scoped/src'), { recursive: true });
  writeFileSync(path.join(root, 'scoped/package.json'), JSON.stringify({ name: '@plumb/scoped', version: '1.0.0' }));
  writeFileSync(path.join(root, 'scoped/src/receipts.ts'), [
    'export interface Receipt { total: number }',
    'export function processPayment(amount: number, currency: string): Receipt { return { total: amount }; }',
    'export class PaymentGateway { charge(amount: number): Receipt { return processPayment(amount, "EUR"); } }',
    '',
  ].join('\n'));
  mkdirSync(path.join(root, 'docs-only'), { recursive: true });
  writeFileSync(path.join(root, 'docs-only/package.json'), JSON.stringify({ name: 'docs-only' }));
  writeFileSync(path.join(root, 'docs-only/README.md'), '# Only prose here\n');
  return root;
}

/**
 * The reference the store's qualified search is checked against (the store does this in SQL).
 * Whether a qualified name has `qualifier` right before `name` on separator boundaries:
 * `ns::leveldb::Iterator` fits qualifier `leveldb` and name `Iterator`; `myleveldb::Iterator` does not.
 */
export function qualifierMatches(qualifiedName: string, name: string, qualifier: string): boolean {
  const qn = qualifiedName.replace(/::|#/g, '.');
  const tail = `${qualifier}.${name}`;
  if (qn === tail) return true;
  return qn.endsWith(`.${tail}`);
}
