/**
 * The lane list: one lane per object of the journey tree (Deployment, each ReplicaSet, each Pod;
 * a StatefulSet or DaemonSet and its pods; a CronJob, its Jobs and theirs), in tree order. Above `simplifyAbovePods` pods the list is simplified the way large graphs are:
 * per ReplicaSet, every stuck or failed pod stays (always, however many), plus the first pods and
 * the slowest ones; the rest collapse into one summary lane that draws their stage times as a
 * density strip. "Show all pods" lists every pod; drawing is virtualised either way.
 */
import type { JourneyStatus, ObjectJourney, StageKind } from '../../core/journey/types';
import { journeyObjectKey } from '../../protocol/timeline-protocol';
import { podsInOrder } from '../../common/kind-order';

/** `Kind/namespace/name`: stable across snapshots (the uid is unknown until the object is seen). */
export const objectKey = journeyObjectKey;

export interface ObjectLane {
  readonly type: 'object';
  /** `objectKey` of the object. */
  readonly key: string;
  /** 0 for the root, +1 per level down. */
  readonly depth: number;
  readonly object: ObjectJourney;
  /** Why this pod is listed in a simplified list. */
  readonly note?: 'stuck' | 'slowest';
}

/** Stage kinds a summary lane draws, one density row each, in drawing order. */
export const SUMMARY_STAGE_KINDS = ['podCreated', 'scheduled', 'running', 'ready'] as const satisfies readonly StageKind[];
export type SummaryStageKind = (typeof SUMMARY_STAGE_KINDS)[number];

export interface SummaryLane {
  readonly type: 'summary';
  /** `<parent key>#rest`. */
  readonly key: string;
  readonly depth: number;
  readonly parentKey: string;
  /** Pods folded into this lane. */
  readonly podCount: number;
  readonly statusCounts: Readonly<Partial<Record<JourneyStatus, number>>>;
  /** Per stage kind, the folded pods' first times of that kind, ms from the apply, ascending. */
  readonly times: Readonly<Record<SummaryStageKind, Float64Array>>;
}

export type Lane = ObjectLane | SummaryLane;

export interface LaneListOptions {
  /** List every pod (the user asked for it). */
  showAllPods: boolean;
  /** Pods in the journey above which the list is simplified (default 1,000). */
  simplifyAbovePods?: number;
  /** Healthy pods per ReplicaSet kept in a simplified list, in creation order (default 20). */
  firstPods?: number;
  /** Slowest pods (create → ready, or still not ready) per ReplicaSet kept (default 5). */
  slowestPods?: number;
  /** Objects kept in a simplified list whatever they are (the selected pod), by `objectKey`. */
  pinnedKeys?: ReadonlySet<string>;
}

export interface LaneList {
  readonly lanes: readonly Lane[];
  readonly totalPods: number;
  /** The list is simplified (some pods are folded into summary lanes). */
  readonly simplified: boolean;
  /** Pods folded into summary lanes. */
  readonly foldedPods: number;
  /** Lane index by lane key. */
  readonly indexByKey: ReadonlyMap<string, number>;
  /**
   * Earliest and latest stage of the whole tree, ms from the apply. The earliest can be negative:
   * whole-second stamps, or an apply recorded after the API server had already stored the object.
   */
  readonly extent: { readonly firstMs: number; readonly lastMs: number };
}

export const DEFAULT_SIMPLIFY_ABOVE_PODS = 1000;

export function isTroubled(status: JourneyStatus): boolean {
  return status === 'stuck' || status === 'failed';
}

export function countPods(tree: ObjectJourney | undefined): number {
  if (!tree) return 0;
  if (tree.ref.kind === 'Pod') return 1;
  let n = 0;
  for (const child of tree.children) n += countPods(child);
  return n;
}

/** How long a pod took to become ready; pods not ready yet count as slowest of all. */
function slowness(pod: ObjectJourney, now: number): number {
  const marks = pod.pod?.marks;
  const created = marks?.created ?? pod.createdAt;
  if (created === undefined) return -Infinity;
  if (marks?.ready !== undefined) return marks.ready - created;
  return now - created + 1e12;
}

function summaryOf(parentKey: string, depth: number, pods: readonly ObjectJourney[], origin: number): SummaryLane {
  const statusCounts: Partial<Record<JourneyStatus, number>> = {};
  const lists: number[][] = SUMMARY_STAGE_KINDS.map(() => []);
  const slot = new Map<StageKind, number>(SUMMARY_STAGE_KINDS.map((kind, i) => [kind, i]));
  for (const pod of pods) {
    statusCounts[pod.status] = (statusCounts[pod.status] ?? 0) + 1;
    // Bit i set once the pod's first stage of SUMMARY_STAGE_KINDS[i] was counted.
    let seen = 0;
    for (const stage of pod.stages) {
      const i = slot.get(stage.kind);
      if (i === undefined || seen & (1 << i)) continue;
      seen |= 1 << i;
      lists[i].push(stage.time - origin);
    }
  }
  const times = {} as Record<SummaryStageKind, Float64Array>;
  SUMMARY_STAGE_KINDS.forEach((kind, i) => (times[kind] = Float64Array.from(lists[i]).sort()));
  return { type: 'summary', key: `${parentKey}#rest`, depth, parentKey, podCount: pods.length, statusCounts, times };
}

/** The `count` pods with the highest slowness, slowest first: one pass, no full sort. */
function slowestOf(pods: readonly ObjectJourney[], count: number, now: number): ObjectJourney[] {
  const top: { pod: ObjectJourney; value: number }[] = [];
  if (count <= 0) return [];
  for (const pod of pods) {
    const value = slowness(pod, now);
    if (top.length === count && value <= top[top.length - 1].value) continue;
    let i = top.length === count ? top.length - 1 : top.length;
    if (top.length === count) top.pop();
    while (i > 0 && top[i - 1].value < value) i--;
    top.splice(i, 0, { pod, value });
  }
  return top.map((entry) => entry.pod);
}

/**
 * The lanes of a journey tree. `origin` is the apply time (summary times are relative to it);
 * `now` ranks pods that are not ready yet as the slowest.
 */
export function buildLanes(tree: ObjectJourney | undefined, origin: number, now: number, options: LaneListOptions): LaneList {
  const lanes: Lane[] = [];
  const totalPods = countPods(tree);
  const simplify = !options.showAllPods && totalPods > (options.simplifyAbovePods ?? DEFAULT_SIMPLIFY_ABOVE_PODS);
  const firstPods = options.firstPods ?? 20;
  const slowestPods = options.slowestPods ?? 5;
  let foldedPods = 0;
  let firstMs = 0;
  let lastMs = 0;

  const extend = (node: ObjectJourney): void => {
    // Stages are ordered by time: the first and the last bound the object.
    if (node.stages.length === 0) return;
    firstMs = Math.min(firstMs, node.stages[0].time - origin);
    const last = node.stages[node.stages.length - 1];
    lastMs = Math.max(lastMs, (last.lastTime ?? last.time) - origin);
  };

  const visit = (node: ObjectJourney, depth: number): void => {
    const key = objectKey(node.ref);
    extend(node);
    lanes.push({ type: 'object', key, depth, object: node });
    const pods: ObjectJourney[] = [];
    for (const child of node.children) {
      if (child.ref.kind !== 'Pod') visit(child, depth + 1);
    }
    // In the owner's order: a StatefulSet's by ordinal, a DaemonSet's by node.
    for (const child of podsInOrder(node)) {
      if (child.ref.kind !== 'Pod') continue;
      pods.push(child);
      extend(child);
    }
    if (pods.length === 0) return;
    if (!simplify || pods.length <= firstPods + slowestPods) {
      for (const pod of pods) lanes.push({ type: 'object', key: objectKey(pod.ref), depth: depth + 1, object: pod });
      return;
    }
    const keep = new Map<ObjectJourney, ObjectLane['note']>();
    for (const pod of pods) if (isTroubled(pod.status)) keep.set(pod, 'stuck');
    const healthy = pods.filter((pod) => !keep.has(pod));
    if (options.pinnedKeys) for (const pod of healthy) if (options.pinnedKeys.has(objectKey(pod.ref))) keep.set(pod, undefined);
    const slowest = slowestOf(healthy, slowestPods, now);
    for (const pod of slowest) keep.set(pod, 'slowest');
    let kept = 0;
    for (const pod of healthy) {
      if (kept >= firstPods) break;
      if (!keep.has(pod)) {
        keep.set(pod, undefined);
        kept++;
      }
    }
    // Stuck pods first: they are why someone opens a large journey.
    for (const pod of pods) if (keep.get(pod) === 'stuck') lanes.push({ type: 'object', key: objectKey(pod.ref), depth: depth + 1, object: pod, note: 'stuck' });
    for (const pod of pods) {
      if (!keep.has(pod) || keep.get(pod) === 'stuck') continue;
      const note = keep.get(pod);
      lanes.push(note ? { type: 'object', key: objectKey(pod.ref), depth: depth + 1, object: pod, note } : { type: 'object', key: objectKey(pod.ref), depth: depth + 1, object: pod });
    }
    const rest = pods.filter((pod) => !keep.has(pod));
    if (rest.length > 0) {
      foldedPods += rest.length;
      lanes.push(summaryOf(key, depth + 1, rest, origin));
    }
  };
  if (tree) visit(tree, 0);

  const indexByKey = new Map<string, number>();
  lanes.forEach((lane, index) => indexByKey.set(lane.key, index));
  return { lanes, totalPods, simplified: simplify, foldedPods, indexByKey, extent: { firstMs, lastMs } };
}

/** Finds an object in the tree by `objectKey`. */
export function findObject(tree: ObjectJourney | undefined, key: string): ObjectJourney | undefined {
  if (!tree) return undefined;
  if (objectKey(tree.ref) === key) return tree;
  for (const child of tree.children) {
    const found = findObject(child, key);
    if (found) return found;
  }
  return undefined;
}

/** The chain of objects from the root down to the object with `key` (inclusive); empty if absent. */
export function pathTo(tree: ObjectJourney | undefined, key: string): ObjectJourney[] {
  if (!tree) return [];
  if (objectKey(tree.ref) === key) return [tree];
  for (const child of tree.children) {
    const below = pathTo(child, key);
    if (below.length > 0) return [tree, ...below];
  }
  return [];
}
