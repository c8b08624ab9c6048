import crypto, { createHash } from 'node:crypto';
import type { ExtractedSymbol } from '../syntax/types.js';

/** One-shot hashing (Node 20.12+) is twice as fast as a Hash object per symbol; older Node 20 falls back. */
const sha1Base64url: (text: string) => string = typeof crypto.hash === 'function'
  ? (text) => crypto.hash('sha1', text, 'base64url')
  : (text) => createHash('sha1').update(text).digest('base64url');

/**
 * Stable ids: a hash of file, qualified name, kind and the ordinal among same-named symbols of
 * that kind in the file (overloads), so an unchanged symbol keeps its id across restarts and
 * re-indexing. 12 base64url characters (72 bits): short, URL-safe, collision-free in practice.
 */
export function symbolIds(file: string, symbols: ReadonlyArray<Pick<ExtractedSymbol, 'qualifiedName' | 'kind' | 'forwardDeclaration'>>, seen = new Map<string, number>()): string[] {
  // `seen` carries the ordinals over when a file's symbols come in several parts (a large header's pieces).
  return symbols.map((symbol) => {
    const key = `${symbol.qualifiedName}\u0000${symbol.kind}${symbol.forwardDeclaration ? '\u0000fwd' : ''}`;
    const ordinal = seen.get(key) ?? 0;
    seen.set(key, ordinal + 1);
    return sha1Base64url(`${file}\u0000${key}\u0000${ordinal}`).slice(0, 12);
  });
}

/** The content hash recorded per file (reuse on restart compares it when size, mtime, ctime or inode moved). */
export function contentHash(content: Uint8Array): string {
  return createHash('sha1').update(content).digest('base64url');
}

/**
 * A file's row id: 48 bits of a hash of its stored path (a safe integer, above 0). Files are ordered by
 * it within a search tier, so that order is the same on every build, whatever order the parse finished
 * in, and in every store. The writer takes the next free id on the (unseen in practice) collision.
 */
export function fileIdFor(file: string): number {
  return Number.parseInt(createHash('sha1').update(file).digest('hex').slice(0, 12), 16) || 1;
}
