/**
 * Stops a simulator process that is about to run out of heap with one clear line, before V8
 * aborts it with "FATAL ERROR: Reached heap limit" and a native stack. A simulated cluster keeps
 * nearly all it allocates, so once the live heap is close to the limit nothing will free it.
 *
 * The live heap is what a full collection leaves. `used_heap_size` read at any other moment
 * includes garbage not yet collected (with the old generation growing to 1.6 × the live heap, a
 * heap 70 % live fills up to the limit before it is collected), and near the limit collections
 * run between any two reads, so reads alone cannot tell the two apart. V8's GC profiler records
 * the heap after each collection, from inside the collector, so it works while a synchronous
 * run never yields to the event loop.
 */
import { GCProfiler, getHeapStatistics } from 'node:v8';

export interface HeapNumbers {
  /** Heap used just after the latest full (mark-compact) collection. */
  used_heap_size: number;
  heap_size_limit: number;
}

/** Live heap above this share of the limit stops the process (V8 slows to a crawl of full collections from about 90 %). */
export const HEAP_STOP_FRACTION = 0.85;

export class HeapExhaustedError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'HeapExhaustedError';
  }
}

export interface HeapGuardOptions {
  /** The heap after the latest full collection since the last call, or undefined when none ran (tests inject small numbers). */
  statistics?: () => HeapNumbers | undefined;
  stopFraction?: number;
  /** What the process was doing, for the message: `while tracing 120,000 pods`. */
  doing: () => string;
  /** What to do about it, for the message. */
  advice: string;
}

/**
 * Used heap (garbage included) from which the GC profiler starts: below it the live heap cannot
 * be near the limit, and a run that never gets there pays nothing (the profiler keeps a record
 * of every collection until it is read, which a synchronous run does not do).
 */
export const PROFILE_FROM_FRACTION = 0.6;

/** The heap after each full collection, read from V8's GC profiler (about 6 µs a call) once the heap passed `profileFrom` of its limit. */
export function heapAfterFullCollections(profileFrom = PROFILE_FROM_FRACTION): () => HeapNumbers | undefined {
  const profiler = new GCProfiler();
  let profiling = false;
  return () => {
    if (!profiling) {
      const heap = getHeapStatistics();
      if (heap.used_heap_size < heap.heap_size_limit * profileFrom) return undefined;
      profiler.start();
      profiling = true;
      return undefined;
    }
    const { statistics } = profiler.stop();
    profiler.start();
    let latest: HeapNumbers | undefined;
    for (const gc of statistics) {
      if (gc.gcType !== 'MarkSweepCompact') continue;
      const after = gc.afterGC.heapStatistics;
      latest = { used_heap_size: after.usedHeapSize, heap_size_limit: after.heapSizeLimit };
    }
    return latest;
  };
}

function gigabytes(bytes: number): string {
  return `${(bytes / 1e9).toFixed(1)} GB`;
}

export class HeapGuard {
  private readonly statistics: () => HeapNumbers | undefined;
  private readonly stopFraction: number;

  constructor(private readonly options: HeapGuardOptions) {
    this.statistics = options.statistics ?? heapAfterFullCollections();
    this.stopFraction = options.stopFraction ?? HEAP_STOP_FRACTION;
  }

  /** Throws `HeapExhaustedError` when a full collection since the last check left more than the stop fraction of the limit. */
  check(): void {
    const heap = this.statistics();
    if (!heap || heap.used_heap_size < heap.heap_size_limit * this.stopFraction) return;
    throw new HeapExhaustedError(`out of memory: the heap reached ${gigabytes(heap.used_heap_size)} of its ${gigabytes(heap.heap_size_limit)} limit ${this.options.doing()}; ${this.options.advice}`);
  }
}

/** The advice every simulator process gives: fewer pods, or a larger heap. */
export function heapAdvice(budgetHint: string): string {
  return `simulate fewer pods (${budgetHint}) or give Node a larger heap (NODE_OPTIONS=--max-old-space-size=8192)`;
}

export function podCount(pods: number): string {
  return `${pods.toLocaleString('en-US')} pod${pods === 1 ? '' : 's'}`;
}
