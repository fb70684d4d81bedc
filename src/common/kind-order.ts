/**
 * What each traced kind is to its journey: whether it owns pods itself, the order its pods mean
 * something in (a StatefulSet's ordinals, a DaemonSet's nodes, a Job's tries), and the goal a
 * journey of that kind reaches. Read by every view of a journey (CLI text, tree, CodeLens, hover,
 * timeline), so it lives in common, where the webview can import it.
 */
import { TRACEABLE_PARENTS, type TraceableKind } from './traceable-kinds';

/** The part of a journey object (core/journey ObjectJourney) the order reads; common stays free of core. */
export interface OrderedObject<T> {
  ref: { kind: string; name: string };
  pod?: { node?: string };
  children: readonly T[];
}

/** Whether objects of this kind own pods directly (a Deployment owns ReplicaSets, a CronJob Jobs). */
export function ownsPods(kind: TraceableKind): boolean {
  return TRACEABLE_PARENTS.Pod.includes(kind);
}

/** The ordinal of a StatefulSet pod (`web-10` → 10), or undefined for a name without one. */
export function ordinalOf(podName: string, setName: string): number | undefined {
  if (!podName.startsWith(`${setName}-`)) return undefined;
  const rest = podName.slice(setName.length + 1);
  return /^\d+$/.test(rest) ? Number(rest) : undefined;
}

const byName = (a: string, b: string): number => a.localeCompare(b, 'en', { numeric: true });

/**
 * An owner's pods in the order its kind gives them: a StatefulSet's by ordinal (web-9 before
 * web-10), a DaemonSet's by node (unscheduled ones last), others by creation (the tracer's order,
 * which for a Job is the order of its tries).
 */
export function podsInOrder<T extends OrderedObject<T>>(owner: OrderedObject<T>): T[] {
  const pods = owner.children;
  if (owner.ref.kind === 'StatefulSet') {
    const rank = (pod: T): number => ordinalOf(pod.ref.name, owner.ref.name) ?? Number.MAX_SAFE_INTEGER;
    return [...pods].sort((a, b) => rank(a) - rank(b) || byName(a.ref.name, b.ref.name));
  }
  if (owner.ref.kind === 'DaemonSet') {
    return [...pods].sort((a, b) => {
      const na = a.pod?.node;
      const nb = b.pod?.node;
      if (na === undefined || nb === undefined) return na === nb ? 0 : na === undefined ? 1 : -1;
      return byName(na, nb);
    });
  }
  return pods.slice();
}

/** The goal a journey of this kind reaches, as `apply → …` reads: `Available`, `all pods ready`, `Job Complete`. */
export function journeyGoal(kind: TraceableKind): string {
  switch (kind) {
    case 'Deployment':
      return 'Available';
    case 'Job':
      return 'Job Complete';
    case 'CronJob':
      return 'first Job Complete';
    case 'Pod':
      return 'Ready';
    case 'Service':
      return 'every selected pod serving';
    case 'EndpointSlice':
      return 'all endpoints ready';
    default:
      return 'all pods ready';
  }
}
