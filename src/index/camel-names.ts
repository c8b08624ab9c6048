/**
 * The CamelCase tier's candidates from memory: every distinct name of an index as its humps' first three characters,
 * grouped by its first hump, so a query's candidates are found by a pass over the names its first hump allows (or, when
 * those are many, over the rarest list of names whose first initial comes with a later hump's initial), in a few flat
 * arrays, where SQLite reads them through full-text lists (the pairs of initials, the trigrams of a word) that hold some
 * hundred thousand kernel names for a query like `CT_RSP_ACCEPT` or `DMA_A_INTERRUPT` (50-250 ms a search). Before each
 * name's humps are compared, two masks rule most names out: its initials, and its humps' first two characters hashed.
 *
 * The test is fuzzyMatches' own (a query hump starts a later hump of the name, in order, or a hump that may be initials
 * has each of its letters start one), with each hump of the name cut to its first three characters: a hump that starts
 * with the query's still starts with its first three, so every match is a candidate, and the tier's SQL decides on the
 * candidates as it decides on any others (src/index/sqlite/search.ts). Names are never deleted from an index and a name
 * keeps its id: candidates from a set built earlier stay right, and the names added since (ids past `loaded`) are
 * candidates too, read from SQLite.
 *
 * The arrays are SharedArrayBuffers: one thread builds them (camel-worker.ts), every search thread reads them. They are
 * kept in a file beside the index (save, load): a restart reads them in a fraction of a second, where building them reads
 * every name (some 6-8 s of a core on the kernel's 4 million; 182 MB).
 */
import { closeSync, openSync, readSync, renameSync, rmSync, writeSync } from 'node:fs';
import { startsHump, type QueryHump } from './ranking.js';

/** The arrays in the order a saved file holds them, after its header. */
const ARRAYS = ['ids', 'masks', 'pairs', 'offsets', 'starts', 'codes', 'lists', 'listStarts'] as const;
/** A saved file's first bytes; its format's version follows in the header. */
const MAGIC = 'plumb-camel-names';
const FORMAT = 2;

/** A saved file's header (JSON, after MAGIC and its length): what it holds, and of which index. */
interface SavedHeader {
  format: number;
  /** The index's own id (meta `instance`, made with its database): another index's names have other ids. */
  instance: string;
  loaded: number;
  /** Each array's length in bytes. */
  bytes: Record<(typeof ARRAYS)[number], number>;
}

/** The arrays of a CamelNames, as posted between threads. */
export interface CamelBuffers {
  /** The highest names.id read: names after it are not in the arrays. */
  loaded: number;
  /** names.id of each entry, entries ordered by their first hump's code. */
  ids: SharedArrayBuffer;
  /** Each entry's hump initials as bits (a-z: bits 0-25, digits folded into 26-31). */
  masks: SharedArrayBuffer;
  /** Each entry's humps' first two characters, hashed to one of 32 bits each (PAIR_BIT). */
  pairs: SharedArrayBuffer;
  /** Where each entry's hump codes start in `codes` (one more offset than entries). */
  offsets: SharedArrayBuffer;
  /** Every entry's hump codes, entry after entry. */
  codes: SharedArrayBuffer;
  /** Per first-hump code, the first entry with that code or a later one (CODES + 1 offsets). */
  starts: SharedArrayBuffer;
  /**
   * The entries whose first hump starts with a letter and a later hump with another (initials' bits, as `masks`), in entry
   * order, list after list (LISTS of them: first letter's code * 32 + the later one's bit), and where each list starts
   * (LISTS + 1 offsets): a query whose first hump may be initials reads the rarest of its lists instead of every name
   * starting with that letter (the kernel's `m`: 498,708 names).
   */
  lists: SharedArrayBuffer;
  listStarts: SharedArrayBuffer;
}

/** A character's code: a-z (either case) 1-26, 0-9 27-36, 0 for anything else (a separator, as for humpsOf). */
const CHAR = new Uint8Array(128);
for (let c = 97; c <= 122; c++) CHAR[c] = c - 96;
for (let c = 65; c <= 90; c++) CHAR[c] = c - 64;
for (let c = 48; c <= 57; c++) CHAR[c] = c - 21;

/** A hump's code: its first three characters' codes in base 37 (0 where the hump is shorter), so those starting with a text make one range. */
const BASE = 37;
const CODES = BASE * BASE * BASE;
/** Lists of entries by first letter and a later initial's bit (CamelBuffers.lists). */
const LISTS = BASE * 32;
/** A scan this long or shorter reads its entries in order; a longer one, the rarest list of first and later initials if shorter. */
const SCAN_DIRECT = 4096;

/** A character's bit among a name's initials. */
const BIT = Int32Array.from({ length: BASE }, (_, char) => (char === 0 ? 0 : 1 << (char <= 26 ? char - 1 : 26 + ((char - 27) % 6))));
/** The first character of a hump's code. */
const letterOf = (code: number): number => Math.floor(code / (BASE * BASE));
/** A hump's first two characters (`first * BASE + second`, second 0 for a hump of one) hashed to one of 32 bits. */
const PAIR_BIT = Int32Array.from({ length: BASE * BASE }, (_, pair) => 1 << (Math.imul(pair, 0x9e3779b1) >>> 27));

/** Where humpCodes writes: the codes of every name read so far, and the last name's initials and pairs. */
const scratch = { codes: new Uint16Array(0), mask: 0, pairs: 0 };

/**
 * A name's hump codes written to scratch.codes from `at` (growing it as needed), its humps where humpSegments cuts them
 * (startsHump). Returns the codes' end; scratch.mask and scratch.pairs hold the name's initials and pairs.
 */
function humpCodes(name: string, at: number): number {
  let mask = 0;
  let pairs = 0;
  let code = 0;
  let pair = 0;
  let length = 0;
  let previous = -1;
  const n = name.length;
  for (let i = 0; i < n; i++) {
    const c = name.charCodeAt(i);
    const char = c < 128 ? CHAR[c] : 0;
    if (char === 0) {
      previous = -1;
      continue;
    }
    // After a letter or digit, only a capital may start a hump: startsHump is asked only then.
    if (previous < 0 || (c <= 90 && c >= 65 && startsHump(name, i))) {
      if (length > 0) {
        if (at === scratch.codes.length) grow16();
        scratch.codes[at++] = code;
        pairs |= PAIR_BIT[pair];
      }
      pair = char * BASE;
      code = pair * BASE;
      length = 1;
      mask |= BIT[char];
    } else if (length === 1) {
      code += char * BASE;
      pair += char;
      length = 2;
    } else if (length === 2) {
      code += char;
      length = 3;
    }
    previous = c;
  }
  if (length > 0) {
    if (at === scratch.codes.length) grow16();
    scratch.codes[at++] = code;
    pairs |= PAIR_BIT[pair];
  }
  scratch.mask = mask;
  scratch.pairs = pairs;
  return at;
}

function grow16(): void {
  const grown = new Uint16Array(Math.max(1 << 18, scratch.codes.length * 2));
  grown.set(scratch.codes);
  scratch.codes = grown;
}

/** The codes of the humps starting with `text` (lower case ASCII letters and digits): one range. Undefined for any other character. */
function codeRange(text: string): [number, number] | undefined {
  let lo = 0;
  let span = CODES;
  for (let i = 0; i < 3 && i < text.length; i++) {
    const c = text.charCodeAt(i);
    const char = c < 128 ? CHAR[c] : 0;
    if (char === 0) return undefined;
    span /= BASE;
    lo += char * span;
  }
  return [lo, lo + span - 1];
}

export class CamelNames {
  private readonly ids: Uint32Array;
  private readonly masks: Uint32Array;
  private readonly pairs: Uint32Array;
  private readonly offsets: Uint32Array;
  private readonly codes: Uint16Array;
  private readonly starts: Uint32Array;
  private readonly lists: Uint32Array;
  private readonly listStarts: Uint32Array;

  private constructor(readonly buffers: CamelBuffers) {
    this.ids = new Uint32Array(buffers.ids);
    this.masks = new Uint32Array(buffers.masks);
    this.pairs = new Uint32Array(buffers.pairs);
    this.offsets = new Uint32Array(buffers.offsets);
    this.codes = new Uint16Array(buffers.codes);
    this.starts = new Uint32Array(buffers.starts);
    this.lists = new Uint32Array(buffers.lists);
    this.listStarts = new Uint32Array(buffers.listStarts);
  }

  /** Whether the arrays agree with each other (a saved file read back): every offset within what it points into. */
  private whole(): boolean {
    const n = this.ids.length;
    const inOrder = (offsets: Uint32Array, end: number): boolean => {
      for (let i = 1; i < offsets.length; i++) if (offsets[i] < offsets[i - 1]) return false;
      return offsets[0] === 0 && offsets[offsets.length - 1] === end;
    };
    if (this.masks.length !== n || this.pairs.length !== n || this.offsets.length !== n + 1 || this.starts.length !== CODES + 1 || this.listStarts.length !== LISTS + 1) return false;
    if (!inOrder(this.offsets, this.codes.length) || !inOrder(this.starts, n) || !inOrder(this.listStarts, this.lists.length)) return false;
    for (let i = 0; i < this.codes.length; i++) if (this.codes[i] >= CODES) return false;
    for (let i = 0; i < this.lists.length; i++) if (this.lists[i] >= n) return false;
    return true;
  }

  /** The highest names.id in the arrays. */
  get loaded(): number {
    return this.buffers.loaded;
  }

  /** Names in the arrays. */
  get size(): number {
    return this.ids.length;
  }

  static from(buffers: CamelBuffers): CamelNames {
    return new CamelNames(buffers);
  }

  /** Written to `file` (a temporary file renamed over it, so a reader never sees half of one), as names of the index `instance`. */
  save(file: string, instance: string): void {
    const bytes = Object.fromEntries(ARRAYS.map((name) => [name, this.buffers[name].byteLength])) as SavedHeader['bytes'];
    const header = Buffer.from(JSON.stringify({ format: FORMAT, instance, loaded: this.loaded, bytes } satisfies SavedHeader));
    const lead = Buffer.alloc(MAGIC.length + 4);
    lead.write(MAGIC, 'latin1');
    lead.writeUInt32LE(header.length, MAGIC.length);
    const temporary = `${file}.${process.pid}.tmp`;
    try {
      const fd = openSync(temporary, 'w');
      try {
        for (const piece of [lead, header, ...ARRAYS.map((name) => new Uint8Array(this.buffers[name]))]) {
          for (let at = 0; at < piece.length;) at += writeSync(fd, piece, at, piece.length - at);
        }
      } finally {
        closeSync(fd);
      }
      renameSync(temporary, file);
    } catch (error) {
      // A full disk or a folder it may not write: no half file left behind.
      rmSync(temporary, { force: true });
      throw error;
    }
  }

  /**
   * The arrays saved in `file` when it is whole, of this format and of the index `instance`, else undefined. Names are never
   * deleted from an index and keep their ids, so its file is right for the index now, the names added since it was saved aside.
   */
  static load(file: string, instance: string): CamelNames | undefined {
    let fd: number;
    try {
      fd = openSync(file, 'r');
    } catch {
      return undefined;
    }
    try {
      const read = (into: Uint8Array): boolean => {
        for (let at = 0; at < into.length;) {
          const got = readSync(fd, into, at, into.length - at, null);
          if (got === 0) return false;
          at += got;
        }
        return true;
      };
      const lead = Buffer.alloc(MAGIC.length + 4);
      if (!read(lead) || lead.toString('latin1', 0, MAGIC.length) !== MAGIC) return undefined;
      const headerBytes = Buffer.alloc(lead.readUInt32LE(MAGIC.length));
      if (headerBytes.length > 1 << 20 || !read(headerBytes)) return undefined;
      const header = JSON.parse(headerBytes.toString()) as SavedHeader;
      if (header.format !== FORMAT || header.instance !== instance) return undefined;
      const buffers: Partial<CamelBuffers> = { loaded: header.loaded };
      for (const name of ARRAYS) {
        const buffer = new SharedArrayBuffer(header.bytes[name]);
        if (!read(new Uint8Array(buffer))) return undefined;
        buffers[name] = buffer;
      }
      const names = new CamelNames(buffers as CamelBuffers);
      return names.whole() ? names : undefined;
    } catch {
      // Unreadable or not of this format: built again.
      return undefined;
    } finally {
      closeSync(fd);
    }
  }

  /** The arrays of these names (id, name), in any order; a name without a letter or digit is left out (no query matches it). */
  static build(rows: Iterable<[number, string]>): CamelNames {
    let ids = new Uint32Array(1 << 16);
    let masks = new Uint32Array(1 << 16);
    let pairs = new Uint32Array(1 << 16);
    let ends = new Uint32Array(1 << 16);
    scratch.codes = new Uint16Array(1 << 18);
    let n = 0;
    let at = 0;
    let loaded = 0;
    for (const [id, name] of rows) {
      if (id > loaded) loaded = id;
      const end = humpCodes(name, at);
      if (end === at) continue;
      if (n === ids.length) {
        ids = grow(ids);
        masks = grow(masks);
        pairs = grow(pairs);
        ends = grow(ends);
      }
      ids[n] = id;
      masks[n] = scratch.mask;
      pairs[n] = scratch.pairs;
      ends[n] = end;
      n++;
      at = end;
    }
    // Ordered by the first hump's code (a counting sort): the names a query's first hump allows are one run of entries.
    const all = scratch.codes;
    scratch.codes = new Uint16Array(0);
    const starts = new Uint32Array(new SharedArrayBuffer((CODES + 1) * 4));
    for (let i = 0, from = 0; i < n; from = ends[i++]) starts[all[from] + 1]++;
    for (let c = 1; c <= CODES; c++) starts[c] += starts[c - 1];
    const sortedIds = new Uint32Array(new SharedArrayBuffer(n * 4));
    const sortedMasks = new Uint32Array(new SharedArrayBuffer(n * 4));
    const sortedPairs = new Uint32Array(new SharedArrayBuffer(n * 4));
    const entryOf = new Uint32Array(n);
    const next = starts.slice(0, CODES);
    for (let i = 0, from = 0; i < n; from = ends[i++]) entryOf[i] = next[all[from]]++;
    const lengths = new Uint32Array(n + 1);
    for (let i = 0, from = 0; i < n; from = ends[i++]) {
      const entry = entryOf[i];
      sortedIds[entry] = ids[i];
      sortedMasks[entry] = masks[i];
      sortedPairs[entry] = pairs[i];
      lengths[entry + 1] = ends[i] - from;
    }
    const offsets = new Uint32Array(new SharedArrayBuffer((n + 1) * 4));
    for (let e = 0; e < n; e++) offsets[e + 1] = offsets[e] + lengths[e + 1];
    const codes = new Uint16Array(new SharedArrayBuffer(at * 2));
    for (let i = 0, from = 0; i < n; from = ends[i++]) {
      for (let k = from, to = offsets[entryOf[i]]; k < ends[i]; k++, to++) codes[to] = all[k];
    }
    const { lists, listStarts } = pairLists(offsets, codes, n);
    return new CamelNames({
      loaded, ids: sortedIds.buffer as SharedArrayBuffer, masks: sortedMasks.buffer as SharedArrayBuffer, pairs: sortedPairs.buffer as SharedArrayBuffer,
      offsets: offsets.buffer as SharedArrayBuffer, codes: codes.buffer as SharedArrayBuffer, starts: starts.buffer as SharedArrayBuffer, lists, listStarts,
    });
  }

  /**
   * The ids of the names (up to `loaded`) that may match these query humps (camelHumps of a query fuzzyPattern accepts),
   * every match among them; undefined when they are more than `limit` (the caller reads the tier another way) or a hump
   * holds a character other than an ASCII letter or digit.
   */
  candidates(humps: readonly QueryHump[], limit: number): number[] | undefined {
    if (humps.length < 2) return undefined;
    const words: Array<[number, number]> = [];
    const letters: Array<Array<[number, number]> | undefined> = [];
    // What every match's masks hold: each hump's first letter among its initials, and per hump, its first two characters
    // among its humps' (read as a word of two or more) or, for a hump that may be initials, each of its letters among its initials.
    let need = 0;
    const wordPairs: number[] = [];
    const letterMasks: number[] = [];
    for (const hump of humps) {
      const word = codeRange(hump.text);
      if (!word) return undefined;
      words.push(word);
      const spelled = hump.initials ? [...hump.text].map((letter) => codeRange(letter)!) : undefined;
      letters.push(spelled);
      need |= BIT[letterOf(word[0])];
      wordPairs.push(hump.text.length >= 2 ? PAIR_BIT[(word[0] / BASE) | 0] : 0);
      letterMasks.push(spelled ? spelled.reduce((mask, [lo]) => mask | BIT[letterOf(lo)], 0) : -1);
    }
    // The first hump of the name starts with the query's, or with its first letter when it may be initials: the entries from
    // `first` to `last`, or those of them in the rarest list of the first letter with a later hump's.
    const [lo, hi] = humps[0].initials ? letters[0]![0] : words[0];
    const first = this.starts[lo];
    const last = this.starts[hi + 1];
    let list: { at: number; end: number } | undefined;
    if (last - first > SCAN_DIRECT) {
      const letter = letterOf(lo) * 32;
      for (const [later] of words.slice(1)) {
        const index = letter + (Math.clz32(BIT[letterOf(later)]) ^ 31);
        const [at, end] = [this.listStarts[index], this.listStarts[index + 1]];
        if (end - at < (list ? list.end - list.at : last - first)) list = { at, end };
      }
    }
    if (list) list.at = lowerBound(this.lists, list.at, list.end, first);
    const { ids, masks, pairs, offsets, codes, lists } = this;
    const found: number[] = [];
    for (let i = list ? list.at : first, stop = list ? list.end : last; i < stop; i++) {
      const e = list ? lists[i] : i;
      if (e >= last) break;
      const mask = masks[e];
      if ((mask & need) !== need) continue;
      const pair = pairs[e];
      let at = offsets[e];
      for (let q = 0; q < wordPairs.length && at >= 0; q++) {
        if ((pair & wordPairs[q]) !== wordPairs[q] && (mask & letterMasks[q]) !== letterMasks[q]) at = -1;
      }
      const end = offsets[e + 1];
      for (let q = 0; q < words.length && at >= 0; q++) at = humpEnd(codes, at, end, words[q], letters[q], q === 0);
      if (at < 0) continue;
      if (found.length === limit) return undefined;
      found.push(ids[e]);
    }
    return found;
  }
}

/** The first index from `at` to `end` of a sorted list whose value is `value` or more. */
function lowerBound(list: Uint32Array, at: number, end: number, value: number): number {
  while (at < end) {
    const middle = (at + end) >>> 1;
    if (list[middle] < value) at = middle + 1;
    else end = middle;
  }
  return at;
}

/** CamelBuffers.lists and listStarts of the entries (in order): each entry in the list of its first initial with each later one. */
function pairLists(offsets: Uint32Array, codes: Uint16Array, n: number): { lists: SharedArrayBuffer; listStarts: SharedArrayBuffer } {
  const later = new Int32Array(n);
  const counts = new Uint32Array(LISTS + 1);
  for (let e = 0; e < n; e++) {
    let mask = 0;
    for (let k = offsets[e] + 1; k < offsets[e + 1]; k++) mask |= BIT[letterOf(codes[k])];
    later[e] = mask;
    const letter = letterOf(codes[offsets[e]]) * 32;
    for (let bits = mask; bits !== 0; bits &= bits - 1) counts[letter + (Math.clz32(bits & -bits) ^ 31) + 1]++;
  }
  for (let i = 1; i <= LISTS; i++) counts[i] += counts[i - 1];
  const listStarts = new Uint32Array(new SharedArrayBuffer((LISTS + 1) * 4));
  listStarts.set(counts);
  const lists = new Uint32Array(new SharedArrayBuffer(counts[LISTS] * 4));
  for (let e = 0; e < n; e++) {
    const letter = letterOf(codes[offsets[e]]) * 32;
    for (let bits = later[e]; bits !== 0; bits &= bits - 1) lists[counts[letter + (Math.clz32(bits & -bits) ^ 31)]++] = e;
  }
  return { lists: lists.buffer as SharedArrayBuffer, listStarts: listStarts.buffer as SharedArrayBuffer };
}

function grow(array: Uint32Array): Uint32Array<ArrayBuffer> {
  const grown = new Uint32Array(array.length * 2);
  grown.set(array);
  return grown;
}

/**
 * fuzzyMatches' step over hump codes: the earliest hump after those matching one query hump from `from` on (a code in the
 * word's range, or, for a hump that may be initials, codes in each letter's range in order), or -1. `anchored`: it starts at `from`.
 */
function humpEnd(codes: Uint16Array, from: number, end: number, word: [number, number], letters: Array<[number, number]> | undefined, anchored: boolean): number {
  let best = starting(codes, from, end, word, anchored);
  if (best >= 0) best++;
  if (letters) {
    let at = from;
    for (let j = 0; j < letters.length && at >= 0; j++) {
      const found = starting(codes, at, end, letters[j], anchored && j === 0);
      at = found < 0 ? -1 : found + 1;
    }
    if (at >= 0 && (best < 0 || at < best)) best = at;
  }
  return best;
}

function starting(codes: Uint16Array, from: number, end: number, [lo, hi]: [number, number], anchored: boolean): number {
  for (let at = from; at < end; at++) {
    const code = codes[at];
    if (code >= lo && code <= hi) return at;
    if (anchored) break;
  }
  return -1;
}
