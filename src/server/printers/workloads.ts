/** Deployment and ReplicaSet rows: ports of `printDeployment` and `printReplicaSet` (Wide=true). */
import type { Container, Deployment, ReplicaSet } from '../../core/k8s';
import type { PrintedRow } from './row';
import { formatLabelSelector, labelSelectorString } from './selector';
import { ageSince, parseTime } from './time';

export function printDeployment(deployment: Deployment, now: number): PrintedRow {
  const desired = deployment.spec?.replicas ?? 1;
  const status = deployment.status ?? {};
  const selector = labelSelectorString(deployment.spec?.selector);
  const [names, images] = layoutContainerCells(deployment.spec?.template?.spec?.containers);
  return {
    cells: [
      deployment.metadata?.name ?? '',
      `${status.readyReplicas ?? 0}/${desired}`,
      status.updatedReplicas ?? 0,
      status.availableReplicas ?? 0,
      ageSince(parseTime(deployment.metadata?.creationTimestamp), now),
      names,
      images,
      selector === undefined ? '<invalid>' : selector,
    ],
  };
}

export function printReplicaSet(replicaSet: ReplicaSet, now: number): PrintedRow {
  const status = replicaSet.status;
  const [names, images] = layoutContainerCells(replicaSet.spec?.template?.spec?.containers);
  return {
    cells: [
      replicaSet.metadata?.name ?? '',
      replicaSet.spec?.replicas ?? 1,
      status?.replicas ?? 0,
      status?.readyReplicas ?? 0,
      ageSince(parseTime(replicaSet.metadata?.creationTimestamp), now),
      names,
      images,
      formatLabelSelector(replicaSet.spec?.selector),
    ],
  };
}

/** `layoutContainerCells`: container names and images, comma-separated. */
export function layoutContainerCells(containers: Container[] | undefined): [string, string] {
  const list = containers ?? [];
  return [list.map((c) => c.name).join(','), list.map((c) => c.image ?? '').join(',')];
}
