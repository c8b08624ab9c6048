/**
 * The build's collection of its lumps of garbage (src/index/heap.ts): none while the heap has not grown by the
 * threshold, one once it has, after which the heap is back near what is alive.
 */
import v8 from 'node:v8';
import t from 'tap';
import { collectIfGrown, HEAP_GROWTH } from '../../src/index/heap.js';

const used = (): number => v8.getHeapStatistics().used_heap_size;

t.test('collects once the heap has grown by the threshold, not before', (t) => {
  collectIfGrown(0);
  const alive = used();
  t.equal(collectIfGrown(HEAP_GROWTH), false, 'no collection right after one');
  // Garbage as a large file's message leaves it: many strings, dropped as soon as made.
  let lump: string[] | undefined = [];
  for (let i = 0; used() - alive < HEAP_GROWTH * 1.2 && i < 10_000_000; i++) lump.push(`symbol ${i} `.repeat(8));
  lump = undefined;
  const before = used();
  t.ok(before - alive >= HEAP_GROWTH, `the heap grew by ${((before - alive) / 2 ** 20).toFixed(0)} MB`);
  t.equal(collectIfGrown(HEAP_GROWTH), true, 'a collection once grown past the threshold');
  const after = used();
  t.ok(after < alive + HEAP_GROWTH / 4, `the heap back to ${((after - alive) / 2 ** 20).toFixed(0)} MB above what was alive (was ${((before - alive) / 2 ** 20).toFixed(0)} MB)`);
  t.equal(collectIfGrown(HEAP_GROWTH), false, 'and none again until it grows again');
  t.end();
});
