/**
 * The DefaultPreemption PostFilter's verdict, which the FailedScheduling message ends with. Only
 * nodes rejected with `Unschedulable` (not `UnschedulableAndUnresolvable`) are worth a dry run:
 * the others are "Preemption is not helpful for scheduling". A dry run removes every pod of lower
 * priority from the node and runs the filters again: with no such pods the node has "No
 * preemption victims found for incoming pod"; if the pod still does not fit, the filters' reasons
 * count. When some node would fit, real preemption would evict victims; the simulator does not
 * evict, and reports the attempt as upstream does when preemption succeeds (no suffix).
 */
import { fitErrorMessage, ReasonHistogram, type FitErrorStyle } from './fit-error';
import { runFilters, type NodeFailure } from './framework';
import type { PodContribution } from './node-info';
import type { PodSchedulingInfo } from './pod-info';

export const PREEMPTION_NOT_HELPFUL = 'Preemption is not helpful for scheduling';
export const NO_PREEMPTION_VICTIMS = 'No preemption victims found for incoming pod';
export const NOT_ELIGIBLE_PREEMPT_NEVER = 'not eligible due to preemptionPolicy=Never.';

export interface PreemptionVerdict {
  /** The PostFilter message (`preemption: …`), or '' when preemption would have found a candidate. */
  message: string;
  /** A node where evicting lower-priority pods would make room (what a real scheduler would nominate). */
  candidateNode?: string;
}

export function preemptionVerdict(pod: PodSchedulingInfo, numAllNodes: number, failures: readonly NodeFailure[], style: FitErrorStyle): PreemptionVerdict {
  if (pod.preemptionPolicyNever) return { message: `preemption: ${NOT_ELIGIBLE_PREEMPT_NEVER}` };
  const reasons = new ReasonHistogram();
  let explicit = 0;
  for (const { node, failure } of failures) {
    if (failure.code !== 'Unschedulable') continue;
    explicit++;
    const victims: PodContribution[] = [];
    for (const placed of node.pods.values()) if (placed.priority < pod.priority) victims.push(placed);
    if (victims.length === 0) {
      reasons.add([NO_PREEMPTION_VICTIMS]);
      continue;
    }
    for (const victim of victims) node.removePod(victim.uid);
    const after = runFilters(pod, node);
    for (const victim of victims) node.addPod(victim);
    if (!after) return { message: '', candidateNode: node.name };
    reasons.add(after.reasons);
  }
  if (explicit < numAllNodes) reasons.add([PREEMPTION_NOT_HELPFUL], numAllNodes - explicit);
  return { message: `preemption: ${fitErrorMessage(numAllNodes, reasons, '', style)}` };
}
