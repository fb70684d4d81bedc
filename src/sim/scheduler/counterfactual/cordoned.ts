/**
 * `kubectl uncordon node-2`: nodes refused only because they are cordoned (`spec.unschedulable`,
 * and the `node.kubernetes.io/unschedulable` taint that goes with it on a real cluster). The
 * change is to the cluster, not the manifest, so it is counted here rather than re-checked with an
 * edited pod.
 */
import { tolerationsTolerateTaint } from '../tolerations';
import { F_TAINTS, F_UNSCHEDULABLE, rowsBlockedOnlyBy } from './probe';
import type { Candidate, SuggestionInput } from './types';

const NAMES_SHOWN = 3;
const UNSCHEDULABLE_TAINT_KEY = 'node.kubernetes.io/unschedulable';

export function suggestUncordon(input: SuggestionInput): Candidate[] {
  const { probe, masks, prepared } = input;
  const rows = rowsBlockedOnlyBy(masks, F_UNSCHEDULABLE | F_TAINTS, F_UNSCHEDULABLE).filter((row) => {
    if ((masks[row] & F_TAINTS) === 0) return true;
    // Refused for its taints too: only the cordon's own taint may be among them.
    return probe.nodes[row].taints.every((t) => t.key === UNSCHEDULABLE_TAINT_KEY || t.effect === 'PreferNoSchedule' || tolerationsTolerateTaint(prepared.info.tolerations, t));
  });
  if (rows.length === 0) return [];
  const names = rows.map((row) => probe.nodes[row].name).sort();
  const more = names.length > NAMES_SHOWN ? ` … (${names.length - NAMES_SHOWN} more)` : '';
  const command = `kubectl uncordon ${names.slice(0, NAMES_SHOWN).join(' ')}${more}`;
  return [{ kind: 'uncordon', summary: command, command, edits: [], nodes: rows.length }];
}
