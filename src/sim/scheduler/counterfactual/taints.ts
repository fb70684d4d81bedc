/**
 * `toleration dedicated=gpu:NoSchedule`: the tolerations that open nodes refused only for their
 * taints. Nodes are grouped by the set of hard taints the pod does not tolerate there; each group
 * is one suggestion (one toleration per taint), the groups with the most nodes first. Taints the
 * node lifecycle controller sets for a node condition (`node.kubernetes.io/not-ready`, …) are left
 * out: tolerating a broken node is not a fix.
 */
import type { Taint, Toleration } from '../../../core/k8s';
import { tolerationsTolerateTaint } from '../tolerations';
import { F_TAINTS, rowsBlockedOnlyBy } from './probe';
import type { Candidate, SuggestionInput } from './types';

const MOST_GROUPS = 3;
const CONDITION_TAINT_PREFIX = 'node.kubernetes.io/';

function isHard(taint: Taint): boolean {
  return taint.effect === 'NoSchedule' || taint.effect === 'NoExecute';
}

/** `key=value:Effect`, as `kubectl taint` writes a taint. */
export function taintText(taint: Taint): string {
  return `${taint.key}${taint.value ? `=${taint.value}` : ''}:${taint.effect}`;
}

export function tolerationFor(taint: Taint): Toleration {
  return taint.value ? { key: taint.key, operator: 'Equal', value: taint.value, effect: taint.effect } : { key: taint.key, operator: 'Exists', effect: taint.effect };
}

export function suggestTolerations(input: SuggestionInput): Candidate[] {
  const { probe, prepared, masks } = input;
  const tolerations = prepared.info.tolerations;
  const groups = new Map<string, { taints: Taint[]; nodes: number }>();
  for (const row of rowsBlockedOnlyBy(masks, F_TAINTS)) {
    const untolerated = probe.nodes[row].taints.filter((t) => isHard(t) && !tolerationsTolerateTaint(tolerations, t));
    if (untolerated.length === 0 || untolerated.some((t) => t.key.startsWith(CONDITION_TAINT_PREFIX))) continue;
    const key = untolerated.map(taintText).sort().join(',');
    const group = groups.get(key);
    if (group) group.nodes++;
    else groups.set(key, { taints: untolerated, nodes: 1 });
  }
  return [...groups.values()]
    .sort((a, b) => b.nodes - a.nodes)
    .slice(0, MOST_GROUPS)
    .map(({ taints }) => ({
      kind: 'toleration' as const,
      summary: `toleration ${taints.map(taintText).join(', ')}`,
      path: 'spec.tolerations',
      edits: taints.map((taint) => ({ op: 'add' as const, path: 'spec.tolerations', value: tolerationFor(taint) })),
    }));
}
