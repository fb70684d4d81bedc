/**
 * The pod budget of `kube-journey trace`: what fits in this process's heap. A traced pod costs
 * far more than a pod of the lean simulator the benchmark runs (default 200,000 pods): the
 * simulator keeps full detail (the scheduler's per-node verdicts, watch deliveries) and the
 * journey tracer keeps every pod's stages. Measured with Node 20 (heap used after a full
 * collection, Deployments of 3,000 replicas): 30,000 pods on 1,000 nodes hold 845 MiB (28 KiB a
 * pod), 100,000 pods on 5,000 nodes 3.8 GB (38 KiB a pod: the scheduler's verdict tables grow
 * with the nodes), on top of a few hundred MiB that do not grow with pods (the bounded internals
 * log). The budget plans for the larger figure; a trace of 150,000 pods does not fit a 4 GB heap.
 */
import { getHeapStatistics } from 'node:v8';

export const TRACED_POD_HEAP_BYTES = 40 * 1024;
/** Heap the traced cluster holds whatever its size. */
export const TRACE_FIXED_HEAP_BYTES = 300 * 1024 * 1024;
/** Share of the heap limit the budget plans for, below the heap guard's 85 %: garbage and the final rendering need room too. */
export const TRACE_HEAP_SHARE = 0.7;

/** Traced pods that fit in a heap of `heapLimit` bytes, rounded down to a thousand (at least 1,000). */
export function tracedPodBudget(heapLimit: number = getHeapStatistics().heap_size_limit): number {
  const pods = (heapLimit * TRACE_HEAP_SHARE - TRACE_FIXED_HEAP_BYTES) / TRACED_POD_HEAP_BYTES;
  return Math.max(1000, Math.floor(pods / 1000) * 1000);
}
