/**
 * Keyboard model of the lanes view: a cursor (lane, stage) moved by arrow keys, separate from the
 * selection, which Enter sets. Plus the persisted view state and its validation: state comes back
 * from `getState()` after a reload, possibly written by an older version.
 */
import type { StageRef, TimeScaleMode, TimelineViewMode, TimelineViewState } from '../../protocol/timeline-protocol';
import { isStageRef } from '../../protocol/timeline-protocol';
import { nearestStageIndex } from './layout';
import type { Lane } from './lanes';

export interface Cursor {
  readonly laneIndex: number;
  /** Absent on a lane without stages (a summary lane) or before the first move into a lane. */
  readonly stageIndex?: number;
}

export type MoveKey = 'ArrowLeft' | 'ArrowRight' | 'ArrowUp' | 'ArrowDown' | 'Home' | 'End' | 'PageUp' | 'PageDown';

export type KeyAction =
  | { readonly type: 'move'; readonly key: MoveKey; readonly toEdge: boolean }
  | { readonly type: 'select' }
  | { readonly type: 'clearSelection' }
  | { readonly type: 'zoom'; readonly factor: number }
  | { readonly type: 'fit' }
  | { readonly type: 'toggleScale' }
  | { readonly type: 'openYaml' };

export interface KeyInput {
  readonly key: string;
  readonly ctrlKey: boolean;
  readonly metaKey: boolean;
  readonly altKey: boolean;
}

const MOVE_KEYS: ReadonlySet<string> = new Set<MoveKey>(['ArrowLeft', 'ArrowRight', 'ArrowUp', 'ArrowDown', 'Home', 'End', 'PageUp', 'PageDown']);

/** What a key press on the lanes means, or undefined to let the browser have it (Tab, shortcuts). */
export function keyAction(input: KeyInput): KeyAction | undefined {
  if (input.altKey) return undefined;
  const modifier = input.ctrlKey || input.metaKey;
  if (MOVE_KEYS.has(input.key)) return { type: 'move', key: input.key as MoveKey, toEdge: modifier };
  if (modifier) return undefined;
  switch (input.key) {
    case 'Enter':
    case ' ':
      return { type: 'select' };
    case 'Escape':
      return { type: 'clearSelection' };
    case '+':
    case '=':
      return { type: 'zoom', factor: 0.5 };
    case '-':
    case '_':
      return { type: 'zoom', factor: 2 };
    case '0':
      return { type: 'fit' };
    case 'l':
    case 'L':
      return { type: 'toggleScale' };
    case 'y':
    case 'Y':
      return { type: 'openYaml' };
    default:
      return undefined;
  }
}

function stagesOf(lane: Lane | undefined): number {
  return lane?.type === 'object' ? lane.object.stages.length : 0;
}

function stageTime(lane: Lane | undefined, stageIndex: number | undefined): number | undefined {
  if (lane?.type !== 'object' || stageIndex === undefined) return undefined;
  return lane.object.stages[stageIndex]?.time;
}

/** Moves to lane `laneIndex`, landing on the stage nearest in time to where the cursor was. */
function toLane(lanes: readonly Lane[], laneIndex: number, fromTime: number | undefined): Cursor {
  const lane = lanes[laneIndex];
  if (lane?.type !== 'object' || lane.object.stages.length === 0) return { laneIndex };
  const stageIndex = fromTime === undefined ? 0 : nearestStageIndex(lane.object.stages, fromTime);
  return stageIndex === undefined ? { laneIndex } : { laneIndex, stageIndex };
}

/** The cursor after a move; `pageRows` is how many lanes PageUp/PageDown skip. */
export function moveCursor(lanes: readonly Lane[], cursor: Cursor | undefined, key: MoveKey, toEdge: boolean, pageRows: number): Cursor | undefined {
  if (lanes.length === 0) return undefined;
  // The first plain arrow lands on the first lane; jumps (Ctrl+End, PageDown…) go from there.
  if (!cursor && !toEdge && (key === 'ArrowUp' || key === 'ArrowDown' || key === 'ArrowLeft' || key === 'ArrowRight')) return toLane(lanes, 0, undefined);
  cursor ??= toLane(lanes, 0, undefined);
  const laneIndex = Math.min(Math.max(cursor.laneIndex, 0), lanes.length - 1);
  const lane = lanes[laneIndex];
  const count = stagesOf(lane);
  const time = stageTime(lane, cursor.stageIndex);
  switch (key) {
    case 'ArrowLeft':
      if (count === 0) return { laneIndex };
      if (toEdge || cursor.stageIndex === undefined) return { laneIndex, stageIndex: 0 };
      return { laneIndex, stageIndex: Math.max(0, cursor.stageIndex - 1) };
    case 'ArrowRight':
      if (count === 0) return { laneIndex };
      if (toEdge) return { laneIndex, stageIndex: count - 1 };
      return { laneIndex, stageIndex: cursor.stageIndex === undefined ? 0 : Math.min(count - 1, cursor.stageIndex + 1) };
    case 'Home':
      return toEdge ? toLane(lanes, 0, time) : count === 0 ? { laneIndex } : { laneIndex, stageIndex: 0 };
    case 'End':
      return toEdge ? toLane(lanes, lanes.length - 1, time) : count === 0 ? { laneIndex } : { laneIndex, stageIndex: count - 1 };
    case 'ArrowUp':
      return toLane(lanes, toEdge ? 0 : Math.max(0, laneIndex - 1), time);
    case 'ArrowDown':
      return toLane(lanes, toEdge ? lanes.length - 1 : Math.min(lanes.length - 1, laneIndex + 1), time);
    case 'PageUp':
      return toLane(lanes, Math.max(0, laneIndex - Math.max(1, pageRows)), time);
    case 'PageDown':
      return toLane(lanes, Math.min(lanes.length - 1, laneIndex + Math.max(1, pageRows)), time);
    default: {
      const unhandled: never = key;
      return unhandled;
    }
  }
}

export function defaultViewState(): TimelineViewState {
  return { version: 1, view: 'lanes', scale: 'linear', scrollTop: 0, showAllPods: false, controlPlaneStep: 0 };
}

function finiteNonNegative(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) && value >= 0 ? value : undefined;
}

/** Whatever `getState()` returned, as a valid state: unknown or broken fields fall back to defaults. */
export function restoreViewState(raw: unknown): TimelineViewState {
  const fallback = defaultViewState();
  if (typeof raw !== 'object' || raw === null || (raw as { version?: unknown }).version !== 1) return fallback;
  const r = raw as Record<string, unknown>;
  const view: TimelineViewMode = r.view === 'controlPlane' ? 'controlPlane' : 'lanes';
  const scale: TimeScaleMode = r.scale === 'log' ? 'log' : 'linear';
  const w = r.window as { startMs?: unknown; endMs?: unknown } | undefined;
  const timeWindow = w && typeof w === 'object' && typeof w.startMs === 'number' && typeof w.endMs === 'number' && Number.isFinite(w.startMs) && Number.isFinite(w.endMs) && w.endMs > w.startMs ? { startMs: w.startMs, endMs: w.endMs } : undefined;
  const selection: StageRef | undefined = isStageRef(r.selection) ? r.selection : undefined;
  return {
    version: 1,
    ...(typeof r.journeyId === 'string' ? { journeyId: r.journeyId } : {}),
    view,
    scale,
    ...(selection ? { selection } : {}),
    scrollTop: finiteNonNegative(r.scrollTop) ?? 0,
    ...(timeWindow ? { window: timeWindow } : {}),
    showAllPods: r.showAllPods === true,
    ...(typeof r.controlPlanePod === 'string' ? { controlPlanePod: r.controlPlanePod } : {}),
    controlPlaneStep: Math.floor(finiteNonNegative(r.controlPlaneStep) ?? 0),
  };
}
