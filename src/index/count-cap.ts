/**
 * Search counts matches up to about this many; past it totalMatches is a lower bound (countsCapped). A module of its own,
 * so a search thread (src/index/sqlite/search-worker.ts) reads it without loading the API's schemas (schemas/symbols.ts
 * re-exports it).
 */
export const COUNT_CAP = 1_000;
