/**
 * The pod budget of `kube-journey trace`: what fits in this process's heap. A traced pod costs
 * far more than a pod of the lean simulator the benchmark runs (default 200,000 pods): the
 * simulator keeps full detail (the scheduler's verdict table over every node for each attempt,
 * watch deliveries) and the journey tracer keeps every pod's stages, so the cost grows with the
 * nodes too. Measured with Node 20 and Deployments of 3,000 replicas (heap left by full
 * collections during the run): 95,000 pods on 3 nodes peaked at 1.26 GB resident (about 13 KiB a
 * pod), 30,000 on 1,000 nodes held 845 MiB (28 KiB), 33,000 on 5,000 nodes passed 3.9 GB and
 * ran out (over 110 KiB). 16 KiB a pod plus 24 bytes a pod per node covers all three.
 */
import { getHeapStatistics } from 'node:v8';

export const TRACED_POD_HEAP_BYTES = 16 * 1024;
export const TRACED_POD_HEAP_BYTES_PER_NODE = 24;
/** Heap the traced cluster holds whatever its size. */
export const TRACE_FIXED_HEAP_BYTES = 300 * 1024 * 1024;
/** Share of the heap limit the budget plans for, below the heap guard's 85 %: garbage and the final rendering need room too. */
export const TRACE_HEAP_SHARE = 0.7;

/** Traced pods on `nodes` nodes that fit in a heap of `heapLimit` bytes, rounded down to a thousand (at least 1,000). */
export function tracedPodBudget(nodes: number, heapLimit: number = getHeapStatistics().heap_size_limit): number {
  const perPod = TRACED_POD_HEAP_BYTES + TRACED_POD_HEAP_BYTES_PER_NODE * nodes;
  const pods = (heapLimit * TRACE_HEAP_SHARE - TRACE_FIXED_HEAP_BYTES) / perPod;
  return Math.max(1000, Math.floor(pods / 1000) * 1000);
}
