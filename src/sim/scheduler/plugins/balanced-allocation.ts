/**
 * NodeResourcesBalancedAllocation: prefers nodes whose cpu and memory would be used in similar
 * proportions, score = (1 − standard deviation of the fractions) × 100, with actual requests (no
 * non-zero defaults). Skipped for pods requesting neither cpu nor memory (kubernetes#129138).
 */
import type { NodeInfo } from '../node-info';
import type { PodSchedulingInfo } from '../pod-info';
import { MAX_NODE_SCORE } from './types';

const MAX_SCORE = MAX_NODE_SCORE;

export function balancedAllocationApplies(pod: PodSchedulingInfo): boolean {
  return pod.resources.milliCPU !== 0 || pod.resources.memory !== 0;
}

/** `balancedResourceScorer` for cpu and memory: with two fractions the deviation is half their difference. */
export function balancedScore(cpuRequested: number, cpuAllocatable: number, memoryRequested: number, memoryAllocatable: number): number {
  if (cpuAllocatable === 0 || memoryAllocatable === 0) return MAX_SCORE; // one fraction or none: no deviation
  const cpu = Math.min(1, cpuRequested / cpuAllocatable);
  const memory = Math.min(1, memoryRequested / memoryAllocatable);
  return Math.trunc((1 - Math.abs((cpu - memory) / 2)) * MAX_SCORE);
}

export function scoreBalancedAllocation(pod: PodSchedulingInfo, node: NodeInfo): number {
  const a = node.allocatable;
  return balancedScore(node.requestedMilliCPU + pod.resources.milliCPU, a.milliCPU, node.requestedMemory + pod.resources.memory, a.memory);
}
