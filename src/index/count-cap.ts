/**
 * Search counts matches up to about this many; past it totalMatches is a lower bound (countsCapped). A module of its own,
 * so a search thread (src/index/sqlite/search-worker.ts) reads it without loading the API's schemas (schemas/symbols.ts
 * re-exports it). 200 (was 1,000, before that 10,000): on the kernel's index (7.2 million symbols) a common name's search was
 * mostly counting its substring and signature tiers up to the cap, some 16 µs a counted match (its name's row and symbols).
 */
export const COUNT_CAP = 200;
