/**
 * Which pods a ReplicaSet deletes first when it scales down: `ActivePodsWithRanks.Less` in
 * pkg/controller/controller_utils.go, with the PodDeletionCost and LogarithmicScaleDown features
 * on (their defaults since 1.22), and `getPodsToDelete` from pkg/controller/replicaset.
 */
import { parseTime, type PodObject } from './controller-types';
import { isPodActive, isPodReady, podReadyCondition } from './pod-util';

const POD_DELETION_COST_ANNOTATION = 'controller.kubernetes.io/pod-deletion-cost';

const phaseOrdinal: Record<string, number> = { Pending: 0, Unknown: 1, Running: 2 };

interface RankedPod {
  pod: PodObject;
  /** Active related pods on the same node. */
  rank: number;
}

function deletionCost(pod: PodObject): number {
  const value = pod.metadata?.annotations?.[POD_DELETION_COST_ANNOTATION];
  if (value === undefined || !/^[+-]?\d+$/.test(value)) return 0;
  const cost = Number(value);
  return cost >= -2147483648 && cost <= 2147483647 ? cost : 0;
}

/** Zero time (absent) sorts as "after" anything, as `afterOrZero` does. */
function afterOrZero(t1: number | undefined, t2: number | undefined): boolean {
  if (t1 === undefined || t2 === undefined) return t1 === undefined;
  return t1 > t2;
}

/** Base-2 logarithm of the age in nanoseconds, truncated: pods of similar age rank the same. */
function logRank(time: number, now: number): number {
  const ageNanos = (now - time) * 1e6;
  return ageNanos > 0 ? Math.trunc(Math.log2(ageNanos)) : -1;
}

function compareTimes(t1: number | undefined, t2: number | undefined, now: number, uid1: string, uid2: string): number | undefined {
  if (t1 === t2) return undefined;
  if (t1 === undefined || t2 === undefined) return afterOrZero(t1, t2) ? -1 : 1;
  const diff = logRank(t1, now) - logRank(t2, now);
  if (diff === 0) return uid1 < uid2 ? -1 : uid1 > uid2 ? 1 : 0;
  return diff < 0 ? -1 : 1;
}

function maxRestarts(statuses: readonly { restartCount?: number }[] | undefined): number {
  let max = 0;
  for (const status of statuses ?? []) max = Math.max(max, status.restartCount ?? 0);
  return max;
}

/** Restarts of regular containers, then of sidecars (init containers with restartPolicy Always). */
function restartCounts(pod: PodObject): { regular: number; sidecar: number } {
  const sidecarNames = new Set((pod.spec?.initContainers ?? []).filter((c) => c.restartPolicy === 'Always').map((c) => c.name));
  const sidecars = (pod.status?.initContainerStatuses ?? []).filter((s) => sidecarNames.has(s.name));
  return { regular: maxRestarts(pod.status?.containerStatuses), sidecar: maxRestarts(sidecars) };
}

/** Negative when `a` should be deleted before `b`. */
function compareForDeletion(a: RankedPod, b: RankedPod, now: number): number {
  const podA = a.pod;
  const podB = b.pod;
  const nodeA = podA.spec?.nodeName ?? '';
  const nodeB = podB.spec?.nodeName ?? '';
  // 1. Unassigned < assigned.
  if (nodeA !== nodeB && (nodeA === '' || nodeB === '')) return nodeA === '' ? -1 : 1;
  // 2. Pending < Unknown < Running.
  const phaseA = phaseOrdinal[podA.status?.phase ?? ''] ?? 0;
  const phaseB = phaseOrdinal[podB.status?.phase ?? ''] ?? 0;
  if (phaseA !== phaseB) return phaseA - phaseB;
  // 3. Not ready < ready.
  const readyA = isPodReady(podA);
  const readyB = isPodReady(podB);
  if (readyA !== readyB) return readyA ? 1 : -1;
  // 4. Lower pod-deletion-cost < higher.
  const costA = deletionCost(podA);
  const costB = deletionCost(podB);
  if (costA !== costB) return costA - costB;
  // 5. More related pods on the same node < fewer.
  if (a.rank !== b.rank) return b.rank - a.rank;
  const uidA = podA.metadata?.uid ?? '';
  const uidB = podB.metadata?.uid ?? '';
  // 6. Ready for less time < more time (logarithmic buckets).
  if (readyA && readyB) {
    const byReady = compareTimes(parseTime(podReadyCondition(podA)?.lastTransitionTime), parseTime(podReadyCondition(podB)?.lastTransitionTime), now, uidA, uidB);
    if (byReady !== undefined) return byReady;
  }
  // 7. More container restarts < fewer.
  const restartsA = restartCounts(podA);
  const restartsB = restartCounts(podB);
  if (restartsA.regular !== restartsB.regular) return restartsB.regular - restartsA.regular;
  if (restartsA.sidecar !== restartsB.sidecar) return restartsB.sidecar - restartsA.sidecar;
  // 8. Newer < older (logarithmic buckets).
  return compareTimes(parseTime(podA.metadata?.creationTimestamp), parseTime(podB.metadata?.creationTimestamp), now, uidA, uidB) ?? 0;
}

/** `pods` in deletion order: the first ones are the ones to delete. */
export function rankPodsForDeletion(pods: readonly PodObject[], relatedPods: readonly PodObject[], now: number): PodObject[] {
  const podsOnNode = new Map<string, number>();
  for (const pod of relatedPods) {
    if (!isPodActive(pod)) continue;
    const node = pod.spec?.nodeName ?? '';
    podsOnNode.set(node, (podsOnNode.get(node) ?? 0) + 1);
  }
  const ranked: RankedPod[] = pods.map((pod) => ({ pod, rank: podsOnNode.get(pod.spec?.nodeName ?? '') ?? 0 }));
  ranked.sort((a, b) => compareForDeletion(a, b, now));
  return ranked.map((r) => r.pod);
}

/** `getPodsToDelete`: the `count` pods to delete (no ranking needed when all of them go). */
export function podsToDelete(activePods: readonly PodObject[], relatedPods: readonly PodObject[], count: number, now: number): PodObject[] {
  if (count >= activePods.length) return [...activePods];
  return rankPodsForDeletion(activePods, relatedPods, now).slice(0, count);
}
