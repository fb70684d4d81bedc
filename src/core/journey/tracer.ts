/**
 * The journey tracer: turns watch events (Deployments, ReplicaSets, Pods, Events, Nodes — the
 * same from the simulator or a real cluster) and, when there is one, the simulator's internals
 * stream into journeys, one per applied root object.
 *
 * How it stays correct on a real cluster's stream:
 * - objects are linked by ownerReference uid; events by involvedObject uid, else kind/namespace/name;
 * - stages come from diffing each object's previous and new state, timed by the object's own
 *   timestamps (sharpened within their second by events' eventTime, internals or arrival), so
 *   events that arrive late, out of order or never (expired) change details, not the journey;
 * - whatever arrives before the object it belongs to (an Event before its Pod, a Pod before its
 *   ReplicaSet) waits in a bounded buffer, but only when its name could belong to a traced root.
 * How it stays fast: every event costs O(1) index lookups plus work on one object and its two
 * ancestors (pod tallies and phase values are updated by delta, never by rescanning pods).
 */
import type { FollowedSteps, InternalStep, ObjectRef, ProxySync } from '../internals';
import type { KubeObject, WatchEvent } from '../k8s';
import { placeEvent, type EventPlacement } from './derive-event';
import { deleterOf, finalDeleterOf } from './deletion';
import { derivePod } from './derive-pod';
import { deriveCronJob, deriveJob } from './derive-batch';
import { deriveDaemonSet, deriveStatefulSet } from './derive-sets';
import { deriveEndpointSlice, deriveService } from './derive-service';
import { deriveDeployment, deriveReplicaSet } from './derive-workload';
import { CONTROLLER_OF } from './controllers';
import { clientManager, digestPod, digestWorkload, followedOwnerRef, read, type ObjectDigest } from './digest';
import { normalizeEvent, type NormalizedEvent } from './events';
import { Interner } from './intern';
import { claimBoundDraft, claimKey, placeClaimEvent } from './claims';
import { addStepEvidence, applySchedulingCycle, listAssumption, markAssumed, marksAssumptions, rememberEarlyStep, withoutVerdicts } from './internals-evidence';
import { PendingBuffer } from './pending';
import { countPod } from './pod-counters';
import {
  beginEdit,
  commitEdit,
  emptyCounters,
  compactStageRecord,
  findStage,
  makeStage,
  newObjectRecord,
  newStageRecord,
  packRecord,
  NO_EVIDENCE,
  reposition,
  resolveTime,
  sameCondition,
  sameField,
  settle,
  STAGE_RANK,
  stageOf,
  type Counters,
  type JourneyRecord,
  type ObjectRecord,
  type StageDraft,
  type StageRecord,
} from './records';
import { isFinished, journeySnapshot, journeyStatus, type SnapshotContext } from './snapshot';
import { NO_ENDPOINTS } from './service-status';
import { podMarks, podPhases, statusOf } from './status';
import {
  PHASE_NAMES,
  type EventEvidence,
  type Journey,
  type JourneyChange,
  type PhaseName,
  type Stage,
  type StageEvidence,
  type TraceableKind,
} from './types';
import { TRACEABLE_KINDS, TRACEABLE_PARENTS, isTraceableKind } from '../../common/traceable-kinds';

export interface TracerOptions {
  /**
   * Pods per journey whose successful scheduling cycles keep their per-node verdict tables
   * (default: every pod; a table is a few hundred bytes). A cycle that placed nothing always keeps it.
   */
  schedulingDetailPods?: number;
  /**
   * Pods per journey whose stages keep the etcd writes and watch deliveries behind them (default
   * 50): about thirty steps a pod, the largest part of a traced pod's memory. Later pods still
   * take their stage times from them.
   */
  internalsDetailPods?: number;
  /**
   * Pods per journey whose stages keep their evidence (field changes, conditions, events) once
   * they are complete (default: every pod). Past them a complete pod keeps its stages, times and
   * messages and its scheduling attempt, and drops the rest: what a reader of a 150,000-pod
   * journey sees of a pod folded into its summary. Such a pod gathers no field changes,
   * conditions or field managers on its way either: only evidence prints them, and at 150,000
   * pods nearly all are on their way at once. `trace` sets it unless asked for evidence.
   */
  evidenceDetailPods?: number;
  /** Stuck objects listed in a journey snapshot (default 20). */
  stuckListLimit?: number;
  /** Items kept waiting for an object not seen yet, all journeys together (default 50,000). */
  pendingLimit?: number;
  /** Untraced Deployments, ReplicaSets and bare Pods remembered for a `begin` that comes after them (default 5,000). */
  untracedLimit?: number;
}

export interface RootSpec {
  kind: TraceableKind;
  namespace?: string;
  name: string;
}

export interface TracerStats {
  journeys: number;
  objects: number;
  pending: number;
  untraced: number;
  nodes: number;
}

/** Objects created this long before the apply belong to the past (an old ReplicaSet in a rollout). */
const PREEXISTING_MARGIN_MS = 2000;
const RECENT_VERSIONS = 6;

/** Pods own nothing: one shared, frozen empty list instead of one array per pod. */
const NO_CHILDREN: ObjectRecord[] = Object.freeze([]) as unknown as ObjectRecord[];

interface PendingObject {
  kind: TraceableKind;
  type: WatchEvent['type'];
  digest: ObjectDigest;
  receivedAt: number;
}

interface PendingEvent {
  event: NormalizedEvent;
  placement: EventPlacement;
  receivedAt: number;
}

function objectKey(kind: string, namespace: string, name: string): string {
  return `${kind}/${namespace}/${name}`;
}

/** `web-5d567cc74c-ss4lb` → `web-5d567cc74c`: the generated suffix removed. */
function withoutSuffix(name: string): string | undefined {
  const dash = name.lastIndexOf('-');
  return dash > 0 ? name.slice(0, dash) : undefined;
}

/** The kind of a watched object whose `kind` was stripped (some clients drop it from watch items). */
function inferKind(object: KubeObject): string | undefined {
  if (typeof object.kind === 'string' && object.kind) return object.kind;
  if (read.record(object.involvedObject)) return 'Event';
  const spec = read.record(object.spec);
  if (spec?.template && spec.strategy) return 'Deployment';
  if (spec?.template && spec.selector) return 'ReplicaSet';
  if (Array.isArray(spec?.containers)) return 'Pod';
  if (read.record(read.record(object.status)?.nodeInfo) || spec?.podCIDR || spec?.providerID) return 'Node';
  return undefined;
}

function digestOf(kind: TraceableKind, object: KubeObject): ObjectDigest | undefined {
  return kind === 'Pod' ? digestPod(object) : digestWorkload(object, kind);
}

/** The stage's message: the event's words, after the object they are about when it is not the stage's own (a pod's claim). */
function stageMessage(event: NormalizedEvent, placement: EventPlacement): string {
  return placement.subject ? `${placement.subject}: ${event.message}` : event.message;
}

/**
 * Drops a complete pod's evidence but for its scheduling attempt's counts and outcome (see
 * `TracerOptions.evidenceDetailPods`); a stage that changes later gathers evidence again. The
 * attempt's per-node verdict table goes too: only an unfinished pod's table is ever shown, and
 * at 150,000 pods the tables of complete ones weighed a hundred megabytes.
 */
function foldEvidence(record: ObjectRecord): void {
  if (record.pendingCycles?.length || record.pendingAssumptions?.length) return;
  record.stages = record.stages.map((entry) => {
    const internals = entry.stage.evidence.internals;
    const scheduling = internals?.scheduling && withoutVerdicts(internals.scheduling);
    const kept: StageEvidence = scheduling ? { internals: internals!.schedulingAttempts === undefined ? { scheduling } : { scheduling, schedulingAttempts: internals!.schedulingAttempts } } : NO_EVIDENCE;
    const compact = compactStageRecord(entry);
    if (entry.stage.evidence !== kept) compact.stage = makeStage(entry.stage, kept);
    return compact;
  });
  record.recentVersions = undefined;
  record.earlyInternals = undefined;
  record.pendingCycles = undefined;
  record.pendingAssumptions = undefined;
  record.evidenceFolded = true;
  packRecord(record);
}

/**
 * An event's evidence, with its optional properties in the object literal for the usual
 * combinations: a kubelet's container event (host and fieldPath), the scheduler's (host and
 * action), a kubelet's pod event (host). A property added after the literal would take a
 * property array of its own, about 40 bytes for each of a starting pod's events.
 */
function eventEvidence(event: NormalizedEvent, firstTime: number, lastTime: number): EventEvidence {
  const { type, reason, message, count, component, name } = event;
  const host = event.host || undefined;
  const action = event.action || undefined;
  const fieldPath = event.involved.fieldPath || undefined;
  if (host !== undefined && fieldPath !== undefined && action === undefined) return { type, reason, message, count, component, firstTime, lastTime, name, host, fieldPath };
  if (host !== undefined && action !== undefined && fieldPath === undefined) return { type, reason, message, count, component, firstTime, lastTime, name, host, action };
  if (host !== undefined && action === undefined && fieldPath === undefined) return { type, reason, message, count, component, firstTime, lastTime, name, host };
  const evidence: EventEvidence = { type, reason, message, count, component, firstTime, lastTime, name };
  if (host !== undefined) evidence.host = host;
  if (action !== undefined) evidence.action = action;
  if (fieldPath !== undefined) evidence.fieldPath = fieldPath;
  return evidence;
}

/** Whether this object's stages gather field changes, conditions and field managers (see `TracerOptions.evidenceDetailPods`). */
function gathersFieldEvidence(record: ObjectRecord): boolean {
  return record.kind !== 'Pod' || record.podIndex < record.journey.evidenceDetailPods;
}

/** Whether this object's stages keep the etcd writes and watch deliveries behind them (see `TracerOptions.internalsDetailPods`). */
function keepsInternals(record: ObjectRecord): boolean {
  return record.kind !== 'Pod' || record.podIndex < record.journey.internalsDetailPods;
}

function rvNumber(rv: string | undefined): number {
  const n = Number(rv);
  return Number.isFinite(n) ? n : NaN;
}

export class JourneyTracer {
  private readonly options: Required<TracerOptions>;
  private readonly journeys = new Map<string, JourneyRecord>();
  /** Root key → the newest journey for it. */
  private readonly rootIndex = new Map<string, JourneyRecord>();
  private readonly byUid = new Map<string, ObjectRecord>();
  private readonly byKey = new Map<string, ObjectRecord>();
  private readonly nodes = new Map<string, boolean>();
  private nodesVersion = 0;
  private readonly untraced = new Map<string, PendingObject>();
  private readonly pendingObjects: PendingBuffer<PendingObject>;
  private readonly pendingEvents: PendingBuffer<PendingEvent>;
  /**
   * Claims and their events, kept for the pods that mount them: a claim's first events come
   * before its pod exists (a StatefulSet creates the claim first). Bounded like the pending buffers.
   */
  private readonly claimEvents = new Map<string, PendingEvent[]>();
  private readonly claimObjects = new Map<string, KubeObject>();
  /** Pod records per claim they mount. */
  private readonly claimUsers = new Map<string, ObjectRecord[]>();
  private readonly pendingInternals: PendingBuffer<InternalStep>;
  private readonly listeners: ((change: JourneyChange) => void)[] = [];
  private readonly changed = new Set<JourneyRecord>();
  private changeTime = 0;
  /** Set by the first internals step: only then are resourceVersions remembered for attaching them. */
  private internalsSeen = false;
  private readonly snapshotContext: SnapshotContext;
  private readonly intern = new Interner();
  /** namespace → the traced Services there with a selector, matched against every pod change. */
  private readonly servicesByNamespace = new Map<string, Set<ObjectRecord>>();

  constructor(options: TracerOptions = {}) {
    this.options = {
      schedulingDetailPods: options.schedulingDetailPods ?? Number.POSITIVE_INFINITY,
      internalsDetailPods: options.internalsDetailPods ?? 50,
      evidenceDetailPods: options.evidenceDetailPods ?? Number.POSITIVE_INFINITY,
      stuckListLimit: options.stuckListLimit ?? 20,
      pendingLimit: options.pendingLimit ?? 50_000,
      untracedLimit: options.untracedLimit ?? 5_000,
    };
    this.pendingObjects = new PendingBuffer(this.options.pendingLimit);
    this.pendingEvents = new PendingBuffer(this.options.pendingLimit);
    this.pendingInternals = new PendingBuffer(this.options.pendingLimit);
    this.snapshotContext = { nodeReady: (name) => this.nodes.get(name), stuckListLimit: this.options.stuckListLimit };
  }

  /**
   * Starts a journey for an applied object; returns its id. Call it when applying (before the
   * API server answers, ideally): watch events for the root that arrived earlier are still
   * picked up from a small cache. Beginning a root that already has a journey (a re-apply)
   * freezes the older journey and carries the objects' current state over to the new one.
   */
  begin(root: RootSpec, appliedAt: number): string {
    const namespace = root.namespace ?? 'default';
    const key = objectKey(root.kind, namespace, root.name);
    let id = `${key}@${appliedAt}`;
    for (let n = 2; this.journeys.has(id); n++) id = `${key}@${appliedAt}#${n}`;
    const journey: JourneyRecord = {
      id,
      root: { kind: root.kind, namespace, name: root.name },
      appliedAt,
      version: 0,
      lastChangeAt: appliedAt,
      pods: [],
      phaseValues: Object.fromEntries(PHASE_NAMES.map((name) => [name, [] as number[]])) as unknown as Record<PhaseName, number[]>,
      stuckObjects: new Set(),
      rootPodCounters: emptyCounters(),
      superseded: false,
      sawIncomplete: false,
      schedulingDetailPods: this.options.schedulingDetailPods,
      internalsDetailPods: this.options.internalsDetailPods,
      evidenceDetailPods: this.options.evidenceDetailPods,
      assumptions: [],
      assumptionIndex: undefined,
      assumedObjects: undefined,
      nodesVersion: this.nodesVersion,
      packedColumn: undefined,
    };
    this.journeys.set(id, journey);
    const previous = this.rootIndex.get(key);
    this.rootIndex.set(key, journey);
    if (previous) this.takeOver(previous, journey);
    else this.seedFromUntraced(journey, key);
    this.changed.add(journey);
    this.changeTime = appliedAt;
    this.notify();
    return id;
  }

  /** One watch event, with the time it arrived (ms). */
  ingest(event: WatchEvent, receivedAt: number): void {
    const object = event.object;
    if (!object || (event.type !== 'ADDED' && event.type !== 'MODIFIED' && event.type !== 'DELETED')) return;
    const kind = inferKind(object);
    this.changeTime = receivedAt;
    if (kind === 'Event') this.ingestEvent(event.type, object, receivedAt);
    else if (kind === 'Node') this.ingestNode(event.type, object);
    else if (kind === 'PersistentVolumeClaim') this.ingestClaim(event.type, object, receivedAt);
    else if (isTraceableKind(kind)) {
      if (kind === 'Pod') this.matchServices(event.type, object);
      const digest = digestOf(kind, object);
      if (digest) this.ingestDigest(kind, event.type, digest, receivedAt);
    }
    this.notify();
  }

  /** One step of the simulator's internals stream (etcd writes, watch deliveries, scheduling cycles). */
  ingestInternal(step: InternalStep): void {
    this.changeTime = step.time;
    this.internalsSeen = true;
    const ref = step.type === 'schedulingCycle' ? step.pod : step.object;
    if (!TRACEABLE_KINDS.has(ref.kind)) return;
    const record = this.lookup(ref);
    if (!record) {
      const namespace = ref.namespace ?? 'default';
      if (this.plausible(ref.kind, namespace, ref.name)) this.pendingInternals.add(objectKey(ref.kind, namespace, ref.name), step);
      return;
    }
    this.attachInternal(record, step);
    this.notify();
  }

  /** Every journey, oldest first. Snapshots are immutable; unchanged parts are shared between calls. */
  snapshot(): Journey[] {
    const out: Journey[] = [];
    for (const journey of this.journeys.values()) out.push(this.build(journey));
    return out;
  }

  journey(id: string): Journey | undefined {
    const journey = this.journeys.get(id);
    return journey ? this.build(journey) : undefined;
  }

  /**
   * Whether a journey has finished and whether anything in it is stuck: the `done` and `stuck` of
   * `journey(id)` without building a snapshot, for callers that ask after every step of a run
   * (a snapshot of a journey with thousands of pods costs milliseconds).
   */
  progress(id: string): { done: boolean; stuck: boolean; settled: boolean } | undefined {
    const journey = this.journeys.get(id);
    if (!journey) return undefined;
    const done = isFinished(journeyStatus(journey));
    // A Service no pod matches waits for pods only a new apply can bring: nothing to wait for.
    const root = journey.rootRecord;
    const settled = done || (root?.kind === 'Service' && root.stuck?.reason === NO_ENDPOINTS);
    return { done, stuck: journey.stuckObjects.size > 0, settled };
  }

  /**
   * Per phase, one value per pod of the journey (NaN where a pod has none): what `phaseStats` is
   * computed from, for percentiles over several journeys (a file's summary).
   */
  phaseValues(id: string): Readonly<Record<PhaseName, ArrayLike<number>>> | undefined {
    return this.journeys.get(id)?.phaseValues;
  }

  /**
   * Forgets the cached snapshot of a journey and of its objects, for a reader done with it (the
   * CLI prints journeys one at a time: 150,000 pods' snapshots need not all live at once). The
   * next `journey(id)` builds it again.
   */
  releaseSnapshot(id: string): void {
    const journey = this.journeys.get(id);
    if (!journey) return;
    journey.snapshot = undefined;
    const pending = journey.rootRecord ? [journey.rootRecord] : [];
    for (let record = pending.pop(); record; record = pending.pop()) {
      record.snapshot = undefined;
      for (const child of record.children) pending.push(child);
    }
  }

  journeyIds(): string[] {
    return [...this.journeys.keys()];
  }

  /** Called after each change with the journey that changed. Returns an unsubscribe function. */
  onDidChange(listener: (change: JourneyChange) => void): () => void {
    this.listeners.push(listener);
    return () => {
      const index = this.listeners.indexOf(listener);
      if (index >= 0) this.listeners.splice(index, 1);
    };
  }

  /**
   * Whether a scheduling cycle that places this pod would keep its per-node verdict table here
   * (see `TracerOptions.schedulingDetailPods`), so that a simulator need not build the others. A
   * pod not in a journey yet keeps it, in case it joins one.
   */
  keepsPlacedVerdicts(pod: { uid: string; namespace: string; name: string }): boolean {
    const record = this.lookup({ kind: 'Pod', uid: pod.uid, namespace: pod.namespace, name: pod.name });
    return record === undefined || record.podIndex < record.journey.schedulingDetailPods;
  }

  /**
   * Which of an object's watch deliveries and etcd writes would show here (see
   * `TracerOptions.internalsDetailPods`), so that a simulator need not build the others: 'none' for
   * a kind no journey holds; for a pod past its journey's first pods, 'create' (the write that
   * stored it dates its first stage), also for one not seen yet whose owner's journey has that many
   * pods already; 'all' otherwise.
   */
  followedSteps(kind: string, object: KubeObject): FollowedSteps {
    if (!TRACEABLE_KINDS.has(kind)) return 'none';
    if (kind !== 'Pod') return 'all';
    const meta = object.metadata ?? {};
    const record = meta.uid === undefined ? undefined : this.byUid.get(meta.uid);
    if (record) return keepsInternals(record) ? 'all' : 'create';
    // Not seen yet (its informers hear of it first): `adopt` will put it under its owner's journey, at the end.
    const owner = followedOwnerRef(meta as Record<string, unknown>);
    const parent = owner && this.byUid.get(owner.uid);
    if (!parent || parent.journey.superseded || !TRACEABLE_PARENTS.Pod.includes(parent.kind as TraceableKind)) return 'all';
    if (parent.journey.pods.length < parent.journey.internalsDetailPods) return 'all';
    return this.rootIndex.has(objectKey('Pod', meta.namespace ?? 'default', meta.name ?? '')) ? 'all' : 'create';
  }

  /** Sizes of the tracer's indexes and buffers (for tests and diagnostics). */
  stats(): TracerStats {
    const pending = this.pendingObjects.count + this.pendingEvents.count + this.pendingInternals.count;
    return { journeys: this.journeys.size, objects: this.byUid.size, pending, untraced: this.untraced.size, nodes: this.nodes.size };
  }

  // ---- objects -------------------------------------------------------------------------------

  private ingestDigest(kind: TraceableKind, type: WatchEvent['type'], digest: ObjectDigest, receivedAt: number): void {
    let record = this.byUid.get(digest.uid);
    if (record) {
      this.apply(record, type, digest, receivedAt);
      return;
    }
    record = this.adopt(kind, type, digest, receivedAt);
    if (!record) return;
    this.apply(record, type, digest, receivedAt);
    this.flushPending(record);
  }

  /** Finds the journey an unseen object belongs to and creates its record; buffers or caches it otherwise. */
  private adopt(kind: TraceableKind, type: WatchEvent['type'], digest: ObjectDigest, receivedAt: number): ObjectRecord | undefined {
    const key = objectKey(kind, digest.namespace, digest.name);
    const rootJourney = this.rootIndex.get(key);
    if (rootJourney && !rootJourney.rootRecord && (!rootJourney.root.uid || rootJourney.root.uid === digest.uid)) {
      this.untraced.delete(key);
      return this.createRecord(kind, digest, rootJourney, undefined);
    }
    const owner = digest.owner;
    if (owner) {
      const parent = this.byUid.get(owner.uid);
      if (parent && TRACEABLE_PARENTS[kind].includes(parent.kind) && !parent.journey.superseded) {
        this.untraced.delete(key);
        return this.createRecord(kind, digest, parent.journey, parent);
      }
      if (type !== 'DELETED' && this.plausible(owner.kind, digest.namespace, owner.name)) {
        this.pendingObjects.add(owner.uid, { kind, type, digest, receivedAt });
        return undefined;
      }
    }
    if (kind !== 'Pod' || !owner) this.remember(key, { kind, type, digest, receivedAt });
    return undefined;
  }

  private remember(key: string, entry: PendingObject): void {
    this.untraced.delete(key);
    if (entry.type === 'DELETED') return;
    this.untraced.set(key, entry);
    if (this.untraced.size > this.options.untracedLimit) {
      const oldest = this.untraced.keys().next();
      if (!oldest.done) this.untraced.delete(oldest.value);
    }
  }

  /** Whether an unseen object's name could belong to a traced root (generated names add `-<suffix>`). */
  private plausible(kind: string, namespace: string, name: string): boolean {
    const key = objectKey(kind, namespace, name);
    if (this.byKey.has(key) || this.rootIndex.has(key)) return true;
    // A generated name is its owner's plus one or two suffixes: web-5d567cc74c (ReplicaSet of web),
    // web-5d567cc74c-ss4lb, web-0, hello-29034242-x7k2p (Pod of a Job of CronJob hello), pi-0-abcde.
    const parents = TRACEABLE_PARENTS[kind as TraceableKind] ?? [];
    for (let prefix = withoutSuffix(name), depth = 0; prefix !== undefined && depth < 3; prefix = withoutSuffix(prefix), depth++) {
      for (const parentKind of parents) {
        const parentKey = objectKey(parentKind, namespace, prefix);
        if (this.byKey.has(parentKey) || this.rootIndex.has(parentKey)) return true;
        for (const grandparent of TRACEABLE_PARENTS[parentKind]) if (this.rootIndex.has(objectKey(grandparent, namespace, prefix))) return true;
      }
    }
    return false;
  }

  private createRecord(kind: TraceableKind, digest: ObjectDigest, journey: JourneyRecord, parent: ObjectRecord | undefined): ObjectRecord {
    const record = newObjectRecord({
      kind,
      namespace: digest.namespace,
      name: digest.name,
      uid: digest.uid,
      key: objectKey(kind, digest.namespace, digest.name),
      journey,
      parent,
      children: kind === 'Pod' ? NO_CHILDREN : [],
      preexisting: digest.created !== undefined && digest.created.ms < journey.appliedAt - PREEXISTING_MARGIN_MS,
    });
    this.byUid.set(record.uid, record);
    this.byKey.set(record.key, record);
    if (kind === 'Service') {
      record.service = { selected: new Set(), proxyVisible: this.internalsSeen, podProblems: new Map() };
      let services = this.servicesByNamespace.get(record.namespace);
      if (!services) this.servicesByNamespace.set(record.namespace, (services = new Set()));
      services.add(record);
      this.selectKnownPods(record, digest);
    }
    if (parent) {
      parent.children.push(record);
    } else {
      journey.rootRecord = record;
      journey.root.uid = record.uid;
      this.upsert(record, { key: 'submitted', kind: 'submitted', component: 'kubectl', title: 'Applied' }, journey.appliedAt, journey.appliedAt);
    }
    if (kind === 'Pod') {
      record.podIndex = journey.pods.length;
      journey.pods.push(record);
      for (const name of PHASE_NAMES) journey.phaseValues[name].push(NaN);
    } else if (TRACEABLE_PARENTS.Pod.includes(kind)) {
      record.podCounters = emptyCounters();
    }
    return record;
  }

  private apply(record: ObjectRecord, type: WatchEvent['type'], next: ObjectDigest, receivedAt: number): void {
    const journey = record.journey;
    if (journey.superseded) return;
    const prev = record.digest;
    if (prev?.resourceVersion !== undefined && next.resourceVersion !== undefined && type !== 'DELETED') {
      // A relist or a reordered delivery: never step back to an older state.
      if (rvNumber(next.resourceVersion) < rvNumber(prev.resourceVersion)) return;
    }
    const deleter = deleterOf(record);
    const has = (key: string): boolean => findStage(record, key) !== undefined;
    const unique = (base: string): string => {
      if (!has(base)) return base;
      let n = 2;
      while (has(`${base}#${n}`)) n++;
      return `${base}#${n}`;
    };
    const touched: { stage: StageRecord; created: boolean }[] = [];
    const take = (result: { stage: StageRecord; created: boolean } | undefined): void => {
      if (result) touched.push(result);
    };

    const live = prev !== undefined;
    if (next.kind === 'Pod') {
      for (const draft of derivePod(prev?.kind === 'Pod' ? prev : undefined, next, { isRoot: !record.parent, has, deleter })) take(this.upsert(record, draft, receivedAt, undefined, live));
    } else {
      const before = prev?.kind === next.kind ? prev : undefined;
      const ctx = { isRoot: !record.parent, preexisting: record.preexisting, has, unique, deleter };
      let drafts: StageDraft[];
      switch (next.kind) {
        case 'Deployment':
          drafts = deriveDeployment(before, next, ctx);
          break;
        case 'StatefulSet':
          drafts = deriveStatefulSet(before, next, ctx);
          break;
        case 'DaemonSet':
          drafts = deriveDaemonSet(before, next, ctx);
          break;
        case 'Job':
          drafts = deriveJob(before, next, { ...ctx, ownedByCronJob: record.parent?.kind === 'CronJob' });
          break;
        case 'CronJob':
          drafts = deriveCronJob(before, next, ctx);
          break;
        case 'Service':
          drafts = deriveService(before, next, ctx);
          break;
        case 'EndpointSlice': {
          const derived = deriveEndpointSlice(before, next, { ...ctx, serviceName: record.parent?.name ?? '' });
          drafts = derived.own;
          if (record.parent) for (const draft of derived.forOwner) this.upsert(record.parent, draft, receivedAt, undefined, live);
          break;
        }
        case 'ReplicaSet':
        case 'ReplicationController': {
          const derived = deriveReplicaSet(before, next, { ...ctx, ownedByDeployment: record.parent?.kind === 'Deployment', controller: CONTROLLER_OF[next.kind] });
          drafts = derived.own;
          if (record.parent) for (const draft of derived.forOwner) this.upsert(record.parent, draft, receivedAt, undefined, live);
          break;
        }
      }
      for (const draft of drafts) take(this.upsert(record, draft, receivedAt, undefined, live));
    }

    settle(record);
    if (record.parent) settle(record.parent);
    if (type === 'DELETED' && !record.deleted) {
      take(this.upsert(record, { key: 'deleted', kind: 'deleted', component: finalDeleterOf(record, next), title: 'Deleted' }, receivedAt));
      record.deleted = true;
      record.deletedAt = stageOf(record, 'deleted')?.time ?? receivedAt;
    }
    if (!prev && record.kind === journey.root.kind && !record.parent) {
      const manager = clientManager(next.managers);
      const submitted = findStage(record, 'submitted');
      if (submitted && manager) {
        const edit = beginEdit(submitted);
        edit.evidence.manager = { name: manager.name, operation: manager.operation, time: manager.time?.ms };
        edit.stage.title = `Applied by ${manager.name}`;
        commitEdit(submitted, edit);
      }
    }
    record.digest = next;
    if (record.createdAt === undefined || !prev) this.pinCreation(record, next.created?.ms);
    if (next.kind === 'Pod' && next.phase === 'Running' && record.watchedRunningAt === undefined) record.watchedRunningAt = receivedAt;
    if (next.kind === 'Pod' && next.deletionTimestamp && record.deletedAt === undefined) record.deletedAt = stageOf(record, 'terminating')?.time;

    if (next.resourceVersion !== undefined && this.internalsSeen && (keepsInternals(record) || !record.recentVersions)) {
      const first = touched[0];
      const versions = (record.recentVersions ??= []);
      versions.push({ resourceVersion: next.resourceVersion, stage: first?.stage, created: first?.created ?? false });
      if (versions.length > RECENT_VERSIONS) versions.shift();
      if (record.earlyInternals?.length) {
        const matching = record.earlyInternals.filter((step) => step.resourceVersion === next.resourceVersion);
        if (matching.length > 0) {
          record.earlyInternals = record.earlyInternals.filter((step) => step.resourceVersion !== next.resourceVersion);
          for (const step of matching) this.attachInternal(record, step);
        }
      }
    }
    this.refresh(record, receivedAt);
  }

  /**
   * Sets when the object was created from its creation stage (else `fallback`, its stamp). Called
   * at first sight and after every change: an etcd write or an Event that arrives later may
   * sharpen that stage within its second, and the lanes start at `createdAt`.
   */
  private pinCreation(record: ObjectRecord, fallback?: number): void {
    // A packed pod settled long ago: its creation no longer moves.
    if (record.packed && record.createdAt !== undefined) return;
    const creation = this.creationStage(record);
    if (!creation && record.createdAt !== undefined) return;
    record.createdAt = creation?.time ?? fallback;
    // The end of an unsharpened stamp's second: inside that second, it is the latest the object can have been created.
    record.createdNoLaterThan = creation?.floatBase !== undefined ? creation.floatBase + 999 : record.createdAt;
  }

  /** The stage that says when the object was created: its time, and where that time is a whole-second stamp nothing sharpened, the second's start. */
  private creationStage(record: ObjectRecord): { time: number; floatBase: number | undefined } | undefined {
    const key = record.kind === 'Pod' ? (record.parent ? 'podCreated' : 'stored') : record.kind === 'ReplicaSet' && record.parent ? 'replicaSetCreated' : record.kind === 'Job' && record.parent ? 'jobCreated' : 'stored#1';
    // A packed pod keeps no stage records: its stage time is all there is (packed only once settled, long after first sight).
    const stageRecord = record.packed ? undefined : findStage(record, key);
    if (stageRecord) return { time: stageRecord.stage.time, floatBase: stageRecord.floatBase };
    const stage = stageOf(record, key);
    return stage && { time: stage.time, floatBase: undefined };
  }

  // ---- stages --------------------------------------------------------------------------------

  /** Adds a stage or merges a new observation into the stage with the same key. */
  private upsert(record: ObjectRecord, draft: StageDraft, observedAt: number, appliedTime?: number, live = false): { stage: StageRecord; created: boolean } | undefined {
    const existing = findStage(record, draft.key);
    const withFields = gathersFieldEvidence(record);
    if (!existing) {
      const intern = this.intern;
      const evidence: StageEvidence = {};
      if (withFields) {
        if (draft.fields?.length) evidence.fields = intern.fields(draft.fields);
        if (draft.conditions?.length) evidence.conditions = intern.conditions(draft.conditions);
        if (draft.manager) evidence.manager = draft.manager;
      }
      const stage: Stage = { key: intern.string(draft.key), kind: draft.kind, time: observedAt, timeSource: 'observed', component: draft.component, title: intern.string(draft.title), evidence };
      if (draft.message !== undefined) stage.message = draft.message;
      if (draft.reason !== undefined) stage.reason = draft.reason;
      if (draft.container !== undefined) stage.container = draft.container;
      if (draft.warning) stage.warning = true;
      const created = newStageRecord(stage, STAGE_RANK[draft.kind], record.stageSeq++, observedAt);
      if (draft.message !== undefined) created.messageFrom = 'state';
      if (draft.objectTime) created.objectTime = draft.objectTime;
      if (appliedTime !== undefined) created.appliedTime = appliedTime;
      const edit = { stage, evidence };
      resolveTime(created, edit);
      if (!this.withinJourney(record, stage.time)) {
        // History seen on first sight is left out; a change seen happening is not history, whatever its stamp says.
        if (!live) return undefined;
        created.objectTime = undefined;
        resolveTime(created, edit);
      }
      commitEdit(created, edit);
      reposition(record, created);
      this.onStageCreated(record, created);
      return { stage: created, created: true };
    }
    const edit = beginEdit(existing);
    const { stage, evidence } = edit;
    if (draft.objectTime && !existing.objectTime) existing.objectTime = draft.objectTime;
    if (draft.reason !== undefined) stage.reason = draft.reason;
    if (withFields) {
      const newFields = draft.fields?.filter((field) => !evidence.fields?.some((f) => sameField(f, field)));
      if (newFields?.length) evidence.fields = this.intern.fields([...(evidence.fields ?? []), ...newFields]);
      const newConditions = draft.conditions?.filter((condition) => !evidence.conditions?.some((c) => sameCondition(c, condition)));
      if (newConditions?.length) evidence.conditions = this.intern.conditions([...(evidence.conditions ?? []), ...newConditions]);
      if (draft.manager && !evidence.manager) evidence.manager = draft.manager;
    }
    if (draft.message !== undefined && existing.messageFrom !== 'event') {
      stage.message = draft.message;
      existing.messageFrom = 'state';
    }
    if (draft.repeat) {
      // With an Event behind the stage its count is authoritative; state repeats count only without one.
      if (!evidence.event) stage.count = (stage.count ?? 1) + 1;
      stage.lastTime = Math.max(stage.lastTime ?? stage.time, observedAt);
    }
    if (draft.overrideComponent) stage.component = draft.component;
    if (observedAt < existing.observedAt) existing.observedAt = observedAt;
    resolveTime(existing, edit);
    commitEdit(existing, edit);
    reposition(record, existing);
    return { stage: existing, created: false };
  }

  /** Stages of pre-existing objects from before the apply are history, not journey. */
  private withinJourney(record: ObjectRecord, time: number): boolean {
    return !record.preexisting || time >= record.journey.appliedAt - PREEXISTING_MARGIN_MS;
  }

  private onStageCreated(record: ObjectRecord, stage: StageRecord): void {
    if (record.pendingAssumptions?.length && marksAssumptions(stage.stage.kind)) {
      record.pendingAssumptions = record.pendingAssumptions.filter((step) => !markAssumed(record, step));
    }
    if (!record.pendingCycles?.length) return;
    const result = stage.stage.key === 'scheduled' ? 'Scheduled' : stage.stage.key === 'failedScheduling' ? 'Unschedulable' : undefined;
    if (!result) return;
    const cycles = record.pendingCycles.filter((cycle) => cycle.result === result);
    record.pendingCycles = record.pendingCycles.filter((cycle) => cycle.result !== result);
    for (const cycle of cycles) applySchedulingCycle(record, stage, cycle);
  }

  // ---- events --------------------------------------------------------------------------------

  private ingestEvent(type: WatchEvent['type'], object: KubeObject, receivedAt: number): void {
    // An Event's DELETED is its expiry: what it showed stays in the journey.
    if (type === 'DELETED') return;
    const kind = read.record(object.involvedObject)?.kind ?? read.record(object.regarding)?.kind;
    if (kind === 'PersistentVolumeClaim') return this.ingestClaimEvent(object, receivedAt);
    if (!isTraceableKind(kind)) return;
    const event = normalizeEvent(object);
    if (!event) return;
    const placement = placeEvent(event);
    if (!placement) return;
    const target = placement.redirect ?? { kind: event.involved.kind, name: event.involved.name };
    const key = objectKey(target.kind, event.involved.namespace, target.name);
    let record: ObjectRecord | undefined;
    if (!placement.redirect && event.involved.uid) {
      record = this.byUid.get(event.involved.uid);
      // Named like a traced object but about another incarnation of it: not ours.
      if (!record && this.byKey.has(key)) return;
    }
    record ??= this.byKey.get(key);
    if (!record) {
      if (this.plausible(target.kind, event.involved.namespace, target.name)) this.pendingEvents.add(key, { event, placement, receivedAt });
      return;
    }
    this.applyEvent(record, event, placement, receivedAt);
  }

  private applyEvent(record: ObjectRecord, event: NormalizedEvent, placement: EventPlacement, receivedAt: number): void {
    if (record.journey.superseded) return;
    // The n-th occurrence of an aggregated event happened at its lastTimestamp.
    const when = placement.counting === 'occurrence' ? (event.last ?? event.first) : event.first;
    const first = when?.ms ?? receivedAt;
    const evidence = eventEvidence(event, first, placement.counting === 'occurrence' ? first : (event.last?.ms ?? first));
    const repeated = placement.counting === 'repeat' && event.count > 1;
    const existing = findStage(record, placement.key);
    if (!existing) {
      const stage: Stage = {
        key: this.intern.string(placement.key),
        kind: placement.kind,
        time: receivedAt,
        timeSource: 'observed',
        component: placement.component,
        title: this.intern.string(placement.title),
        message: stageMessage(event, placement),
        evidence: { event: evidence },
      };
      if (event.reason) stage.reason = event.reason;
      if (placement.container !== undefined) stage.container = placement.container;
      if (placement.warning) stage.warning = true;
      if (repeated) {
        stage.count = event.count;
        stage.lastTime = evidence.lastTime;
      }
      const created = newStageRecord(stage, STAGE_RANK[placement.kind], record.stageSeq++, receivedAt);
      created.messageFrom = placement.secondary ? 'secondary' : 'event';
      if (placement.secondary) created.eventSecondary = true;
      if (when) created.eventTime = when;
      const edit = { stage, evidence: stage.evidence };
      resolveTime(created, edit);
      if (!this.withinJourney(record, stage.time)) return;
      commitEdit(created, edit);
      reposition(record, created);
      this.onStageCreated(record, created);
    } else {
      const edit = beginEdit(existing);
      const { stage } = edit;
      const previous = edit.evidence.event;
      const sameEvent = previous?.name === event.name;
      if (!previous || sameEvent || (existing.eventSecondary && !placement.secondary)) {
        if (previous && sameEvent && previous.firstTime < evidence.firstTime) evidence.firstTime = previous.firstTime;
        edit.evidence.event = evidence;
        existing.eventSecondary = placement.secondary === true;
        if (!placement.secondary) {
          stage.message = stageMessage(event, placement);
          existing.messageFrom = 'event';
        } else if (stage.message === undefined) {
          stage.message = event.message;
          existing.messageFrom = 'secondary';
        }
      }
      // A container's own waiting/terminated reason (from state) says more than the event's.
      if (stage.reason === undefined && event.reason) stage.reason = event.reason;
      if (when && (!existing.eventTime || when.ms < existing.eventTime.ms)) existing.eventTime = when;
      if (repeated) {
        stage.count = Math.max(stage.count ?? 1, event.count);
        stage.lastTime = Math.max(stage.lastTime ?? stage.time, evidence.lastTime);
      }
      if (placement.redirect) stage.component = placement.component;
      if (receivedAt < existing.observedAt) existing.observedAt = receivedAt;
      resolveTime(existing, edit);
      commitEdit(existing, edit);
      reposition(record, existing);
    }
    settle(record);
    if (placement.redirect && placement.key === 'terminating') record.deleterHint = placement.component;
    this.refresh(record, receivedAt);
  }

  // ---- internals -----------------------------------------------------------------------------

  private lookup(ref: ObjectRef): ObjectRecord | undefined {
    if (ref.uid) {
      const byUid = this.byUid.get(ref.uid);
      if (byUid) return byUid;
    }
    const byKey = this.byKey.get(objectKey(ref.kind, ref.namespace ?? 'default', ref.name));
    if (byKey && ref.uid && byKey.uid !== ref.uid) return undefined;
    return byKey;
  }

  private attachInternal(record: ObjectRecord, step: InternalStep): void {
    if (record.journey.superseded) return;
    if (step.type === 'proxySync') {
      this.applyProxySync(record, step);
      return;
    }
    if (step.type === 'assumedExit' || step.type === 'assumedRunning' || step.type === 'assumedPull') {
      listAssumption(record, step);
      if (!markAssumed(record, step)) (record.pendingAssumptions ??= []).push(step);
      this.touch(record);
      return;
    }
    if (step.type === 'schedulingCycle') {
      const stage = findStage(record, step.result === 'Scheduled' ? 'scheduled' : 'failedScheduling');
      if (stage) applySchedulingCycle(record, stage, step);
      else (record.pendingCycles ??= []).push(step);
      this.touch(record);
      return;
    }
    // Past a journey's first pods only the write that created the pod matters (its time).
    if (!keepsInternals(record) && (step.type === 'watchDelivered' || step.verb !== 'create')) return;
    const entry = record.recentVersions?.find((v) => v.resourceVersion === step.resourceVersion);
    if (!entry) {
      const known = rvNumber(record.digest?.resourceVersion);
      if (!(rvNumber(step.resourceVersion) <= known)) rememberEarlyStep(record, step);
      return;
    }
    if (!entry.stage) return;
    addStepEvidence(record, entry.stage, entry.created, step);
    if (record.createdAt !== undefined) this.pinCreation(record);
    this.touch(record);
  }

  // ---- claims --------------------------------------------------------------------------------

  private ingestClaimEvent(object: KubeObject, receivedAt: number): void {
    const event = normalizeEvent(object);
    if (!event) return;
    const key = claimKey(event.involved.namespace, event.involved.name);
    const placement = placeClaimEvent(event);
    const kept = this.claimEvents.get(key) ?? [];
    // A repeat of an aggregated event replaces what was kept of it.
    const others = kept.filter((pending) => pending.event.name !== event.name);
    others.push({ event, placement, receivedAt });
    this.keepClaimState(this.claimEvents, key, others);
    for (const record of this.claimUsers.get(key) ?? []) this.applyEvent(record, event, placement, receivedAt);
  }

  private ingestClaim(type: WatchEvent['type'], object: KubeObject, receivedAt: number): void {
    const namespace = read.str(read.record(object.metadata)?.namespace) ?? 'default';
    const key = claimKey(namespace, read.str(read.record(object.metadata)?.name) ?? '');
    if (type === 'DELETED') {
      this.claimObjects.delete(key);
      return;
    }
    const draft = claimBoundDraft(object);
    if (!draft) return;
    this.keepClaimState(this.claimObjects, key, object);
    for (const record of this.claimUsers.get(key) ?? []) this.addClaimBound(record, draft, receivedAt);
  }

  private addClaimBound(record: ObjectRecord, draft: StageDraft, observedAt: number): void {
    if (record.journey.superseded || stageOf(record, draft.key)) return;
    this.upsert(record, draft, observedAt, undefined, true);
    this.touch(record);
  }

  /** A pod seen for the first time: it shows what its claims went through so far, and from now on. */
  private attachClaims(record: ObjectRecord): void {
    const claims = record.digest?.kind === 'Pod' ? record.digest.claims : undefined;
    if (!claims) return;
    for (const name of claims) {
      const key = claimKey(record.namespace, name);
      const users = this.claimUsers.get(key);
      if (users) users.push(record);
      else this.keepClaimState(this.claimUsers, key, [record]);
      for (const pending of this.claimEvents.get(key) ?? []) this.applyEvent(record, pending.event, pending.placement, pending.receivedAt);
      const bound = this.claimObjects.get(key);
      const draft = bound && claimBoundDraft(bound);
      if (draft) this.addClaimBound(record, draft, record.journey.appliedAt);
    }
  }

  private keepClaimState<T>(map: Map<string, T>, key: string, value: T): void {
    map.delete(key);
    map.set(key, value);
    if (map.size > this.options.pendingLimit) map.delete(map.keys().next().value!);
  }

  /**
   * kube-proxy programmed a Service: a stage on the Service, and on each pod it now routes to a
   * stage saying the pod serves traffic for it (where the pod's journey ends).
   */
  private applyProxySync(record: ObjectRecord, step: ProxySync): void {
    const trace = record.service;
    if (!trace) return;
    trace.proxyVisible = true;
    trace.programmed = step.endpoints;
    trace.programmedNodes = step.nodes;
    const count = step.endpoints.length;
    const nodes = `${step.nodes} node${step.nodes === 1 ? '' : 's'}`;
    let n = 1;
    while (findStage(record, `programmed#${n}`)) n++;
    this.upsert(record, {
      key: `programmed#${n}`,
      kind: 'programmed',
      component: 'kube-proxy',
      title: count > 0 ? `Programmed on ${nodes}: traffic goes to ${count} endpoint${count === 1 ? '' : 's'}` : `Programmed on ${nodes}: no endpoint, connections are rejected`,
      warning: count === 0,
    }, step.time, undefined, true);
    this.refresh(record, step.time);
    for (const podName of step.endpoints) {
      const pod = this.byKey.get(objectKey('Pod', record.namespace, podName));
      const key = `servingTraffic:${record.name}`;
      // stageOf, not findStage: a folded pod already serving stays packed.
      if (!pod || pod.journey.superseded || stageOf(pod, key)) continue;
      this.upsert(pod, { key, kind: 'servingTraffic', component: 'kube-proxy', title: `Serving traffic for Service ${record.name}` }, step.time, undefined, true);
      this.refresh(pod, step.time);
    }
  }

  /** Keep each traced Service's set of live pods its selector matches (the tracer's own view of `kubectl get pods -l`). */
  private matchServices(type: WatchEvent['type'], pod: KubeObject): void {
    const namespace = read.str(pod.metadata?.namespace) ?? 'default';
    const services = this.servicesByNamespace.get(namespace);
    if (!services) return;
    const name = read.str(pod.metadata?.name) ?? '';
    const labels = pod.metadata?.labels ?? {};
    const phase = read.str(read.record(pod.status)?.phase);
    const live = type !== 'DELETED' && phase !== 'Succeeded' && phase !== 'Failed' && !pod.metadata?.deletionTimestamp;
    for (const service of services) {
      if (service.deleted || service.journey.superseded) continue;
      const selector = service.digest?.kind === 'Service' ? service.digest.service?.selector : undefined;
      const trace = service.service;
      if (!trace) continue;
      const matches = live && selector !== undefined && Object.entries(selector).every(([key, value]) => labels[key] === value);
      const before = trace.selected.has(name);
      if (matches === before) continue;
      if (matches) trace.selected.add(name);
      else {
        trace.selected.delete(name);
        trace.podProblems.delete(name);
      }
      this.refresh(service, this.changeTime);
    }
  }

  /** The live pods the tracer already knows that a new Service's selector matches (pods applied before it). */
  private selectKnownPods(service: ObjectRecord, digest: ObjectDigest): void {
    const selector = digest.kind === 'Service' ? digest.service?.selector : undefined;
    const trace = service.service;
    if (!selector || !trace) return;
    for (const pod of this.byKey.values()) {
      if (pod.kind !== 'Pod' || pod.namespace !== service.namespace || pod.deleted || pod.digest?.kind !== 'Pod') continue;
      const labels = pod.digest.labels ?? {};
      const phase = pod.digest.phase;
      if (phase === 'Succeeded' || phase === 'Failed' || pod.digest.deletionTimestamp) continue;
      if (!Object.entries(selector).every(([key, value]) => labels[key] === value)) continue;
      trace.selected.add(pod.name);
      if (pod.status === 'stuck' || pod.status === 'failed') if (pod.stuck) trace.podProblems.set(pod.name, pod.stuck);
    }
  }

  /** A selected pod's problem is its Services' too (they cannot route to it): keep theirs in step. */
  private tellServices(pod: ObjectRecord): void {
    const services = this.servicesByNamespace.get(pod.namespace);
    if (!services) return;
    const problem = pod.status === 'stuck' || pod.status === 'failed' ? pod.stuck : undefined;
    for (const service of services) {
      const trace = service.service;
      if (!trace || service.deleted || service.journey.superseded) continue;
      const before = trace.podProblems.get(pod.name);
      const now = problem && trace.selected.has(pod.name) && !pod.deleted ? problem : undefined;
      if (before === now) continue;
      if (now) trace.podProblems.set(pod.name, now);
      else trace.podProblems.delete(pod.name);
      this.refresh(service, this.changeTime);
    }
  }

  private flushPending(record: ObjectRecord): void {
    this.attachClaims(record);
    const events = this.pendingEvents.take(record.key);
    if (events) for (const pending of events) this.applyEvent(record, pending.event, pending.placement, pending.receivedAt);
    for (const key of [record.key, record.uid]) {
      const steps = this.pendingInternals.take(key);
      if (steps) for (const step of steps) this.attachInternal(record, step);
    }
    const children = this.pendingObjects.take(record.uid);
    if (children) for (const child of children) this.ingestDigest(child.kind, child.type, child.digest, child.receivedAt);
  }

  // ---- nodes ---------------------------------------------------------------------------------

  private ingestNode(type: WatchEvent['type'], object: KubeObject): void {
    const name = read.str(read.record(object.metadata)?.name);
    if (!name) return;
    const before = this.nodes.get(name);
    if (type === 'DELETED') {
      if (this.nodes.delete(name)) this.nodesVersion++;
      return;
    }
    let ready = false;
    for (const raw of read.list(read.record(object.status)?.conditions)) {
      const c = read.record(raw);
      if (c?.type === 'Ready') ready = c.status === 'True';
    }
    if (before !== ready) {
      this.nodes.set(name, ready);
      this.nodesVersion++;
    }
  }

  // ---- status, tallies, notifications -------------------------------------------------------

  /** Recomputes the object's status and its ancestors', and the journey's derived numbers. */
  private refresh(record: ObjectRecord, now: number): void {
    const journey = record.journey;
    if (record.createdAt !== undefined) this.pinCreation(record);
    let r: ObjectRecord | undefined = record;
    for (; r; r = r.parent) {
      const { status: statusBefore, stuck: stuckBefore, counted: countedBefore } = r;
      const result = statusOf(r);
      r.status = result.status;
      r.stuck = result.stuck;
      if (result.own && (result.status === 'stuck' || result.status === 'failed')) journey.stuckObjects.add(r);
      else journey.stuckObjects.delete(r);
      if (r.kind === 'Pod') this.updatePod(r);
      if (r.status === 'complete' && r.podIndex >= journey.evidenceDetailPods) {
        // A folded pod that changed again is packed again once it settles.
        if (!r.evidenceFolded) foldEvidence(r);
        else if (!r.packed && !r.pendingCycles?.length && !r.pendingAssumptions?.length) packRecord(r);
      }
      r.snapshot = undefined;
      // A pod's owners (workloads) read their pods only through their counts, statuses and
      // problems: when none of these changed, no owner's status did. (Counters are shared
      // objects, equal counts one object; a problem is new each time, so it always goes up.)
      // Services read their EndpointSlices' objects, so only pods stop here.
      if (r.kind === 'Pod' && r.status === statusBefore && r.stuck === undefined && stuckBefore === undefined && r.counted === countedBefore) {
        r = r.parent;
        break;
      }
    }
    for (; r; r = r.parent) r.snapshot = undefined;
    if (record.kind === 'Pod') this.tellServices(record);
    const root = journey.rootRecord;
    if (root && root.status !== 'complete') journey.sawIncomplete = true;
    // A re-applied object that was complete before the apply has not completed *this* journey yet.
    if (root?.status === 'complete' && journey.completedAt === undefined && (journey.sawIncomplete || !root.preexisting)) {
      journey.completedAt = this.completionTime(root, now);
    }
    journey.snapshot = undefined;
    this.changed.add(journey);
  }

  private touch(record: ObjectRecord): void {
    for (let r: ObjectRecord | undefined = record; r; r = r.parent) r.snapshot = undefined;
    record.journey.snapshot = undefined;
    this.changed.add(record.journey);
  }

  private updatePod(pod: ObjectRecord): void {
    const digest = pod.digest?.kind === 'Pod' ? pod.digest : undefined;
    const next = countPod(pod, digest);
    const journey = pod.journey;
    const target: Counters | undefined = pod.parent?.podCounters ?? (pod === journey.rootRecord ? journey.rootPodCounters : undefined);
    if (target) {
      target.live += next.live - pod.counted.live;
      target.scheduled += next.scheduled - pod.counted.scheduled;
      target.running += next.running - pod.counted.running;
      target.ready += next.ready - pod.counted.ready;
      target.stuck += next.stuck - pod.counted.stuck;
      target.terminating += next.terminating - pod.counted.terminating;
      target.deleted += next.deleted - pod.counted.deleted;
      target.restarts += next.restarts - pod.counted.restarts;
    }
    pod.counted = next;
    if (pod.preexisting) return;
    const phases = podPhases(podMarks(pod));
    for (const name of PHASE_NAMES) journey.phaseValues[name][pod.podIndex] = phases[name] ?? NaN;
  }

  private completionTime(root: ObjectRecord, now: number): number {
    const floor = root.journey.appliedAt - PREEXISTING_MARGIN_MS;
    let best: number | undefined;
    const consider = (time: number | undefined): void => {
      if (time !== undefined && time >= floor && (best === undefined || time > best)) best = time;
    };
    if (root.kind === 'Deployment') {
      for (const { stage } of root.stages) {
        if (stage.kind === 'available' || stage.key.startsWith('progressing:NewReplicaSetAvailable:')) consider(stage.time);
      }
    } else if (root.kind === 'Pod') {
      consider(stageOf(root, 'ready')?.time ?? stageOf(root, 'succeeded')?.time);
    } else if (root.kind === 'Job' || root.kind === 'CronJob') {
      consider(stageOf(root, 'complete')?.time);
    } else if (root.kind === 'StatefulSet' || root.kind === 'DaemonSet') {
      for (const { stage } of root.stages) if (stage.kind === 'available') consider(stage.time);
    } else {
      for (const pod of root.children) consider(stageOf(pod, 'ready')?.time);
    }
    return best ?? now;
  }

  private notify(): void {
    if (this.changed.size === 0) return;
    const changed = this.changed.size === 1 ? [this.changed.values().next().value as JourneyRecord] : [...this.changed];
    this.changed.clear();
    for (const journey of changed) {
      journey.version++;
      if (this.changeTime > journey.lastChangeAt) journey.lastChangeAt = this.changeTime;
      journey.snapshot = undefined;
      if (this.listeners.length === 0) continue;
      const change: JourneyChange = { journeyId: journey.id, version: journey.version };
      for (const listener of this.listeners.slice()) listener(change);
    }
  }

  private build(journey: JourneyRecord): Journey {
    if (journey.nodesVersion !== this.nodesVersion) {
      journey.nodesVersion = this.nodesVersion;
      journey.snapshot = undefined;
      for (const pod of journey.pods) for (let r: ObjectRecord | undefined = pod; r; r = r.parent) r.snapshot = undefined;
    }
    return journeySnapshot(journey, this.snapshotContext);
  }

  // ---- re-apply and late begin ----------------------------------------------------------------

  /** A re-apply: the older journey stops changing and the objects it followed move to the new one. */
  private takeOver(previous: JourneyRecord, journey: JourneyRecord): void {
    previous.superseded = true;
    const root = previous.rootRecord;
    if (!root) return;
    const all: ObjectRecord[] = [];
    const collect = (r: ObjectRecord): void => {
      all.push(r);
      for (const child of r.children) collect(child);
    };
    collect(root);
    for (const r of all) {
      if (this.byUid.get(r.uid) === r) this.byUid.delete(r.uid);
      if (this.byKey.get(r.key) === r) this.byKey.delete(r.key);
    }
    if (root.deleted) return;
    journey.root.uid = root.uid;
    for (const r of all) {
      if (r.deleted || !r.digest) continue;
      this.seed(r.kind, r.digest, journey);
    }
    // What was seen of a Service beyond its object (selected pods, kube-proxy's last sync) is not in its digest: carry it.
    const next = journey.rootRecord;
    if (root.service && next?.service) {
      next.service = { ...root.service, selected: new Set(root.service.selected), podProblems: new Map(root.service.podProblems) };
      this.refresh(next, journey.appliedAt);
    }
  }

  private seedFromUntraced(journey: JourneyRecord, key: string): void {
    const root = this.untraced.get(key);
    if (!root) return;
    this.seed(root.kind, root.digest, journey, root.receivedAt);
    if (root.kind !== 'Deployment') return;
    for (const entry of [...this.untraced.values()]) {
      if (entry.kind === 'ReplicaSet' && entry.digest.owner?.uid === root.digest.uid) this.seed(entry.kind, entry.digest, journey, entry.receivedAt);
    }
  }

  private seed(kind: TraceableKind, digest: ObjectDigest, journey: JourneyRecord, receivedAt = journey.appliedAt): void {
    const record = this.adopt(kind, 'ADDED', digest, receivedAt);
    if (!record || record.journey !== journey) return;
    this.apply(record, 'ADDED', digest, receivedAt);
  }
}
