/**
 * A parser thread: reads a file, hashes it, and extracts its symbols with tree-sitter unless the
 * hash says the stored symbols are still right. One per core, started by ParsePool.
 */
import { readFile } from 'node:fs/promises';
import { parentPort } from 'node:worker_threads';
import { languageById } from '../languages/index.js';
import { extractSymbols } from '../syntax/index.js';
import { contentHash } from './ids.js';
import type { ParseTask, WorkerResult } from './parse-pool.js';

/** Larger files are generated code or data: recorded, not parsed (tree-sitter time grows with them). */
const MAX_PARSED_BYTES = 4 * 1024 * 1024;

async function handle(task: ParseTask): Promise<WorkerResult> {
  try {
    const content = await readFile(task.absolute);
    const hash = contentHash(content);
    if (hash === task.previousHash) return { id: task.id, outcome: 'unchanged', hash, size: content.length };
    if (content.length > MAX_PARSED_BYTES || looksBinary(content)) return { id: task.id, outcome: 'parsed', hash, size: content.length, symbolsJson: '[]' };
    const language = languageById(task.language);
    if (!language) return { id: task.id, outcome: 'failed', error: `no language '${task.language}' in LANGUAGES (src/languages/index.ts)` };
    const symbols = await extractSymbols(language, content.toString('utf8'));
    return { id: task.id, outcome: 'parsed', hash, size: content.length, symbolsJson: JSON.stringify(symbols) };
  } catch (error) {
    return { id: task.id, outcome: 'failed', error: error instanceof Error ? error.message : String(error) };
  }
}

function looksBinary(content: Buffer): boolean {
  return content.subarray(0, 8192).includes(0);
}

parentPort?.on('message', (task: ParseTask) => {
  void handle(task).then((result) => parentPort?.postMessage(result));
});
