/**
 * Pod predicates the controllers share (k8s.io/kubernetes pkg/api/v1/pod/util.go and
 * pkg/controller/controller_utils.go).
 */
import type { PodCondition } from '../../core/k8s';
import { parseTime, type PodObject } from './controller-types';

export function podReadyCondition(pod: PodObject): PodCondition | undefined {
  const conditions = pod.status?.conditions;
  if (!conditions) return undefined;
  for (const condition of conditions) if (condition.type === 'Ready') return condition;
  return undefined;
}

/** `podutil.IsPodReady`: condition Ready is True. */
export function isPodReady(pod: PodObject): boolean {
  return podReadyCondition(pod)?.status === 'True';
}

/** `controller.IsPodActive`: not Succeeded, not Failed, not being deleted. */
export function isPodActive(pod: PodObject): boolean {
  const phase = pod.status?.phase;
  return phase !== 'Succeeded' && phase !== 'Failed' && !pod.metadata?.deletionTimestamp;
}

/**
 * `podutil.IsPodAvailable`: ready, and (with minReadySeconds) ready for strictly longer than that,
 * measured from the Ready condition's lastTransitionTime.
 */
export function isPodAvailable(pod: PodObject, minReadySeconds: number, now: number): boolean {
  const ready = podReadyCondition(pod);
  if (ready?.status !== 'True') return false;
  if (minReadySeconds === 0) return true;
  const since = parseTime(ready.lastTransitionTime);
  return since !== undefined && since + minReadySeconds * 1000 < now;
}

/** When a pod that is not yet available will become so, or undefined if it will not on its own. */
export function podAvailableAt(pod: PodObject, minReadySeconds: number): number | undefined {
  const ready = podReadyCondition(pod);
  if (ready?.status !== 'True') return undefined;
  const since = parseTime(ready.lastTransitionTime);
  return since === undefined ? undefined : since + minReadySeconds * 1000;
}
