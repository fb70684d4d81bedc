/** Node, Namespace and ConfigMap rows: ports of `printNode`, `printNamespace`, `printConfigMap`. */
import type { ConfigMap, Namespace, Node } from '../../core/k8s';
import type { PrintedRow } from './row';
import { ageSince, parseTime } from './time';

const NODE_ROLE_LABEL_PREFIX = 'node-role.kubernetes.io/';
const NODE_ROLE_LABEL = 'kubernetes.io/role';

export function printNode(node: Node, now: number): PrintedRow {
  const status: string[] = [];
  // Only the Ready condition is shown; the last one of that type wins, as in upstream's map.
  const ready = (node.status?.conditions ?? []).filter((c) => c.type === 'Ready').at(-1);
  if (ready) status.push(ready.status === 'True' ? 'Ready' : 'NotReady');
  if (status.length === 0) status.push('Unknown');
  if (node.spec?.unschedulable) status.push('SchedulingDisabled');

  const roles = nodeRoles(node).join(',') || '<none>';
  const info = node.status?.nodeInfo;
  return {
    cells: [
      node.metadata?.name ?? '',
      status.join(','),
      roles,
      ageSince(parseTime(node.metadata?.creationTimestamp), now),
      info?.kubeletVersion ?? '',
      nodeAddress(node, 'InternalIP'),
      nodeAddress(node, 'ExternalIP'),
      info?.osImage || '<unknown>',
      info?.kernelVersion || '<unknown>',
      info?.containerRuntimeVersion || '<unknown>',
    ],
  };
}

/** Sorted, de-duplicated roles from `node-role.kubernetes.io/<role>` and `kubernetes.io/role=<role>` labels. */
function nodeRoles(node: Node): string[] {
  const roles = new Set<string>();
  for (const [key, value] of Object.entries(node.metadata?.labels ?? {})) {
    if (key.startsWith(NODE_ROLE_LABEL_PREFIX)) {
      const role = key.slice(NODE_ROLE_LABEL_PREFIX.length);
      if (role) roles.add(role);
    } else if (key === NODE_ROLE_LABEL && value) {
      roles.add(value);
    }
  }
  return [...roles].sort();
}

function nodeAddress(node: Node, type: 'InternalIP' | 'ExternalIP'): string {
  return node.status?.addresses?.find((a) => a.type === type)?.address ?? '<none>';
}

export function printNamespace(namespace: Namespace, now: number): PrintedRow {
  return {
    cells: [
      namespace.metadata?.name ?? '',
      namespace.status?.phase ?? '',
      ageSince(parseTime(namespace.metadata?.creationTimestamp), now),
    ],
  };
}

export function printConfigMap(configMap: ConfigMap, now: number): PrintedRow {
  const entries = Object.keys(configMap.data ?? {}).length + Object.keys(configMap.binaryData ?? {}).length;
  return {
    cells: [configMap.metadata?.name ?? '', entries, ageSince(parseTime(configMap.metadata?.creationTimestamp), now)],
  };
}
