/**
 * The lane list: one lane per object of the journey tree (Deployment, each ReplicaSet, each Pod;
 * a StatefulSet or DaemonSet and its pods; a CronJob, its Jobs and theirs), in tree order. Above `simplifyAbovePods` pods the list is simplified the way large graphs are:
 * per ReplicaSet, every stuck or failed pod stays (always, however many), plus the first pods and
 * the slowest ones; the rest collapse into one summary lane that draws their stage times as a
 * density strip. "Show all pods" lists every pod; drawing is virtualised either way.
 */
import type { JourneyStatus, ObjectJourney } from '../../core/journey/types';
import { journeyObjectKey, SUMMARY_STAGE_KINDS, type FoldedPods, type SummaryStageKind } from '../../protocol/timeline-protocol';
import { countPods, DEFAULT_SIMPLIFY_ABOVE_PODS, foldPods, foldsAny, keptPods, type KeptNote } from '../../protocol/simplified-lanes';
import { podsInOrder } from '../../common/kind-order';
import { stageBounds, visitStages } from './lane-store';

export { SUMMARY_STAGE_KINDS, DEFAULT_SIMPLIFY_ABOVE_PODS, countPods, type SummaryStageKind };
export { isTroubled } from '../../protocol/simplified-lanes';

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
  /** The journey was sent simplified: the pods the host folded, per owner (the tree holds the others). */
  folded?: readonly FoldedPods[];
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

function summaryLane(folded: FoldedPods, depth: number): SummaryLane {
  return { type: 'summary', key: `${folded.parent}#rest`, depth, parentKey: folded.parent, podCount: folded.podCount, statusCounts: folded.statusCounts, times: folded.times };
}

/**
 * The lanes of a journey tree. `origin` is the apply time (summary times are relative to it);
 * `now` ranks pods that are not ready yet as the slowest.
 */
export function buildLanes(tree: ObjectJourney | undefined, origin: number, now: number, options: LaneListOptions): LaneList {
  const lanes: Lane[] = [];
  const foldedByParent = new Map((options.folded ?? []).map((folded) => [folded.parent, folded]));
  let foldedPods = 0;
  for (const folded of foldedByParent.values()) foldedPods += folded.podCount;
  const totalPods = countPods(tree) + foldedPods;
  const simplify = options.folded !== undefined || (!options.showAllPods && totalPods > (options.simplifyAbovePods ?? DEFAULT_SIMPLIFY_ABOVE_PODS));
  const simplifyOptions = { firstPods: options.firstPods, slowestPods: options.slowestPods, pinnedKeys: options.pinnedKeys };
  let firstMs = 0;
  let lastMs = 0;

  const extend = (node: ObjectJourney): void => {
    // Stages are ordered by time: the first and the last bound the object.
    const bounds = stageBounds(node);
    if (!bounds) return;
    firstMs = Math.min(firstMs, bounds.first - origin);
    lastMs = Math.max(lastMs, bounds.last - origin);
  };
  const podLane = (pod: ObjectJourney, depth: number, note: KeptNote): ObjectLane =>
    note ? { type: 'object', key: objectKey(pod.ref), depth, object: pod, note } : { type: 'object', key: objectKey(pod.ref), depth, object: pod };

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
    const hostFolded = foldedByParent.get(key);
    if (hostFolded) {
      // The host sent only the pods the simplified list shows: stuck ones first. They include the
      // slowest of all the owner's pods, which are the slowest of the ones sent: mark them so.
      const notes = keptPods(pods, now, { ...simplifyOptions, firstPods: Number.POSITIVE_INFINITY });
      for (const pod of pods) if (notes.get(pod) === 'stuck') lanes.push(podLane(pod, depth + 1, 'stuck'));
      for (const pod of pods) if (notes.get(pod) !== 'stuck') lanes.push(podLane(pod, depth + 1, notes.get(pod)));
      if (hostFolded.podCount > 0) lanes.push(summaryLane(hostFolded, depth + 1));
      return;
    }
    if (pods.length === 0) return;
    if (!simplify || !foldsAny(pods.length, simplifyOptions)) {
      for (const pod of pods) lanes.push(podLane(pod, depth + 1, undefined));
      return;
    }
    const keep = keptPods(pods, now, simplifyOptions);
    // Stuck pods first: they are why someone opens a large journey.
    for (const pod of pods) if (keep.get(pod) === 'stuck') lanes.push(podLane(pod, depth + 1, 'stuck'));
    for (const pod of pods) if (keep.has(pod) && keep.get(pod) !== 'stuck') lanes.push(podLane(pod, depth + 1, keep.get(pod)));
    const rest = pods.filter((pod) => !keep.has(pod));
    if (rest.length > 0) {
      foldedPods += rest.length;
      lanes.push(summaryLane(foldPods(key, rest, origin, visitStages), depth + 1));
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
