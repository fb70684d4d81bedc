/**
 * Which pods a simplified lane list shows, and the summary of the ones it folds. Shared by the
 * webview (which simplifies the journeys it holds whole) and the host (which sends a very large
 * journey already simplified, see `SnapshotOptions.partialAbovePods`), so both fold the same pods.
 * Per owner: every stuck or failed pod, the selected one, the slowest and the first pods.
 */
import type { JourneyStatus, ObjectJourney } from '../core/journey/types';
import { journeyObjectKey, SUMMARY_STAGE_KINDS, type FoldedPods, type SummaryStageKind } from './timeline-protocol';

export interface SimplifyOptions {
  /** Healthy pods per owner kept, in order (default 20). */
  firstPods?: number;
  /** Slowest pods (create → ready, or still not ready) per owner kept (default 5). */
  slowestPods?: number;
  /** Pods kept whatever they are (the selected pod), by `journeyObjectKey`. */
  pinnedKeys?: ReadonlySet<string>;
}

/** Why a pod is kept: listed first as stuck, marked slowest, or just kept. */
export type KeptNote = 'stuck' | 'slowest' | undefined;

/**
 * Pods in a journey above which its lane list is simplified. The host sends such a journey
 * already simplified (its folded pods as summary columns), so the webview never receives, decodes
 * or lays out the lanes it would fold anyway.
 */
export const DEFAULT_SIMPLIFY_ABOVE_PODS = 1000;

export const DEFAULT_FIRST_PODS = 20;
export const DEFAULT_SLOWEST_PODS = 5;

export function countPods(tree: ObjectJourney | undefined): number {
  if (!tree) return 0;
  if (tree.ref.kind === 'Pod') return 1;
  let n = 0;
  for (const child of tree.children) n += countPods(child);
  return n;
}

export function isTroubled(status: JourneyStatus): boolean {
  return status === 'stuck' || status === 'failed';
}

/** How long a pod took to become ready; pods not ready yet count as slowest of all. */
function slowness(pod: ObjectJourney, now: number): number {
  const marks = pod.pod?.marks;
  const created = marks?.created ?? pod.createdAt;
  if (created === undefined) return -Infinity;
  if (marks?.ready !== undefined) return marks.ready - created;
  return now - created + 1e12;
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

/** Whether an owner's pods are simplified at all: only when there are more than would be kept. */
export function foldsAny(podCount: number, options: SimplifyOptions): boolean {
  return podCount > (options.firstPods ?? DEFAULT_FIRST_PODS) + (options.slowestPods ?? DEFAULT_SLOWEST_PODS);
}

/** The pods of one owner (in its order) that a simplified list keeps, with why. */
export function keptPods(pods: readonly ObjectJourney[], now: number, options: SimplifyOptions): Map<ObjectJourney, KeptNote> {
  const keep = new Map<ObjectJourney, KeptNote>();
  for (const pod of pods) if (isTroubled(pod.status)) keep.set(pod, 'stuck');
  const healthy = pods.filter((pod) => !keep.has(pod));
  if (options.pinnedKeys) for (const pod of healthy) if (options.pinnedKeys.has(journeyObjectKey(pod.ref))) keep.set(pod, undefined);
  for (const pod of slowestOf(healthy, options.slowestPods ?? DEFAULT_SLOWEST_PODS, now)) keep.set(pod, 'slowest');
  const firstPods = options.firstPods ?? DEFAULT_FIRST_PODS;
  let kept = 0;
  for (const pod of healthy) {
    if (kept >= firstPods) break;
    if (!keep.has(pod)) {
      keep.set(pod, undefined);
      kept++;
    }
  }
  return keep;
}

/** How long a pod took from running to ready, ms; undefined when it did not get there (or existed before the apply). */
export function runToReady(pod: ObjectJourney): number | undefined {
  const marks = pod.pod?.marks;
  if (pod.preexisting || marks?.running === undefined || marks.ready === undefined || marks.ready < marks.running) return undefined;
  return marks.ready - marks.running;
}

/** Calls `visit` with the kind and time of each stage of a pod, in order. */
export type StageVisitor = (pod: ObjectJourney, visit: (kind: string, time: number) => void) => void;

export const visitStageObjects: StageVisitor = (pod, visit) => {
  for (const stage of pod.stages) visit(stage.kind, stage.time);
};

/** The summary of folded pods: status counts and, per summary kind, each pod's first time of it. */
export function foldPods(parent: string, pods: readonly ObjectJourney[], origin: number, stagesOf: StageVisitor = visitStageObjects): FoldedPods {
  const statusCounts: Partial<Record<JourneyStatus, number>> = {};
  const lists: number[][] = SUMMARY_STAGE_KINDS.map(() => []);
  const slot = new Map<string, number>(SUMMARY_STAGE_KINDS.map((kind, i) => [kind, i]));
  const durations: number[] = [];
  for (const pod of pods) {
    const ms = runToReady(pod);
    if (ms !== undefined) durations.push(ms);
    statusCounts[pod.status] = (statusCounts[pod.status] ?? 0) + 1;
    // Bit i set once the pod's first stage of SUMMARY_STAGE_KINDS[i] was counted.
    let seen = 0;
    stagesOf(pod, (kind, time) => {
      const i = slot.get(kind);
      if (i === undefined || seen & (1 << i)) return;
      seen |= 1 << i;
      lists[i].push(time - origin);
    });
  }
  const times = {} as Record<SummaryStageKind, Float64Array>;
  SUMMARY_STAGE_KINDS.forEach((kind, i) => (times[kind] = Float64Array.from(lists[i]).sort()));
  return { parent, podCount: pods.length, statusCounts, times, runToReady: Float64Array.from(durations) };
}
