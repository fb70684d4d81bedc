/**
 * TaintToleration: the filter rejects a node with a NoSchedule/NoExecute taint the pod does not
 * tolerate; the score counts untolerated PreferNoSchedule taints (fewer is better, normalized
 * in reverse).
 */
import type { NodeInfo } from '../node-info';
import type { PodSchedulingInfo } from '../pod-info';
import { findUntoleratedTaint as findUntolerated, tolerationsTolerateTaint as tolerates } from '../tolerations';
import { failure, type FilterFailure } from './types';

const findUntoleratedTaint = findUntolerated;
const tolerationsTolerateTaint = tolerates;

const isHardEffect = (effect: string): boolean => effect === 'NoSchedule' || effect === 'NoExecute';

export function untoleratedTaintReason(key: string, value: string | undefined): string {
  return `node(s) had untolerated taint {${key}: ${value ?? ''}}`;
}

export function filterTaintToleration(pod: PodSchedulingInfo, node: NodeInfo): FilterFailure | null {
  if (node.taints.length === 0) return null;
  const taint = findUntoleratedTaint(node.taints, pod.tolerations, isHardEffect);
  return taint ? failure('TaintToleration', 'UnschedulableAndUnresolvable', untoleratedTaintReason(taint.key, taint.value)) : null;
}

export function scoreTaintToleration(pod: PodSchedulingInfo, node: NodeInfo): number {
  let intolerable = 0;
  for (const taint of node.preferNoScheduleTaints) {
    if (!tolerationsTolerateTaint(pod.preferNoScheduleTolerations, taint)) intolerable++;
  }
  return intolerable;
}
