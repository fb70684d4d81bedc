/**
 * Where the pod's rules about other pods are what refuses nodes every other filter passes:
 * - PodTopologySpread: the smallest `maxSkew` (up to a few above the current one) that lets the pod
 *   fit, else `whenUnsatisfiable: ScheduleAnyway`;
 * - InterPodAffinity: the required affinity or anti-affinity term to drop, one at a time (a term no
 *   pod satisfies, or one that keeps a pod per node when there are more pods than nodes).
 */
import type { LabelSelector } from 'kubernetes-types/meta/v1';
import type { PodObject } from '../../store/pod-binding';
import { applyFitEdits, type FitEdit } from '../../../core/journey/fit-suggestions';
import { F_POD_AFFINITY, F_SPREAD, rowsBlockedOnlyBy } from './probe';
import type { Candidate, SuggestionInput } from './types';

const SKEW_STEPS = 5;

function selectorText(selector: LabelSelector | undefined): string {
  const labels = Object.entries(selector?.matchLabels ?? {}).map(([key, value]) => `${key}=${value}`);
  const expressions = (selector?.matchExpressions ?? []).map((e) => `${e.key} ${e.operator}${e.values?.length ? ` (${e.values.join(', ')})` : ''}`);
  return [...labels, ...expressions].join(', ') || 'every pod';
}

function fitsWith(input: SuggestionInput, edits: FitEdit[]): boolean {
  return input.probe.countFits(applyFitEdits<PodObject>(input.pod, edits)) > 0;
}

function suggestSpread(input: SuggestionInput): Candidate[] {
  if (rowsBlockedOnlyBy(input.masks, F_SPREAD).length === 0) return [];
  const out: Candidate[] = [];
  (input.pod.spec?.topologySpreadConstraints ?? []).forEach((constraint, c) => {
    if (constraint.whenUnsatisfiable !== 'DoNotSchedule') return;
    const base = `spec.topologySpreadConstraints[${c}]`;
    for (let skew = constraint.maxSkew + 1; skew <= constraint.maxSkew + SKEW_STEPS; skew++) {
      const edits: FitEdit[] = [{ op: 'set', path: `${base}.maxSkew`, value: skew }];
      if (!fitsWith(input, edits)) continue;
      out.push({ kind: 'topologySpread', summary: `topologySpreadConstraints[${c}] (${constraint.topologyKey}) maxSkew: ${skew}`, path: `${base}.maxSkew`, edits });
      return;
    }
    const path = `${base}.whenUnsatisfiable`;
    out.push({ kind: 'topologySpread', summary: `topologySpreadConstraints[${c}] (${constraint.topologyKey}) whenUnsatisfiable: ScheduleAnyway`, path, edits: [{ op: 'set', path, value: 'ScheduleAnyway' }] });
  });
  return out;
}

function suggestPodAffinity(input: SuggestionInput): Candidate[] {
  if (rowsBlockedOnlyBy(input.masks, F_POD_AFFINITY).length === 0) return [];
  const affinity = input.pod.spec?.affinity;
  const out: Candidate[] = [];
  const groups = [
    { field: 'podAffinity', terms: affinity?.podAffinity?.requiredDuringSchedulingIgnoredDuringExecution },
    { field: 'podAntiAffinity', terms: affinity?.podAntiAffinity?.requiredDuringSchedulingIgnoredDuringExecution },
  ] as const;
  for (const { field, terms } of groups) {
    (terms ?? []).forEach((term, i) => {
      const path = `spec.affinity.${field}.requiredDuringSchedulingIgnoredDuringExecution[${i}]`;
      out.push({ kind: 'podAffinity', summary: `without required ${field} to ${selectorText(term.labelSelector)} per ${term.topologyKey}`, path, edits: [{ op: 'remove', path }] });
    });
  }
  return out;
}

export function suggestPodPlacement(input: SuggestionInput): Candidate[] {
  return [...suggestSpread(input), ...suggestPodAffinity(input)];
}
