/**
 * How the Journeys view lays out the pods of one owner when there are thousands of them: above
 * GROUP_ABOVE pods, by state first (stuck and failed states leading, each with its reason), then
 * inside a state by node, so no parent ever holds more than ROWS_PER_PARENT rows. A layout is a
 * list of entries, each a pod or a group with a key; a group is found again by the keys on its
 * path, so a group row keeps its identity while the pods inside it change.
 */
import type { JourneyStatus, ObjectJourney } from '../../core/journey/types';

/** An owner with more pods than this shows its pods grouped by state. */
export const GROUP_ABOVE = 50;
/** No parent gets more rows than this: larger groups split by node, then by node ranges or runs of pods. */
export const ROWS_PER_PARENT = 100;

export type PodGroupKind = 'state' | 'node' | 'nodes' | 'run';

export interface PodGroup {
  readonly kind: PodGroupKind;
  /** Unique among its siblings, stable while the group exists. */
  readonly key: string;
  /** `Running`, `node-17`, `node-1 – node-10`, `pods 101–200`. */
  readonly label: string;
  /** In the owner's order. */
  readonly pods: readonly ObjectJourney[];
  /** The most urgent status among its pods (stuck or failed first). */
  readonly status: JourneyStatus;
  /** A state group's reason when its pods are stuck or failed: `FailedScheduling`. */
  readonly reason?: string;
  /** The first stuck pod's message, for the tooltip. */
  readonly message?: string;
}

export type PodLayoutEntry = { readonly pod: ObjectJourney } | { readonly group: PodGroup };

const STATUS_RANK: Readonly<Record<JourneyStatus, number>> = { stuck: 0, failed: 1, progressing: 2, pending: 3, complete: 4, deleted: 5 };

const byNodeName = new Intl.Collator('en', { numeric: true }).compare;

/** The node key of a pod not scheduled yet: sorts after every node name. */
const UNSCHEDULED = '\uffff';

function worst(pods: readonly ObjectJourney[]): JourneyStatus {
  let best: JourneyStatus = 'deleted';
  for (const pod of pods) if (STATUS_RANK[pod.status] < STATUS_RANK[best]) best = pod.status;
  return best;
}

function nodeKey(pod: ObjectJourney): string {
  return pod.pod?.node ?? UNSCHEDULED;
}

function nodeLabel(key: string): string {
  return key === UNSCHEDULED ? 'not scheduled' : key;
}

/**
 * The state rows of an owner's pods: one per state as `kubectl get pods` names it, split by
 * stuck reason, ordered by urgency (stuck, failed, progressing, pending, complete, deleted) then
 * by size. `stateOf` is the tree's own STATUS text, so a group reads like its pods.
 */
export function stateGroups(pods: readonly ObjectJourney[], stateOf: (pod: ObjectJourney) => string): PodGroup[] {
  const byKey = new Map<string, { state: string; reason?: string; pods: ObjectJourney[] }>();
  for (const pod of pods) {
    const state = stateOf(pod);
    const troubled = pod.status === 'stuck' || pod.status === 'failed';
    const reason = troubled && pod.stuck && pod.stuck.reason !== state ? pod.stuck.reason : undefined;
    const key = reason ? `${state}:${reason}` : state;
    let entry = byKey.get(key);
    if (!entry) byKey.set(key, (entry = { state, reason, pods: [] }));
    entry.pods.push(pod);
  }
  const groups = [...byKey].map(([key, entry]): PodGroup => {
    const status = worst(entry.pods);
    const troubled = status === 'stuck' || status === 'failed';
    const message = troubled ? entry.pods.find((pod) => pod.stuck)?.stuck?.message : undefined;
    return { kind: 'state', key, label: entry.state, pods: entry.pods, status, reason: entry.reason, message };
  });
  return groups.sort((a, b) => STATUS_RANK[a.status] - STATUS_RANK[b.status] || b.pods.length - a.pods.length || a.key.localeCompare(b.key));
}

/** A group's rows: its pods when they fit, else its pods by node, by ranges of nodes, or in runs. */
export function groupLayout(pods: readonly ObjectJourney[]): PodLayoutEntry[] {
  if (pods.length <= ROWS_PER_PARENT) return pods.map((pod) => ({ pod }));
  const byNode = new Map<string, ObjectJourney[]>();
  for (const pod of pods) {
    const key = nodeKey(pod);
    const list = byNode.get(key);
    if (list) list.push(pod);
    else byNode.set(key, [pod]);
  }
  const nodes = [...byNode.keys()].sort(byNodeName);
  if (nodes.length === 1) return runs(pods);
  if (nodes.length <= ROWS_PER_PARENT) {
    return nodes.map((key) => {
      const members = byNode.get(key)!;
      return { group: { kind: 'node', key: `node=${key}`, label: nodeLabel(key), pods: members, status: worst(members) } };
    });
  }
  const perBucket = Math.ceil(nodes.length / ROWS_PER_PARENT);
  const entries: PodLayoutEntry[] = [];
  for (let start = 0; start < nodes.length; start += perBucket) {
    const slice = nodes.slice(start, start + perBucket);
    const members = slice.flatMap((key) => byNode.get(key)!);
    const first = nodeLabel(slice[0]);
    const last = nodeLabel(slice[slice.length - 1]);
    entries.push({ group: { kind: 'nodes', key: `nodes=${first}..${last}`, label: slice.length === 1 ? first : `${first} – ${last}`, pods: members, status: worst(members) } });
  }
  return entries;
}

/** Pods that share one node (or none): consecutive runs, each of a power of ROWS_PER_PARENT pods. */
function runs(pods: readonly ObjectJourney[]): PodLayoutEntry[] {
  let size = ROWS_PER_PARENT;
  while (Math.ceil(pods.length / size) > ROWS_PER_PARENT) size *= ROWS_PER_PARENT;
  const entries: PodLayoutEntry[] = [];
  for (let start = 0; start < pods.length; start += size) {
    const members = pods.slice(start, start + size);
    const end = start + members.length;
    entries.push({ group: { kind: 'run', key: `run=${start}`, label: `pods ${(start + 1).toLocaleString('en-US')}–${end.toLocaleString('en-US')}`, pods: members, status: worst(members) } });
  }
  return entries;
}

/** The path of keys from the owner down to the innermost group holding `pod`, or undefined when no group holds it. */
export function pathOfPod(stateLevel: readonly PodGroup[], pod: ObjectJourney): string[] | undefined {
  const path: string[] = [];
  let level: readonly PodLayoutEntry[] = stateLevel.map((group) => ({ group }));
  for (;;) {
    const holder = level.find((entry): entry is { group: PodGroup } => 'group' in entry && entry.group.pods.includes(pod));
    if (!holder) return level.some((entry) => 'pod' in entry && entry.pod === pod) ? path : undefined;
    path.push(holder.group.key);
    level = groupLayout(holder.group.pods);
  }
}
