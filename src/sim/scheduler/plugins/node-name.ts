/** NodeName: a pod that names a node fits only that node. */
import type { NodeInfo } from '../node-info';
import type { PodSchedulingInfo } from '../pod-info';
import { failure, type FilterFailure } from './types';

export const ERR_REASON_NODE_NAME = "node(s) didn't match the requested node name";
const REJECTED = failure('NodeName', 'UnschedulableAndUnresolvable', ERR_REASON_NODE_NAME);

export function filterNodeName(pod: PodSchedulingInfo, node: NodeInfo): FilterFailure | null {
  return pod.nodeName !== '' && pod.nodeName !== node.name ? REJECTED : null;
}
