/**
 * The API server's pods/binding subresource (pkg/registry/core/pod/storage `setPodHostAndAnnotations`):
 * `spec.nodeName` and `PodScheduled=True` in one write, with the conflicts it answers. The
 * scheduler binds through it, and so does the HTTP API's `POST …/pods/<name>/binding`.
 */
import type { KubeObject, Pod, PodCondition } from '../../core/k8s';
import { rfc3339 } from './object-utils';
import { ApiError, type StoreApi } from './types';

export type PodObject = Pod & KubeObject;
type PodStatus = NonNullable<Pod['status']>;

/** kubernetes-types marks status read-only (server-set); the copies handed to `mutate` are ours to change. */
export function statusOf(copy: PodObject): PodStatus {
  const writable = copy as { status?: PodStatus };
  return (writable.status ??= {});
}

/** `podutil.UpdatePodCondition`: the transition time moves only when the status does. Returns whether anything changed. */
export function setPodCondition(status: PodStatus, condition: PodCondition, now: number): boolean {
  const conditions = ((status as { conditions?: PodCondition[] }).conditions ??= []);
  const index = conditions.findIndex((c) => c.type === condition.type);
  const existing = index >= 0 ? conditions[index] : undefined;
  const transition = existing && existing.status === condition.status ? existing.lastTransitionTime : rfc3339(now);
  // Go marshals the zero lastProbeTime as null, which is what clients read.
  const next = { type: condition.type, status: condition.status, lastProbeTime: null, lastTransitionTime: transition, ...(condition.reason ? { reason: condition.reason } : {}), ...(condition.message ? { message: condition.message } : {}) } as unknown as PodCondition;
  if (existing && existing.status === next.status && existing.reason === next.reason && existing.message === next.message && existing.lastTransitionTime === next.lastTransitionTime) return false;
  if (index >= 0) conditions[index] = next;
  else conditions.push(next);
  return true;
}

/** Thrown by the binding write when the pod is no longer the one the scheduler chose a node for. */
export function bindingConflict(name: string, detail: string): ApiError {
  return new ApiError(409, 'Conflict', `Operation cannot be fulfilled on pods/binding "${name}": ${detail}`, { name, kind: 'pods' });
}

/**
 * What the API server's pods/binding storage does to the pod (`setPodHostAndAnnotations`), in one
 * write: `spec.nodeName`, and `PodScheduled=True` through `podutil.UpdatePodCondition`.
 */
export function assignToNode(copy: PodObject, nodeName: string, now: number): void {
  (copy.spec as { nodeName?: string }).nodeName = nodeName;
  setPodCondition(statusOf(copy), { type: 'PodScheduled', status: 'True' }, now);
}

/** Binds `pod` to `nodeName` as `fieldManager`, refusing when the pod was replaced or is bound already. */
export function bindPod(store: StoreApi, pod: { namespace: string; name: string; uid: string }, nodeName: string, now: number, fieldManager: string): PodObject {
  return store.mutate<PodObject>('Pod', pod.namespace, pod.name, (copy) => {
    if (copy.metadata?.uid !== pod.uid) throw bindingConflict(pod.name, 'the pod was replaced');
    if (!copy.spec) throw bindingConflict(pod.name, 'the pod has no spec');
    if (copy.spec.nodeName) throw bindingConflict(pod.name, `pod ${pod.name} is already assigned to node "${copy.spec.nodeName}"`);
    assignToNode(copy, nodeName, now);
  }, { fieldManager, subresource: 'binding' });
}
