/**
 * A parser thread: reads a file, hashes it, and extracts its symbols with tree-sitter unless the
 * hash says the stored symbols are still right. One per core, started by ParsePool.
 */
import { closeSync, constants, openSync, readFileSync } from 'node:fs';
import { parentPort, workerData } from 'node:worker_threads';
import { addLanguageModules, languageById } from '../languages/index.js';
import { extractSymbols } from '../syntax/index.js';
import { loadParser } from '../syntax/grammars.js';
import { contentHash } from './ids.js';
import { encodeSymbols } from './symbol-codec.js';
import type { ParseTask, WorkerRequest, WorkerResult, WorkerStats } from './parse-pool.js';
import { threadCpuMs } from './thread-cpu.js';

/** Larger files are generated code or data: recorded, not parsed (tree-sitter time grows with them). */
const MAX_PARSED_BYTES = 4 * 1024 * 1024;

/** Where this thread's time went (ParsePool.stats): wall milliseconds per step, summed over files. */
const stats: WorkerStats = { files: 0, read: 0, prepare: 0, parse: 0, extract: 0, serialize: 0, cpuMs: undefined, startCpuMs: threadCpuMs() };

/** The languages the main thread added from modules (a test's toy language), loaded before the first file. */
const languagesLoaded = addLanguageModules((workerData as { languageModules?: string[] } | undefined)?.languageModules ?? []);

async function handle(task: ParseTask): Promise<WorkerResult> {
  try {
    await languagesLoaded;
    let clock = performance.now();
    // Synchronous: this thread has nothing else to do meanwhile, and one read call costs less CPU than
    // the thread pool's open/stat/read/close round trips (and its time is then this step's own).
    const content = readRegularFile(task.absolute);
    const hash = contentHash(content);
    stats.files++;
    clock = lap('read', clock);
    if (hash === task.previousHash) return { id: task.id, outcome: 'unchanged', hash, size: content.length };
    if (content.length > MAX_PARSED_BYTES || looksBinary(content)) return { id: task.id, outcome: 'parsed', hash, size: content.length, symbolsJson: '[]' };
    const language = languageById(task.language);
    if (!language) return { id: task.id, outcome: 'failed', error: `no language '${task.language}' in LANGUAGES (src/languages/index.ts) or the language modules added` };
    if (task.parseOnly) return await parseOnly(task, language.syntax, content.toString('utf8'), hash);
    const symbols = await extractSymbols(language, content.toString('utf8'), stats);
    clock = performance.now();
    const symbolsJson = encodeSymbols(symbols);
    lap('serialize', clock);
    return { id: task.id, outcome: 'parsed', hash, size: content.length, symbolsJson };
  } catch (error) {
    return { id: task.id, outcome: 'failed', error: error instanceof Error ? error.message : String(error) };
  }
}

/** The file's bytes; a path that became a link since it was walked is not followed (open fails, the file fails). */
function readRegularFile(absolute: string): Buffer {
  const fd = openSync(absolute, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  try {
    return readFileSync(fd);
  } finally {
    closeSync(fd);
  }
}

/** The bench's baseline: tree-sitter's parse alone, of the text as written or as the extractor prepares it. */
async function parseOnly(task: ParseTask, spec: NonNullable<ReturnType<typeof languageById>>['syntax'], text: string, hash: string): Promise<WorkerResult> {
  const parser = await loadParser(spec.grammar);
  let clock = performance.now();
  const source = task.parseOnly === 'prepared' && spec.prepare ? spec.prepare(text) : text;
  clock = lap('prepare', clock);
  parser.parse(source)?.delete();
  lap('parse', clock);
  return { id: task.id, outcome: 'parsed', hash, size: text.length, symbolsJson: '[]' };
}

function lap(step: 'read' | 'prepare' | 'parse' | 'serialize', since: number): number {
  const now = performance.now();
  stats[step] += now - since;
  return now;
}

function looksBinary(content: Buffer): boolean {
  return content.subarray(0, 8192).includes(0);
}

parentPort?.on('message', (request: WorkerRequest) => {
  if ('stats' in request) {
    parentPort?.postMessage({ id: request.id, outcome: 'stats', stats: { ...stats, cpuMs: threadCpuMs() } } satisfies WorkerResult);
    return;
  }
  void handle(request).then((result) => parentPort?.postMessage(result));
});
