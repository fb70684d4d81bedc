/**
 * Which time window the lanes show. Until the user zooms or pans, the axis fits the journey: while
 * it runs, from its first stage to now, so the live edge stays in view; once it has ended, the
 * journey alone, so a 4-second journey looked at a minute later is not squeezed into the left of
 * a one-minute axis. A window the user chose is kept as chosen (it lives in the panel's persisted
 * state, `TimelineViewState.window`) until Fit clears it.
 */
import type { Journey } from '../../core/journey/types';
import type { LaneList } from './lanes';
import { fitWindow, type TimeWindow } from './scale';

/** The journey's own span on the time axis; `nowMs` (from the apply) counts only while it runs. */
export function journeyBounds(journey: Pick<Journey, 'appliedAt' | 'lastChangeAt' | 'done'>, extent: LaneList['extent'], nowMs: number): TimeWindow {
  // An ended journey still changes now and then (a node's status, an event's count): what is
  // drawn, its stages, decides where it ends.
  if (journey.done) return fitWindow(extent.lastMs, extent.firstMs);
  return fitWindow(Math.max(journey.lastChangeAt - journey.appliedAt, nowMs, extent.lastMs), extent.firstMs);
}

/** The window to draw: the user's, or the fitted journey when they have not chosen one. */
export function visibleWindow(chosen: TimeWindow | undefined, bounds: TimeWindow): TimeWindow {
  return chosen && chosen.endMs > chosen.startMs ? chosen : bounds;
}
