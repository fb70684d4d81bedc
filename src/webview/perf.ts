/**
 * Draw timings for the browser test harness (test/webview/measure.ts), kept in a small ring on
 * `globalThis.kubeJourneyTimeline`. Costs one array write per frame.
 */

export interface TimelinePerf {
  /** performance.now() when the first snapshot arrived, and when it was first drawn. */
  firstSnapshotAt?: number;
  firstDrawAt?: number;
  /** performance.now() at the end of the latest draw. */
  lastDrawAt?: number;
  /** Duration of the latest draws, ms (at most 1,000). */
  draws: number[];
  /** Rows laid out and painted in the latest draw, and rows in the list. */
  lastRowsDrawn: number;
  lastRowsTotal: number;
  /** Snapshots and deltas applied. */
  snapshots: number;
  /** Time from the latest snapshot's or delta's arrival to the end of handling it (lanes rebuilt), ms. */
  lastSnapshotMs?: number;
  /** performance.now() when the latest snapshot or delta was handled. */
  lastHandledAt?: number;
}

const perf: TimelinePerf = { draws: [], lastRowsDrawn: 0, lastRowsTotal: 0, snapshots: 0 };
(globalThis as { kubeJourneyTimeline?: TimelinePerf }).kubeJourneyTimeline = perf;

export function recordDraw(ms: number, rowsDrawn: number, rowsTotal: number): void {
  if (perf.draws.length >= 1000) perf.draws.shift();
  perf.draws.push(ms);
  perf.lastRowsDrawn = rowsDrawn;
  perf.lastRowsTotal = rowsTotal;
  perf.lastDrawAt = performance.now();
  perf.firstDrawAt ??= perf.lastDrawAt;
}

export function recordMessage(arrivedAt: number): void {
  perf.snapshots++;
  perf.firstSnapshotAt ??= arrivedAt;
  perf.lastHandledAt = performance.now();
  perf.lastSnapshotMs = perf.lastHandledAt - arrivedAt;
}
