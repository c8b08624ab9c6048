// Regenerates the operations part of docs/API.md from src/operations/: npm run docs (test/docs.test.ts fails when it drifts).
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { apiDocument } from '../src/operations/docs.js';

const file = path.resolve(import.meta.dirname, '../docs/API.md');
writeFileSync(file, apiDocument(readFileSync(file, 'utf8')));
process.stdout.write(`wrote ${path.relative(process.cwd(), file) || file}\n`);
