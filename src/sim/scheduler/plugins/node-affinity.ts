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

/** The FitError reason of the nodes a PreFilter result left out (`SetAbsentNodesStatus`). */
export const ERR_REASON_NOT_IN_PREFILTER_RESULT = "node(s) didn't satisfy plugin(s) [NodeAffinity]";

/**
 * PreFilter's node set: when every required term names nodes with `matchFields metadata.name In`
 * (a DaemonSet pod names exactly one), the union of those names, so the scheduler looks at those
 * nodes only. Undefined: every node is a candidate. A conflicting empty set is left to the filter.
 */
export function preFilterNodeNames(pod: PodSchedulingInfo): ReadonlySet<string> | undefined {
  const terms = pod.requiredTerms;
  if (terms === undefined || terms.length === 0) return undefined;
  const names = new Set<string>();
  for (const term of terms) {
    let termNames: Set<string> | undefined;
    for (const requirement of term.fields) {
      if (requirement.key !== 'metadata.name' || requirement.operator !== 'In') continue;
      termNames = termNames === undefined ? new Set(requirement.values) : new Set(requirement.values.filter((value) => termNames!.has(value)));
    }
    if (termNames === undefined) return undefined;
    for (const name of termNames) names.add(name);
  }
  return names.size > 0 ? names : undefined;
}

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
