/**
 * The one message protocol between the extension host and the journey timeline webview.
 *
 * Why snapshots: a hidden panel may miss any number of messages, and the journey model is plain
 * immutable data, so the host always sends the whole current state of the journeys it shows (no
 * deltas); the webview redraws from the latest snapshot it has. The host must wait for `ready`
 * before posting and queue (keep only the latest snapshot) until then. Snapshots of a 10,000-pod
 * journey are several megabytes: post at most a few per second (coalesce on `Journey.version`).
 *
 * Requests carry a `requestId`; the host answers each with exactly one `requestResult`.
 * Both sides switch exhaustively on `type`. Pure types plus guards: no `vscode`, no DOM.
 */
import type { Journey, JourneyObjectRef, ObjectJourney, Stage } from '../core/journey/types';
import { isTraceableKind } from '../common/traceable-kinds';
import { isJsonObject } from '../common/json';

/** Bumped when a message changes shape; the webview reports the version it speaks in `ready`. */
export const TIMELINE_PROTOCOL_VERSION = 1;

/** The view (webview) type id the host registers the panel and its serializer under. */
export const TIMELINE_VIEW_TYPE = 'kubeJourney.timeline';

/** `Kind/namespace/name`: how both sides name an object of a journey (stable before its uid is known). */
export function journeyObjectKey(ref: JourneyObjectRef): string {
  return `${ref.kind}/${ref.namespace}/${ref.name}`;
}

/** A stage of one object in one journey (`Stage.key` is stable within its object). */
export interface StageRef {
  readonly journeyId: string;
  readonly object: JourneyObjectRef;
  /** `Stage.key`; absent when the whole object (its lane) is meant. */
  readonly stageKey?: string;
}

/** Which of the panel's two views is showing. */
export type TimelineViewMode = 'lanes' | 'controlPlane';

/** How the lanes' time axis maps time to pixels. */
export type TimeScaleMode = 'linear' | 'log';

/**
 * What the webview stores with `setState` (and what `WebviewPanelSerializer.deserializeWebviewPanel`
 * receives as `state` after a reload). The host only needs `journeyId`: which journey to show
 * again; read it with `persistedJourneyId`.
 */
export interface TimelineViewState {
  /** Bumped when this shape changes; a state of another version is ignored. */
  readonly version: 1;
  readonly journeyId?: string;
  readonly view: TimelineViewMode;
  readonly scale: TimeScaleMode;
  /** Selected stage (or lane, without `stageKey`). */
  readonly selection?: StageRef;
  /** Lanes: vertical scroll offset, px. */
  readonly scrollTop: number;
  /** Lanes: visible time window from the apply, ms; absent means "fit the whole journey". */
  readonly window?: { readonly startMs: number; readonly endMs: number };
  /** Large journeys: show every pod instead of the simplified list. */
  readonly showAllPods: boolean;
  /** Control-plane view: the pod whose path is stepped through, by `objectKey`. */
  readonly controlPlanePod?: string;
  /** Control-plane view: index of the current step. */
  readonly controlPlaneStep: number;
}

// ---------------------------------------------------------------------------------------------
// Host → webview

/** The full current state of the journeys the panel shows. Replaces everything sent before. */
export interface SnapshotMessage {
  readonly type: 'snapshot';
  /** Journeys in the order the picker lists them; usually one. */
  readonly journeys: readonly Journey[];
  /**
   * The journey to show when the webview has no selection of its own yet (or its selected journey
   * is not in `journeys`); absent means the first.
   */
  readonly focusJourneyId?: string;
  /** Where the journeys come from, shown in the header: `built-in simulator`, a context name… */
  readonly source?: string;
  /**
   * Now on the journeys' clock, ms since the epoch: the simulator's virtual time, or the host's
   * `Date.now()` for a real cluster. Lines of objects that have not finished (stuck, progressing)
   * run up to it. Absent means each journey's `lastChangeAt`. While a journey is stuck nothing
   * changes, so the host may resend the snapshot now and then with a later `now`.
   */
  readonly now?: number;
  /**
   * Set when large journeys were compacted (see `buildSnapshot`): only the objects listed keep
   * their stages' evidence and messages; the webview asks for any other with `requestObjectDetail`.
   */
  readonly compacted?: CompactionInfo;
}

export interface CompactionInfo {
  /** `journeyObjectKey`s of the objects sent in full, all journeys together. */
  readonly detailed: readonly string[];
}

/** Select a stage (or an object's lane) and scroll it into view, e.g. from the explorer tree. */
export interface RevealMessage {
  readonly type: 'reveal';
  readonly target: StageRef;
  /** Also switch to this view. */
  readonly view?: TimelineViewMode;
}

/** The answer to one webview request. */
export type RequestResultMessage =
  | { readonly type: 'requestResult'; readonly requestId: number; readonly ok: true }
  | {
      readonly type: 'requestResult';
      readonly requestId: number;
      readonly ok: false;
      /** Shown to the user as is. */
      readonly error: string;
    };

/** The answer to `requestObjectDetail`: the object's full journey (without its children). */
export interface ObjectDetailMessage {
  readonly type: 'objectDetail';
  readonly requestId: number;
  readonly journeyId: string;
  /** `Journey.version` the object was read at. */
  readonly version: number;
  readonly object: ObjectJourney;
}

export type HostToWebviewMessage = SnapshotMessage | RevealMessage | RequestResultMessage | ObjectDetailMessage;

// ---------------------------------------------------------------------------------------------
// Webview → host

/** The webview is listening; the host may now post (and should post a snapshot right away). */
export interface ReadyMessage {
  readonly type: 'ready';
  readonly protocolVersion: number;
}

/** The user selected a stage or a lane (or cleared the selection), e.g. to sync the tree. */
export interface SelectionChangedMessage {
  readonly type: 'selectionChanged';
  readonly selection?: StageRef;
}

/**
 * Request: open the object's YAML as it was at `time` (the stage's time), read-only. The host
 * answers with `requestResult` (an error when that version is no longer known).
 */
export interface OpenObjectYamlRequest {
  readonly type: 'openObjectYaml';
  readonly requestId: number;
  readonly journeyId: string;
  readonly object: JourneyObjectRef;
  /** Ms since the epoch; absent means the latest version. */
  readonly time?: number;
}

/** Request: reveal the object in the Kube Journey explorer tree. */
export interface RevealInTreeRequest {
  readonly type: 'revealInTree';
  readonly requestId: number;
  readonly journeyId: string;
  readonly object: JourneyObjectRef;
}

/**
 * Request: the full journey of one object that a compacted snapshot sent without evidence. The
 * host answers with `objectDetail` (or `requestResult` with an error).
 */
export interface RequestObjectDetail {
  readonly type: 'requestObjectDetail';
  readonly requestId: number;
  readonly journeyId: string;
  readonly object: JourneyObjectRef;
}

/** Something went wrong in the webview; the host logs it to its output channel. */
export interface WebviewErrorMessage {
  readonly type: 'webviewError';
  readonly message: string;
}

export type WebviewToHostMessage = ReadyMessage | SelectionChangedMessage | OpenObjectYamlRequest | RevealInTreeRequest | RequestObjectDetail | WebviewErrorMessage;

/** Webview requests answered with a `requestResult`. (`requestObjectDetail` is answered with `objectDetail`: see `answerObjectDetail`.) */
export type WebviewRequest = OpenObjectYamlRequest | RevealInTreeRequest;

// ---------------------------------------------------------------------------------------------
// Guards: messages cross a process boundary, so each side checks the shape before switching.

type Fields = Record<string, unknown>;

const isRecord = (value: unknown): value is Fields => isJsonObject(value);

export function isJourneyObjectRef(value: unknown): value is JourneyObjectRef {
  return (
    isRecord(value) &&
    isTraceableKind(value.kind) &&
    typeof value.namespace === 'string' &&
    typeof value.name === 'string' &&
    (value.uid === undefined || typeof value.uid === 'string')
  );
}

export function isStageRef(value: unknown): value is StageRef {
  return isRecord(value) && typeof value.journeyId === 'string' && isJourneyObjectRef(value.object) && (value.stageKey === undefined || typeof value.stageKey === 'string');
}

function isRequestId(value: unknown): value is number {
  return typeof value === 'number' && Number.isSafeInteger(value);
}

/** Checks a message from the webview before the host acts on it. */
export function isWebviewToHostMessage(value: unknown): value is WebviewToHostMessage {
  if (!isRecord(value) || typeof value.type !== 'string') return false;
  const type = value.type as WebviewToHostMessage['type'];
  switch (type) {
    case 'ready':
      return typeof value.protocolVersion === 'number';
    case 'selectionChanged':
      return value.selection === undefined || isStageRef(value.selection);
    case 'openObjectYaml':
      return isRequestId(value.requestId) && typeof value.journeyId === 'string' && isJourneyObjectRef(value.object) && (value.time === undefined || typeof value.time === 'number');
    case 'revealInTree':
    case 'requestObjectDetail':
      return isRequestId(value.requestId) && typeof value.journeyId === 'string' && isJourneyObjectRef(value.object);
    case 'webviewError':
      return typeof value.message === 'string';
    default: {
      // Unknown types arrive at run time; `never` makes a forgotten case a compile error.
      const _unhandled: never = type;
      return false;
    }
  }
}

/**
 * Checks a message from the host before the webview acts on it. Journeys are trusted to have the
 * model's shape (the host builds them); only the envelope is checked.
 */
export function isHostToWebviewMessage(value: unknown): value is HostToWebviewMessage {
  if (!isRecord(value) || typeof value.type !== 'string') return false;
  const type = value.type as HostToWebviewMessage['type'];
  switch (type) {
    case 'snapshot':
      return (
        Array.isArray(value.journeys) &&
        value.journeys.every((j) => isRecord(j) && typeof j.id === 'string') &&
        (value.focusJourneyId === undefined || typeof value.focusJourneyId === 'string') &&
        (value.source === undefined || typeof value.source === 'string') &&
        (value.now === undefined || (typeof value.now === 'number' && Number.isFinite(value.now))) &&
        (value.compacted === undefined || (isRecord(value.compacted) && Array.isArray(value.compacted.detailed)))
      );
    case 'reveal':
      return isStageRef(value.target) && (value.view === undefined || value.view === 'lanes' || value.view === 'controlPlane');
    case 'requestResult':
      return isRequestId(value.requestId) && (value.ok === true || (value.ok === false && typeof value.error === 'string'));
    case 'objectDetail':
      return isRequestId(value.requestId) && typeof value.journeyId === 'string' && typeof value.version === 'number' && isRecord(value.object) && isJourneyObjectRef(value.object.ref);
    default: {
      // Unknown types arrive at run time; `never` makes a forgotten case a compile error.
      const _unhandled: never = type;
      return false;
    }
  }
}

/** The journey id a restored panel showed, from the state the serializer hands back (any shape). */
export function persistedJourneyId(state: unknown): string | undefined {
  if (!isRecord(state) || state.version !== 1) return undefined;
  return typeof state.journeyId === 'string' ? state.journeyId : undefined;
}

// ---------------------------------------------------------------------------------------------
// Building snapshots

export interface SnapshotOptions {
  readonly focusJourneyId?: string;
  readonly source?: string;
  readonly now?: number;
  /** Journeys with more pods than this are compacted (default 1,000). */
  readonly compactAbovePods?: number;
  /** Pods per parent that keep their evidence when compacting, in creation order (default 50). */
  readonly detailedPods?: number;
  /** Objects that keep their evidence whatever happens, by `journeyObjectKey` (the webview's selection). */
  readonly keep?: ReadonlySet<string>;
}

/** A stage without its evidence and verbatim message: what the lanes need to draw it. */
function compactStage(stage: Stage): Stage {
  const compact: Stage = { key: stage.key, kind: stage.kind, time: stage.time, timeSource: stage.timeSource, component: stage.component, title: stage.title, evidence: {} };
  if (stage.reason !== undefined) compact.reason = stage.reason;
  if (stage.container !== undefined) compact.container = stage.container;
  if (stage.warning) compact.warning = true;
  if (stage.count !== undefined) compact.count = stage.count;
  if (stage.lastTime !== undefined) compact.lastTime = stage.lastTime;
  return compact;
}

function podCount(node: ObjectJourney): number {
  return node.ref.kind === 'Pod' ? 1 : node.children.reduce((n, child) => n + podCount(child), 0);
}

/**
 * The snapshot message for `journeys`. A journey above `compactAbovePods` pods is compacted:
 * Deployments, ReplicaSets, the first `detailedPods` pods of each parent, every stuck or failed
 * pod and the `keep` objects go in full; other pods keep their stage times, kinds, components and
 * titles but lose evidence and messages, which cuts a 10,000-pod snapshot by most of its size.
 * Journeys are not modified (they are shared snapshots); compacted objects are new objects.
 */
export function buildSnapshot(journeys: readonly Journey[], options: SnapshotOptions = {}): SnapshotMessage {
  const limit = options.compactAbovePods ?? 1000;
  const detailedPods = options.detailedPods ?? 50;
  const detailed: string[] = [];
  let compactedAny = false;
  const out = journeys.map((journey) => {
    if (!journey.tree || podCount(journey.tree) <= limit) return journey;
    compactedAny = true;
    const visit = (node: ObjectJourney): ObjectJourney => {
      const pods = node.children.filter((c) => c.ref.kind === 'Pod');
      const keepFirst = new Set(pods.slice(0, detailedPods));
      const children = node.children.map((child) => {
        if (child.ref.kind !== 'Pod') return visit(child);
        const key = journeyObjectKey(child.ref);
        if (keepFirst.has(child) || child.status === 'stuck' || child.status === 'failed' || options.keep?.has(key)) {
          detailed.push(key);
          return child;
        }
        return { ...child, stages: child.stages.map(compactStage) };
      });
      detailed.push(journeyObjectKey(node.ref));
      return { ...node, children };
    };
    return { ...journey, tree: visit(journey.tree) };
  });
  return {
    type: 'snapshot',
    journeys: out,
    ...(options.focusJourneyId !== undefined ? { focusJourneyId: options.focusJourneyId } : {}),
    ...(options.source !== undefined ? { source: options.source } : {}),
    ...(options.now !== undefined ? { now: options.now } : {}),
    ...(compactedAny ? { compacted: { detailed } } : {}),
  };
}

function findByKey(node: ObjectJourney, key: string): ObjectJourney | undefined {
  if (journeyObjectKey(node.ref) === key) return node;
  for (const child of node.children) {
    const found = findByKey(child, key);
    if (found) return found;
  }
  return undefined;
}

/**
 * The host's answer to `requestObjectDetail`, from the current (uncompacted) journey: the object
 * in full without its children, or an error when the journey or the object is gone.
 */
export function answerObjectDetail(journey: Journey | undefined, request: RequestObjectDetail): ObjectDetailMessage | RequestResultMessage {
  const object = journey?.tree ? findByKey(journey.tree, journeyObjectKey(request.object)) : undefined;
  if (!journey || !object) {
    return { type: 'requestResult', requestId: request.requestId, ok: false, error: `${request.object.kind} ${request.object.namespace}/${request.object.name} is no longer part of this journey.` };
  }
  return { type: 'objectDetail', requestId: request.requestId, journeyId: journey.id, version: journey.version, object: { ...object, children: [] } };
}
