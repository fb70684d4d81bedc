/**
 * NodeResourcesFit: the filter compares the pod's requests with what is left of the node's
 * allocatable resources (every shortfall is a separate reason); the score is LeastAllocated over
 * cpu and memory (weight 1 each), counting missing requests as 100m / 200Mi.
 */
import type { NodeInfo } from '../node-info';
import type { PodSchedulingInfo } from '../pod-info';
import { failure, MAX_NODE_SCORE, type FilterFailure } from './types';

const MAX_SCORE = MAX_NODE_SCORE;

export const REASON_TOO_MANY_PODS = 'Too many pods';

export function insufficientReason(resource: string): string {
  return `Insufficient ${resource}`;
}

/** `fitsRequest`: the reasons, in upstream order (pods, cpu, memory, ephemeral-storage, scalars). */
export function insufficientResources(pod: PodSchedulingInfo, node: NodeInfo): string[] {
  const reasons: string[] = [];
  const allocatable = node.allocatable;
  if (node.podCount + 1 > allocatable.pods) reasons.push(REASON_TOO_MANY_PODS);
  if (pod.requestsNothing) return reasons;
  const r = pod.resources;
  if (r.milliCPU > 0 && r.milliCPU > allocatable.milliCPU - node.requestedMilliCPU) reasons.push('Insufficient cpu');
  if (r.memory > 0 && r.memory > allocatable.memory - node.requestedMemory) reasons.push('Insufficient memory');
  if (r.ephemeralStorage > 0 && r.ephemeralStorage > allocatable.ephemeralStorage - node.requestedEphemeralStorage) reasons.push('Insufficient ephemeral-storage');
  for (const [name, value] of r.scalar) {
    if (value > (allocatable.scalar.get(name) ?? 0) - (node.requestedScalar.get(name) ?? 0)) reasons.push(insufficientReason(name));
  }
  return reasons;
}

export function filterNodeResourcesFit(pod: PodSchedulingInfo, node: NodeInfo): FilterFailure | null {
  // The common case first: a fit check without building a reasons array.
  const a = node.allocatable;
  const r = pod.resources;
  if (
    node.podCount + 1 <= a.pods &&
    (pod.requestsNothing ||
      (r.milliCPU <= a.milliCPU - node.requestedMilliCPU &&
        r.memory <= a.memory - node.requestedMemory &&
        r.ephemeralStorage <= a.ephemeralStorage - node.requestedEphemeralStorage &&
        r.scalar.length === 0))
  ) {
    return null;
  }
  const reasons = insufficientResources(pod, node);
  return reasons.length === 0 ? null : failure('NodeResourcesFit', 'Unschedulable', ...reasons);
}

/** `leastRequestedScore`: the free fraction of capacity, 0–100, integer arithmetic as in Go. */
function leastRequestedScore(requested: number, capacity: number): number {
  if (capacity === 0 || requested > capacity) return 0;
  return Math.trunc(((capacity - requested) * MAX_SCORE) / capacity);
}

/** `leastResourceScorer` over cpu and memory (weight 1 each); a resource the node lacks is left out. */
export function leastAllocatedScore(cpuRequested: number, cpuAllocatable: number, memoryRequested: number, memoryAllocatable: number): number {
  if (cpuAllocatable === 0 && memoryAllocatable === 0) return 0;
  if (cpuAllocatable === 0) return leastRequestedScore(memoryRequested, memoryAllocatable);
  if (memoryAllocatable === 0) return leastRequestedScore(cpuRequested, cpuAllocatable);
  return Math.trunc((leastRequestedScore(cpuRequested, cpuAllocatable) + leastRequestedScore(memoryRequested, memoryAllocatable)) / 2);
}

export function scoreLeastAllocated(pod: PodSchedulingInfo, node: NodeInfo): number {
  const a = node.allocatable;
  return leastAllocatedScore(node.nonZeroMilliCPU + pod.resources.nonZeroMilliCPU, a.milliCPU, node.nonZeroMemory + pod.resources.nonZeroMemory, a.memory);
}
