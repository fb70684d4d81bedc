/**
 * `realStatefulSetStatusUpdater` (pkg/controller/statefulset/stateful_set_status_updater.go):
 * writes a StatefulSet's status through the status subresource.
 */
import type { KubeObject } from '../../../core/k8s';
import type { StoreApi } from '../../store/types';
import type { StatefulSetObject, StatefulSetStatus } from './stateful-set-utils';

/** The status in the field order and with the omissions the API serializes StatefulSetStatus with. */
function serialized(status: StatefulSetStatus): StatefulSetStatus {
  const out = {} as StatefulSetStatus;
  if (status.observedGeneration) out.observedGeneration = status.observedGeneration;
  out.replicas = status.replicas;
  if (status.readyReplicas) out.readyReplicas = status.readyReplicas;
  if (status.currentReplicas) out.currentReplicas = status.currentReplicas;
  if (status.updatedReplicas) out.updatedReplicas = status.updatedReplicas;
  if (status.currentRevision) out.currentRevision = status.currentRevision;
  if (status.updateRevision) out.updateRevision = status.updateRevision;
  if (status.collisionCount !== undefined) out.collisionCount = status.collisionCount;
  if (status.conditions && status.conditions.length > 0) out.conditions = status.conditions;
  out.availableReplicas = status.availableReplicas ?? 0;
  return out;
}

export class StatefulSetStatusUpdater {
  constructor(
    private readonly store: StoreApi,
    private readonly fieldManager: string,
  ) {}

  /** `UpdateStatefulSetStatus`: the set's whole status becomes `status`; the conditions are kept. */
  updateStatefulSetStatus(set: StatefulSetObject, status: StatefulSetStatus): void {
    const next = serialized({ ...status, conditions: set.status?.conditions });
    this.store.mutate<StatefulSetObject>('StatefulSet', set.metadata?.namespace, set.metadata?.name ?? '', (copy) => {
      (copy as KubeObject).status = next;
    }, { fieldManager: this.fieldManager, subresource: 'status' });
  }
}
