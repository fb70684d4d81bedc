/**
 * Two journey files on one time axis: the model the Compare With… view draws, and the messages
 * between its host and its webview (media/compare.js). Each side's objects become lanes, times
 * measured from that side's own apply so that both start at 0; the per-phase table holds
 * clusterloader2's PodStartupLatency phases (p50/p90/max) from core/journey-diff. The model is
 * built by src/extension/headless/compare-model.ts.
 *
 * Pure: no `vscode`, no DOM. The model is plain JSON (no typed arrays): two files of a few hundred
 * lanes each, sent once.
 */
import { isJsonObject } from '../common/json';
import type { DiffStat } from '../core/journey-diff/types';
import type { JourneyStatus, PhaseName, StageKind, TraceableKind } from '../core/journey/types';

/** Bumped when a message or the model changes shape. */
export const COMPARE_PROTOCOL_VERSION = 1;

/** The view (webview) type id of the compare panel. */
export const COMPARE_VIEW_TYPE = 'kubeJourney.compare';

/** Which file a lane comes from. */
export type CompareSideId = 'a' | 'b';

/** One stage of a lane, ms from its side's apply. */
export interface CompareMark {
  readonly atMs: number;
  readonly kind: StageKind;
  readonly title: string;
  readonly warning?: boolean;
}

/** One object of one side. */
export interface CompareLane {
  readonly side: CompareSideId;
  readonly kind: TraceableKind;
  /** `ReplicaSet nginx-deployment-5d8…`, as the timeline names it. */
  readonly label: string;
  /** Depth in its journey's tree: 0 for the root. */
  readonly depth: number;
  readonly status: JourneyStatus;
  /** From its first stage (or creation) to its last stage (or deletion), ms from the apply. */
  readonly startMs: number;
  readonly endMs: number;
  readonly marks: readonly CompareMark[];
  /** The pod's node, when scheduled. */
  readonly node?: string;
}

/** One file of the comparison. */
export interface CompareSide {
  readonly id: CompareSideId;
  /** The file's name (`nginx-3-replicas.journey.json`). */
  readonly label: string;
  /** `3/3 ready in 4.61s`-style lines, one per journey. */
  readonly summaries: readonly string[];
  readonly lanes: readonly CompareLane[];
  /** Pods left out of `lanes` (past `MAX_PODS_PER_OWNER` per owner). */
  readonly hiddenPods: number;
}

/** One phase's p50/p90/max on both sides, ms, and B − A. */
export interface ComparePhaseRow {
  readonly phase: PhaseName;
  readonly podsA: number;
  readonly podsB: number;
  readonly a?: Readonly<Record<DiffStat, number>>;
  readonly b?: Readonly<Record<DiffStat, number>>;
  readonly delta?: Readonly<Record<DiffStat, number>>;
}

/** Everything the compare view shows. */
export interface CompareModel {
  readonly a: CompareSide;
  readonly b: CompareSide;
  /** The longest lane end over both sides, ms: the shared axis runs from 0 to it. */
  readonly axisEndMs: number;
  readonly phases: readonly ComparePhaseRow[];
  /** Differences beyond the phases, one line each (outcome, journeys found in one file only). */
  readonly notes: readonly string[];
}

// ---------------------------------------------------------------------------------------------
// Messages

/** Host → webview: the comparison to draw (replaces any before), or why there is none. */
export type CompareHostMessage = { readonly type: 'compare'; readonly model: CompareModel } | { readonly type: 'compareError'; readonly error: string };

/** Webview → host: listening (post the model now), or something failed in the page. */
export type CompareWebviewMessage = { readonly type: 'ready'; readonly protocolVersion: number } | { readonly type: 'webviewError'; readonly message: string };

const isSide = (value: unknown): boolean => isJsonObject(value) && (value.id === 'a' || value.id === 'b') && typeof value.label === 'string' && Array.isArray(value.lanes) && Array.isArray(value.summaries);

/** Checks a message from the host before the webview draws it. */
export function isCompareHostMessage(value: unknown): value is CompareHostMessage {
  if (!isJsonObject(value)) return false;
  if (value.type === 'compareError') return typeof value.error === 'string';
  if (value.type !== 'compare' || !isJsonObject(value.model)) return false;
  const model = value.model;
  return isSide(model.a) && isSide(model.b) && typeof model.axisEndMs === 'number' && Array.isArray(model.phases) && Array.isArray(model.notes);
}

/** Checks a message from the webview before the host acts on it. */
export function isCompareWebviewMessage(value: unknown): value is CompareWebviewMessage {
  if (!isJsonObject(value)) return false;
  if (value.type === 'ready') return typeof value.protocolVersion === 'number';
  if (value.type === 'webviewError') return typeof value.message === 'string';
  return false;
}
