/**
 * Phase percentiles compared: each side's p50/p90/max (from the per-pod values when the trace kept
 * them, else the journey's own statistics) and B − A. Percentiles over several journeys are merged
 * from the per-pod values, never averaged from per-journey percentiles.
 */
import { durationStats } from '../journey/snapshot';
import type { DurationStats, PhaseName } from '../journey/types';
import { DIFF_PHASES, DIFF_STATS, type DiffJourneyInput, type DiffStat, type PhaseDelta, type PhaseSideStats } from './types';

/** To the microsecond: the tracer's values come from float32 arrays, whose last digits say nothing. */
export function roundMs(ms: number): number {
  return Math.round(ms * 1000) / 1000;
}

function sideStats(stats: DurationStats | undefined): PhaseSideStats | undefined {
  return stats ? { pods: stats.count, p50: roundMs(stats.p50), p90: roundMs(stats.p90), max: roundMs(stats.max) } : undefined;
}

/** Finite values of an array-like (the tracer keeps them in typed arrays, a file in plain ones). */
function finite(values: ArrayLike<number> | undefined): number[] {
  const out: number[] = [];
  if (!values) return out;
  for (let i = 0; i < values.length; i++) if (Number.isFinite(values[i])) out.push(values[i]);
  return out;
}

/** One journey's statistics for one phase. */
export function journeyPhaseStats(input: DiffJourneyInput, phase: PhaseName): PhaseSideStats | undefined {
  if (input.phaseValues) return sideStats(durationStats(finite(input.phaseValues[phase])));
  return sideStats(input.journey.phaseStats[phase]);
}

/** Several journeys' statistics for one phase, merged from their pods' values; undefined when a journey with the phase kept no values. */
export function mergedPhaseStats(inputs: readonly DiffJourneyInput[], phase: PhaseName): PhaseSideStats | undefined | 'unknown' {
  const values: number[] = [];
  for (const input of inputs) {
    if (input.phaseValues) values.push(...finite(input.phaseValues[phase]));
    else if (input.journey.phaseStats[phase]) return 'unknown';
  }
  return sideStats(durationStats(values));
}

/** Both sides and B − A for each statistic (delta only when both sides have the phase). */
export function phaseDelta(phase: PhaseName, a: PhaseSideStats | undefined, b: PhaseSideStats | undefined): PhaseDelta {
  const delta: PhaseDelta = { phase };
  if (a) delta.a = a;
  if (b) delta.b = b;
  if (a && b) delta.delta = Object.fromEntries(DIFF_STATS.map((stat) => [stat, roundMs(b[stat] - a[stat])])) as Record<DiffStat, number>;
  return delta;
}

/** The phases of two journeys (or two sets of journeys), those either side has, in clusterloader2's order. */
export function phaseDeltas(stats: (phase: PhaseName) => [PhaseSideStats | undefined, PhaseSideStats | undefined]): PhaseDelta[] {
  const deltas: PhaseDelta[] = [];
  for (const phase of DIFF_PHASES) {
    const [a, b] = stats(phase);
    if (a || b) deltas.push(phaseDelta(phase, a, b));
  }
  return deltas;
}

/** Whether a phase comparison shows any change: a side missing, a different pod count or any statistic moved. */
export function phaseChanged(delta: PhaseDelta): boolean {
  if (!delta.a || !delta.b || !delta.delta) return true;
  return delta.a.pods !== delta.b.pods || DIFF_STATS.some((stat) => delta.delta?.[stat] !== 0);
}
