/**
 * The tracer's mutable bookkeeping: one record per followed object and per journey. Snapshots
 * (types.ts) are built from these on demand and cached until the record changes.
 */
import { STAGE_RANK as LIFECYCLE_RANK } from '../../common/stage-rank';
import type { AssumptionStep, EtcdWrite, SchedulingCycle, WatchDelivery } from '../internals';
import type { ObjectDigest } from './digest';
import { PackedColumn, packedIndex, packedStage, packStages, packedCount, unpackStages, type PackedStages } from './packed-stages';
import type { ServiceTrace } from './service-status';
import type { TimeValue } from './time';
import type {
  Assumption,
  Component,
  ConditionChange,
  FieldChange,
  Journey,
  JourneyObjectRef,
  JourneyStatus,
  ObjectJourney,
  PhaseName,
  Stage,
  StageEvidence,
  StageKind,
  StuckDetail,
  TraceableKind,
} from './types';

/** The lifecycle order (common/stage-rank.ts), checked against every stage kind. */
export const STAGE_RANK: Readonly<Record<StageKind, number>> = LIFECYCLE_RANK;

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

/**
 * A stage and what the tracer knows about it. `stage` is the public, immutable Stage: every change
 * replaces it (see `editStage`), so snapshots share it instead of copying it.
 */
export interface StageRecord {
  stage: Stage;
  rank: number;
  /** Creation order, the last tie-breaker. */
  seq: number;
  objectTime?: TimeValue;
  eventTime?: TimeValue;
  internalTime?: number;
  appliedTime?: number;
  observedAt: number;
  /** Who wrote `message`: a primary event wins over state, state over a secondary event. */
  messageFrom?: 'event' | 'state' | 'secondary';
  /** `evidence.event` came from a secondary event; a primary one replaces it. */
  eventSecondary?: boolean;
  /** Set when the time is a whole-second stamp nothing sharpened: the start of that second (see `settle`). */
  floatBase?: number;
}

/**
 * A new stage record with every optional property present from the start: properties added later
 * would move to a separate property array (about 40 bytes each, for a dozen stages per pod).
 */
export function newStageRecord(stage: Stage, rank: number, seq: number, observedAt: number): StageRecord {
  return { stage, rank, seq, objectTime: undefined, eventTime: undefined, internalTime: undefined, appliedTime: undefined, observedAt, messageFrom: undefined, eventSecondary: undefined, floatBase: undefined };
}

/**
 * A settled stage's record with only the properties it uses, for pods folded into a journey's
 * summary: half the size of a fresh record, and still read and updated by the same code.
 */
export function compactStageRecord(record: StageRecord): StageRecord {
  const { stage, rank, seq, observedAt, objectTime, eventTime, internalTime, appliedTime, messageFrom, eventSecondary } = record;
  // Written as literals for the usual combinations: properties added later would need a property array each.
  if (eventTime === undefined && internalTime === undefined && appliedTime === undefined && messageFrom === undefined && eventSecondary === undefined) {
    return objectTime === undefined ? { stage, rank, seq, observedAt } : { stage, rank, seq, observedAt, objectTime };
  }
  if (internalTime === undefined && appliedTime === undefined && eventSecondary === undefined && eventTime !== undefined && messageFrom !== undefined) {
    return objectTime === undefined ? { stage, rank, seq, observedAt, eventTime, messageFrom } : { stage, rank, seq, observedAt, objectTime, eventTime, messageFrom };
  }
  return { stage, rank, seq, observedAt, objectTime, eventTime, internalTime, appliedTime, messageFrom, eventSecondary };
}

/** A writable copy of a stage (and of its evidence) for one update; `commit` publishes it. */
export interface StageEdit {
  stage: Stage;
  evidence: StageEvidence;
}

/*
 * Copies are written out property by property, in one fixed order, on purpose: V8 gives an object
 * made by spreading (`{ ...stage }`) and then extended a hidden class of its own, which costs about
 * a kilobyte per object. With 10+ stages per pod that was most of the tracer's memory.
 */

/**
 * A stage with its optional properties in the canonical order (shared hidden classes). The usual
 * combinations of message, reason and container are written as literals: a property added to an
 * object after its literal lives in a separate property array (about 40 bytes a stage).
 */
export function makeStage(base: Stage, evidence: StageEvidence): Stage {
  const { key, kind, time, timeSource, component, title, message, reason, container } = base;
  let stage: Stage;
  if (message !== undefined && reason !== undefined && container !== undefined) stage = { key, kind, time, timeSource, component, title, evidence, message, reason, container };
  else if (message !== undefined && reason !== undefined) stage = { key, kind, time, timeSource, component, title, evidence, message, reason };
  else if (message !== undefined && container !== undefined) stage = { key, kind, time, timeSource, component, title, evidence, message, container };
  else {
    stage = { key, kind, time, timeSource, component, title, evidence };
    if (message !== undefined) stage.message = message;
    if (reason !== undefined) stage.reason = reason;
    if (container !== undefined) stage.container = container;
  }
  if (base.warning) stage.warning = true;
  if (base.count !== undefined) stage.count = base.count;
  if (base.lastTime !== undefined) stage.lastTime = base.lastTime;
  if (base.assumed !== undefined) stage.assumed = base.assumed;
  return stage;
}

export function copyEvidence(e: StageEvidence): StageEvidence {
  const out: StageEvidence = {};
  if (e.fields) out.fields = e.fields;
  if (e.conditions) out.conditions = e.conditions;
  if (e.event) out.event = e.event;
  if (e.internals) out.internals = e.internals;
  if (e.manager) out.manager = e.manager;
  return out;
}

export function beginEdit(record: StageRecord): StageEdit {
  const evidence = copyEvidence(record.stage.evidence);
  return { stage: { ...record.stage, evidence }, evidence };
}

export const NO_EVIDENCE: StageEvidence = Object.freeze({});

export function commitEdit(record: StageRecord, edit: StageEdit): void {
  const e = edit.evidence;
  const empty = !e.fields && !e.conditions && !e.event && !e.internals && !e.manager;
  record.stage = makeStage(edit.stage, empty ? NO_EVIDENCE : copyEvidence(e));
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

/** What a record counts before it is counted: shared, never changed (counts are replaced, not updated). */
const NO_COUNTS: Counters = Object.freeze(emptyCounters());

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
  /**
   * The latest time the object can have been created, which orders siblings (see `childOrder`):
   * `createdAt`, except for a whole-second stamp nothing sharpened, where it is the end of that
   * second. Such a stamp was first seen after its second ended; a sibling created in the same
   * second and seen inside it (hence sharpened) was created earlier, the watch delivering changes
   * in the order they were made, yet the start of the second would sort it first.
   */
  createdNoLaterThan?: number;
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
  /** Latest resourceVersions and the first stage each produced (`created`: the change created it);
   * kept only once an internals stream was seen. */
  recentVersions?: { resourceVersion: string; stage?: StageRecord; created: boolean }[];
  /** Internals that arrived before the change they belong to. */
  earlyInternals?: (EtcdWrite | WatchDelivery)[];
  /** Scheduling cycles that arrived before the binding or failure they explain. */
  pendingCycles?: SchedulingCycle[];
  /** Assumptions whose stage (a termination, a start, a pull) has not been seen yet. */
  pendingAssumptions?: AssumptionStep[];
  /** Whether a deletion was requested by a controller we know of (for the terminating stage's actor). */
  deleterHint?: Component;
  /** The pod's evidence was dropped once it was complete (see `foldEvidence`). */
  evidenceFolded?: boolean;
  /** Services: what the tracer knows beyond the object (selected pods, kube-proxy's syncs). */
  service?: ServiceTrace;
  snapshot?: ObjectJourney;
  stageSeq: number;
  /** A folded pod's stages, packed (see `packRecord`); `stages` unpacks them when read. */
  packed?: PackedStages;
}

/** What a new record starts from; the rest starts empty. */
export type ObjectRecordInit = Pick<ObjectRecord, 'kind' | 'namespace' | 'name' | 'uid' | 'key' | 'journey' | 'parent' | 'children' | 'preexisting'>;

/**
 * The tracer's record of an object. A class rather than a literal for two reasons: every record
 * has every property from the start (properties added later would take a separate property array
 * each, about 80 bytes a pod), and `stages` can be kept packed for a folded pod: reading it
 * unpacks them, so code that changes a stage never sees the packed form.
 */
class TracedObjectRecord implements ObjectRecord {
  kind: TraceableKind;
  namespace: string;
  name: string;
  uid: string;
  key: string;
  journey: JourneyRecord;
  parent: ObjectRecord | undefined;
  children: ObjectRecord[];
  digest: ObjectDigest | undefined = undefined;
  status: JourneyStatus = 'pending';
  stuck: StuckDetail | undefined = undefined;
  createdAt: number | undefined = undefined;
  createdNoLaterThan: number | undefined = undefined;
  deletedAt: number | undefined = undefined;
  deleted = false;
  preexisting: boolean;
  podIndex = -1;
  watchedRunningAt: number | undefined = undefined;
  counted: Counters = NO_COUNTS;
  podCounters: Counters | undefined = undefined;
  recentVersions: ObjectRecord['recentVersions'] = undefined;
  earlyInternals: ObjectRecord['earlyInternals'] = undefined;
  pendingCycles: ObjectRecord['pendingCycles'] = undefined;
  pendingAssumptions: ObjectRecord['pendingAssumptions'] = undefined;
  deleterHint: Component | undefined = undefined;
  evidenceFolded: boolean | undefined = undefined;
  service: ServiceTrace | undefined = undefined;
  snapshot: ObjectJourney | undefined = undefined;
  stageSeq = 0;
  packed: PackedStages | undefined = undefined;
  private stageRecords: StageRecord[] = [];

  constructor(init: ObjectRecordInit) {
    this.kind = init.kind;
    this.namespace = init.namespace;
    this.name = init.name;
    this.uid = init.uid;
    this.key = init.key;
    this.journey = init.journey;
    this.parent = init.parent;
    this.children = init.children;
    this.preexisting = init.preexisting;
  }

  get stages(): StageRecord[] {
    if (this.packed) {
      this.stageRecords = unpackStages(this.packed);
      this.packed = undefined;
    }
    return this.stageRecords;
  }

  set stages(records: StageRecord[]) {
    this.stageRecords = records;
    this.packed = undefined;
  }
}

export function newObjectRecord(init: ObjectRecordInit): ObjectRecord {
  return new TracedObjectRecord(init);
}

/** A packed record's stage list until it is unpacked (reading `stages` replaces it). */
const NO_STAGES: StageRecord[] = Object.freeze([]) as unknown as StageRecord[];

/**
 * Packs a settled pod's stages (see packed-stages.ts). Nothing may hold its stage records across
 * this: the remembered resourceVersions that point at them are dropped, as folding drops them.
 */
export function packRecord(record: ObjectRecord): void {
  if (record.packed || record.stages.length === 0) return;
  record.recentVersions = undefined;
  const packed = packStages(record.stages, (record.journey.packedColumn ??= new PackedColumn()));
  record.stages = NO_STAGES;
  record.packed = packed;
}

/** The public stages of an object, in order, without unpacking a packed pod. */
export function stageList(record: ObjectRecord): Stage[] {
  const packed = record.packed;
  if (!packed) return record.stages.map((r) => r.stage);
  const out: Stage[] = [];
  for (let i = 0; i < packedCount(packed); i++) out.push(packedStage(packed, i));
  return out;
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
  /** Pods whose stages keep their etcd writes and watch deliveries as evidence. */
  internalsDetailPods: number;
  /** Pods whose stages keep their evidence once they are complete (see `TracerOptions.evidenceDetailPods`). */
  evidenceDetailPods: number;
  /** What the simulator assumed along this journey, one entry per distinct assumption, in the order first reported. */
  assumptions: Assumption[];
  /** Each listed assumption's `what` → its index in `assumptions` (see `listAssumption`). */
  assumptionIndex?: Map<string, number>;
  /** How many objects at least one assumption applies to. */
  assumedObjects?: number;
  snapshot?: Journey;
  /** The tracer's node-readiness version the cached snapshots were built with. */
  nodesVersion: number;
  /** Where the journey's packed pods keep their numbers (see packed-stages.ts). */
  packedColumn?: PackedColumn;
}

/** Finds the stage with this key (searching from the newest: recent stages change most). */
export function findStage(record: ObjectRecord, key: string): StageRecord | undefined {
  const stages = record.stages;
  for (let i = stages.length - 1; i >= 0; i--) if (stages[i].stage.key === key) return stages[i];
  return undefined;
}

/** The public stage with this key (read only: a packed pod stays packed). */
export function stageOf(record: ObjectRecord, key: string): Stage | undefined {
  const packed = record.packed;
  if (packed) {
    const index = packedIndex(packed, key);
    return index < 0 ? undefined : packedStage(packed, index);
  }
  return findStage(record, key)?.stage;
}

function compareStages(a: StageRecord, b: StageRecord): number {
  return a.stage.time - b.stage.time || a.rank - b.rank || a.seq - b.seq;
}

/** Keeps `record.stages` ordered after `stage` was added or its time moved (insertion sort: lists are short and nearly sorted). */
export function reposition(record: ObjectRecord, stage: StageRecord): void {
  const stages = record.stages;
  let i = stages.lastIndexOf(stage);
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
 * Writes `time` and `timeSource` into the edit.
 */
export function resolveTime(record: StageRecord, edit: StageEdit): void {
  const out = edit.stage;
  record.floatBase = undefined;
  if (record.appliedTime !== undefined) {
    out.time = record.appliedTime;
    out.timeSource = 'applied';
    return;
  }
  const coarse = record.objectTime ?? record.eventTime;
  if (!coarse) {
    if (record.internalTime !== undefined) {
      out.time = record.internalTime;
      out.timeSource = 'internal';
    } else {
      out.time = record.observedAt;
      out.timeSource = 'observed';
    }
    return;
  }
  const fromObject = coarse === record.objectTime;
  if (coarse.precise) {
    out.time = coarse.ms;
    out.timeSource = fromObject ? 'object' : 'event';
    return;
  }
  let best: number | undefined;
  const consider = (candidate: number | undefined): void => {
    if (candidate === undefined || candidate < coarse.ms || candidate >= coarse.ms + 1000) return;
    if (best === undefined || candidate < best) best = candidate;
  };
  consider(record.internalTime);
  consider(record.observedAt);
  if (fromObject && record.eventTime?.precise) consider(record.eventTime.ms);
  out.time = best ?? coarse.ms;
  out.timeSource = best !== undefined && best === record.internalTime ? 'internal' : fromObject ? 'object' : 'event';
  if (best === undefined) record.floatBase = coarse.ms;
}

/**
 * A whole-second stamp says only "within this second". When a stage that must come earlier in
 * the lifecycle is known more precisely inside that second (a binding sharpened by the
 * scheduler's eventTime), the vaguer stage is placed no earlier than it: still inside its
 * second, and in lifecycle order rather than before its own cause.
 */
export function settle(record: ObjectRecord): void {
  let floating: StageRecord[] | undefined;
  for (const s of record.stages) if (s.floatBase !== undefined) (floating ??= []).push(s);
  if (!floating) return;
  floating.sort((a, b) => a.rank - b.rank || a.seq - b.seq);
  let moved = false;
  for (const f of floating) {
    const base = f.floatBase as number;
    let bound = base;
    for (const s of record.stages) {
      if (s === f || s.rank >= f.rank) continue;
      const t = s.stage.time;
      if (t > bound && t < base + 1000) bound = t;
    }
    if (bound !== f.stage.time) {
      const next = makeStage(f.stage, f.stage.evidence);
      next.time = bound;
      f.stage = next;
      moved = true;
    }
  }
  if (moved) record.stages.sort(compareStages);
}

export function sameField(a: FieldChange, b: FieldChange): boolean {
  return a.path === b.path && a.from === b.from && a.to === b.to;
}

export function sameCondition(a: ConditionChange, b: ConditionChange): boolean {
  return a.type === b.type && a.from === b.from && a.to === b.to && a.reason === b.reason && a.message === b.message;
}
