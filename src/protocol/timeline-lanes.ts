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
import type { Journey, ObjectJourney, Stage, StageEvidence, StageKind, TimeSource } from '../core/journey/types';
import { isJsonObject } from '../common/json';
import { isTraceableKind } from '../common/traceable-kinds';

/** The journey without its tree: what the header and summaries read. */
export type JourneyHeader = Omit<Journey, 'tree'>;

/** An object of the journey without its stages and children. */
export interface LaneHeader extends Omit<ObjectJourney, 'stages' | 'children'> {
  /** `journeyObjectKey` of the owner; absent for the journey's root. */
  readonly parent?: string;
  /**
   * `journeyObjectKey`s of its children in order. Always present in a snapshot; in a delta only
   * when the children changed (one was added or removed), else the webview keeps the list it has.
   */
  readonly children?: readonly string[];
  /** Its stages carry evidence and verbatim messages. */
  readonly detailed?: true;
}

/** Stage fields stored as indices into `EncodedLanes.strings` (-1: absent), in stride order. */
export const STAGE_STRING_FIELDS = ['key', 'kind', 'timeSource', 'component', 'title', 'reason', 'container', 'message', 'assumed'] as const;
type StageStringField = (typeof STAGE_STRING_FIELDS)[number];
const STRIDE = STAGE_STRING_FIELDS.length;
const FIELD = Object.fromEntries(STAGE_STRING_FIELDS.map((name, i) => [name, i])) as Record<StageStringField, number>;

/** Objects and their stages, as columns. Stages of object `i` are `[stageStart[i], stageStart[i + 1])`. */
export interface EncodedLanes {
  readonly headers: readonly LaneHeader[];
  readonly strings: readonly string[];
  /** `headers.length + 1` offsets into the stage columns. */
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
  const headers: LaneHeader[] = [];
  let s = 0;
  lanes.forEach((lane, i) => {
    stageStart[i] = s;
    const { stages: _stages, children: _children, ...rest } = lane.object;
    const header: LaneHeader = { ...rest, ...(lane.parent !== undefined ? { parent: lane.parent } : {}), ...(lane.children ? { children: lane.children } : {}), ...(lane.detailed ? { detailed: true as const } : {}) };
    headers.push(header);
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
  return { headers, strings, stageStart, stageStrings, time, lastTime, count, warning, ...(evidence ? { evidence } : {}) };
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

function isLaneHeader(value: unknown): value is LaneHeader {
  if (!isJsonObject(value)) return false;
  const ref = value.ref;
  return (
    isJsonObject(ref) &&
    isTraceableKind(ref.kind) &&
    typeof ref.namespace === 'string' &&
    typeof ref.name === 'string' &&
    typeof value.status === 'string' &&
    (value.parent === undefined || typeof value.parent === 'string') &&
    (value.children === undefined || (Array.isArray(value.children) && value.children.every((c) => typeof c === 'string'))) &&
    (value.detailed === undefined || value.detailed === true)
  );
}

export function isEncodedLanes(value: unknown): value is EncodedLanes {
  if (!isJsonObject(value)) return false;
  const { headers, strings, stageStart, stageStrings, time, lastTime, count, warning, evidence } = value;
  if (!Array.isArray(headers) || !headers.every(isLaneHeader)) return false;
  if (!Array.isArray(strings) || !strings.every((s) => typeof s === 'string')) return false;
  if (!(stageStart instanceof Int32Array) || stageStart.length !== headers.length + 1 || stageStart[0] !== 0) return false;
  for (let i = 1; i < stageStart.length; i++) if (stageStart[i] < stageStart[i - 1]) return false;
  const stages = stageStart[headers.length];
  if (!(time instanceof Float64Array) || time.length !== stages) return false;
  if (!(lastTime instanceof Float64Array) || lastTime.length !== stages) return false;
  if (!(count instanceof Int32Array) || count.length !== stages) return false;
  if (!(warning instanceof Uint8Array) || warning.length !== stages) return false;
  if (!(stageStrings instanceof Int32Array) || stageStrings.length !== stages * STRIDE) return false;
  for (let i = 0; i < stageStrings.length; i++) {
    const at = stageStrings[i];
    if (at < -1 || at >= strings.length) return false;
  }
  // Every stage has a key, a kind, a time source, a component and a title.
  for (let s = 0; s < stages; s++) {
    for (const field of [FIELD.key, FIELD.kind, FIELD.timeSource, FIELD.component, FIELD.title]) if (stageStrings[s * STRIDE + field] < 0) return false;
  }
  return evidence === undefined || (Array.isArray(evidence) && evidence.length === stages && evidence.every((e) => e === null || isJsonObject(e)));
}
