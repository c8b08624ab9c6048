/**
 * `plumb index [ROOT]`: builds (or brings up to date) the workspace's index with a progress bar
 * on stderr, then prints what it holds per language. cli.ts parses the arguments and calls this.
 */
import { realpathSync } from 'node:fs';
import { cacheDirectory, type PlumbConfig } from '../config.js';
import { isTransientStoreError, SymbolIndex, type BuildSummary, type IndexProgress } from './symbol-index.js';
import type { LeftOut } from './store.js';

export interface IndexCommandStreams {
  out: NodeJS.WritableStream & { isTTY?: boolean };
  err: NodeJS.WritableStream & { isTTY?: boolean; columns?: number };
}

const number = new Intl.NumberFormat('en-US');

/**
 * A build the store cut short (unreachable, past its deadline, an SQLite database locked by another process) is
 * started again, from what it committed, up to this many times in all, RETRY_FIRST_MS apart and doubling: a
 * kernel's cold build into a busy PostgreSQL need not start over by hand because one batch was slow.
 */
const BUILD_ATTEMPTS = 5;
const RETRY_FIRST_MS = 1000;

/** index.build(), started again after a store failure that may pass, saying so on `err`. */
async function buildWithRetries(index: SymbolIndex, err: NodeJS.WritableStream): Promise<BuildSummary> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await index.build();
    } catch (error) {
      if (!isTransientStoreError(error) || attempt >= BUILD_ATTEMPTS) throw error;
      const delay = RETRY_FIRST_MS * 2 ** (attempt - 1);
      const message = error instanceof Error ? error.message : String(error);
      err.write(`\nindex: the build stopped (${message}); trying again in ${delay / 1000} s from what it committed (attempt ${attempt + 1} of ${BUILD_ATTEMPTS})\n`);
      await new Promise((resolve) => setTimeout(resolve, delay));
    }
  }
}

/** Returns the process exit code: 0 when the index was built, 1 when files failed to parse. */
export async function runIndexCommand(root: string, config: PlumbConfig, streams: IndexCommandStreams = { out: process.stdout, err: process.stderr }): Promise<number> {
  const realRoot = realpathSync(root);
  const cacheDir = cacheDirectory(config);
  // The command builds once and exits: no watcher.
  const index = await SymbolIndex.open({
    root: realRoot,
    config: { ...config, index: { ...config.index, watch: false } },
    cacheDir,
    logger: { info: () => undefined, warn: (message) => streams.err.write(`${message}\n`) },
  });
  const bar = progressBar(streams.err);
  const stop = index.onProgress(bar.update);
  try {
    const summary = await buildWithRetries(index, streams.err);
    bar.done();
    const languages = await index.reader.languageCounts();
    const store = await index.storeStatus();
    const width = Math.max(8, ...languages.map((l) => l.language.length));
    const lines = [
      `Indexed ${realRoot}`,
      `  ${number.format(summary.filesTotal)} files: ${number.format(summary.filesParsed)} parsed, ${number.format(summary.filesReused)} unchanged, ${number.format(summary.filesRemoved)} removed${summary.filesSkipped ? `, ${number.format(summary.filesSkipped)} not parsed` : ''}${summary.filesFailed ? `, ${number.format(summary.filesFailed)} failed` : ''}`,
      `  ${number.format(summary.symbols)} symbols in ${(summary.elapsedMs / 1000).toFixed(1)} s`,
      `  ${store.backend === 'sqlite' ? 'database:' : `store: ${store.backend}`} ${store.location}${store.workspace ? `, workspace ${store.workspace}` : ''}`,
      ...notIndexedLines(index.notIndexed()),
      '',
      `  ${'language'.padEnd(width)}  ${'files'.padStart(9)}  ${'symbols'.padStart(11)}`,
      ...languages.map((l) => `  ${l.language.padEnd(width)}  ${number.format(l.files).padStart(9)}  ${number.format(l.symbols).padStart(11)}`),
    ];
    streams.out.write(lines.join('\n') + '\n');
    return summary.filesFailed > 0 ? 1 : 0;
  } finally {
    stop();
    await index.close();
  }
}

/** What the index leaves out, said in a line and the first few paths (GET /status lists 50). */
function notIndexedLines(leftOut: LeftOut | undefined): string[] {
  if (!leftOut || leftOut.total === 0) return [];
  const reasons = Object.entries(leftOut.byReason).map(([reason, n]) => `${number.format(n)} ${reason.replace('_', ' ')}`).join(', ');
  const shown = leftOut.paths.slice(0, 5).map((entry) => `    ${entry.path}${entry.kind === 'directory' ? '/' : ''}: ${entry.detail}`);
  return [`  not indexed: ${number.format(leftOut.total)} (${reasons})`, ...shown, ...(leftOut.total > shown.length ? ['    ... (GET /status lists the first 50)'] : [])];
}

/** A bar redrawn in place on a terminal; elsewhere (CI logs) a line every 10%. */
function progressBar(stream: IndexCommandStreams['err']): { update: (progress: IndexProgress) => void; done: () => void } {
  let lastDraw = 0;
  let lastDecile = -1;
  let drawn = false;
  const render = (p: IndexProgress): string => {
    const fraction = p.filesTotal > 0 ? Math.min(1, p.filesIndexed / p.filesTotal) : 0;
    const width = 30;
    const filled = Math.round(fraction * width);
    return `[${'#'.repeat(filled)}${'.'.repeat(width - filled)}] ${(fraction * 100).toFixed(0).padStart(3)}%  ${number.format(p.filesIndexed)}/${number.format(p.filesTotal)} files  ${number.format(p.symbols)} symbols`;
  };
  return {
    update(progress) {
      if (progress.filesTotal === 0) return;
      if (stream.isTTY) {
        const now = Date.now();
        if (now - lastDraw < 100 && progress.filesIndexed < progress.filesTotal) return;
        lastDraw = now;
        stream.write(`\r${render(progress)}\u001b[K`);
        drawn = true;
      } else {
        const decile = Math.floor((progress.filesIndexed / progress.filesTotal) * 10);
        if (decile === lastDecile) return;
        lastDecile = decile;
        stream.write(`${render(progress)}\n`);
      }
    },
    done() {
      if (drawn) stream.write('\n');
    },
  };
}
