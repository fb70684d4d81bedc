/**
 * The compact form in which lanes (objects of a journey with their stages) cross the timeline
 * protocol and stay in the webview: one header per object (the object without its stages and
 * children) and the stages of all objects as columns — typed arrays of times and indices into one
 * string table — instead of one nested Stage object per stage. A 10,000-pod journey is about
 * 120,000 stages: as columns they are a few typed arrays that `postMessage` copies as blocks and
 * the webview keeps as they came.
 *
 * Evidence and verbatim messages travel only for objects marked `detailed` (see
 * `SnapshotOptions.detailedPods`); the webview asks for any other object's with
 * `requestObjectDetail`. Pure: no `vscode`, no DOM.
 */
import type {
  EndpointDetails,
  Journey,
  JourneyObjectRef,
  JourneyStatus,
  ObjectJourney,
  PodDetails,
  PodPhaseMarks,
  ReplicaDetails,
  ServiceDetails,
  Stage,
  StageEvidence,
  StageKind,
  StuckDetail,
  TimeSource,
  TraceableKind,
} from '../core/journey/types';
import { isJsonObject } from '../common/json';
import { isTraceableKind } from '../common/traceable-kinds';

/** The journey without its tree: what the header and summaries read. */
export type JourneyHeader = Omit<Journey, 'tree'>;

/** What an object carries besides its columns: its owner's details, its problem, its children. */
export interface LaneExtras {
  /** Pods sent `detailed` only: every pod detail (lean pods have node, phase, counts and marks as columns). */
  readonly pod?: PodDetails;
  readonly stuck?: StuckDetail;
  readonly replicas?: ReplicaDetails;
  readonly service?: ServiceDetails;
  readonly endpoints?: EndpointDetails[];
  /**
   * `journeyObjectKey`s of its children in order. Always present for an owner in a snapshot; in a
   * delta only when the children changed (one was added or removed).
   */
  readonly children?: readonly string[];
}

/** An object of the journey without its stages and children, as decoded from the columns. */
export interface LaneHeader {
  readonly key: string;
  readonly fields: Omit<ObjectJourney, 'stages' | 'children'>;
  /** `journeyObjectKey` of the owner; absent for the journey's root. */
  readonly parent?: string;
  readonly children?: readonly string[];
  /** Its stages carry evidence and verbatim messages, and its pod details are complete. */
  readonly detailed: boolean;
}

/** Object fields stored as indices into `EncodedLanes.strings` (-1: absent), in stride order. */
const OBJECT_STRING_FIELDS = ['kind', 'namespace', 'name', 'uid', 'status', 'parent', 'node', 'phase'] as const;
/** Object fields stored as numbers (NaN: absent), in stride order. */
const OBJECT_NUMBER_FIELDS = ['createdAt', 'deletedAt', 'created', 'scheduled', 'running', 'watched', 'ready', 'readyContainers', 'totalContainers', 'restarts', 'nodeReady'] as const;
const OBJECT_STRIDE = OBJECT_STRING_FIELDS.length;
const NUMBER_STRIDE = OBJECT_NUMBER_FIELDS.length;
const OS = Object.fromEntries(OBJECT_STRING_FIELDS.map((name, i) => [name, i])) as Record<(typeof OBJECT_STRING_FIELDS)[number], number>;
const ON = Object.fromEntries(OBJECT_NUMBER_FIELDS.map((name, i) => [name, i])) as Record<(typeof OBJECT_NUMBER_FIELDS)[number], number>;
const PREEXISTING = 1;
const DETAILED = 2;
const HAS_POD = 4;

/** Stage fields stored as indices into `EncodedLanes.strings` (-1: absent), in stride order. */
export const STAGE_STRING_FIELDS = ['key', 'kind', 'timeSource', 'component', 'title', 'reason', 'container', 'message', 'assumed'] as const;
type StageStringField = (typeof STAGE_STRING_FIELDS)[number];
const STRIDE = STAGE_STRING_FIELDS.length;
const FIELD = Object.fromEntries(STAGE_STRING_FIELDS.map((name, i) => [name, i])) as Record<StageStringField, number>;

/**
 * Objects and their stages, as columns. Object `i`'s fields are at `i * stride` of the object
 * columns, its stages are `[stageStart[i], stageStart[i + 1])` of the stage columns.
 */
export interface EncodedLanes {
  readonly strings: readonly string[];
  /** Per object, `OBJECT_STRING_FIELDS.length` indices. */
  readonly objectStrings: Int32Array;
  /** Per object, `OBJECT_NUMBER_FIELDS.length` numbers. */
  readonly objectNumbers: Float64Array;
  /** Per object: 1 preexisting, 2 detailed, 4 has pod details. */
  readonly objectFlags: Uint8Array;
  /** Per object, what the columns do not hold; null for a lean pod (most of them). */
  readonly extras: readonly (LaneExtras | null)[];
  /** `objects + 1` offsets into the stage columns. */
  readonly stageStart: Int32Array;
  /** `STAGE_STRING_FIELDS.length` indices per stage. */
  readonly stageStrings: Int32Array;
  readonly time: Float64Array;
  /** NaN when the stage did not repeat. */
  readonly lastTime: Float64Array;
  /** 0 when the stage did not repeat. */
  readonly count: Int32Array;
  readonly warning: Uint8Array;
  /** Per stage, its evidence for the stages of detailed objects, null for the others; absent when no object is detailed. */
  readonly evidence?: readonly (StageEvidence | null)[];
}

/** How many objects the columns hold. */
export function objectCount(lanes: EncodedLanes): number {
  return lanes.objectFlags.length;
}

export interface LaneToEncode {
  readonly object: ObjectJourney;
  readonly parent?: string;
  /** Children keys to send (see `LaneHeader.children`). */
  readonly children?: readonly string[];
  readonly detailed: boolean;
}

/** Encodes objects (in the order given) and their stages. */
export function encodeLanes(lanes: readonly LaneToEncode[]): EncodedLanes {
  const strings: string[] = [];
  const index = new Map<string, number>();
  const intern = (value: string | undefined): number => {
    if (value === undefined) return -1;
    let i = index.get(value);
    if (i === undefined) {
      i = strings.length;
      strings.push(value);
      index.set(value, i);
    }
    return i;
  };
  let stageTotal = 0;
  for (const lane of lanes) stageTotal += lane.object.stages.length;
  const stageStart = new Int32Array(lanes.length + 1);
  const stageStrings = new Int32Array(stageTotal * STRIDE);
  const time = new Float64Array(stageTotal);
  const lastTime = new Float64Array(stageTotal);
  const count = new Int32Array(stageTotal);
  const warning = new Uint8Array(stageTotal);
  const anyDetailed = lanes.some((lane) => lane.detailed);
  const evidence: (StageEvidence | null)[] | undefined = anyDetailed ? new Array<StageEvidence | null>(stageTotal).fill(null) : undefined;
  const n = lanes.length;
  const objectStrings = new Int32Array(n * OBJECT_STRIDE);
  const objectNumbers = new Float64Array(n * NUMBER_STRIDE).fill(Number.NaN);
  const objectFlags = new Uint8Array(n);
  const extras: (LaneExtras | null)[] = [];
  let s = 0;
  lanes.forEach((lane, i) => {
    stageStart[i] = s;
    const o = lane.object;
    const at = i * OBJECT_STRIDE;
    objectStrings[at + OS.kind] = intern(o.ref.kind);
    objectStrings[at + OS.namespace] = intern(o.ref.namespace);
    objectStrings[at + OS.name] = intern(o.ref.name);
    objectStrings[at + OS.uid] = intern(o.ref.uid);
    objectStrings[at + OS.status] = intern(o.status);
    objectStrings[at + OS.parent] = intern(lane.parent);
    objectStrings[at + OS.node] = intern(o.pod?.node);
    objectStrings[at + OS.phase] = intern(o.pod?.phase);
    const num = i * NUMBER_STRIDE;
    const put = (field: (typeof OBJECT_NUMBER_FIELDS)[number], value: number | undefined): void => {
      if (value !== undefined) objectNumbers[num + ON[field]] = value;
    };
    put('createdAt', o.createdAt);
    put('deletedAt', o.deletedAt);
    if (o.pod) {
      const marks = o.pod.marks;
      put('created', marks.created);
      put('scheduled', marks.scheduled);
      put('running', marks.running);
      put('watched', marks.watched);
      put('ready', marks.ready);
      put('readyContainers', o.pod.readyContainers);
      put('totalContainers', o.pod.totalContainers);
      put('restarts', o.pod.restarts);
      put('nodeReady', o.pod.nodeReady === undefined ? undefined : o.pod.nodeReady ? 1 : 0);
    }
    objectFlags[i] = (o.preexisting ? PREEXISTING : 0) | (lane.detailed ? DETAILED : 0) | (o.pod ? HAS_POD : 0);
    const extra: { -readonly [K in keyof LaneExtras]: LaneExtras[K] } = {};
    if (o.pod && lane.detailed) extra.pod = o.pod;
    if (o.stuck) extra.stuck = o.stuck;
    if (o.replicas) extra.replicas = o.replicas;
    if (o.service) extra.service = o.service;
    if (o.endpoints) extra.endpoints = o.endpoints;
    // Pods own nothing: an empty list is left out for them (most objects), never for an owner.
    if (lane.children && (lane.children.length > 0 || o.ref.kind !== 'Pod')) extra.children = lane.children;
    extras.push(Object.keys(extra).length > 0 ? extra : null);
    for (const stage of lane.object.stages) {
      const at = s * STRIDE;
      stageStrings[at + FIELD.key] = intern(stage.key);
      stageStrings[at + FIELD.kind] = intern(stage.kind);
      stageStrings[at + FIELD.timeSource] = intern(stage.timeSource);
      stageStrings[at + FIELD.component] = intern(stage.component);
      stageStrings[at + FIELD.title] = intern(stage.title);
      stageStrings[at + FIELD.reason] = intern(stage.reason);
      stageStrings[at + FIELD.container] = intern(stage.container);
      stageStrings[at + FIELD.message] = lane.detailed ? intern(stage.message) : -1;
      stageStrings[at + FIELD.assumed] = intern(stage.assumed);
      time[s] = stage.time;
      lastTime[s] = stage.lastTime ?? Number.NaN;
      count[s] = stage.count ?? 0;
      warning[s] = stage.warning ? 1 : 0;
      if (evidence && lane.detailed) evidence[s] = stage.evidence;
      s++;
    }
  });
  stageStart[lanes.length] = s;
  return { strings, objectStrings, objectNumbers, objectFlags, extras, stageStart, stageStrings, time, lastTime, count, warning, ...(evidence ? { evidence } : {}) };
}

/** Object `index`: its fields (a lean pod gets node, phase, counts and marks; the rest comes with its detail), owner and children. */
export function decodeHeader(lanes: EncodedLanes, index: number): LaneHeader {
  const at = index * OBJECT_STRIDE;
  const text = (field: (typeof OBJECT_STRING_FIELDS)[number]): string | undefined => {
    const i = lanes.objectStrings[at + OS[field]];
    return i < 0 ? undefined : lanes.strings[i];
  };
  const num = index * NUMBER_STRIDE;
  const number = (field: (typeof OBJECT_NUMBER_FIELDS)[number]): number | undefined => {
    const value = lanes.objectNumbers[num + ON[field]];
    return Number.isNaN(value) ? undefined : value;
  };
  const ref: JourneyObjectRef = { kind: text('kind') as TraceableKind, namespace: text('namespace') ?? '', name: text('name') ?? '' };
  const uid = text('uid');
  if (uid !== undefined) ref.uid = uid;
  const fields: Omit<ObjectJourney, 'stages' | 'children'> = { ref, status: text('status') as JourneyStatus };
  const flags = lanes.objectFlags[index];
  const extra = lanes.extras[index];
  if (extra?.stuck) fields.stuck = extra.stuck;
  const createdAt = number('createdAt');
  if (createdAt !== undefined) fields.createdAt = createdAt;
  const deletedAt = number('deletedAt');
  if (deletedAt !== undefined) fields.deletedAt = deletedAt;
  if (flags & PREEXISTING) fields.preexisting = true;
  if (extra?.pod) fields.pod = extra.pod;
  else if (flags & HAS_POD) {
    const marks: PodPhaseMarks = {};
    for (const mark of ['created', 'scheduled', 'running', 'watched', 'ready'] as const) {
      const value = number(mark);
      if (value !== undefined) marks[mark] = value;
    }
    const pod: PodDetails = { readyContainers: number('readyContainers') ?? 0, totalContainers: number('totalContainers') ?? 0, restarts: number('restarts') ?? 0, containers: [], marks, phases: {} };
    const node = text('node');
    if (node !== undefined) pod.node = node;
    const nodeReady = number('nodeReady');
    if (nodeReady !== undefined) pod.nodeReady = nodeReady === 1;
    const phase = text('phase');
    if (phase !== undefined) pod.phase = phase;
    fields.pod = pod;
  }
  if (extra?.replicas) fields.replicas = extra.replicas;
  if (extra?.service) fields.service = extra.service;
  if (extra?.endpoints) fields.endpoints = extra.endpoints;
  const parent = text('parent');
  return {
    key: `${ref.kind}/${ref.namespace}/${ref.name}`,
    fields,
    ...(parent !== undefined ? { parent } : {}),
    ...(extra?.children ? { children: extra.children } : {}),
    detailed: (flags & DETAILED) !== 0,
  };
}

/** The stages of object `index`, as Stage objects (evidence empty unless the object is detailed). */
export function decodeStages(lanes: EncodedLanes, index: number): Stage[] {
  const stages: Stage[] = [];
  const text = (s: number, field: StageStringField): string | undefined => {
    const i = lanes.stageStrings[s * STRIDE + FIELD[field]];
    return i < 0 ? undefined : lanes.strings[i];
  };
  for (let s = lanes.stageStart[index]; s < lanes.stageStart[index + 1]; s++) {
    const stage: Stage = {
      key: text(s, 'key') ?? '',
      kind: text(s, 'kind') as StageKind,
      time: lanes.time[s],
      timeSource: text(s, 'timeSource') as TimeSource,
      component: text(s, 'component') ?? '',
      title: text(s, 'title') ?? '',
      evidence: lanes.evidence?.[s] ?? {},
    };
    const message = text(s, 'message');
    if (message !== undefined) stage.message = message;
    const reason = text(s, 'reason');
    if (reason !== undefined) stage.reason = reason;
    const container = text(s, 'container');
    if (container !== undefined) stage.container = container;
    if (lanes.warning[s]) stage.warning = true;
    if (lanes.count[s] > 0) stage.count = lanes.count[s];
    if (!Number.isNaN(lanes.lastTime[s])) stage.lastTime = lanes.lastTime[s];
    const assumed = text(s, 'assumed');
    if (assumed !== undefined) stage.assumed = assumed;
    stages.push(stage);
  }
  return stages;
}

/** How many stages object `index` has. */
export function stageCount(lanes: EncodedLanes, index: number): number {
  return lanes.stageStart[index + 1] - lanes.stageStart[index];
}

/** The kind of stage `s` (an index into the stage columns). */
export function stageKindAt(lanes: EncodedLanes, s: number): StageKind {
  return lanes.strings[lanes.stageStrings[s * STRIDE + FIELD.kind]] as StageKind;
}

// ---------------------------------------------------------------------------------------------
// Guard: the columns must agree in length and every index must name a string, so that decoding
// a malformed message fails here, not while drawing.

function isLaneExtras(value: unknown): value is LaneExtras | null {
  if (value === null) return true;
  if (!isJsonObject(value)) return false;
  return value.children === undefined || (Array.isArray(value.children) && value.children.every((c) => typeof c === 'string'));
}

function indicesInRange(indices: Int32Array, strings: number): boolean {
  for (let i = 0; i < indices.length; i++) if (indices[i] < -1 || indices[i] >= strings) return false;
  return true;
}

export function isEncodedLanes(value: unknown): value is EncodedLanes {
  if (!isJsonObject(value)) return false;
  const { strings, objectStrings, objectNumbers, objectFlags, extras, stageStart, stageStrings, time, lastTime, count, warning, evidence } = value;
  if (!Array.isArray(strings) || !strings.every((s) => typeof s === 'string')) return false;
  if (!(objectFlags instanceof Uint8Array)) return false;
  const objects = objectFlags.length;
  if (!(objectStrings instanceof Int32Array) || objectStrings.length !== objects * OBJECT_STRIDE || !indicesInRange(objectStrings, strings.length)) return false;
  if (!(objectNumbers instanceof Float64Array) || objectNumbers.length !== objects * NUMBER_STRIDE) return false;
  if (!Array.isArray(extras) || extras.length !== objects || !extras.every(isLaneExtras)) return false;
  for (let i = 0; i < objects; i++) {
    const kind = objectStrings[i * OBJECT_STRIDE + OS.kind];
    if (kind < 0 || !isTraceableKind(strings[kind])) return false;
    for (const field of [OS.namespace, OS.name, OS.status]) if (objectStrings[i * OBJECT_STRIDE + field] < 0) return false;
  }
  if (!(stageStart instanceof Int32Array) || stageStart.length !== objects + 1 || stageStart[0] !== 0) return false;
  for (let i = 1; i < stageStart.length; i++) if (stageStart[i] < stageStart[i - 1]) return false;
  const stages = stageStart[objects];
  if (!(time instanceof Float64Array) || time.length !== stages) return false;
  if (!(lastTime instanceof Float64Array) || lastTime.length !== stages) return false;
  if (!(count instanceof Int32Array) || count.length !== stages) return false;
  if (!(warning instanceof Uint8Array) || warning.length !== stages) return false;
  if (!(stageStrings instanceof Int32Array) || stageStrings.length !== stages * STRIDE || !indicesInRange(stageStrings, strings.length)) return false;
  // Every stage has a key, a kind, a time source, a component and a title.
  for (let s = 0; s < stages; s++) {
    for (const field of [FIELD.key, FIELD.kind, FIELD.timeSource, FIELD.component, FIELD.title]) if (stageStrings[s * STRIDE + field] < 0) return false;
  }
  return evidence === undefined || (Array.isArray(evidence) && evidence.length === stages && evidence.every((e) => e === null || isJsonObject(e)));
}
