/**
 * The header's per-phase statistics across a journey's pods: create → scheduled → running →
 * ready, then create → ready overall. The tracer computes most phases; running → ready is not one
 * of clusterloader2's transitions, so it is computed here from the pods' marks, with the tracer's
 * nearest-rank percentiles.
 */
import { formatDuration } from '../../common/duration-format';
import type { DurationStats, Journey, ObjectJourney, PhaseName } from '../../core/journey/types';
import { runToReady } from '../../protocol/simplified-lanes';
import type { FoldedPods } from '../../protocol/timeline-protocol';

export interface PhaseRow {
  readonly label: string;
  readonly stats?: DurationStats;
}

function nearestRank(sorted: Float64Array, p: number): number {
  return sorted[Math.max(1, Math.ceil(p * sorted.length)) - 1];
}

export function durationStatsOf(values: readonly number[]): DurationStats | undefined {
  const sorted = Float64Array.from(values.filter((v) => Number.isFinite(v))).sort();
  if (sorted.length === 0) return undefined;
  return { count: sorted.length, min: sorted[0], p50: nearestRank(sorted, 0.5), p90: nearestRank(sorted, 0.9), p99: nearestRank(sorted, 0.99), max: sorted[sorted.length - 1] };
}

function collectRunToReady(node: ObjectJourney, into: number[]): void {
  if (node.ref.kind === 'Pod') {
    const ms = runToReady(node);
    if (ms !== undefined) into.push(ms);
    return;
  }
  for (const child of node.children) collectRunToReady(child, into);
}

const TRACER_PHASES: readonly [string, PhaseName][] = [
  ['create → scheduled', 'create_to_schedule'],
  ['scheduled → running', 'schedule_to_run'],
];

/** The header's phase table; `folded` adds the pods of a journey sent simplified that the tree does not hold. */
export function phaseRows(journey: Journey, folded?: readonly FoldedPods[]): PhaseRow[] {
  const rows: PhaseRow[] = TRACER_PHASES.map(([label, name]) => ({ label, stats: journey.phaseStats[name] }));
  const durations: number[] = [];
  if (journey.tree) collectRunToReady(journey.tree, durations);
  for (const f of folded ?? []) for (const ms of f.runToReady) durations.push(ms);
  rows.push({ label: 'running → ready', stats: durationStatsOf(durations) });
  rows.push({ label: 'create → ready', stats: journey.phaseStats.create_to_ready });
  return rows;
}

/** `p50 1.20s · p90 3.40s · max 5.87s`. */
export function statsCells(stats: DurationStats | undefined): { count: string; p50: string; p90: string; max: string } {
  if (!stats) return { count: '0', p50: '—', p90: '—', max: '—' };
  return { count: String(stats.count), p50: formatDuration(stats.p50), p90: formatDuration(stats.p90), max: formatDuration(stats.max) };
}

const count = new Intl.NumberFormat('en-US');

/**
 * A Job's or CronJob's own counts: its pods end (Succeeded or Failed), so `ready` says nothing of
 * how far it got, and a failed pod it retried is not stuck.
 */
function batchParts(journey: Journey, n: (value: number) => string): string[] | undefined {
  const tree = journey.tree;
  const job = tree?.replicas?.job;
  if (job) {
    const parts = [`${n(job.succeeded)}/${n(job.completions ?? 1)} succeeded`];
    if (job.failed > 0) parts.push(`${n(job.failed)} failed`);
    if (job.active > 0) parts.push(`${n(job.active)} active`);
    return parts;
  }
  const cron = tree?.replicas?.cronJob;
  if (cron) return [`schedule ${cron.schedule}`, `${n(tree.children.length)} Job${tree.children.length === 1 ? '' : 's'}`];
  return undefined;
}

/** One line for the header: `9,801/10,000 ready · 9,900 scheduled · 9,801 running · 199 stuck`; a Job's `1/1 succeeded · 1 failed`. */
export function countsLine(journey: Journey): string {
  const c = journey.counts;
  const n = (value: number): string => count.format(value);
  const batch = batchParts(journey, n);
  const parts = batch ? [...batch, `${n(c.scheduled)} scheduled`] : [`${n(c.ready)}/${n(c.desired)} ready`, `${n(c.scheduled)} scheduled`, `${n(c.running)} running`];
  if (journey.stuckCount > 0 && !(batch && journey.status === 'complete')) parts.push(`${n(journey.stuckCount)} ${batch ? 'stuck or failed' : 'stuck'}`);
  if (c.restarts > 0) parts.push(`${n(c.restarts)} restarts`);
  if (c.terminating > 0) parts.push(`${n(c.terminating)} terminating`);
  if (c.oldLive > 0) parts.push(`${n(c.oldLive)} old`);
  if (journey.totalDurationMs !== undefined) parts.push(`complete in ${formatDuration(journey.totalDurationMs)}`);
  return parts.join(' · ');
}
