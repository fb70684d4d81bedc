/**
 * The scheduler's table for one attempt, as the internals stream records it: a `VerdictTable`
 * (src/common/verdict-table.ts) naming the evaluated stretch of the node list, each node's first
 * failing filter, and the scores of the best feasible nodes. Encoding it costs one small array per
 * attempt; the rows are rebuilt only when a reader opens them.
 */
import { SCORED_ROWS_KEPT, encodeOutcomes, type FilterFailureVerdict, type NodeList, type VerdictTable } from '../../common/verdict-table';
import { FILTER_PLUGINS, type Placement } from './framework';
import type { FilterPluginName } from './plugins/types';

/** Plugin lists by their names: every attempt with the same plugins shares one frozen list. */
const sharedLists = new Map<string, readonly unknown[]>();
function shared<T>(key: string, make: () => T[]): readonly T[] {
  let list = sharedLists.get(key) as readonly T[] | undefined;
  if (!list) sharedLists.set(key, (list = Object.freeze(make())));
  return list;
}

/** Reused between attempts: the walk's outcomes before they are run-length encoded. */
let outcomeScratch = new Int32Array(256);

/**
 * The rows of the `SCORED_ROWS_KEPT` highest totals, best first (the chosen row first among equal
 * totals, then walk order): one pass over the feasible nodes instead of sorting them all.
 */
function bestRows(totals: Float64Array, length: number, chosen: number): number[] {
  const better = (a: number, b: number): boolean => totals[a] > totals[b] || (totals[a] === totals[b] && (a === chosen || (b !== chosen && a < b)));
  const best: number[] = [];
  for (let i = 0; i < length; i++) {
    if (best.length === SCORED_ROWS_KEPT && !better(i, best[best.length - 1])) continue;
    let at = best.length === SCORED_ROWS_KEPT ? best.length - 1 : best.length;
    while (at > 0 && better(i, best[at - 1])) {
      best[at] = best[at - 1];
      at--;
    }
    best[at] = i;
  }
  return best;
}

/**
 * `nodeList`: the scheduler's node list the walk ran over; `volumePlugins`: the volume filters
 * that ran for this pod (a pod with claims), after the others.
 */
export function buildVerdictTable(placement: Placement, nodeList: NodeList, volumePlugins: readonly FilterPluginName[] = []): VerdictTable {
  const filters = shared(`filters:${volumePlugins.join(',')}`, () => [...FILTER_PLUGINS, ...volumePlugins]);
  const failures: FilterFailureVerdict[] = [];
  const failureIndex = new Map<string, number>();
  const outcomeOf = (failure: Placement['failures'][number]['failure']): number => {
    const reason = failure.reasons.join(', ');
    const key = `${failure.plugin}\u0000${failure.code}\u0000${reason}`;
    let index = failureIndex.get(key);
    if (index === undefined) {
      failures.push({ plugin: failure.plugin, code: failure.code, reason });
      failureIndex.set(key, (index = failures.length));
    }
    return index;
  };
  const listed = placement.walkStart === undefined;
  const evaluated = listed ? placement.feasible.length + placement.failures.length : placement.evaluated;
  if (outcomeScratch.length < evaluated) outcomeScratch = new Int32Array(Math.max(evaluated, outcomeScratch.length * 2));
  const outcomes = outcomeScratch;
  outcomes.fill(0, 0, evaluated);
  const listSize = nodeList.names.length;
  const start = placement.walkStart ?? 0;
  // A walk evaluates a stretch of the node list; a pod that names its nodes lists its feasible nodes, then the rejected ones.
  const positionOf = (nodeIndex: number, listedAt: number): number => (listed ? listedAt : (nodeIndex - start + listSize) % listSize);
  placement.failures.forEach(({ node, failure }, i) => {
    outcomes[positionOf(node.index, placement.feasible.length + i)] = outcomeOf(failure);
  });
  const scores = placement.scores;
  const scored: number[] = [];
  if (scores) {
    for (const i of bestRows(scores.totals, placement.feasible.length, placement.feasible.indexOf(placement.chosen!))) {
      scored.push(positionOf(placement.feasible[i].index, i), scores.totals[i]);
      for (const plugin of scores.plugins) scored.push(plugin.weighted[i]);
    }
  }
  return {
    nodes: listed ? { names: [...placement.feasible.map((node) => node.name), ...placement.failures.map(({ node }) => node.name)] } : { list: nodeList, start, count: evaluated },
    filters,
    outcomes: encodeOutcomes(outcomes, evaluated),
    failures,
    scorePlugins: scores ? shared(`scores:${scores.plugins.map((p) => `${p.name}×${p.weight}`).join(',')}`, () => scores.plugins.map((p) => ({ plugin: p.name, weight: p.weight }))) : [],
    scored,
  };
}
