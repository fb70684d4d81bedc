/** NodePorts: a host port (per IP and protocol, 0.0.0.0 meaning all) can be held by one pod per node. */
import type { NodeInfo } from '../node-info';
import type { PodSchedulingInfo } from '../pod-info';
import { failure, type FilterFailure } from './types';

export const ERR_REASON_NODE_PORTS = "node(s) didn't have free ports for the requested pod ports";
const REJECTED = failure('NodePorts', 'Unschedulable', ERR_REASON_NODE_PORTS);

export function filterNodePorts(pod: PodSchedulingInfo, node: NodeInfo): FilterFailure | null {
  for (const port of pod.hostPorts) if (node.usedPorts.conflicts(port)) return REJECTED;
  return null;
}
