/**
 * How a parser thread's symbols travel to the writer: as the values the index's rows hold (ids, lower-case
 * name, humps, parameters and bases as their stored JSON, the symbol_bases keys), worked out in the thread,
 * not as objects. The strings are one text and their lengths one Int32Array; the numbers another Int32Array
 * (both arrays transferred, not copied). The main thread, which writes, slices the text and binds: it builds no
 * symbol objects and no JSON. Measured on the kernel's fs/ and include/ (591K symbols, CPU per symbol): the
 * compact JSON this replaces cost the main thread 3.7 µs to read back into objects and its writer 5.1 µs,
 * now 4.2 µs in all; the threads 2.8 µs for ids, humps and JSON, now 2.5 µs for ids, humps and every value.
 */
import { baseKey } from '../syntax/bases.js';
import { POSITIONS, type MacroRows } from '../syntax/macro-rows.js';
import type { ExtractedSymbol, Parameter } from '../syntax/types.js';
import { symbolIds } from './ids.js';
import { humpsOf } from './ranking.js';

/** A symbol as a store keeps it: what extraction gives, the containers optional (no store keeps them; qualifiedName does). */
export type IndexedSymbol = Omit<ExtractedSymbol, 'containers'> & { containers?: string[] };

/**
 * Some symbols' row values (packSymbols): per symbol STRINGS strings and then its keyCount symbol_bases keys
 * (lengths: NULL, SAME_AS_NAME and SAME_AS_BEFORE stand for values not in `text`), and INTS numbers.
 */
export interface SymbolChunk {
  count: number;
  text: string;
  lengths: Int32Array;
  ints: Int32Array;
}

/** A file's symbols as the parser threads send them: a chunk per message (a large file read in pieces sends several). */
export interface PackedSymbols {
  packed: SymbolChunk[];
  count: number;
}

/** A file recorded without symbols (skipped). */
export const NO_SYMBOLS: PackedSymbols = { packed: [], count: 0 };

/** A file's symbols in a FileUpdate: objects (tests, tools), or packed by the threads. */
export type FileSymbols = readonly IndexedSymbol[] | PackedSymbols;

/** The string values of a symbol, in order. */
export const Str = { Sid: 0, Name: 1, NameLower: 2, Humps: 3, Kind: 4, QualifiedName: 5, ContainingType: 6, Signature: 7, Parameters: 8, ReturnType: 9, Doc: 10, Bases: 11, Language: 12 } as const;
export const STRINGS = 13;
/** The numbers of a symbol, in order: range, selection range, flags (1 definition, 2 forward declaration), keyCount. */
export const Int = { Sl: 0, Sc: 1, El: 2, Ec: 3, Nl: 4, Nc: 5, Nel: 6, Nec: 7, Flags: 8, Keys: 9 } as const;
export const INTS = 10;
/** A length that stands for NULL. */
const NULL = -1;
/** A length that stands for the symbol's name (a lower-case name or a qualified name the same as the name). */
const SAME_AS_NAME = -2;
/**
 * A length that stands for the value of the symbol before in the chunk (never a symbol_bases key): a file's symbols
 * mostly share their kind, language, parameters and bases ('[]'); each value not repeated is one string less to
 * join in the thread and to slice on the main thread.
 */
const SAME_AS_BEFORE = -3;

/**
 * Symbols packed with their ids in `file` (its stored path; `seen` carries the ordinals across a file's parts, as
 * symbolIds does). The symbols are taken as given: the builder drops unnamed ones before.
 */
export function packSymbols(symbols: readonly IndexedSymbol[], file: string, seen = new Map<string, number>()): SymbolChunk {
  const sids = symbolIds(file, symbols, seen);
  const lengths = new Lengths(symbols.length * STRINGS);
  const ints = new Int32Array(symbols.length * INTS);
  let text = '';
  let previous: IndexedSymbol | undefined;
  let previousParameters: string | null = null;
  let previousBases: string | null = null;
  for (let i = 0; i < symbols.length; i++) {
    const s = symbols[i];
    const name = s.name;
    text = addNames(text, lengths, sids[i], name);
    // A value the symbol before holds too (its kind, language, '[]' for parameters and bases...) is not repeated.
    if (previous !== undefined && s.kind === previous.kind) {
      lengths.push(SAME_AS_BEFORE);
    } else {
      text += s.kind;
      lengths.push(s.kind.length);
    }
    if (s.qualifiedName === name) lengths.push(SAME_AS_NAME);
    else text = addOrSame(text, lengths, s.qualifiedName, previous === undefined ? null : previous.qualifiedName);
    text = addOrSame(text, lengths, s.containingType, previous === undefined ? null : previous.containingType);
    text += s.signature;
    lengths.push(s.signature.length);
    const parameters = s.parameters.length === 0 ? '[]' : parametersJson(s.parameters);
    text = addOrSame(text, lengths, parameters, previousParameters);
    previousParameters = parameters;
    text = addOrSame(text, lengths, s.returnType, previous === undefined ? null : previous.returnType);
    text = addOrSame(text, lengths, s.doc, previous === undefined ? null : previous.doc);
    const bases = s.bases.length === 0 ? '[]' : JSON.stringify(s.bases);
    text = addOrSame(text, lengths, bases, previousBases);
    previousBases = bases;
    text = addOrSame(text, lengths, s.language, previous === undefined ? null : previous.language);
    previous = s;
    let keys = 0;
    if (s.bases.length > 0) {
      for (const key of baseKeys(s)) {
        text += key;
        lengths.push(key.length);
        keys++;
      }
    }
    const { range, selectionRange } = s;
    const at = i * INTS;
    ints[at + Int.Sl] = range.start.line;
    ints[at + Int.Sc] = range.start.column;
    ints[at + Int.El] = range.end.line;
    ints[at + Int.Ec] = range.end.column;
    ints[at + Int.Nl] = selectionRange.start.line;
    ints[at + Int.Nc] = selectionRange.start.column;
    ints[at + Int.Nel] = selectionRange.end.line;
    ints[at + Int.Nec] = selectionRange.end.column;
    ints[at + Int.Flags] = (s.definition ? 1 : 0) | (s.forwardDeclaration ? 2 : 0);
    ints[at + Int.Keys] = keys;
  }
  return { count: symbols.length, text, lengths: lengths.done(), ints };
}

/**
 * Macros read as rows (syntax/macro-rows.ts) packed as packSymbols packs macroSymbols(rows), their lines moved down
 * by `lineOffset` (a large header's piece): the same chunk, without the symbol objects.
 */
export function packMacroRows(rows: MacroRows, file: string, seen = new Map<string, number>(), lineOffset = 0): SymbolChunk {
  const { names, signatures, docs, parameters: parameterLists, positions, language } = rows;
  const count = names.length;
  const sids = symbolIds(file, names.map((name) => ({ qualifiedName: name, kind: 'macro' as const, forwardDeclaration: false })), seen);
  const lengths = new Lengths(count * STRINGS);
  const ints = new Int32Array(count * INTS);
  let text = '';
  let previousParameters: string | null = null;
  let previousDoc: string | null = null;
  for (let i = 0; i < count; i++) {
    const name = names[i];
    text = addNames(text, lengths, sids[i], name);
    // The kind, bases and language are the first macro's (and qualifiedName is the name; no containing or return type).
    if (i === 0) {
      text += 'macro';
      lengths.push(5);
    } else {
      lengths.push(SAME_AS_BEFORE);
    }
    lengths.push(SAME_AS_NAME);
    lengths.push(NULL);
    const signature = signatures[i];
    text += signature;
    lengths.push(signature.length);
    const list = parameterLists[i];
    const parameters = list.length === 0 ? '[]' : parametersJson(list);
    text = addOrSame(text, lengths, parameters, previousParameters);
    previousParameters = parameters;
    lengths.push(NULL);
    text = addOrSame(text, lengths, docs[i], previousDoc);
    previousDoc = docs[i];
    if (i === 0) {
      text += '[]';
      lengths.push(2);
      text += language;
      lengths.push(language.length);
    } else {
      lengths.push(SAME_AS_BEFORE);
      lengths.push(SAME_AS_BEFORE);
    }
    const from = i * POSITIONS;
    const line = positions[from] + lineOffset;
    const nameColumn = positions[from + 3];
    const at = i * INTS;
    ints[at + Int.Sl] = line;
    ints[at + Int.Sc] = positions[from + 1];
    ints[at + Int.El] = positions[from + 2] + lineOffset;
    ints[at + Int.Ec] = 1;
    ints[at + Int.Nl] = line;
    ints[at + Int.Nc] = nameColumn;
    ints[at + Int.Nel] = line;
    ints[at + Int.Nec] = nameColumn + name.length;
    ints[at + Int.Flags] = 1;
    ints[at + Int.Keys] = 0;
  }
  return { count, text, lengths: lengths.done(), ints };
}

/** A symbol's first four values, its id, name, lowercased name (SAME_AS_NAME when equal) and humps: the text with them. */
function addNames(text: string, lengths: Lengths, sid: string, name: string): string {
  const nameLower = name.toLowerCase();
  const humps = humpsOf(name);
  text += sid;
  text += name;
  lengths.push(sid.length);
  lengths.push(name.length);
  if (nameLower === name) {
    lengths.push(SAME_AS_NAME);
  } else {
    text += nameLower;
    lengths.push(nameLower.length);
  }
  text += humps;
  lengths.push(humps.length);
  return text;
}

/**
 * A value (NULL for null), or SAME_AS_BEFORE when the symbol before holds the same (never for null): the text with it.
 * The text is built by `+=` (a rope V8 flattens once, when the chunk is posted) rather than parts joined at the end.
 */
function addOrSame(text: string, lengths: Lengths, value: string | null, before: string | null): string {
  if (value === null) {
    lengths.push(NULL);
    return text;
  }
  if (value === before) {
    lengths.push(SAME_AS_BEFORE);
    return text;
  }
  lengths.push(value.length);
  return text + value;
}

/** A chunk's lengths, in an Int32Array that grows (a symbol's keys may pass the STRINGS a symbol first reserved). */
class Lengths {
  private array: Int32Array;
  private count = 0;

  constructor(capacity: number) {
    this.array = new Int32Array(Math.max(capacity, 16));
  }

  push(length: number): void {
    if (this.count === this.array.length) {
      const grown = new Int32Array(this.array.length * 2);
      grown.set(this.array);
      this.array = grown;
    }
    this.array[this.count++] = length;
  }

  /** The lengths pushed, in an array of their own (the buffer is transferred whole). */
  done(): Int32Array {
    return this.array.slice(0, this.count);
  }
}

/** The parameters column: [{"name":…,"type":…}, …], those two keys in that order whatever the objects hold. */
function parametersJson(parameters: readonly Parameter[]): string {
  // Written out (JSON.stringify of each string) rather than stringified objects made for it: the same text, less work.
  let json = '[';
  for (const p of parameters) {
    if (typeof p.name !== 'string' || typeof p.type !== 'string') return JSON.stringify(parameters.map((q) => ({ name: q.name, type: q.type })));
    json += `${json.length > 1 ? ',' : ''}{"name":${JSON.stringify(p.name)},"type":${JSON.stringify(p.type)}}`;
  }
  return `${json}]`;
}

/** The symbol_bases keys of a type: each base's last name segment, and the names its import aliases stand for. */
export function baseKeys(symbol: { bases: readonly string[]; baseAliases?: readonly string[] }): Set<string> {
  const keys = new Set<string>();
  for (const base of symbol.bases) {
    const key = baseKey(base);
    if (key) keys.add(key);
  }
  for (const alias of symbol.baseAliases ?? []) keys.add(alias);
  return keys;
}

/**
 * Reads a chunk's symbols in order: next() gives the symbol's values (strings in `strings`, the numbers at
 * `at` in chunk.ints), sliced from the text. One reader, reused, allocates nothing but the strings.
 */
export class ChunkReader {
  /** The current symbol's strings, by Str; its keys follow (keyCount of them). */
  readonly strings: Array<string | null> = [];
  at = -INTS;
  private position = 0;
  private length = 0;

  constructor(readonly chunk: SymbolChunk) {}

  next(): void {
    const { text, lengths, ints } = this.chunk;
    this.at += INTS;
    const total = STRINGS + ints[this.at + Int.Keys];
    const strings = this.strings;
    strings.length = total;
    for (let k = 0; k < total; k++) {
      const n = lengths[this.length++];
      if (n >= 0) {
        strings[k] = text.slice(this.position, this.position + n);
        this.position += n;
      } else if (n !== SAME_AS_BEFORE) {
        // SAME_AS_BEFORE: strings[k] still holds the symbol before's value.
        strings[k] = n === NULL ? null : strings[Str.Name];
      }
    }
  }

  int(field: number): number {
    return this.chunk.ints[this.at + field];
  }
}

export function symbolCount(symbols: FileSymbols): number {
  return 'packed' in symbols ? symbols.count : symbols.length;
}

/** The symbols as objects (a packed file's read back: baseAliases then holds every symbol_bases key, which baseKeys gives back alike). */
export function symbolObjects(symbols: FileSymbols): IndexedSymbol[] {
  if (!('packed' in symbols)) return [...symbols];
  const objects: IndexedSymbol[] = [];
  for (const chunk of symbols.packed) {
    const reader = new ChunkReader(chunk);
    for (let i = 0; i < chunk.count; i++) {
      reader.next();
      const s = reader.strings as string[];
      const flags = reader.int(Int.Flags);
      const symbol: IndexedSymbol = {
        name: s[Str.Name],
        kind: s[Str.Kind] as IndexedSymbol['kind'],
        qualifiedName: s[Str.QualifiedName],
        containingType: s[Str.ContainingType],
        range: { start: { line: reader.int(Int.Sl), column: reader.int(Int.Sc) }, end: { line: reader.int(Int.El), column: reader.int(Int.Ec) } },
        selectionRange: { start: { line: reader.int(Int.Nl), column: reader.int(Int.Nc) }, end: { line: reader.int(Int.Nel), column: reader.int(Int.Nec) } },
        signature: s[Str.Signature],
        parameters: JSON.parse(s[Str.Parameters]) as Parameter[],
        returnType: s[Str.ReturnType],
        doc: s[Str.Doc],
        definition: (flags & 1) !== 0,
        forwardDeclaration: (flags & 2) !== 0,
        bases: JSON.parse(s[Str.Bases]) as string[],
        language: s[Str.Language] as IndexedSymbol['language'],
      };
      if (reader.int(Int.Keys) > 0) symbol.baseAliases = s.slice(STRINGS);
      objects.push(symbol);
    }
  }
  return objects;
}

/** The ids packed with the symbols (symbolIds of the file they were packed for). */
export function packedIds(symbols: PackedSymbols): string[] {
  const ids: string[] = [];
  for (const chunk of symbols.packed) {
    const reader = new ChunkReader(chunk);
    for (let i = 0; i < chunk.count; i++) {
      reader.next();
      ids.push(reader.strings[Str.Sid] as string);
    }
  }
  return ids;
}

/** Packed as one file's, for a writer that takes packed symbols only. */
export function packed(symbols: FileSymbols, file: string): PackedSymbols {
  return 'packed' in symbols ? symbols : { packed: [packSymbols(symbols, file)], count: symbols.length };
}
