/**
 * Where the pods ran, compared as each kind gives placement a meaning: a StatefulSet's pods by
 * ordinal (web-0 on node-1 in A, node-2 in B), a DaemonSet's by node (does node-3 run one?), any
 * other owner's as pods per node. Only pods still there at the end count: a rollout's deleted old
 * pods are in the stages, not the placement.
 */
import type { ObjectJourney } from '../journey/types';
import type { PlacementDelta, PlacementRow } from './types';

/** What a pod row says when the pod has no node. */
export const NOT_SCHEDULED = 'not scheduled';
/** What a row says when the trace has no such pod. */
export const ABSENT = '-';

function livePods(o: ObjectJourney | undefined, into: ObjectJourney[] = []): ObjectJourney[] {
  if (!o) return into;
  if (o.ref.kind === 'Pod' && o.status !== 'deleted') into.push(o);
  for (const child of o.children) livePods(child, into);
  return into;
}

const byName = (a: string, b: string): number => a.localeCompare(b, 'en', { numeric: true });

function nodeOf(pod: ObjectJourney): string {
  return pod.pod?.node ?? NOT_SCHEDULED;
}

function perNode(pods: readonly ObjectJourney[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const pod of pods) counts.set(nodeOf(pod), (counts.get(nodeOf(pod)) ?? 0) + 1);
  return counts;
}

/** Rows whose values differ, keys in natural order (node-2 before node-10), `not scheduled` last. */
function differing(a: Map<string, number | string>, b: Map<string, number | string>, missing: number | string): PlacementRow[] {
  const keys = [...new Set([...a.keys(), ...b.keys()])].sort((x, y) => Number(x === NOT_SCHEDULED) - Number(y === NOT_SCHEDULED) || byName(x, y));
  return keys.map((key) => ({ key, a: a.get(key) ?? missing, b: b.get(key) ?? missing })).filter((row) => row.a !== row.b);
}

/** Placement rows that differ between two journeys of the same root; undefined when none does (or neither has pods). */
export function placementDelta(a: ObjectJourney | undefined, b: ObjectJourney | undefined): PlacementDelta | undefined {
  const kind = (a ?? b)?.ref.kind;
  const podsA = livePods(a);
  const podsB = livePods(b);
  if (podsA.length === 0 && podsB.length === 0) return undefined;
  let delta: PlacementDelta;
  if (kind === 'StatefulSet') {
    // Pod names are the set's name and the ordinal: stable between traces, ordered naturally (web-2 before web-10).
    const byPod = (pods: readonly ObjectJourney[]): Map<string, string> => new Map(pods.map((pod) => [pod.ref.name, nodeOf(pod)]));
    delta = { by: 'ordinal', rows: differing(byPod(podsA), byPod(podsB), ABSENT) };
  } else if (kind === 'DaemonSet') {
    const byNode = (pods: readonly ObjectJourney[]): Map<string, string> => {
      const map = new Map<string, string>();
      for (const pod of pods) map.set(nodeOf(pod), map.has(nodeOf(pod)) ? `${map.get(nodeOf(pod))}, ${pod.status}` : pod.status);
      return map;
    };
    delta = { by: 'daemon', rows: differing(byNode(podsA), byNode(podsB), ABSENT) };
  } else {
    delta = { by: 'node', rows: differing(perNode(podsA), perNode(podsB), 0) };
  }
  return delta.rows.length > 0 ? delta : undefined;
}
