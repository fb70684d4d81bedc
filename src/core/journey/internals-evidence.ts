/**
 * The simulator's internals as evidence on a journey's stages: the etcd writes and watch
 * deliveries of the change a stage comes from, matched by resourceVersion, and the scheduler's
 * attempts with their per-node verdicts. Kept bounded: a few writes and deliveries per stage, the
 * full verdict table only for the first pods of a journey (the rest keep the counts).
 */
import type { AssumptionStep, EtcdWrite, SchedulingCycle, WatchDelivery } from '../internals';
import { beginEdit, commitEdit, reposition, resolveTime, settle, type ObjectRecord, type StageRecord } from './records';
import { refOf } from './status';
import type { Assumption, InternalEvidence, StageKind } from './types';

/** Steps kept per object while they wait for the change they belong to. */
const EARLY_INTERNALS = 32;
const WATCH_DELIVERIES_PER_STAGE = 8;
const ETCD_WRITES_PER_STAGE = 4;

/** The versions of a pod past the detail pods once its creating write arrived: none are remembered again (see `ObjectRecord.recentVersions`). */
const NO_MORE_VERSIONS: NonNullable<ObjectRecord['recentVersions']> = Object.freeze([]) as unknown as NonNullable<ObjectRecord['recentVersions']>;

/** A step whose resourceVersion the tracer has not seen yet: kept (bounded) until the change arrives. */
export function rememberEarlyStep(record: ObjectRecord, step: EtcdWrite | WatchDelivery): void {
  const early = (record.earlyInternals ??= []);
  early.push(step);
  if (early.length > EARLY_INTERNALS) early.shift();
}

/** Adds an etcd write or a watch delivery to the stage its change made. `created`: the change created the object. */
export function addStepEvidence(record: ObjectRecord, target: StageRecord, created: boolean, step: EtcdWrite | WatchDelivery): void {
  if (record.kind === 'Pod' && record.podIndex >= record.journey.internalsDetailPods) {
    // Past the journey's first pods only the time of the write that created the pod is used.
    if (step.type !== 'etcdWrite' || !created || target.internalTime !== undefined) return;
    target.internalTime = step.time;
    // Nothing more will be matched to this pod's versions; while it starts (at 150,000 pods all of
    // them at once) the remembered version would only hold on to its first stage.
    record.recentVersions = NO_MORE_VERSIONS;
    const edit = beginEdit(target);
    resolveTime(target, edit);
    commitEdit(target, edit);
    reposition(record, target);
    settle(record);
    return;
  }
  const edit = beginEdit(target);
  const internals = copyInternals(edit.evidence.internals);
  edit.evidence.internals = internals;
  if (step.type === 'etcdWrite') {
    if ((internals.etcd?.length ?? 0) < ETCD_WRITES_PER_STAGE) internals.etcd = [...(internals.etcd ?? []), step];
    if (created && target.internalTime === undefined) target.internalTime = step.time;
  } else if ((internals.watch?.length ?? 0) < WATCH_DELIVERIES_PER_STAGE) {
    internals.watch = [...(internals.watch ?? []), step];
  }
  resolveTime(target, edit);
  commitEdit(target, edit);
  reposition(record, target);
  settle(record);
}

export function applySchedulingCycle(record: ObjectRecord, target: StageRecord, cycle: SchedulingCycle): void {
  const edit = beginEdit(target);
  const internals = copyInternals(edit.evidence.internals);
  edit.evidence.internals = internals;
  // A cycle that placed nothing keeps its table whatever the pod: it says why the pod is Pending (and what would fit).
  internals.scheduling = record.podIndex < record.journey.schedulingDetailPods || cycle.result !== 'Scheduled' ? cycle : withoutVerdicts(cycle);
  internals.schedulingAttempts = Math.max(internals.schedulingAttempts ?? 0, cycle.attempt);
  if (edit.stage.key === 'failedScheduling' && edit.stage.message === undefined && cycle.message) edit.stage.message = cycle.message;
  if (edit.stage.key === 'scheduled' && target.internalTime === undefined && target.objectTime === undefined) target.internalTime = cycle.time;
  resolveTime(target, edit);
  commitEdit(target, edit);
  reposition(record, target);
  settle(record);
}

function copyInternals(from: InternalEvidence | undefined): InternalEvidence {
  const out: InternalEvidence = {};
  if (from?.etcd) out.etcd = from.etcd;
  if (from?.watch) out.watch = from.watch;
  if (from?.scheduling) out.scheduling = from.scheduling;
  if (from?.schedulingAttempts !== undefined) out.schedulingAttempts = from.schedulingAttempts;
  return out;
}

/** The cycle's counts and outcome, without its per-node verdict table. */
export function withoutVerdicts(cycle: SchedulingCycle): SchedulingCycle {
  if (cycle.table === undefined) return cycle;
  const { table: _dropped, ...counts } = cycle;
  return counts;
}

/** The stage an assumption marks: an exit's termination, a run's start, a pull's pulled (or image already present) stage. */
function markedKind(step: AssumptionStep): StageKind {
  if (step.type === 'assumedExit') return 'containerTerminated';
  if (step.type === 'assumedRunning') return 'containerStarted';
  return step.alreadyPresent ? 'imagePresent' : 'pulled';
}

const MARKED_STAGE_KINDS: ReadonlySet<StageKind> = new Set(['containerTerminated', 'containerStarted', 'pulled', 'imagePresent']);

/** Whether a new stage of this kind may be the one a pending assumption waits for. */
export function marksAssumptions(kind: StageKind): boolean {
  return MARKED_STAGE_KINDS.has(kind);
}

/** The sentence a journey shows for an assumed exit, run or pull. */
function assumedText(step: AssumptionStep): string {
  if (step.type === 'assumedPull') return `assumed: the registry serves ${step.image} (${step.reason})`;
  if (step.type === 'assumedRunning' && step.hook) return `assumed: its ${step.hook} hook succeeds (${step.reason})`;
  if (step.type === 'assumedRunning') return step.probe ? `assumed: its ${step.probe} probe succeeds (${step.reason})` : `assumed: keeps running (${step.reason})`;
  return `assumed: exit ${step.exitCode} after ${(step.runMs / 1000).toFixed(1)}s (${step.reason})`;
}

/**
 * What an assumption says, the key equal ones are listed under: a program's run or exit names its
 * container; a pull names only its image, the registry's answer every container pulling it
 * depends on (each container's own pull stage is still marked, see `markAssumed`).
 */
function assumedWhat(step: AssumptionStep): string {
  if (step.type === 'assumedPull') return `image ${step.image} assumed to exist (${step.reason})`;
  const what =
    step.type === 'assumedRunning'
      ? step.hook
        ? `${step.hook} hook assumed to succeed (${step.reason})`
        : step.probe
        ? `${step.probe} probe assumed to succeed (${step.reason})`
        : `assumed to keep running (${step.reason})`
      : // Without its run time: each pod's jittered run would list the same exit once per pod (its stage keeps the time).
        `assumed to exit ${step.exitCode} (${step.reason})`;
  return `${step.container} ${what}`;
}

/** Whether a stage's assumed text says what the step does; an exit's run time may differ (see `assumedWhat`). */
function saysTheSame(assumed: string, step: AssumptionStep): boolean {
  if (step.type !== 'assumedExit') return assumed.includes(assumedText(step));
  return assumed.startsWith(`assumed: exit ${step.exitCode} after `) && assumed.endsWith(`s (${step.reason})`);
}

export function assumptionOf(record: ObjectRecord, step: AssumptionStep): Assumption {
  return { object: refOf(record), container: step.container, time: step.time, what: assumedWhat(step) };
}

/**
 * What the object reported before this step: whether any assumption (listed, or still waiting for
 * its stage), and whether one that reads the same (a restarted container assumed to exit as
 * before, a pull of the same image again). Read from its stages, so that counting objects per
 * assumption costs nothing per pod.
 */
function earlierAssumptions(record: ObjectRecord, step: AssumptionStep, what: string): { any: boolean; same: boolean } {
  const pending = record.pendingAssumptions ?? [];
  let any = pending.length > 0;
  if (pending.some((earlier) => assumedWhat(earlier) === what)) return { any, same: true };
  const pull = step.type === 'assumedPull';
  const kind = markedKind(step);
  for (const { stage } of record.stages) {
    if (stage.assumed === undefined) continue;
    any = true;
    const marks = pull ? stage.kind === 'pulled' || stage.kind === 'imagePresent' : stage.kind === kind && stage.container === step.container;
    if (marks && saysTheSame(stage.assumed, step)) return { any, same: true };
  }
  return { any, same: false };
}

/**
 * Lists the assumption under its journey, once per distinct `what` with how many objects it
 * applies to: each of a 150,000-pod Deployment's pods assumes the same of the same image, and one
 * line says it (each pod's stage is still marked). The listed entries are shared with snapshots,
 * so a growing count replaces its entry rather than changing it.
 */
export function listAssumption(record: ObjectRecord, step: AssumptionStep): void {
  const journey = record.journey;
  const what = assumedWhat(step);
  const earlier = earlierAssumptions(record, step, what);
  if (!earlier.any) journey.assumedObjects = (journey.assumedObjects ?? 0) + 1;
  const index = (journey.assumptionIndex ??= new Map());
  const at = index.get(what);
  if (at === undefined) {
    index.set(what, journey.assumptions.length);
    journey.assumptions.push(assumptionOf(record, step));
  } else if (!earlier.same) {
    const listed = journey.assumptions[at];
    journey.assumptions[at] = { ...listed, objects: (listed.objects ?? 1) + 1 };
  }
}

/**
 * Marks the stage where the assumption shows as assumed: for an exit, the container's latest
 * termination not marked yet; for a run, its latest start; for a pull, its latest pull (or image
 * already present). Returns false when that stage has not been seen yet.
 */
export function markAssumed(record: ObjectRecord, step: AssumptionStep): boolean {
  const kind = markedKind(step);
  const once = kind === 'containerTerminated';
  const text = assumedText(step);
  for (let i = record.stages.length - 1; i >= 0; i--) {
    const target = record.stages[i];
    const stage = target.stage;
    // A start can carry two assumptions (its run and a probe); a termination only one.
    if (stage.kind !== kind || stage.container !== step.container || (stage.assumed !== undefined && once)) continue;
    if (stage.assumed?.includes(text)) return true;
    const edit = beginEdit(target);
    edit.stage.assumed = stage.assumed === undefined ? text : `${stage.assumed}; ${text}`;
    commitEdit(target, edit);
    return true;
  }
  return false;
}
