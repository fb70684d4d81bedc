/**
 * Two traces compared, journey by journey: matched by root (match.ts), then outcome, phase
 * percentiles, stages present on one side only, and placement. Pure: the CLI reads the files and
 * prints what this returns.
 */
import { matchJourneys, rootKey, type MatchedPair } from './match';
import { outcomeDelta, outcomeDiffers } from './outcome';
import { journeyPhaseStats, mergedPhaseStats, phaseChanged, phaseDeltas } from './phases';
import { placementDelta } from './placement';
import { stageDeltas } from './stages';
import type { DiffSide, JourneyDiff, MatchedJourneyDiff, PhaseDelta, PhaseSideStats } from './types';

function diffPair(pair: MatchedPair): MatchedJourneyDiff {
  const outcome = outcomeDelta(pair.a.journey, pair.b.journey);
  const phases = phaseDeltas((phase) => [journeyPhaseStats(pair.a, phase), journeyPhaseStats(pair.b, phase)]);
  const stages = stageDeltas(pair.a.journey.tree, pair.b.journey.tree);
  const placement = placementDelta(pair.a.journey.tree, pair.b.journey.tree);
  const same = !outcomeDiffers(outcome) && !phases.some(phaseChanged) && stages.length === 0 && !placement;
  return { root: pair.root, occurrence: pair.occurrence, outcome, phases, stages, ...(placement ? { placement } : {}), same };
}

/** The phases over every pod of each trace; undefined when a trace kept no per-pod values to merge. */
function filePhases(a: DiffSide, b: DiffSide): PhaseDelta[] | undefined {
  let known = true;
  const deltas = phaseDeltas((phase) => {
    const stats = [mergedPhaseStats(a.journeys, phase), mergedPhaseStats(b.journeys, phase)];
    if (stats.includes('unknown')) known = false;
    return stats.map((s) => (s === 'unknown' ? undefined : s)) as [PhaseSideStats | undefined, PhaseSideStats | undefined];
  });
  return known ? deltas : undefined;
}

export function diffJourneys(a: DiffSide, b: DiffSide): JourneyDiff {
  const matching = matchJourneys(a.journeys, b.journeys);
  const matched = matching.pairs.map(diffPair);
  const unmatched = (entries: typeof matching.onlyInA) => entries.map((entry) => ({ root: rootKey(entry.input), occurrence: entry.occurrence, status: entry.input.journey.status }));
  const onlyInA = unmatched(matching.onlyInA);
  const onlyInB = unmatched(matching.onlyInB);
  const sameOutcome = onlyInA.length === 0 && onlyInB.length === 0 && matched.every((m) => !m.outcome.changed);
  const diff: JourneyDiff = {
    a: { label: a.label, journeys: a.journeys.length },
    b: { label: b.label, journeys: b.journeys.length },
    matched,
    onlyInA,
    onlyInB,
    sameOutcome,
    same: sameOutcome && matched.every((m) => m.same),
  };
  if (a.journeys.length > 1 || b.journeys.length > 1) {
    const phases = filePhases(a, b);
    if (phases) diff.phases = phases;
  }
  return diff;
}
