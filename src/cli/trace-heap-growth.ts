/**
 * How far `trace` lets V8's old generation grow past the live heap before the next full
 * collection. The simulator processes grow it by 60 % of the live heap (src/server/heap-tuning.ts),
 * which is cheap while the heap is small; but the peak resident memory is about the live heap plus
 * that growth, and a 150,000-pod trace lives at 1.3 GB, where 60 % is 800 MB of garbage waiting
 * to be collected. So once the live heap is large, the growth is capped at a fixed amount of
 * memory: full collections come more often (they are incremental, mostly while the run goes on),
 * and the peak follows the live heap instead of 1.6 times it.
 */
import { setFlagsFromString } from 'node:v8';
import { HEAP_GROWING_PERCENT } from '../server/heap-tuning';

/** Growth allowed past the live heap once 60 % of it would be more (bytes). */
export const TRACE_HEAP_HEADROOM = 384 * 2 ** 20;
/** Never less than this share: below it V8 would collect nearly all the time. */
const MIN_GROWING_PERCENT = 20;

/** The growth percent for a live heap of `liveBytes`: 60 %, or less where 60 % would exceed the headroom. */
export function heapGrowingPercent(liveBytes: number): number {
  if (liveBytes <= 0) return HEAP_GROWING_PERCENT;
  const percent = Math.floor((100 * TRACE_HEAP_HEADROOM) / liveBytes);
  return Math.max(MIN_GROWING_PERCENT, Math.min(HEAP_GROWING_PERCENT, percent));
}

/** Applies `heapGrowingPercent` after each full collection (V8 reads the flag at every collection). */
export class HeapGrowthCap {
  private percent = HEAP_GROWING_PERCENT;

  /** The live heap a full collection left. */
  afterFullCollection(liveBytes: number): void {
    const percent = heapGrowingPercent(liveBytes);
    if (percent === this.percent) return;
    this.percent = percent;
    setFlagsFromString(`--heap-growing-percent=${percent}`);
  }
}
