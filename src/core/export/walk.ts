/**
 * What both exporters need from a journey's tree: its objects with their owners, when each
 * object's journey began and ended, and a pod's phases as intervals.
 */
import { PHASE_NAMES, type Journey, type JourneyObjectRef, type ObjectJourney, type PhaseName, type PodPhaseMarks } from '../journey/types';

/** One object of a journey, with the object that owns it (absent for the root). */
export interface WalkedObject {
  object: ObjectJourney;
  owner?: ObjectJourney;
  /** 0 for the root, 1 for its children, … */
  depth: number;
}

/** The journey's objects, owners before what they own (depth first, in the tree's order). */
export function* walkObjects(tree: ObjectJourney): Generator<WalkedObject> {
  // An explicit stack: a deep or wide tree must not grow the call stack.
  const stack: WalkedObject[] = [{ object: tree, depth: 0 }];
  while (stack.length > 0) {
    const walked = stack.pop()!;
    yield walked;
    for (let i = walked.object.children.length - 1; i >= 0; i--) stack.push({ object: walked.object.children[i], owner: walked.object, depth: walked.depth + 1 });
  }
}

/** `Deployment default/nginx`. */
export function describeRef(ref: JourneyObjectRef): string {
  return `${ref.kind} ${ref.namespace ? `${ref.namespace}/` : ''}${ref.name}`;
}

/** What identifies an object in ids: its uid, else kind/namespace/name (a root never seen has no uid). */
export function objectKey(ref: JourneyObjectRef): string {
  return ref.uid ?? `${ref.kind}/${ref.namespace}/${ref.name}`;
}

/** When an object's journey began and ended (ms): its first stage or creation, to its latest stage, mark or deletion. */
export function objectSpan(object: ObjectJourney): { start: number; end: number } {
  let start = object.createdAt ?? Infinity;
  let end = -Infinity;
  for (const stage of object.stages) {
    start = Math.min(start, stage.time);
    end = Math.max(end, stage.time, stage.lastTime ?? stage.time);
  }
  const marks = object.pod?.marks;
  if (marks) for (const time of Object.values(marks)) if (typeof time === 'number') end = Math.max(end, time);
  if (object.deletedAt !== undefined) end = Math.max(end, object.deletedAt);
  if (start === Infinity) start = end === -Infinity ? 0 : end;
  return { start, end: Math.max(start, end) };
}

/** The root's span: from the apply (which comes before it is stored) to its end or completion. */
export function rootSpan(journey: Journey): { start: number; end: number } {
  const tree = journey.tree ? objectSpan(journey.tree) : { start: journey.appliedAt, end: journey.lastChangeAt };
  const start = Math.min(journey.appliedAt, tree.start);
  return { start, end: Math.max(start, tree.end, journey.completedAt ?? start, journey.lastChangeAt) };
}

/** Where each phase starts and ends, as journey/status.ts podPhases measures them (clusterloader2's PodStartupLatency). */
const PHASE_BOUNDS: Record<PhaseName, [keyof PodPhaseMarks, keyof PodPhaseMarks]> = {
  create_to_schedule: ['created', 'scheduled'],
  schedule_to_run: ['scheduled', 'running'],
  run_to_watch: ['running', 'watched'],
  schedule_to_watch: ['scheduled', 'watched'],
  create_to_run: ['created', 'running'],
  pod_startup: ['created', 'watched'],
  create_to_ready: ['created', 'ready'],
};

/** One phase of a pod, ms. */
export interface PhaseInterval {
  name: PhaseName;
  start: number;
  end: number;
}

/** A pod's phases whose two marks are known, in PHASE_NAMES order. */
export function podPhaseIntervals(marks: PodPhaseMarks | undefined): PhaseInterval[] {
  if (!marks) return [];
  const intervals: PhaseInterval[] = [];
  for (const name of PHASE_NAMES) {
    const [from, to] = PHASE_BOUNDS[name];
    const start = marks[from];
    const end = marks[to];
    if (start !== undefined && end !== undefined && end >= start) intervals.push({ name, start, end });
  }
  return intervals;
}

/**
 * The intervals that nest (each one inside or beside every other kept one), longest first among
 * those that start together: a track shows slices as a stack, and one crossing another's edge
 * cannot be drawn (create_to_ready ends before run_to_watch when the pod was Ready before the
 * watch delivered it Running).
 */
export function nestedIntervals<T extends { start: number; end: number }>(intervals: readonly T[]): T[] {
  const ordered = [...intervals].sort((a, b) => a.start - b.start || b.end - a.end);
  const kept: T[] = [];
  for (const candidate of ordered) {
    const crosses = kept.some((other) => candidate.start < other.end && candidate.start > other.start && candidate.end > other.end);
    if (!crosses) kept.push(candidate);
  }
  return kept;
}
