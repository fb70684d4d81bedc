/**
 * Stops a simulator process that is about to run out of heap with one clear line, before V8
 * aborts it with "FATAL ERROR: Reached heap limit" and a native stack. A simulated cluster keeps
 * nearly all it allocates, so once the live heap is close to the limit nothing will free it.
 *
 * Live heap is read just after a garbage collection: `used_heap_size` sampled at any moment
 * includes garbage not yet collected, but a sample lower than the previous one shows that a
 * collection ran in between, and then what is used is (nearly) all live. The guard acts on
 * those samples only, so a heap full of garbage that the next collection frees never stops a run.
 */
import { getHeapStatistics } from 'node:v8';

export interface HeapNumbers {
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
  /** `v8.getHeapStatistics` by default; tests inject small numbers. */
  statistics?: () => HeapNumbers;
  stopFraction?: number;
  /** What the process was doing, for the message: `while tracing 120,000 pods`. */
  doing: () => string;
  /** What to do about it, for the message. */
  advice: string;
}

function gigabytes(bytes: number): string {
  return `${(bytes / 1e9).toFixed(1)} GB`;
}

export class HeapGuard {
  private previousUsed = Number.NEGATIVE_INFINITY;
  private readonly statistics: () => HeapNumbers;
  private readonly stopFraction: number;

  constructor(private readonly options: HeapGuardOptions) {
    this.statistics = options.statistics ?? getHeapStatistics;
    this.stopFraction = options.stopFraction ?? HEAP_STOP_FRACTION;
  }

  /** Throws `HeapExhaustedError` when the live heap passed the stop fraction of the limit. */
  check(): void {
    const { used_heap_size: used, heap_size_limit: limit } = this.statistics();
    const collected = used < this.previousUsed;
    this.previousUsed = used;
    if (!collected || used < limit * this.stopFraction) return;
    throw new HeapExhaustedError(`out of memory: the heap reached ${gigabytes(used)} of its ${gigabytes(limit)} limit ${this.options.doing()}; ${this.options.advice}`);
  }
}

/** The advice every simulator process gives: fewer pods, or a larger heap. */
export function heapAdvice(budgetHint: string): string {
  return `simulate fewer pods (${budgetHint}) or give Node a larger heap (NODE_OPTIONS=--max-old-space-size=8192)`;
}

export function podCount(pods: number): string {
  return `${pods.toLocaleString('en-US')} pod${pods === 1 ? '' : 's'}`;
}
