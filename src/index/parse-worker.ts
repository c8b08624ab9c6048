/**
 * A parser thread: reads a file, hashes it, and extracts its symbols with tree-sitter unless the
 * hash says the stored symbols are still right. One per core, started by ParsePool.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { addLanguageModules, languageById, languageOfPath, type Language, type SourcePiece } from '../languages/index.js';
import { extractFileSymbols } from '../syntax/index.js';
import { loadParser, MAX_NESTING } from '../syntax/grammars.js';
import type { ExtractedSymbol, LanguageId } from '../syntax/types.js';
import { contentHash } from './ids.js';
import { packMacroRows, packSymbols, type SymbolChunk } from './symbol-codec.js';
import type { MacroRows } from '../syntax/macro-rows.js';
import { MAX_PARSED_BYTES, tooLargeDetail, type ParseTask, type WorkerRequest, type WorkerResult, type WorkerStats } from './parse-pool.js';
import { threadCpuMs } from './thread-cpu.js';
import { readWalkedFile } from './walked-file.js';
import { collectIfGrown } from './heap.js';

/** From this size a file its language can cut is read in pieces of PIECE_SIZE (Language.largeFilePieces). */
const PIECES_FROM_BYTES = 4 * 1024 * 1024;
const PIECE_SIZE = 1024 * 1024;
/**
 * A thread that parsed a file this large whole retires once its tasks are done: tree-sitter's memory never
 * shrinks (a 71 MB header left the thread 230 MB larger), a new thread starts small.
 */
const RETIRE_AFTER_BYTES = 16 * 1024 * 1024;
/** A parser thread's heap growth past which it collects (collectIfGrown): a few large files' worth. */
const THREAD_HEAP_GROWTH = 64 * 1024 * 1024;

/** Where this thread's time went (ParsePool.stats): wall milliseconds per step, summed over files. */
const stats: WorkerStats = { files: 0, read: 0, prepare: 0, parse: 0, extract: 0, serialize: 0, cpuMs: undefined, startCpuMs: threadCpuMs() };

/** The languages the main thread added from modules (a test's toy language), loaded before the first file. */
const languagesLoaded = addLanguageModules((workerData as { languageModules?: string[] } | undefined)?.languageModules ?? []);

async function handle(task: ParseTask): Promise<WorkerResult> {
  try {
    await languagesLoaded;
    const clock = performance.now();
    // Synchronous: this thread has nothing else to do meanwhile, and one read call costs less CPU than
    // the thread pool's open/stat/read/close round trips (and its time is then this step's own).
    let content: Buffer | number;
    try {
      const read = readWalkedFile(task.absolute);
      content = read.bytes ?? read.stats.size;
    } catch (error) {
      // Gone, or a link now (the watcher takes those): a failure. Anything else is a file plumb cannot read.
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'ENOENT' || code === 'ELOOP') throw error;
      return { id: task.id, outcome: 'skipped', reason: 'unreadable', detail: `cannot be read (${code ?? (error instanceof Error ? error.message : String(error))})`, hash: '', size: 0 };
    }
    if (typeof content === 'number') return tooLarge(task, content, '');
    const hash = contentHash(content);
    stats.files++;
    lap('read', clock);
    if (hash === task.previousHash) return { id: task.id, outcome: 'unchanged', hash, size: content.length };
    if (content.length > MAX_PARSED_BYTES) return tooLarge(task, content.length, hash);
    if (looksBinary(content)) return { id: task.id, outcome: 'skipped', reason: 'binary', detail: 'holds NUL bytes in its first 8 KB: not text', hash, size: content.length };
    const text = content.toString('utf8');
    // The walker's language, unless the text says otherwise (a `.h` its tree calls C that holds classes: LanguageOfFile.ofText).
    const readAs = languageOfPath(task.absolute)?.languageOf?.ofText?.(task.absolute, task.language, text);
    const id = readAs ?? task.language;
    const language = languageById(id);
    if (!language) return { id: task.id, outcome: 'failed', error: `no language '${id}' in LANGUAGES (src/languages/index.ts) or the language modules added` };
    if (task.parseOnly) return await parseOnly(task, language.syntax, text, hash);
    const pieces = content.length > PIECES_FROM_BYTES ? language.largeFilePieces?.(text, PIECE_SIZE) : undefined;
    const packer = new Packer(task.stored ?? task.absolute);
    let chunk: SymbolChunk;
    if (pieces) {
      const read = await extractInPieces(task.id, language, pieces, packer);
      if (read.gaveUpAfterMs !== undefined || read.tooDeep) return notParsed(task, read, hash, content.length);
      chunk = packer.pack([]);
    } else {
      const read = await extractFileSymbols(language, text, stats, undefined, true);
      if (read.gaveUpAfterMs !== undefined || read.tooDeep) return notParsed(task, read, hash, content.length);
      chunk = read.rows ? packer.packRows(read.rows, 0) : packer.pack(read.symbols);
    }
    const retire = !pieces && content.length > RETIRE_AFTER_BYTES;
    return {
      id: task.id, outcome: 'parsed', hash, size: content.length, chunk,
      ...(language.id !== task.language ? { language: language.id as LanguageId } : {}), ...(retire ? { retire } : {}),
    };
  } catch (error) {
    return { id: task.id, outcome: 'failed', error: error instanceof Error ? error.message : String(error) };
  }
}

/**
 * Each piece's symbols, placed at the piece's lines in the file, sent to the main thread as a message of its own
 * once extracted (WorkerResult 'piece'): only one piece's symbols are objects here at a time, and neither thread
 * holds the whole file's message (the kernel's 24 MB header of 194,403 #defines made one of 58 MB, which the main
 * thread held beside its decoded values). The file's own message then carries none.
 */
async function extractInPieces(id: number, language: Language, pieces: SourcePiece[], packer: Packer): Promise<{ gaveUpAfterMs?: number; tooDeep?: true }> {
  for (const piece of pieces) {
    const read = await extractFileSymbols(language, piece.text, stats, undefined, true);
    if (read.gaveUpAfterMs !== undefined || read.tooDeep) return read;
    for (const symbol of read.symbols) {
      for (const range of [symbol.range, symbol.selectionRange]) {
        range.start.line += piece.line;
        range.end.line += piece.line;
      }
    }
    const chunk = read.rows ? packer.packRows(read.rows, piece.line) : packer.pack(read.symbols);
    if (chunk.count > 0) parentPort?.postMessage({ id, outcome: 'piece', chunk } satisfies WorkerResult, transferOf(chunk));
  }
  return {};
}

/**
 * The symbols the index keeps (a name on one line, not empty: no language has other names; those are a parser's error
 * recovery) packed as the writer binds them (symbol-codec.ts): ids in the file (task.stored; the absolute path for a
 * task without one, which nothing writes), ordinals carried across a large file's pieces.
 */
class Packer {
  private readonly seen = new Map<string, number>();

  constructor(private readonly file: string) {}

  pack(symbols: ExtractedSymbol[]): SymbolChunk {
    const clock = performance.now();
    const kept = symbols.filter((symbol) => symbol.name !== '' && !symbol.name.includes('\n'));
    const chunk = packSymbols(kept, this.file, this.seen);
    lap('serialize', clock);
    return chunk;
  }

  /** Macros read without parsing, their lines moved down by `lineOffset` (a piece's): their names are words, all kept. */
  packRows(rows: MacroRows, lineOffset: number): SymbolChunk {
    const clock = performance.now();
    const chunk = packMacroRows(rows, this.file, this.seen, lineOffset);
    lap('serialize', clock);
    return chunk;
  }
}

/** A chunk's arrays go to the main thread without a copy. */
function transferOf(chunk: SymbolChunk): ArrayBuffer[] {
  return [chunk.lengths.buffer as ArrayBuffer, chunk.ints.buffer as ArrayBuffer];
}

/**
 * A file tree-sitter gave up on at its deadline (pathological input, or a machine too loaded to parse it in time), or
 * one nesting brackets deeper than it is asked to parse: recorded with why, so /status lists it, instead of stored as
 * a file without symbols.
 */
function notParsed(task: ParseTask, read: { gaveUpAfterMs?: number; tooDeep?: true }, hash: string, size: number): WorkerResult {
  if (read.tooDeep) return { id: task.id, outcome: 'skipped', reason: 'too_deep', detail: `nests brackets more than ${MAX_NESTING} deep: not parsed`, hash, size };
  const detail = `tree-sitter did not finish parsing it within ${((read.gaveUpAfterMs ?? 0) / 1000).toFixed(1)} s (1.5 s and 5 s per MB); parsed again when it changes`;
  return { id: task.id, outcome: 'skipped', reason: 'parse_timeout', detail, hash, size };
}

/** A file larger than plumb parses: `hash` is empty when it was not read. */
function tooLarge(task: ParseTask, size: number, hash: string): WorkerResult {
  return { id: task.id, outcome: 'skipped', reason: 'too_large', detail: tooLargeDetail(size), hash, size };
}

/** The bench's baseline: tree-sitter's parse alone, of the text as written or as the extractor prepares it. */
async function parseOnly(task: ParseTask, spec: NonNullable<ReturnType<typeof languageById>>['syntax'], text: string, hash: string): Promise<WorkerResult> {
  const parser = await loadParser(spec.grammar);
  let clock = performance.now();
  const source = task.parseOnly === 'prepared' && spec.prepare ? spec.prepare(text) : text;
  clock = lap('prepare', clock);
  parser.parse(source)?.delete();
  lap('parse', clock);
  return { id: task.id, outcome: 'parsed', hash, size: text.length, chunk: packSymbols([], '') };
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
  void handle(request).then((result) => {
    parentPort?.postMessage(result, result.outcome === 'parsed' ? transferOf(result.chunk) : []);
    // After a large file, its text, symbols and message are garbage: collected now, not after many more (heap.ts).
    setImmediate(() => collectIfGrown(THREAD_HEAP_GROWTH));
  });
});
