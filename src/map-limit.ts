/**
 * The one bounded worker pool of the use cases: runs `run` over `items` with at most `limit` calls in
 * flight, taking items in order, until all have run or `stop()` (asked before each item) says enough.
 * An error in one call rejects the whole (the other calls in flight still finish their current item).
 */
export async function forEachLimit<T>(items: readonly T[], limit: number, run: (item: T, index: number) => Promise<void>, stop?: () => boolean): Promise<void> {
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < items.length && !stop?.()) {
      const index = next++;
      await run(items[index], index);
    }
  };
  await Promise.all(Array.from({ length: Math.max(0, Math.min(limit, items.length)) }, worker));
}
