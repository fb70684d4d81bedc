/**
 * The scheduler's table for one attempt, as the internals stream records it: one row per node the
 * filters looked at (feasible nodes by total score, best first; then rejected nodes in walk
 * order), or only the counts in summary mode.
 */
import type { NodeVerdict } from '../../core/internals';
import { FILTER_PLUGINS, type Placement } from './framework';
import type { FilterFailure, FilterPluginName } from './plugins/types';

type FilterEntry = NodeVerdict['filters'][number];

const ALL_FILTER_PLUGINS: readonly FilterPluginName[] = [...FILTER_PLUGINS, 'VolumeRestrictions', 'VolumeBinding', 'VolumeZone'];
const SUCCESS: Readonly<Record<FilterPluginName, FilterEntry>> = Object.freeze(
  Object.fromEntries(ALL_FILTER_PLUGINS.map((plugin) => [plugin, Object.freeze({ plugin, code: 'Success' as const })])) as Record<FilterPluginName, FilterEntry>,
);

/** Shared, frozen: every feasible node passed every filter. */
const ALL_PASSED: FilterEntry[] = Object.freeze(FILTER_PLUGINS.map((plugin) => SUCCESS[plugin])) as FilterEntry[];

function rejectedRow(node: string, failure: FilterFailure, plugins: readonly FilterPluginName[]): NodeVerdict {
  const filters: FilterEntry[] = [];
  for (const plugin of plugins) {
    if (plugin === failure.plugin) break;
    filters.push(SUCCESS[plugin]);
  }
  filters.push({ plugin: failure.plugin, code: failure.code, reason: failure.reasons.join(', ') });
  return { node, filters };
}

/** `volumePlugins`: the volume filters that ran for this pod (a pod with claims), after the others. */
export function buildVerdicts(placement: Placement, volumePlugins: readonly FilterPluginName[] = []): NodeVerdict[] {
  const rows: NodeVerdict[] = [];
  const plugins = volumePlugins.length === 0 ? FILTER_PLUGINS : [...FILTER_PLUGINS, ...volumePlugins];
  const passed = volumePlugins.length === 0 ? ALL_PASSED : (Object.freeze(plugins.map((plugin) => SUCCESS[plugin])) as FilterEntry[]);
  const { feasible, scores } = placement;
  if (scores) {
    const order = feasible.map((_, i) => i).sort((a, b) => scores.totals[b] - scores.totals[a] || (feasible[a] === placement.chosen ? -1 : feasible[b] === placement.chosen ? 1 : a - b));
    for (const i of order) {
      rows.push({
        node: feasible[i].name,
        filters: passed,
        scores: scores.plugins.map((p) => ({ plugin: p.name, score: p.weighted[i], weight: p.weight })),
        total: scores.totals[i],
      });
    }
  } else {
    for (const node of feasible) rows.push({ node: node.name, filters: passed });
  }
  for (const { node, failure } of placement.failures) rows.push(rejectedRow(node.name, failure, plugins));
  return rows;
}
