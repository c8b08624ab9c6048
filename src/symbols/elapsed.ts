/** Milliseconds since `started` (a performance.now() reading), to two decimals: every answer's elapsedMs. */
export function elapsedMs(started: number): number {
  return Math.round((performance.now() - started) * 100) / 100;
}
