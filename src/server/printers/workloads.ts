/**
 * Workload controller rows: ports of `printDeployment`, `printReplicaSet`,
 * `printReplicationController`, `printStatefulSet`, `printDaemonSet` and `printControllerRevision`
 * (Wide=true).
 */
import type { Container, ControllerRevision, DaemonSet, Deployment, ReplicaSet, ReplicationController, StatefulSet } from '../../core/k8s';
import type { PrintedRow } from './row';
import { formatLabels, formatLabelSelector, labelSelectorString } from './selector';
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

export function printReplicationController(controller: ReplicationController, now: number): PrintedRow {
  const status = controller.status;
  const [names, images] = layoutContainerCells(controller.spec?.template?.spec?.containers);
  return {
    cells: [
      controller.metadata?.name ?? '',
      controller.spec?.replicas ?? 1,
      status?.replicas ?? 0,
      status?.readyReplicas ?? 0,
      ageSince(parseTime(controller.metadata?.creationTimestamp), now),
      names,
      images,
      formatLabels(controller.spec?.selector),
    ],
  };
}

export function printStatefulSet(statefulSet: StatefulSet, now: number): PrintedRow {
  const [names, images] = layoutContainerCells(statefulSet.spec?.template?.spec?.containers);
  return {
    cells: [
      statefulSet.metadata?.name ?? '',
      `${statefulSet.status?.readyReplicas ?? 0}/${statefulSet.spec?.replicas ?? 1}`,
      ageSince(parseTime(statefulSet.metadata?.creationTimestamp), now),
      names,
      images,
    ],
  };
}

export function printDaemonSet(daemonSet: DaemonSet, now: number): PrintedRow {
  const status = daemonSet.status;
  const [names, images] = layoutContainerCells(daemonSet.spec?.template?.spec?.containers);
  return {
    cells: [
      daemonSet.metadata?.name ?? '',
      status?.desiredNumberScheduled ?? 0,
      status?.currentNumberScheduled ?? 0,
      status?.numberReady ?? 0,
      status?.updatedNumberScheduled ?? 0,
      status?.numberAvailable ?? 0,
      formatLabels(daemonSet.spec?.template?.spec?.nodeSelector),
      ageSince(parseTime(daemonSet.metadata?.creationTimestamp), now),
      names,
      images,
      formatLabelSelector(daemonSet.spec?.selector),
    ],
  };
}

/** CONTROLLER is the controlling owner as `kind.group/name` in lower case (`statefulset.apps/web`). */
export function printControllerRevision(revision: Partial<ControllerRevision>, now: number): PrintedRow {
  const owner = revision.metadata?.ownerReferences?.find((reference) => reference.controller === true);
  let controller = '<none>';
  if (owner) {
    const slash = owner.apiVersion.indexOf('/');
    const group = slash < 0 ? '' : owner.apiVersion.slice(0, slash);
    const groupKind = group ? `${owner.kind}.${group}` : owner.kind;
    controller = groupKind ? `${groupKind.toLowerCase()}/${owner.name}` : owner.name;
  }
  return { cells: [revision.metadata?.name ?? '', controller, revision.revision ?? 0, ageSince(parseTime(revision.metadata?.creationTimestamp), now)] };
}

/** `layoutContainerCells`: container names and images, comma-separated. */
export function layoutContainerCells(containers: Container[] | undefined): [string, string] {
  const list = containers ?? [];
  return [list.map((c) => c.name).join(','), list.map((c) => c.image ?? '').join(',')];
}
