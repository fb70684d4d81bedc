/**
 * The pod budget of `kube-journey trace`: what fits in this process's heap. A traced pod costs
 * more than a pod of the lean simulator the benchmark runs (default 200,000 pods): the simulator
 * keeps full detail and the journey tracer keeps every pod's stages. Since the scheduler's
 * per-node verdicts are kept as compact tables (common/verdict-table.ts) a pod no longer costs
 * more on more nodes; the nodes themselves do (their objects, kubelets and scheduler rows).
 * Measured with Node 20 and Deployments of 3,000 replicas on 5,000 nodes: about 14 KiB a pod at
 * peak, so 16 KiB leaves room for the final rendering.
 */
import { getHeapStatistics } from 'node:v8';

export const TRACED_POD_HEAP_BYTES = 16 * 1024;
/** Heap a simulated node holds whatever runs on it (Node object, kubelet, kube-proxy, scheduler row). */
export const TRACED_NODE_HEAP_BYTES = 32 * 1024;
/** Heap the traced cluster holds whatever its size. */
export const TRACE_FIXED_HEAP_BYTES = 300 * 1024 * 1024;
/** Share of the heap limit the budget plans for, below the heap guard's 85 %: garbage and the final rendering need room too. */
export const TRACE_HEAP_SHARE = 0.7;

/** Traced pods on `nodes` nodes that fit in a heap of `heapLimit` bytes, rounded down to a thousand (at least 1,000). */
export function tracedPodBudget(nodes: number, heapLimit: number = getHeapStatistics().heap_size_limit): number {
  const pods = (heapLimit * TRACE_HEAP_SHARE - TRACE_FIXED_HEAP_BYTES - TRACED_NODE_HEAP_BYTES * nodes) / TRACED_POD_HEAP_BYTES;
  return Math.max(1000, Math.floor(pods / 1000) * 1000);
}
