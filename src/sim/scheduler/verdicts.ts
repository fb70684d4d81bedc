/**
 * The scheduler's table for one attempt, as the internals stream records it: one row per node the
 * filters looked at (feasible nodes by total score, best first; then rejected nodes in walk
 * order), or only the counts in summary mode.
 */
import type { NodeVerdict } from '../../core/internals';
import { FILTER_PLUGINS, type Placement } from './framework';
import type { FilterFailure, FilterPluginName } from './plugins/types';

type FilterEntry = NodeVerdict['filters'][number];

const SUCCESS: Readonly<Record<FilterPluginName, FilterEntry>> = Object.freeze(
  Object.fromEntries(FILTER_PLUGINS.map((plugin) => [plugin, Object.freeze({ plugin, code: 'Success' as const })])) as Record<FilterPluginName, FilterEntry>,
);

/** Shared, frozen: every feasible node passed every filter. */
const ALL_PASSED: FilterEntry[] = Object.freeze(FILTER_PLUGINS.map((plugin) => SUCCESS[plugin])) as FilterEntry[];

function rejectedRow(node: string, failure: FilterFailure): NodeVerdict {
  const filters: FilterEntry[] = [];
  for (const plugin of FILTER_PLUGINS) {
    if (plugin === failure.plugin) break;
    filters.push(SUCCESS[plugin]);
  }
  filters.push({ plugin: failure.plugin, code: failure.code, reason: failure.reasons.join(', ') });
  return { node, filters };
}

export function buildVerdicts(placement: Placement): NodeVerdict[] {
  const rows: NodeVerdict[] = [];
  const { feasible, scores } = placement;
  if (scores) {
    const order = feasible.map((_, i) => i).sort((a, b) => scores.totals[b] - scores.totals[a] || (feasible[a] === placement.chosen ? -1 : feasible[b] === placement.chosen ? 1 : a - b));
    for (const i of order) {
      rows.push({
        node: feasible[i].name,
        filters: ALL_PASSED,
        scores: scores.plugins.map((p) => ({ plugin: p.name, score: p.weighted[i], weight: p.weight })),
        total: scores.totals[i],
      });
    }
  } else {
    for (const node of feasible) rows.push({ node: node.name, filters: ALL_PASSED });
  }
  for (const { node, failure } of placement.failures) rows.push(rejectedRow(node.name, failure));
  return rows;
}
