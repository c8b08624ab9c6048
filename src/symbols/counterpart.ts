/**
 * GET /symbols/counterpart (find_counterpart, Rider's Alt+F10): a C or C++ file's header or source
 * counterparts, from the index. First the files sharing its functions and methods (declared in one,
 * defined in the other: same qualified name and arity), most shared first; then files of the same base
 * name (`foo.h` ↔ `foo.cc`/`.cpp`/`.cxx`/`.c`/`.mm`, in the same directory or a sibling include/src tree),
 * nearest first.
 */
import { activeLanguages, declarationFiles, rulesOf } from '../languages/index.js';
import path from 'node:path';
import { PlumbError, invalidParameter } from '../errors.js';
import type { StoredSymbol } from '../index/store.js';
import type { Services } from '../services.js';
import type { Counterpart, CounterpartQuery, CounterpartResponse } from '../../schemas/navigation.js';
import { elapsedMs } from './elapsed.js';
import { checkLimit, listEnvelope, pageOf } from './envelope.js';
import { CALLABLE_KINDS } from './resolve-symbol.js';

/** Names looked up at most (a header declaring more is rare; the rest only weakens the counts). */
const NAMES_MAX = 4000;
/** Places read per name: a name declared this often is no one file's. */
const PLACES_PER_NAME = 200;
const EXAMPLES = 5;

type Role = 'header' | 'source';

export async function findCounterpart(services: Services, query: CounterpartQuery): Promise<CounterpartResponse> {
  const started = performance.now();
  const limit = checkLimit(query.limit);
  const offset = query.offset ?? 0;
  if (!Number.isInteger(offset) || offset < 0) throw invalidParameter('offset', 'must be an integer of 0 or more');
  const file = services.workspace.resolveFile('file', query.file);
  const extensions = declarationFiles();
  const role = roleOf(file.relative, extensions);
  if (!role) {
    const languages = activeLanguages().list.filter((language) => language.rules.separateDeclarations);
    throw new PlumbError('unsupported_language', `Counterparts are for ${languages.map((language) => language.name).join(' and ')} files (headers ${[...extensions.headers].join(' ')}, sources ${[...extensions.sources].join(' ')}); '${file.relative}' is not one`, { details: { parameter: 'file', languages: languages.map((language) => language.id) } });
  }
  const reader = services.index.reader;

  // Shared symbols: the header's declarations defined elsewhere, or the source's definitions declared elsewhere.
  const own = (await reader.symbolsInFile(file.relative)).filter((symbol) => isCallable(symbol) && !symbol.forwardDeclaration);
  const wanted = new Map<string, StoredSymbol>();
  for (const symbol of own) {
    if (role === 'header' ? symbol.definition : !symbol.definition) continue;
    wanted.set(identity(symbol), symbol);
  }
  const names = [...new Set([...wanted.values()].map((symbol) => symbol.name))].slice(0, NAMES_MAX);
  const shared = new Map<string, Set<string>>();
  if (names.length > 0) {
    for (const other of await reader.symbolsNamed(names, PLACES_PER_NAME)) {
      if (other.file === file.relative || !isCallable(other) || !rulesOf(other.language)?.separateDeclarations) continue;
      // Declared in one, defined in the other.
      if (role === 'header' ? !other.definition : other.definition) continue;
      const key = identity(other);
      if (!wanted.has(key)) continue;
      const set = shared.get(other.file) ?? new Set<string>();
      set.add(key);
      shared.set(other.file, set);
    }
  }

  // Same base name, opposite kind of file, in the workspace.
  const stem = stemOf(file.relative);
  const opposite = role === 'header' ? extensions.sources : extensions.headers;
  const sameName = (await reader.indexedFiles()).filter((other) => other !== file.relative && !path.isAbsolute(other)
    && stemOf(other) === stem && opposite.has(path.posix.extname(other).toLowerCase()));
  // The nearest ones (same directory, else the closest include/src sibling); farther namesakes only when they share symbols.
  const nearest = Math.max(-1, ...sameName.map((other) => commonDirectories(other, file.relative)));
  const byName = new Set(sameName.filter((other) => commonDirectories(other, file.relative) === nearest));

  const files = new Set([...shared.keys(), ...byName]);
  const results: Counterpart[] = [...files].map((other) => {
    const keys = shared.get(other);
    const count = keys?.size ?? 0;
    const sameBaseName = stemOf(other) === stem;
    const reasons = [...(count > 0 ? [`shared symbols: ${count}`] : []), ...(sameBaseName ? ['same base name'] : [])];
    return {
      file: other,
      role: roleOf(other, extensions) ?? (role === 'header' ? 'source' : 'header'),
      reason: reasons.join('; '),
      sharedSymbols: count,
      sameBaseName,
      examples: [...new Set([...(keys ?? [])].map((key) => wanted.get(key)?.qualifiedName ?? key))].slice(0, EXAMPLES),
    };
  });
  results.sort((a, b) => b.sharedSymbols - a.sharedSymbols
    || Number(b.sameBaseName) - Number(a.sameBaseName)
    || commonDirectories(b.file, file.relative) - commonDirectories(a.file, file.relative)
    || (a.file < b.file ? -1 : a.file > b.file ? 1 : 0));
  const page = pageOf(results, offset, limit);
  return {
    file: file.relative,
    role,
    results: page,
    ...listEnvelope({ limit, offset, totalMatches: results.length, returned: page.length }, services),
    source: 'index',
    elapsedMs: elapsedMs(started),
  };
}

function roleOf(file: string, extensions: ReturnType<typeof declarationFiles>): Role | undefined {
  const extension = path.posix.extname(file).toLowerCase();
  if (extensions.headers.has(extension)) return 'header';
  if (extensions.sources.has(extension)) return 'source';
  return undefined;
}

function isCallable(symbol: StoredSymbol): boolean {
  return (CALLABLE_KINDS as readonly string[]).includes(symbol.kind);
}

/** One function across its declaration and definition: qualified name and arity (parameter spellings differ between the two). */
function identity(symbol: StoredSymbol): string {
  return `${symbol.qualifiedName}\u0000${symbol.parameters.length}`;
}

/** `gtest-port` of `include/gtest/internal/gtest-port.h`. */
function stemOf(file: string): string {
  const base = path.posix.basename(file);
  const extension = path.posix.extname(base);
  return extension ? base.slice(0, -extension.length) : base;
}

/** Leading directories two paths share. */
function commonDirectories(a: string, b: string): number {
  const left = path.posix.dirname(a).split('/');
  const right = path.posix.dirname(b).split('/');
  let common = 0;
  while (common < left.length && common < right.length && left[common] === right[common]) common++;
  return common;
}
