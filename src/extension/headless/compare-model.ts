/**
 * Two journey files → the compare view's model (src/protocol/journey-compare.ts): each side's
 * journeys as lanes from its own apply, and the per-phase deltas core/journey-diff computes.
 * Pure (no `vscode`), tested in plain Node.
 */
import { diffJourneys } from '../../core/journey-diff/diff';
import { DIFF_PHASES, DIFF_STATS, type DiffSide, type DiffStat, type JourneyDiff, type PhaseDelta } from '../../core/journey-diff/types';
import type { JourneyFile } from '../../core/journey-file/types';
import type { ObjectJourney } from '../../core/journey/types';
import type { CompareLane, CompareMark, CompareModel, ComparePhaseRow, CompareSide, CompareSideId } from '../../protocol/journey-compare';

/** Past this many pods of one owner, the rest are counted, not drawn: the view stays readable. */
export const MAX_PODS_PER_OWNER = 24;

function laneLabel(object: ObjectJourney): string {
  return `${object.ref.kind} ${object.ref.name}`;
}

function lanesOf(side: CompareSideId, root: ObjectJourney, appliedAt: number): { lanes: CompareLane[]; hiddenPods: number } {
  const lanes: CompareLane[] = [];
  let hiddenPods = 0;
  const visit = (object: ObjectJourney, depth: number): void => {
    const marks = object.stages.map((stage): CompareMark => ({ atMs: stage.time - appliedAt, kind: stage.kind, title: stage.title, ...(stage.warning ? { warning: true } : {}) }));
    const times = marks.map((mark) => mark.atMs);
    if (object.createdAt !== undefined && !object.preexisting) times.push(object.createdAt - appliedAt);
    if (object.deletedAt !== undefined) times.push(object.deletedAt - appliedAt);
    const startMs = times.length > 0 ? Math.max(0, Math.min(...times)) : 0;
    const endMs = times.length > 0 ? Math.max(...times) : startMs;
    lanes.push({ side, kind: object.ref.kind, label: laneLabel(object), depth, status: object.status, startMs, endMs, marks, ...(object.pod?.node ? { node: object.pod.node } : {}) });
    let pods = 0;
    for (const child of object.children) {
      if (child.ref.kind === 'Pod' && ++pods > MAX_PODS_PER_OWNER) {
        hiddenPods++;
        continue;
      }
      visit(child, depth + 1);
    }
  };
  visit(root, 0);
  return { lanes, hiddenPods };
}

function seconds(ms: number): string {
  return ms < 1000 ? `${Math.round(ms)}ms` : `${(ms / 1000).toFixed(2)}s`;
}

function sideOf(id: CompareSideId, side: DiffSide): CompareSide {
  const lanes: CompareLane[] = [];
  let hiddenPods = 0;
  const summaries: string[] = [];
  for (const { journey } of side.journeys) {
    const root = journey.root;
    const ready = journey.counts.desired > 0 ? ` · ${journey.counts.ready}/${journey.counts.desired} ready` : '';
    const took = journey.totalDurationMs === undefined ? '' : ` in ${seconds(journey.totalDurationMs)}`;
    summaries.push(`${root.kind} ${root.namespace}/${root.name}: ${journey.status}${ready}${took}`);
    if (!journey.tree) continue;
    const of = lanesOf(id, journey.tree, journey.appliedAt);
    lanes.push(...of.lanes);
    hiddenPods += of.hiddenPods;
  }
  return { id, label: side.label, summaries, lanes, hiddenPods };
}

function phaseRow(delta: PhaseDelta): ComparePhaseRow {
  const stats = (side: PhaseDelta['a']) => (side ? (Object.fromEntries(DIFF_STATS.map((stat) => [stat, side[stat]])) as Record<DiffStat, number>) : undefined);
  const a = stats(delta.a);
  const b = stats(delta.b);
  return { phase: delta.phase, podsA: delta.a?.pods ?? 0, podsB: delta.b?.pods ?? 0, ...(a ? { a } : {}), ...(b ? { b } : {}), ...(delta.delta ? { delta: { ...delta.delta } } : {}) };
}

/** The phase deltas to tabulate: over every pod when either file has several journeys, else the one matched journey's. */
function phaseDeltasOf(diff: JourneyDiff): readonly PhaseDelta[] {
  return diff.phases ?? diff.matched[0]?.phases ?? [];
}

function notesOf(diff: JourneyDiff): string[] {
  const notes: string[] = [];
  const name = (root: { kind: string; namespace: string; name: string }): string => `${root.kind} ${root.namespace}/${root.name}`;
  for (const matched of diff.matched) {
    if (!matched.outcome.changed) continue;
    const side = (s: typeof matched.outcome.a): string => `${s.status}${s.stuck ? ` (${s.stuck.reason})` : ''}`;
    notes.push(`${name(matched.root)}: ${side(matched.outcome.a)} in A, ${side(matched.outcome.b)} in B`);
  }
  for (const only of diff.onlyInA) notes.push(`${name(only.root)} is only in A`);
  for (const only of diff.onlyInB) notes.push(`${name(only.root)} is only in B`);
  return notes;
}

/** The comparison of two journey files, labelled as the user named them. */
export function buildCompareModel(a: { label: string; file: JourneyFile }, b: { label: string; file: JourneyFile }): CompareModel {
  return compareModelOf({ label: a.label, journeys: a.file.journeys }, { label: b.label, journeys: b.file.journeys }, notesOf);
}

/** Two sets of journeys on one axis (files, or live journeys), with the notes `notes` makes of their diff. */
export function compareModelOf(a: DiffSide, b: DiffSide, notes: (diff: JourneyDiff) => string[]): CompareModel {
  const diff = diffJourneys(a, b);
  const sideA = sideOf('a', a);
  const sideB = sideOf('b', b);
  const axisEndMs = Math.max(1, ...sideA.lanes.map((lane) => lane.endMs), ...sideB.lanes.map((lane) => lane.endMs));
  const byPhase = new Map(phaseDeltasOf(diff).map((delta) => [delta.phase, delta]));
  const phases = DIFF_PHASES.flatMap((phase) => {
    const delta = byPhase.get(phase);
    return delta ? [phaseRow(delta)] : [];
  });
  return { a: sideA, b: sideB, axisEndMs, phases, notes: notes(diff) };
}
