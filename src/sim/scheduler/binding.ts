/**
 * The scheduler's writes to a pod: the binding through the API server's pods/binding subresource
 * (store/pod-binding.ts), and the PodScheduled=False condition of a failed attempt (written only
 * when it changes, as `updatePod` in schedule_one.go).
 */
import type { PodCondition } from '../../core/k8s';
import { bindPod, setPodCondition, statusOf, type PodObject } from '../store/pod-binding';
import type { StoreApi } from '../store/types';

export const SCHEDULER_FIELD_MANAGER = 'default-scheduler';

/** The DefaultBinder: a binding written as the scheduler. */
export function bindAsScheduler(store: StoreApi, pod: { namespace: string; name: string; uid: string }, nodeName: string, now: number): PodObject {
  return bindPod(store, pod, nodeName, now, SCHEDULER_FIELD_MANAGER);
}

/** PodScheduled=False, reason Unschedulable; no write when the condition already says so. */
export function markUnschedulable(store: StoreApi, current: PodObject, message: string, now: number): void {
  const existing = current.status?.conditions?.find((c) => c.type === 'PodScheduled');
  if (existing && existing.status === 'False' && existing.reason === 'Unschedulable' && existing.message === message) return;
  const condition: PodCondition = { type: 'PodScheduled', status: 'False', reason: 'Unschedulable', message };
  const meta = current.metadata ?? {};
  store.mutate<PodObject>('Pod', meta.namespace, meta.name ?? '', (copy) => {
    setPodCondition(statusOf(copy), condition, now);
  }, { fieldManager: SCHEDULER_FIELD_MANAGER, subresource: 'status' });
}
