/**
 * Geometry of the lanes view, computed without the DOM so it can be tested in Node: which rows
 * are visible for a scroll offset, where each visible stage's mark goes, which durations fit as
 * labels, and what lies under the pointer. Only rows inside the viewport (plus a small overscan)
 * are laid out: a 10,000-pod journey costs the same per frame as a 3-pod one.
 */
import { formatDuration } from '../../common/duration-format';
import type { JourneyStatus, ObjectJourney, Stage } from '../../core/journey/types';
import { componentGroup, type ComponentGroup } from './components';
import { SUMMARY_STAGE_KINDS, type Lane, type LaneList, type ObjectLane, type SummaryLane, type SummaryStageKind } from './lanes';
import type { TimeScale } from './scale';

export interface RowRange {
  /** First visible row index. */
  readonly first: number;
  /** One past the last visible row index. */
  readonly end: number;
}

/** Rows intersecting [scrollTop, scrollTop + viewportHeight), widened by `overscan` rows each way. */
export function visibleRange(rowCount: number, rowHeight: number, scrollTop: number, viewportHeight: number, overscan = 1): RowRange {
  if (rowCount === 0 || rowHeight <= 0 || viewportHeight <= 0) return { first: 0, end: 0 };
  const first = Math.max(0, Math.floor(scrollTop / rowHeight) - overscan);
  const end = Math.min(rowCount, Math.ceil((scrollTop + viewportHeight) / rowHeight) + overscan);
  return { first: Math.min(first, end), end };
}

/** The scroll offset that shows row `index` fully, changing `scrollTop` as little as possible. */
export function scrollToRow(index: number, rowHeight: number, scrollTop: number, viewportHeight: number): number {
  const top = index * rowHeight;
  const bottom = top + rowHeight;
  if (top < scrollTop) return top;
  if (bottom > scrollTop + viewportHeight) return Math.max(0, bottom - viewportHeight);
  return scrollTop;
}

export interface MarkLayout {
  /** Index into the object's `stages`. */
  readonly stageIndex: number;
  readonly x: number;
  readonly group: ComponentGroup;
  readonly warning: boolean;
}

export interface SegmentLayout {
  readonly x0: number;
  readonly x1: number;
  readonly ms: number;
  /** Present when the duration fits between the two marks. */
  readonly label?: string;
  /** The object has not finished: this segment runs from its last stage to now. */
  readonly open?: boolean;
}

/**
 * A controller waiting on purpose (a StatefulSet for its previous pod to be Ready, a CronJob for
 * its schedule, a Job's back-off) or a suspended Job or CronJob: a span from the `waiting` or
 * `suspended` stage to what ended it, the next pod or Job created (on the object's own lane or
 * below it), so a wait reads as time spent waiting rather than as a point.
 */
export interface WaitLayout {
  readonly stageIndex: number;
  readonly x0: number;
  readonly x1: number;
  readonly ms: number;
  readonly kind: 'waiting' | 'suspended';
  /** `waited 2.4s`, present when it fits. */
  readonly label?: string;
  /** Nothing ended the wait yet: it runs to now. */
  readonly open?: boolean;
}

export interface RowLabel {
  /** One-character status sign (also announced by text, never by colour alone). */
  readonly glyph: string;
  readonly status: JourneyStatus | 'summary';
  readonly kind: string;
  readonly name: string;
  /** Extra words after the name: `stuck`, `slowest`, `on node-1`. */
  readonly detail?: string;
}

interface RowBase {
  readonly index: number;
  /** Top of the row relative to the viewport's top, px. */
  readonly y: number;
  readonly depth: number;
  readonly label: RowLabel;
}

export interface ObjectRowLayout extends RowBase {
  readonly type: 'object';
  readonly lane: ObjectLane;
  readonly marks: readonly MarkLayout[];
  readonly segments: readonly SegmentLayout[];
  readonly waits: readonly WaitLayout[];
}

/** Per stage kind, how many folded pods reached it in each horizontal bucket. */
export interface DensityStrip {
  readonly kind: SummaryStageKind;
  readonly bucketPx: number;
  /** Bucket `i` covers [scale.x0 + i·bucketPx, … + bucketPx). */
  readonly counts: Uint32Array;
  readonly max: number;
}

export interface SummaryRowLayout extends RowBase {
  readonly type: 'summary';
  readonly lane: SummaryLane;
  readonly strips: readonly DensityStrip[];
}

export type RowLayout = ObjectRowLayout | SummaryRowLayout;

export interface LayoutOptions {
  readonly rowHeight: number;
  readonly scrollTop: number;
  readonly viewportHeight: number;
  /** Ms from the apply of "now" (the snapshot's last change, or the wall clock while live). */
  readonly nowMs: number;
  /** Width of a text in px (canvas `measureText`; a character count in tests). */
  readonly measure: (text: string) => number;
  readonly overscan?: number;
  /** Density bucket width for summary lanes, px (default 2). */
  readonly bucketPx?: number;
}

export const STATUS_GLYPHS: Readonly<Record<JourneyStatus | 'summary', string>> = {
  pending: '○',
  progressing: '◐',
  complete: '✓',
  stuck: '⚠',
  failed: '✕',
  deleted: '⊘',
  summary: '…',
};

/** kubectl's short names. */
const KIND_SHORT: Record<string, string> = { Deployment: 'deploy', ReplicaSet: 'rs', StatefulSet: 'sts', DaemonSet: 'ds', Job: 'job', CronJob: 'cj', ReplicationController: 'rc', Pod: 'pod' };

/** A workload's counts in its own terms: `2/2`, a Job's `1/1 succeeded`, a CronJob's schedule. */
function replicaDetail(o: ObjectJourney): string | undefined {
  const r = o.replicas;
  if (!r) return undefined;
  if (r.job) return `${r.job.succeeded}/${r.job.completions ?? 1} succeeded${r.job.failed > 0 ? ` · ${r.job.failed} failed` : ''}`;
  if (r.cronJob) return r.cronJob.schedule;
  return `${r.ready}/${r.desired}`;
}

function objectLabel(lane: ObjectLane): RowLabel {
  const o = lane.object;
  const details: string[] = [];
  const counts = replicaDetail(o);
  if (counts) details.push(counts);
  if (lane.note === 'slowest') details.push('slowest');
  if (o.stuck) details.push(o.stuck.reason);
  return { glyph: STATUS_GLYPHS[o.status], status: o.status, kind: KIND_SHORT[o.ref.kind] ?? o.ref.kind, name: o.ref.name, detail: details.length > 0 ? details.join(' · ') : undefined };
}

const numberFormat = new Intl.NumberFormat('en-US');

/** `9,776 complete, 10 progressing`. */
export function summaryStatuses(lane: SummaryLane): string {
  return Object.entries(lane.statusCounts)
    .sort((a, b) => (b[1] ?? 0) - (a[1] ?? 0))
    .map(([status, n]) => `${numberFormat.format(n ?? 0)} ${status}`)
    .join(', ');
}

function summaryLabel(lane: SummaryLane): RowLabel {
  return { glyph: STATUS_GLYPHS.summary, status: 'summary', kind: 'pods', name: `${numberFormat.format(lane.podCount)} more`, detail: summaryStatuses(lane) };
}

export function rowLabel(lane: Lane): RowLabel {
  return lane.type === 'object' ? objectLabel(lane) : summaryLabel(lane);
}

/** Where an object's line ends: its deletion, its last stage if finished, else now. */
function lifelineEnd(o: ObjectJourney, origin: number, nowMs: number): { ms: number; open: boolean } {
  const last = o.stages.length > 0 ? o.stages[o.stages.length - 1].time - origin : undefined;
  if (o.deletedAt !== undefined) return { ms: o.deletedAt - origin, open: false };
  if (o.status === 'complete' || o.status === 'failed') return { ms: last ?? nowMs, open: false };
  return { ms: Math.max(nowMs, last ?? nowMs), open: true };
}

/** When the wait that began at `from` ended: the first pod or Job created after it, below the object or by it; undefined if none yet. */
function waitEnd(o: ObjectJourney, stageIndex: number, from: number): number | undefined {
  let end: number | undefined;
  const consider = (time: number | undefined): void => {
    if (time !== undefined && time > from && (end === undefined || time < end)) end = time;
  };
  for (const child of o.children) consider(child.createdAt);
  for (let i = stageIndex + 1; i < o.stages.length; i++) if (o.stages[i].kind === 'jobCreated' || o.stages[i].kind === 'podCreated') consider(o.stages[i].time);
  return end;
}

function layoutWaits(o: ObjectJourney, scale: TimeScale, origin: number, options: LayoutOptions, finished: boolean): WaitLayout[] {
  const waits: WaitLayout[] = [];
  o.stages.forEach((stage, i) => {
    if (stage.kind !== 'waiting' && stage.kind !== 'suspended') return;
    const from = stage.time;
    const created = waitEnd(o, i, from);
    // A wait nothing ended lasts until the object's next stage once it finished, else until now.
    const next = o.stages.slice(i + 1).find((s) => s.time > from && s.kind !== 'waiting');
    const open = created === undefined && !finished;
    const toMs = created !== undefined ? created - origin : open ? Math.max(options.nowMs, from - origin) : next ? next.time - origin : from - origin;
    const ms = toMs - (from - origin);
    if (ms <= 0) return;
    const x0 = scale.toX(from - origin);
    const x1 = scale.toX(toMs);
    if (x1 < scale.x0 - 8 || x0 > scale.x1 + 8) return;
    const text = `${stage.kind === 'suspended' ? 'suspended' : 'waited'} ${formatDuration(ms)}${open ? ' so far' : ''}`;
    const fits = options.measure(text) + 8 <= x1 - x0;
    waits.push({ stageIndex: i, x0, x1, ms, kind: stage.kind, ...(fits ? { label: text } : {}), ...(open ? { open } : {}) });
  });
  return waits;
}

function layoutObjectRow(lane: ObjectLane, index: number, y: number, scale: TimeScale, origin: number, options: LayoutOptions): ObjectRowLayout {
  const stages = lane.object.stages;
  const marks: MarkLayout[] = [];
  const segments: SegmentLayout[] = [];
  const left = scale.x0 - 8;
  const right = scale.x1 + 8;
  let prevX: number | undefined;
  let prevMs: number | undefined;
  for (let i = 0; i < stages.length; i++) {
    const stage = stages[i];
    const ms = stage.time - origin;
    const x = scale.toX(ms);
    if (x >= left && x <= right) marks.push({ stageIndex: i, x, group: componentGroup(stage.component), warning: stage.warning === true });
    if (prevX !== undefined && prevMs !== undefined && ms > prevMs && x >= left && prevX <= right) {
      segments.push(segment(prevX, x, ms - prevMs, options.measure));
    }
    prevX = x;
    prevMs = ms;
  }
  const end = lifelineEnd(lane.object, origin, options.nowMs);
  if (prevX !== undefined && prevMs !== undefined && end.ms > prevMs) {
    const x = scale.toX(end.ms);
    if (x >= left && prevX <= right) segments.push({ ...segment(prevX, x, end.ms - prevMs, options.measure, end.open ? ' so far' : ''), open: end.open });
  }
  const waits = layoutWaits(lane.object, scale, origin, options, !end.open);
  // A wait's own label says what that stretch was: the lifeline's duration under it would overlap.
  const unlabelled = waits.length === 0 ? segments : segments.map((s) => (s.label && waits.some((w) => w.label && (s.x0 + s.x1) / 2 >= w.x0 && (s.x0 + s.x1) / 2 <= w.x1) ? { x0: s.x0, x1: s.x1, ms: s.ms, ...(s.open ? { open: s.open } : {}) } : s));
  return { type: 'object', index, y, depth: lane.depth, lane, label: objectLabel(lane), marks, segments: unlabelled, waits };
}

function segment(x0: number, x1: number, ms: number, measure: (text: string) => number, suffix = ''): SegmentLayout {
  const label = `${formatDuration(ms)}${suffix}`;
  return measure(label) + 8 <= x1 - x0 ? { x0, x1, ms, label } : { x0, x1, ms };
}

/** Index of the first value ≥ target in an ascending array. */
function lowerBound(values: Float64Array, target: number): number {
  let lo = 0;
  let hi = values.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (values[mid] < target) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** Index of the first value > target in an ascending array. */
function upperBound(values: Float64Array, target: number): number {
  let lo = 0;
  let hi = values.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (values[mid] <= target) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** Buckets the folded pods' stage times across the visible pixels: O(buckets · log pods). */
export function densityStrips(lane: SummaryLane, scale: TimeScale, bucketPx = 2): DensityStrip[] {
  const buckets = Math.max(1, Math.ceil((scale.x1 - scale.x0) / bucketPx));
  return SUMMARY_STAGE_KINDS.map((kind) => {
    const times = lane.times[kind];
    const counts = new Uint32Array(buckets);
    let max = 0;
    let before = lowerBound(times, scale.toMs(scale.x0));
    for (let i = 0; i < buckets; i++) {
      const upTo = i === buckets - 1 ? upperBound(times, scale.toMs(scale.x1)) : lowerBound(times, scale.toMs(scale.x0 + (i + 1) * bucketPx));
      counts[i] = upTo - before;
      if (counts[i] > max) max = counts[i];
      before = upTo;
    }
    return { kind, bucketPx, counts, max };
  });
}

/** Lays out the visible rows only. `origin` is the apply time. */
export function layoutRows(list: LaneList, scale: TimeScale, origin: number, options: LayoutOptions): RowLayout[] {
  const range = visibleRange(list.lanes.length, options.rowHeight, options.scrollTop, options.viewportHeight, options.overscan ?? 1);
  const rows: RowLayout[] = [];
  for (let index = range.first; index < range.end; index++) {
    const lane = list.lanes[index];
    const y = index * options.rowHeight - options.scrollTop;
    if (lane.type === 'object') rows.push(layoutObjectRow(lane, index, y, scale, origin, options));
    else rows.push({ type: 'summary', index, y, depth: lane.depth, lane, label: summaryLabel(lane), strips: densityStrips(lane, scale, options.bucketPx) });
  }
  return rows;
}

export interface Hit {
  readonly index: number;
  /** The stage under the pointer, when a mark is within reach. */
  readonly stageIndex?: number;
}

/** The row (and the nearest mark within `reachPx`) at viewport point (x, y). */
export function hitTest(rows: readonly RowLayout[], x: number, y: number, rowHeight: number, reachPx = 7): Hit | undefined {
  const row = rows.find((r) => y >= r.y && y < r.y + rowHeight);
  if (!row) return undefined;
  if (row.type === 'summary') return { index: row.index };
  let best: MarkLayout | undefined;
  for (const mark of row.marks) {
    const d = Math.abs(mark.x - x);
    // Later marks win ties: they are drawn on top.
    if (d <= reachPx && (!best || d <= Math.abs(best.x - x))) best = mark;
  }
  return best ? { index: row.index, stageIndex: best.stageIndex } : { index: row.index };
}

/** The stage closest in time to `ms` (the first of equals), for moving between lanes. */
export function nearestStageIndex(stages: readonly Stage[], ms: number): number | undefined {
  let best: number | undefined;
  let bestDistance = Infinity;
  for (let i = 0; i < stages.length; i++) {
    const d = Math.abs(stages[i].time - ms);
    if (d < bestDistance) {
      best = i;
      bestDistance = d;
    }
  }
  return best;
}
