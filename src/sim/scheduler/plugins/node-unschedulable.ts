/** NodeUnschedulable: a cordoned node (`spec.unschedulable`) takes only pods tolerating its taint. */
import type { NodeInfo } from '../node-info';
import type { PodSchedulingInfo } from '../pod-info';
import { failure, type FilterFailure } from './types';

export const ERR_REASON_UNSCHEDULABLE = 'node(s) were unschedulable';
const REJECTED = failure('NodeUnschedulable', 'UnschedulableAndUnresolvable', ERR_REASON_UNSCHEDULABLE);

export function filterNodeUnschedulable(pod: PodSchedulingInfo, node: NodeInfo): FilterFailure | null {
  return node.unschedulable && !pod.toleratesUnschedulable ? REJECTED : null;
}
