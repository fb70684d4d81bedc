/**
 * The tracer's mutable bookkeeping: one record per followed object and per journey. Snapshots
 * (types.ts) are built from these on demand and cached until the record changes.
 */
import type { EtcdWrite, SchedulingCycle, WatchDelivery } from '../internals';
import type { ObjectDigest } from './digest';
import type { TimeValue } from './time';
import type {
  Component,
  ConditionChange,
  EventEvidence,
  FieldChange,
  InternalEvidence,
  Journey,
  JourneyObjectRef,
  JourneyStatus,
  ObjectJourney,
  PhaseName,
  StageKind,
  StuckDetail,
  TimeSource,
  TraceableKind,
} from './types';

/** Lifecycle order, the tie-breaker between stages stamped with the same time. */
export const STAGE_RANK: Record<StageKind, number> = {
  submitted: 0,
  stored: 1,
  replicaSetCreated: 2,
  scaled: 3,
  podCreated: 4,
  failedScheduling: 5,
  scheduled: 6,
  initialized: 7,
  sandboxReady: 8,
  pulling: 9,
  pulled: 10,
  imagePresent: 10,
  failed: 11,
  backOff: 12,
  containerCreated: 13,
  containerStarted: 14,
  containerTerminated: 15,
  running: 16,
  containersReady: 17,
  ready: 18,
  notReady: 19,
  unhealthy: 19,
  succeeded: 19,
  progressing: 20,
  available: 21,
  unavailable: 21,
  event: 22,
  terminating: 23,
  killing: 24,
  deleted: 25,
};

/** A stage as derived from one observation, before it is merged into the object's stages. */
export interface StageDraft {
  key: string;
  kind: StageKind;
  component: Component;
  title: string;
  message?: string;
  /** Container waiting/terminated reason. */
  reason?: string;
  container?: string;
  warning?: boolean;
  /** The object's own timestamp for this step. */
  objectTime?: TimeValue;
  fields?: FieldChange[];
  conditions?: ConditionChange[];
  manager?: { name: string; operation?: string; time?: number };
  /** The step happened again (re-entered a back-off): count it and move `lastTime`. */
  repeat?: boolean;
  /** Replace the component of an existing stage (a later, better-informed observation). */
  overrideComponent?: boolean;
}

export interface StageRecord {
  key: string;
  kind: StageKind;
  rank: number;
  /** Creation order, the last tie-breaker. */
  seq: number;
  component: Component;
  title: string;
  message?: string;
  reason?: string;
  /** Who wrote `message`: a primary event wins over state, state over a secondary event. */
  messageFrom?: 'event' | 'state' | 'secondary';
  container?: string;
  warning?: boolean;
  time: number;
  timeSource: TimeSource;
  objectTime?: TimeValue;
  eventTime?: TimeValue;
  internalTime?: number;
  appliedTime?: number;
  observedAt: number;
  count?: number;
  lastTime?: number;
  fields?: FieldChange[];
  conditions?: ConditionChange[];
  event?: EventEvidence;
  /** `event` came from a secondary event; a primary one replaces it. */
  eventSecondary?: boolean;
  internals?: InternalEvidence;
  manager?: { name: string; operation?: string; time?: number };
}

/** Pod tallies kept per ReplicaSet (and per journey for a bare Pod root), updated by deltas. */
export interface Counters {
  live: number;
  scheduled: number;
  running: number;
  ready: number;
  stuck: number;
  terminating: number;
  deleted: number;
  restarts: number;
}

export function emptyCounters(): Counters {
  return { live: 0, scheduled: 0, running: 0, ready: 0, stuck: 0, terminating: 0, deleted: 0, restarts: 0 };
}

export interface ObjectRecord {
  kind: TraceableKind;
  namespace: string;
  name: string;
  uid: string;
  /** `Kind/namespace/name`. */
  key: string;
  journey: JourneyRecord;
  parent?: ObjectRecord;
  children: ObjectRecord[];
  digest?: ObjectDigest;
  stages: StageRecord[];
  status: JourneyStatus;
  stuck?: StuckDetail;
  createdAt?: number;
  deletedAt?: number;
  deleted: boolean;
  preexisting: boolean;
  /** Position in the journey's pod list (phase statistics), -1 for non-pods. */
  podIndex: number;
  /** When the watch first delivered this pod with phase Running (clusterloader2's "watch" phase). */
  watchedRunningAt?: number;
  /** What this pod currently contributes to its counters (see `countPod`). */
  counted: Counters;
  /** ReplicaSets: tallies of their pods. */
  podCounters?: Counters;
  /** Latest resourceVersions and the first stage each produced (`created`: the change created it). */
  recentVersions: { resourceVersion: string; stage?: StageRecord; created: boolean }[];
  /** Internals that arrived before the change they belong to. */
  earlyInternals: (EtcdWrite | WatchDelivery)[];
  /** Scheduling cycles that arrived before the binding or failure they explain. */
  pendingCycles: SchedulingCycle[];
  /** Whether a deletion was requested by a controller we know of (for the terminating stage's actor). */
  deleterHint?: Component;
  snapshot?: ObjectJourney;
  stageSeq: number;
}

export interface JourneyRecord {
  id: string;
  root: JourneyObjectRef;
  appliedAt: number;
  rootRecord?: ObjectRecord;
  version: number;
  lastChangeAt: number;
  /** Pods in order of first sight; index = ObjectRecord.podIndex. */
  pods: ObjectRecord[];
  /** Per phase, one slot per pod (NaN when the pod has no value). */
  phaseValues: Record<PhaseName, number[]>;
  /** Objects currently stuck or failed, in the order they became so. */
  stuckObjects: Set<ObjectRecord>;
  /** Bare Pod root: its tally. */
  rootPodCounters: Counters;
  completedAt?: number;
  /** The root was seen not complete since the journey began (a re-applied object starts out complete). */
  sawIncomplete: boolean;
  /** A newer journey for the same root took over; this one no longer changes. */
  superseded: boolean;
  /** Pods whose scheduling cycles keep per-node verdicts. */
  schedulingDetailPods: number;
  snapshot?: Journey;
  /** The tracer's node-readiness version the cached snapshots were built with. */
  nodesVersion: number;
}

/** Finds the stage with this key (searching from the newest: recent stages change most). */
export function findStage(record: ObjectRecord, key: string): StageRecord | undefined {
  const stages = record.stages;
  for (let i = stages.length - 1; i >= 0; i--) if (stages[i].key === key) return stages[i];
  return undefined;
}

function compareStages(a: StageRecord, b: StageRecord): number {
  return a.time - b.time || a.rank - b.rank || a.seq - b.seq;
}

/** Keeps `record.stages` ordered after `stage` was added or its time moved (insertion sort: lists are short and nearly sorted). */
export function reposition(record: ObjectRecord, stage: StageRecord): void {
  const stages = record.stages;
  let i = stages.indexOf(stage);
  if (i < 0) {
    stages.push(stage);
    i = stages.length - 1;
  }
  while (i > 0 && compareStages(stages[i - 1], stage) > 0) {
    stages[i] = stages[i - 1];
    i--;
  }
  while (i < stages.length - 1 && compareStages(stages[i + 1], stage) < 0) {
    stages[i] = stages[i + 1];
    i++;
  }
  stages[i] = stage;
}

/**
 * The best time for a stage from everything known about it: the object's own stamp first, then
 * the event's, then arrival; a whole-second stamp is sharpened by a precise observation inside
 * its second (the simulator's internals, an events.k8s.io eventTime, the watch arrival).
 */
export function resolveTime(stage: StageRecord): void {
  if (stage.appliedTime !== undefined) {
    stage.time = stage.appliedTime;
    stage.timeSource = 'applied';
    return;
  }
  const coarse = stage.objectTime ?? stage.eventTime;
  if (!coarse) {
    if (stage.internalTime !== undefined) {
      stage.time = stage.internalTime;
      stage.timeSource = 'internal';
    } else {
      stage.time = stage.observedAt;
      stage.timeSource = 'observed';
    }
    return;
  }
  const fromObject = coarse === stage.objectTime;
  if (coarse.precise) {
    stage.time = coarse.ms;
    stage.timeSource = fromObject ? 'object' : 'event';
    return;
  }
  const precise: (number | undefined)[] = [stage.internalTime, stage.observedAt];
  if (fromObject && stage.eventTime?.precise) precise.push(stage.eventTime.ms);
  let best: number | undefined;
  let source: TimeSource = fromObject ? 'object' : 'event';
  for (const candidate of precise) {
    if (candidate === undefined || candidate < coarse.ms || candidate >= coarse.ms + 1000) continue;
    if (best === undefined || candidate < best) best = candidate;
  }
  if (best === undefined) {
    stage.time = coarse.ms;
  } else {
    stage.time = best;
    if (best === stage.internalTime) source = 'internal';
  }
  stage.timeSource = source;
}

export function sameField(a: FieldChange, b: FieldChange): boolean {
  return a.path === b.path && a.from === b.from && a.to === b.to;
}

export function sameCondition(a: ConditionChange, b: ConditionChange): boolean {
  return a.type === b.type && a.from === b.from && a.to === b.to && a.reason === b.reason && a.message === b.message;
}
