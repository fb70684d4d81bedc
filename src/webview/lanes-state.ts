/**
 * What the lanes view shows and where: the data it was given, the keyboard cursor and the hovered
 * stage, and the geometry of the last frame (size, time scale, laid-out rows). The view owns one
 * of these; the painter reads it, the input handlers move its cursor and hover.
 */
import type { Journey } from '../core/journey/types';
import type { TimeScaleMode } from '../protocol/timeline-protocol';
import { journeyBounds, visibleWindow } from './model/axis-fit';
import type { RowLayout } from './model/layout';
import type { LaneList } from './model/lanes';
import type { Cursor } from './model/navigation';
import { createTimeScale, type TimeScale, type TimeWindow } from './model/scale';

export const ROW_HEIGHT = 30;
export const AXIS_HEIGHT = 26;

export interface LanesData {
  readonly journey: Journey;
  readonly list: LaneList;
  readonly scale: TimeScaleMode;
  /** The window the user zoomed or panned to; undefined fits the journey (see model/axis-fit.ts). */
  readonly window?: TimeWindow;
  /** Selected lane and stage (index into the lane's stages). */
  readonly selection?: { readonly laneIndex: number; readonly stageIndex?: number };
  /** Ms from the apply that counts as now (open lifelines end here). */
  readonly nowMs: number;
}

export interface Hover {
  readonly laneIndex: number;
  readonly stageIndex?: number;
  /** Pointer position in the view, px. */
  readonly x: number;
  readonly y: number;
}

export interface LanesState {
  data?: LanesData;
  cursor?: Cursor;
  hover?: Hover;
  /** Size of the view, CSS px. */
  width: number;
  height: number;
  /** The last frame's time scale and rows (hit tests and keyboard moves use what was drawn). */
  scale?: TimeScale;
  rows: RowLayout[];
}

/** Height of the rows' area, below the axis. */
export function lanesHeight(state: LanesState): number {
  return Math.max(0, state.height - AXIS_HEIGHT);
}

/** Width of the label column left of the time axis. */
export function gutterWidth(state: LanesState): number {
  return Math.round(Math.min(340, Math.max(170, state.width * 0.3)));
}

/** The journey's span: zooming and panning stay inside it. */
export function boundsOf(data: LanesData): TimeWindow {
  return journeyBounds(data.journey, data.list.extent, data.nowMs);
}

export function timeScaleFor(state: LanesState, data: LanesData): TimeScale {
  const x0 = gutterWidth(state) + 14;
  const x1 = Math.max(x0 + 40, state.width - 18);
  return createTimeScale(data.scale, visibleWindow(data.window, boundsOf(data)), x0, x1);
}
