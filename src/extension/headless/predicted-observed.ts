/**
 * "Apply for real" after a twin run: the twin's journeys (what was predicted) and the context's
 * (what was observed) on one axis in the compare view, with one note per place they diverge:
 * outcome, journeys or stages found on one side only, where pods ran, and phases whose p50 moved
 * by more than a second and by half. Built on core/journey-diff. Pure (no `vscode`), tested in plain Node.
 */
import { formatDuration } from '../../common/duration-format';
import { formatDelta, stageLabel } from '../../core/journey-diff/render-text';
import type { JourneyDiff, OutcomeSide, PlacementDelta, RootKey } from '../../core/journey-diff/types';
import type { Journey } from '../../core/journey/types';
import type { CompareModel } from '../../protocol/journey-compare';
import { compareModelOf } from './compare-model';

export const predictedLabel = (context: string): string => `Predicted (twin of ${context})`;
export const observedLabel = (context: string): string => `Observed (${context})`;

/** A phase whose p50 differs by at least this much (ms) and this share of the prediction is flagged. */
export const PHASE_DIVERGENCE_MS = 1_000;
export const PHASE_DIVERGENCE_RATIO = 0.5;

const name = (root: RootKey): string => `${root.kind} ${root.namespace}/${root.name}`;

function outcomeText(side: OutcomeSide): string {
  const ready = side.desired > 0 ? ` ${side.ready}/${side.desired} ready` : '';
  return `${side.status}${side.stuck ? ` (${side.stuck.reason})` : ''}${ready}`;
}

function placementText(placement: PlacementDelta): string {
  const rows = placement.rows.slice(0, 4).map((row) => `${row.key} ${row.a} → ${row.b}`);
  const more = placement.rows.length > 4 ? `, ${placement.rows.length - 4} more` : '';
  const by = placement.by === 'node' ? 'pods per node' : placement.by === 'ordinal' ? 'node per pod' : 'daemon pods per node';
  return `${by}, predicted → observed: ${rows.join(', ')}${more}`;
}

/**
 * Where the observed journeys diverge from the predicted ones (`diff` with the prediction as A),
 * one line each; while an observed journey is still under way, a line says so.
 */
export function divergenceNotes(diff: JourneyDiff, observedInProgress: boolean): string[] {
  const notes: string[] = [];
  for (const matched of diff.matched) {
    const what = name(matched.root);
    if (matched.outcome.changed) notes.push(`${what}: predicted ${outcomeText(matched.outcome.a)}, observed ${outcomeText(matched.outcome.b)}`);
    // One line per group and side: `Deployment default/web: stages observed only (pods of ReplicaSet revision 1): failedScheduling ×1`.
    const groups = new Map<string, { predicted: string[]; observed: string[] }>();
    for (const stage of matched.stages) {
      const group = groups.get(stage.group) ?? { predicted: [], observed: [] };
      (stage.a > 0 ? group.predicted : group.observed).push(stageLabel(stage));
      groups.set(stage.group, group);
    }
    for (const [group, sides] of groups) {
      if (sides.predicted.length > 0) notes.push(`${what}: stages predicted only (${group}): ${sides.predicted.join(', ')}`);
      if (sides.observed.length > 0) notes.push(`${what}: stages observed only (${group}): ${sides.observed.join(', ')}`);
    }
    if (matched.placement) notes.push(`${what}: placed differently: ${placementText(matched.placement)}`);
  }
  const phases = diff.phases ?? diff.matched[0]?.phases ?? [];
  for (const phase of phases) {
    if (!phase.a || !phase.b || !phase.delta) continue;
    const moved = Math.abs(phase.delta.p50);
    if (moved >= PHASE_DIVERGENCE_MS && moved >= PHASE_DIVERGENCE_RATIO * Math.max(phase.a.p50, 1)) {
      notes.push(`${phase.phase} p50: predicted ${formatDuration(phase.a.p50)}, observed ${formatDuration(phase.b.p50)} (${formatDelta(phase.delta.p50)})`);
    }
  }
  for (const only of diff.onlyInA) notes.push(`${name(only.root)}: predicted only (${only.status})`);
  for (const only of diff.onlyInB) notes.push(`${name(only.root)}: observed only (${only.status})`);
  if (observedInProgress) notes.push('The observed journey is still under way: this comparison follows it.');
  else if (notes.length === 0) notes.push('No divergence: the cluster did what its twin predicted.');
  return notes;
}

/** The compare view's model: predicted (A) against observed (B), each from its own apply. */
export function predictedObservedModel(context: string, predicted: readonly Journey[], observed: readonly Journey[]): CompareModel {
  const inProgress = observed.some((journey) => !journey.done && !journey.stuck);
  return compareModelOf(
    { label: predictedLabel(context), journeys: predicted.map((journey) => ({ journey })) },
    { label: observedLabel(context), journeys: observed.map((journey) => ({ journey })) },
    (diff) => divergenceNotes(diff, inProgress),
  );
}
