/**
 * Reading a file the walk found, off the main thread's file reader (src/files.ts): the parser threads and the word
 * index's pass. Opened without following a link put in its place since the walk (O_NOFOLLOW: the open fails), and
 * its bytes not read when it is larger than plumb parses or `accept` refuses what fstat says of it.
 */
import { closeSync, constants, fstatSync, openSync, readFileSync, type Stats } from 'node:fs';
import { MAX_PARSED_BYTES } from './parse-pool.js';

export function readWalkedFile(absolute: string, accept?: (stats: Stats) => boolean): { stats: Stats; bytes?: Buffer } {
  const fd = openSync(absolute, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  try {
    const stats = fstatSync(fd);
    if (stats.size > MAX_PARSED_BYTES || (accept && !accept(stats))) return { stats };
    return { stats, bytes: readFileSync(fd) };
  } finally {
    closeSync(fd);
  }
}
