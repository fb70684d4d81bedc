/**
 * When no single change is enough (every node is refused by two filters, say a request too big
 * *and* a selector no node matches): pairs of changes, each found as if the other filter already
 * passed (its bit cleared from every node's mask), then checked together by re-running every
 * filter. Only the pod's own fields are combined (requests, tolerations, node labels, host ports).
 */
import { applyFitEdits } from '../../../core/journey/fit-suggestions';
import { F_NODE_AFFINITY, F_PORTS, F_RESOURCES, F_TAINTS } from './probe';
import { suggestHostPorts } from './host-ports';
import { suggestNodeLabels } from './node-labels';
import { suggestRequests } from './resources';
import { suggestTolerations } from './taints';
import type { Candidate, Suggester, SuggestionInput } from './types';

const COMBINABLE: readonly { bit: number; suggest: Suggester }[] = [
  { bit: F_RESOURCES, suggest: suggestRequests },
  { bit: F_TAINTS, suggest: suggestTolerations },
  { bit: F_NODE_AFFINITY, suggest: suggestNodeLabels },
  { bit: F_PORTS, suggest: suggestHostPorts },
];

/** Candidates of one filter with another filter's refusals forgotten. */
function assuming(input: SuggestionInput, suggest: Suggester, passing: number): Candidate[] {
  const masks = input.masks.map((mask) => mask & ~passing);
  return suggest({ ...input, masks });
}

export interface CombinedCandidate {
  candidate: Candidate;
  nodes: number;
  parts: Candidate[];
}

/** The pair of changes opening the most nodes, or undefined when no pair makes the pod fit. */
export function suggestPair(input: SuggestionInput): CombinedCandidate | undefined {
  let present = 0;
  for (const mask of input.masks) present |= mask;
  const usable = COMBINABLE.filter(({ bit }) => (present & bit) !== 0);
  let best: CombinedCandidate | undefined;
  for (let i = 0; i < usable.length; i++) {
    for (let j = i + 1; j < usable.length; j++) {
      const first = assuming(input, usable[i].suggest, usable[j].bit);
      const second = assuming(input, usable[j].suggest, usable[i].bit);
      for (const a of first) {
        for (const b of second) {
          const edits = [...a.edits, ...b.edits];
          const nodes = input.probe.countFits(applyFitEdits(input.pod, edits));
          if (nodes === 0 || (best && best.nodes >= nodes)) continue;
          best = { candidate: { kind: a.kind, summary: `${a.summary} and ${b.summary}`, path: a.path, edits }, nodes, parts: [a, b] };
        }
      }
    }
  }
  return best;
}
