/**
 * NodeAffinity: the filter requires nodeSelector and requiredDuringScheduling terms to match; the
 * score sums the weights of matching preferred terms (normalized to 0–100 over the scored nodes).
 */
import type { NodeInfo } from '../node-info';
import { termMatches as matchesTerm } from '../node-selector';
import { matchesRequiredNodeAffinity as matchesRequired, type PodSchedulingInfo } from '../pod-info';
import { failure, type FilterFailure } from './types';

const termMatches = matchesTerm;
const matchesRequiredNodeAffinity = matchesRequired;

export const ERR_REASON_NODE_AFFINITY = "node(s) didn't match Pod's node affinity/selector";
const REJECTED = failure('NodeAffinity', 'UnschedulableAndUnresolvable', ERR_REASON_NODE_AFFINITY);

export function filterNodeAffinity(pod: PodSchedulingInfo, node: NodeInfo): FilterFailure | null {
  if (pod.nodeSelector.length === 0 && pod.requiredTerms === undefined) return null;
  return matchesRequiredNodeAffinity(pod, node) ? null : REJECTED;
}

/** PreScore skips the plugin when the pod has no preferred terms. */
export function nodeAffinityScoreApplies(pod: PodSchedulingInfo): boolean {
  return pod.preferredTerms.length > 0;
}

export function scoreNodeAffinity(pod: PodSchedulingInfo, node: NodeInfo): number {
  let total = 0;
  for (const { weight, term } of pod.preferredTerms) if (termMatches(term, node)) total += weight;
  return total;
}
