/**
 * The one message protocol between the extension host and the journey timeline webview.
 *
 * One snapshot, then deltas: the host first sends a `snapshot` with every lane of the journeys it
 * shows, in compact form (see timeline-lanes.ts), then a `delta` per change with only the lanes
 * (objects) whose journey changed since its last message. Every snapshot and delta carries the
 * next `seq`; a hidden panel may miss messages, so a webview that sees a gap in `seq`, or a delta
 * whose `baseVersion` is not the version it holds, asks for a `resync` and the host answers with
 * a fresh snapshot. The host must wait for `ready` before posting.
 *
 * A journey above `SnapshotOptions.partialAbovePods` pods is sent simplified: only the pods the
 * simplified list shows, the others folded per owner (`FoldedPods`); the webview asks for the
 * rest with `requestAllPods` when the user wants every pod.
 *
 * Requests carry a `requestId`; the host answers each with exactly one `requestResult`.
 * Both sides switch exhaustively on `type`. Pure types plus guards: no `vscode`, no DOM.
 */
import type { Journey, JourneyObjectRef, JourneyStatus, ObjectJourney } from '../core/journey/types';
import { isTraceableKind } from '../common/traceable-kinds';
import { isJsonObject } from '../common/json';
import { isEncodedLanes, type EncodedLanes, type JourneyHeader } from './timeline-lanes';

/** Bumped when a message changes shape; the webview reports the version it speaks in `ready`. */
export const TIMELINE_PROTOCOL_VERSION = 2;

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

/** Stage kinds a folded-pods summary counts, one density row each, in drawing order. */
export const SUMMARY_STAGE_KINDS = ['podCreated', 'scheduled', 'running', 'ready'] as const;
export type SummaryStageKind = (typeof SUMMARY_STAGE_KINDS)[number];

/** Pods of one owner that a simplified (partial) snapshot did not send, summarised. */
export interface FoldedPods {
  /** `journeyObjectKey` of the owner. */
  readonly parent: string;
  readonly podCount: number;
  readonly statusCounts: Readonly<Partial<Record<JourneyStatus, number>>>;
  /** Per stage kind, the folded pods' first times of that kind, ms from the apply, ascending. */
  readonly times: Readonly<Record<SummaryStageKind, Float64Array>>;
  /** The folded pods' running → ready durations, ms (for the header's phase table). */
  readonly runToReady: Float64Array;
}

/** The lanes of one journey in a snapshot. */
export interface JourneyLanes {
  readonly lanes: EncodedLanes;
  /** Set when the journey was sent simplified: the pods not sent, per owner. */
  readonly folded?: readonly FoldedPods[];
}

/** The full current state of the journeys the panel shows. Replaces everything sent before. */
export interface SnapshotMessage {
  readonly type: 'snapshot';
  /** Position in the host's stream of snapshots and deltas; the next delta has `seq + 1`. */
  readonly seq: number;
  /** Journeys in the order the picker lists them; usually one. */
  readonly journeys: readonly JourneyHeader[];
  /** `lanes[i]` holds the objects of `journeys[i]`, in tree order (parents before children). */
  readonly lanes: readonly JourneyLanes[];
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
   * run up to it. Absent means each journey's `lastChangeAt`.
   */
  readonly now?: number;
}

/**
 * What changed in one journey since the host's previous message: the objects whose journey
 * changed (with their ancestors, whose children changed), in tree order, and the objects gone.
 * A delta that changes nothing still moves `now` (the lines of a stuck pod keep growing).
 */
export interface DeltaMessage {
  readonly type: 'delta';
  readonly seq: number;
  readonly journeyId: string;
  /** `Journey.version` the delta applies to: the one the webview must hold. */
  readonly baseVersion: number;
  readonly journey: JourneyHeader;
  readonly changed: EncodedLanes;
  /** `journeyObjectKey`s of objects no longer in the journey. */
  readonly removed: readonly string[];
  readonly now?: number;
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

export type HostToWebviewMessage = SnapshotMessage | DeltaMessage | RevealMessage | RequestResultMessage | ObjectDetailMessage;

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

/** The webview missed a message (a gap in `seq`, or a delta for another version): send a snapshot. */
export interface ResyncRequest {
  readonly type: 'resync';
  /** The last `seq` the webview applied; -1 when none. */
  readonly lastSeq: number;
}

/** The user asked to see every pod of a journey sent simplified: send it whole from now on. */
export interface RequestAllPods {
  readonly type: 'requestAllPods';
  readonly journeyId: string;
}

/** Something went wrong in the webview; the host logs it to its output channel. */
export interface WebviewErrorMessage {
  readonly type: 'webviewError';
  readonly message: string;
}

export type WebviewToHostMessage = ReadyMessage | SelectionChangedMessage | OpenObjectYamlRequest | RevealInTreeRequest | RequestObjectDetail | ResyncRequest | RequestAllPods | WebviewErrorMessage;

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
    case 'resync':
      return typeof value.lastSeq === 'number' && Number.isSafeInteger(value.lastSeq);
    case 'requestAllPods':
      return typeof value.journeyId === 'string';
    case 'webviewError':
      return typeof value.message === 'string';
    default: {
      // Unknown types arrive at run time; `never` makes a forgotten case a compile error.
      const _unhandled: never = type;
      return false;
    }
  }
}

function isSeq(value: unknown): value is number {
  return typeof value === 'number' && Number.isSafeInteger(value) && value >= 0;
}

function isJourneyHeader(value: unknown): value is JourneyHeader {
  return isRecord(value) && typeof value.id === 'string' && typeof value.version === 'number' && typeof value.appliedAt === 'number' && value.tree === undefined;
}

function isFoldedPods(value: unknown): value is FoldedPods {
  return (
    isRecord(value) &&
    typeof value.parent === 'string' &&
    typeof value.podCount === 'number' &&
    isRecord(value.statusCounts) &&
    isRecord(value.times) &&
    value.runToReady instanceof Float64Array &&
    SUMMARY_STAGE_KINDS.every((kind) => (value.times as Fields)[kind] instanceof Float64Array)
  );
}

function isJourneyLanes(value: unknown): value is JourneyLanes {
  return isRecord(value) && isEncodedLanes(value.lanes) && (value.folded === undefined || (Array.isArray(value.folded) && value.folded.every(isFoldedPods)));
}

const isOptionalTime = (value: unknown): boolean => value === undefined || (typeof value === 'number' && Number.isFinite(value));

/**
 * Checks a message from the host before the webview acts on it: the envelope, and the lanes'
 * columns (lengths and string indices), so that a malformed one is dropped before it is drawn.
 */
export function isHostToWebviewMessage(value: unknown): value is HostToWebviewMessage {
  if (!isRecord(value) || typeof value.type !== 'string') return false;
  const type = value.type as HostToWebviewMessage['type'];
  switch (type) {
    case 'snapshot':
      return (
        isSeq(value.seq) &&
        Array.isArray(value.journeys) &&
        value.journeys.every(isJourneyHeader) &&
        Array.isArray(value.lanes) &&
        value.lanes.length === value.journeys.length &&
        value.lanes.every(isJourneyLanes) &&
        (value.focusJourneyId === undefined || typeof value.focusJourneyId === 'string') &&
        (value.source === undefined || typeof value.source === 'string') &&
        isOptionalTime(value.now)
      );
    case 'delta':
      return (
        isSeq(value.seq) &&
        typeof value.journeyId === 'string' &&
        typeof value.baseVersion === 'number' &&
        isJourneyHeader(value.journey) &&
        value.journey.id === value.journeyId &&
        isEncodedLanes(value.changed) &&
        Array.isArray(value.removed) &&
        value.removed.every((key) => typeof key === 'string') &&
        isOptionalTime(value.now)
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
// Object detail

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
