/**
 * PodTopologySpread (pkg/scheduler/framework/plugins/podtopologyspread). Filter: for each
 * `DoNotSchedule` constraint, the pods its selector matches in the node's domain, plus one if the
 * pod matches itself, minus the fewest in any eligible domain (0 while fewer than `minDomains`
 * domains exist) must not exceed `maxSkew`. Score: for `ScheduleAnyway` constraints (or, for a pod
 * with no constraints that a Service, ReplicationController, ReplicaSet or StatefulSet selects,
 * the cluster defaults: hostname skew 3, zone skew 5), fewer matching pods in the node's domains
 * score higher. Per-node counts come from the cache's incremental index (pod-counts.ts).
 */
import type { TopologySpreadConstraint } from 'kubernetes-types/core/v1';
import { compileSelector, mergeSelectors, selectorMatches, type CompiledSelector } from '../label-selector';
import type { NodeCache } from '../node-cache';
import type { NodeInfo } from '../node-info';
import { matchesRequiredNodeAffinity, type PodSchedulingInfo } from '../pod-info';
import { namespaces, podMatcher, type PodMatcher } from '../pod-matcher';
import { findUntoleratedTaint } from '../tolerations';
import type { TopologyDomains } from '../topology-domains';
import { ScratchArrays } from '../scratch';
import { failure, MAX_NODE_SCORE, type FilterFailure } from './types';

// Module-local copy: see the note in types.ts on imported bindings.
const MAX_SCORE = MAX_NODE_SCORE;

export const ERR_REASON_CONSTRAINTS_NOT_MATCH = "node(s) didn't match pod topology spread constraints";
export const ERR_REASON_NODE_LABEL_NOT_MATCH = `${ERR_REASON_CONSTRAINTS_NOT_MATCH} (missing required label)`;
const CONSTRAINTS_NOT_MATCH = failure('PodTopologySpread', 'Unschedulable', ERR_REASON_CONSTRAINTS_NOT_MATCH);
const NODE_LABEL_NOT_MATCH = failure('PodTopologySpread', 'UnschedulableAndUnresolvable', ERR_REASON_NODE_LABEL_NOT_MATCH);

export const LABEL_HOSTNAME = 'kubernetes.io/hostname';
export const LABEL_TOPOLOGY_ZONE = 'topology.kubernetes.io/zone';

/** `systemDefaultConstraints` (plugin.go), used with `defaultingType: System`, the default. */
export const SYSTEM_DEFAULT_CONSTRAINTS: readonly TopologySpreadConstraint[] = Object.freeze([
  { topologyKey: LABEL_HOSTNAME, whenUnsatisfiable: 'ScheduleAnyway', maxSkew: 3 },
  { topologyKey: LABEL_TOPOLOGY_ZONE, whenUnsatisfiable: 'ScheduleAnyway', maxSkew: 5 },
]);

export interface SpreadConstraint {
  readonly maxSkew: number;
  readonly topologyKey: string;
  readonly minDomains: number;
  readonly honorNodeAffinity: boolean;
  readonly honorNodeTaints: boolean;
  readonly matcher: PodMatcher;
  /** Whether the incoming pod's own labels match (the `selfMatchNum`). */
  readonly selfMatch: boolean;
}

function compileConstraint(pod: PodSchedulingInfo, c: TopologySpreadConstraint, selector: CompiledSelector): SpreadConstraint {
  return {
    maxSkew: c.maxSkew,
    topologyKey: c.topologyKey,
    minDomains: c.minDomains ?? 1,
    honorNodeAffinity: (c.nodeAffinityPolicy ?? 'Honor') === 'Honor',
    honorNodeTaints: (c.nodeTaintsPolicy ?? 'Ignore') === 'Honor',
    matcher: podMatcher(namespaces(pod.namespace), selector, true),
    selfMatch: selectorMatches(selector, pod.labels),
  };
}

/** `filterTopologySpreadConstraints`: the pod's constraints of one `whenUnsatisfiable`, matchLabelKeys merged into the selector. */
export function podConstraints(pod: PodSchedulingInfo, action: 'DoNotSchedule' | 'ScheduleAnyway'): SpreadConstraint[] {
  const result: SpreadConstraint[] = [];
  for (const c of pod.topologySpreadConstraints) {
    if (c.whenUnsatisfiable !== action) continue;
    let selector = compileSelector(c.labelSelector);
    const match: Record<string, string> = {};
    for (const key of c.matchLabelKeys ?? []) if (pod.labels[key] !== undefined) match[key] = pod.labels[key];
    if (Object.keys(match).length > 0) selector = mergeSelectors(compileSelector({ matchLabels: match }), selector);
    result.push(compileConstraint(pod, c, selector));
  }
  return result;
}

/**
 * The last default constraints built: the pods of one controller share their default selector
 * object (cluster-lookups.ts caches it), so consecutive pods reuse the compiled constraints
 * instead of building matchers afresh. They depend on nothing else but the pod's namespace
 * and whether its labels match the selector.
 */
let lastDefaults: { selector: CompiledSelector; namespace: string; selfMatch: boolean; constraints: readonly SpreadConstraint[] } | undefined;

const NO_CONSTRAINTS: readonly SpreadConstraint[] = Object.freeze([]);

/** `buildDefaultConstraints`: the system defaults with the selector of the Services and controller selecting the pod. */
export function defaultConstraints(pod: PodSchedulingInfo, defaultSelector: CompiledSelector | undefined): readonly SpreadConstraint[] {
  if (!defaultSelector || defaultSelector.nothing || defaultSelector.requirements.length === 0) return NO_CONSTRAINTS;
  const selfMatch = selectorMatches(defaultSelector, pod.labels);
  const last = lastDefaults;
  if (last && last.selector === defaultSelector && last.namespace === pod.namespace && last.selfMatch === selfMatch) return last.constraints;
  const constraints = Object.freeze(SYSTEM_DEFAULT_CONSTRAINTS.map((c) => compileConstraint(pod, c, defaultSelector)));
  lastDefaults = { selector: defaultSelector, namespace: pod.namespace, selfMatch, constraints };
  return constraints;
}

/** `matchNodeInclusionPolicies`. */
function includesNode(pod: PodSchedulingInfo, c: SpreadConstraint, node: NodeInfo): boolean {
  if (c.honorNodeAffinity && !matchesRequiredNodeAffinity(pod, node)) return false;
  if (c.honorNodeTaints && findUntoleratedTaint(node.taints, pod.tolerations, (effect) => effect === 'NoSchedule' || effect === 'NoExecute')) return false;
  return true;
}

/** Whether any node could be left out by an inclusion policy (else every labelled node counts, the fast path). */
function policiesMayExclude(pod: PodSchedulingInfo, c: SpreadConstraint): boolean {
  return (c.honorNodeAffinity && (pod.nodeSelector.length > 0 || pod.requiredTerms !== undefined)) || c.honorNodeTaints;
}

/** `nodeLabelsMatchSpreadConstraints`, on the domain tables. */
function hasAllKeys(domains: readonly TopologyDomains[], row: number): boolean {
  for (const d of domains) if (d.domainOf[row] < 0) return false;
  return true;
}

/** PreFilter's state: per constraint, matching pods per domain and the global minimum (critical path). */
export interface SpreadFilterState {
  readonly constraints: readonly SpreadConstraint[];
  readonly domains: readonly TopologyDomains[];
  readonly matchNum: readonly Float64Array[];
  readonly minMatchNum: readonly number[];
}

const preFilterScratch = new ScratchArrays();
const preScoreScratch = new ScratchArrays();

/**
 * `calPreFilterState`; undefined when the pod has no `DoNotSchedule` constraint (the plugin's
 * Skip). The state is valid until the next call.
 */
export function preFilterPodTopologySpread(pod: PodSchedulingInfo, cache: NodeCache): SpreadFilterState | undefined {
  if (pod.topologySpreadConstraints.length === 0) return undefined;
  const constraints = podConstraints(pod, 'DoNotSchedule');
  if (constraints.length === 0) return undefined;
  preFilterScratch.reset();
  const domains = constraints.map((c) => cache.domains(c.topologyKey));
  const nodes = cache.nodes;
  const matchNum: Float64Array[] = [];
  const minMatchNum: number[] = [];
  constraints.forEach((c, i) => {
    const d = domains[i];
    const counts = cache.podCounts.counts(c.matcher);
    const eligible = preFilterScratch.uint8(d.values.length);
    const sums = preFilterScratch.float64(d.values.length);
    const checkPolicies = policiesMayExclude(pod, c);
    const { domainOf } = d;
    // One constraint (the usual case): its own key is the only one a node must have.
    const otherKeys = domains.length > 1;
    for (let row = 0; row < nodes.length; row++) {
      const domain = domainOf[row];
      if (domain < 0 || (otherKeys && !hasAllKeys(domains, row))) continue;
      if (checkPolicies && !includesNode(pod, c, nodes[row])) continue;
      eligible[domain] = 1;
      sums[domain] += counts[row];
    }
    let min = Number.MAX_SAFE_INTEGER;
    let domainCount = 0;
    for (let k = 0; k < eligible.length; k++) {
      if (!eligible[k]) continue;
      domainCount++;
      if (sums[k] < min) min = sums[k];
    }
    matchNum.push(sums);
    minMatchNum.push(domainCount < c.minDomains ? 0 : min);
  });
  return { constraints, domains, matchNum, minMatchNum };
}

export function filterPodTopologySpread(state: SpreadFilterState, node: NodeInfo): FilterFailure | null {
  const { constraints, domains, matchNum, minMatchNum } = state;
  for (let i = 0; i < constraints.length; i++) {
    const domain = domains[i].domainOf[node.index];
    if (domain < 0) return NODE_LABEL_NOT_MATCH;
    const c = constraints[i];
    const skew = matchNum[i][domain] + (c.selfMatch ? 1 : 0) - minMatchNum[i];
    if (skew > c.maxSkew) return CONSTRAINTS_NOT_MATCH;
  }
  return null;
}

/** PreScore's state: the soft constraints, their weights and the per-domain counts of the non-hostname ones. */
export interface SpreadScoreState {
  readonly constraints: readonly SpreadConstraint[];
  readonly domains: readonly TopologyDomains[];
  readonly counts: readonly Int32Array[];
  /** Per constraint: matching pods per domain (hostname constraints read `counts` per node). */
  readonly domainSums: readonly (Float64Array | undefined)[];
  readonly weights: readonly number[];
  readonly requireAllTopologies: boolean;
}

/**
 * `PreScore` over the feasible rows; undefined when there is nothing to score (the plugin's Skip).
 * `defaultSelector` is asked only for a pod without constraints. Valid until the next call.
 */
export function preScorePodTopologySpread(pod: PodSchedulingInfo, cache: NodeCache, rows: Int32Array, length: number, defaultSelector: () => CompiledSelector | undefined): SpreadScoreState | undefined {
  const explicit = pod.topologySpreadConstraints.length > 0;
  const constraints = explicit ? podConstraints(pod, 'ScheduleAnyway') : defaultConstraints(pod, defaultSelector());
  if (constraints.length === 0 || cache.nodeCount === 0) return undefined;
  preScoreScratch.reset();
  // Only constraints the pod sets need every key on a node: nodes without a zone still spread by hostname.
  const requireAllTopologies = explicit;
  const domains = constraints.map((c) => cache.domains(c.topologyKey));
  const counts = constraints.map((c) => cache.podCounts.counts(c.matcher));
  const nodes = cache.nodes;
  const domainSums: (Float64Array | undefined)[] = [];
  const weights: number[] = [];
  let scored = requireAllTopologies ? 0 : length;
  if (requireAllTopologies) for (let i = 0; i < length; i++) if (hasAllKeys(domains, rows[i])) scored++;
  constraints.forEach((c, k) => {
    const d = domains[k];
    if (c.topologyKey === LABEL_HOSTNAME) {
      domainSums.push(undefined);
      weights.push(Math.log(scored + 2));
      return;
    }
    // The domains of the feasible nodes; the pods counted in them come from every node.
    const present = preScoreScratch.uint8(d.values.length);
    let size = 0;
    // No node has the key (a zone constraint on nodes without zones): no feasible domain.
    if (d.values.length > 0) for (let i = 0; i < length; i++) {
      const row = rows[i];
      if (requireAllTopologies && !hasAllKeys(domains, row)) continue;
      const domain = d.domainOf[row];
      if (domain >= 0 && !present[domain]) {
        present[domain] = 1;
        size++;
      }
    }
    const sums = preScoreScratch.float64(d.values.length);
    const checkPolicies = policiesMayExclude(pod, c);
    const perNode = counts[k];
    if (size > 0 && !checkPolicies && (!requireAllTopologies || domains.length === 1)) {
      // Every node with the key counts: the index's running per-domain totals, instead of a walk over every node.
      const totals = cache.podCounts.domainTotals(c.matcher, d);
      for (let domain = 0; domain < sums.length; domain++) if (present[domain]) sums[domain] = totals[domain];
    } else if (size > 0) for (let row = 0; row < nodes.length; row++) {
      const domain = d.domainOf[row];
      if (domain < 0 || !present[domain] || perNode[row] === 0) continue;
      if (requireAllTopologies && !hasAllKeys(domains, row)) continue;
      if (checkPolicies && !includesNode(pod, c, nodes[row])) continue;
      sums[domain] += perNode[row];
    }
    domainSums.push(sums);
    weights.push(Math.log(size + 2));
  });
  return { constraints, domains, counts, domainSums, weights, requireAllTopologies };
}

/** `Score`: the weighted matching-pod counts of the node's domains; -1 for a node PreScore ignores. */
export function scorePodTopologySpread(state: SpreadScoreState, row: number): number {
  const { constraints, domains, counts, domainSums, weights } = state;
  if (state.requireAllTopologies && !hasAllKeys(domains, row)) return -1;
  let score = 0;
  for (let i = 0; i < constraints.length; i++) {
    const domain = domains[i].domainOf[row];
    if (domain < 0) continue;
    const sums = domainSums[i];
    const count = sums ? sums[domain] : counts[i][row];
    score += count * weights[i] + (constraints[i].maxSkew - 1);
  }
  return Math.round(score);
}

/** The raw sums of `Score` for the rows, before rounding: a constraint at a time, each row's terms in constraint order. */
function addConstraintTerms(state: SpreadScoreState, rows: Int32Array, length: number, scores: Float64Array): void {
  const { constraints, domains, counts, domainSums, weights } = state;
  scores.fill(0, 0, length);
  for (let k = 0; k < constraints.length; k++) {
    const { domainOf, values } = domains[k];
    // A key no node has (zones on a cluster without them) adds nothing to any row.
    if (values.length === 0) continue;
    const weight = weights[k];
    const offset = constraints[k].maxSkew - 1;
    const sums = domainSums[k];
    const perNode = counts[k];
    for (let i = 0; i < length; i++) {
      const row = rows[i];
      const domain = domainOf[row];
      if (domain < 0) continue;
      scores[i] += (sums ? sums[domain] : perNode[row]) * weight + offset;
    }
  }
}

/**
 * `Score` for the rows `rows[0..length)` into `scores`: the same sums as `scorePodTopologySpread`
 * (each row's terms added in constraint order, then rounded), computed a constraint at a time.
 */
export function scorePodTopologySpreadRows(state: SpreadScoreState, rows: Int32Array, length: number, scores: Float64Array): void {
  addConstraintTerms(state, rows, length, scores);
  const requireAll = state.requireAllTopologies;
  for (let i = 0; i < length; i++) scores[i] = requireAll && !hasAllKeys(state.domains, rows[i]) ? -1 : Math.round(scores[i]);
}

/**
 * `scorePodTopologySpreadRows`, `normalizePodTopologySpread`, then each row's normalised score
 * times `weight` added to `totals`: the same numbers in three passes over the rows instead of six
 * (the scheduler's summary path, which keeps no per-plugin column). `scratch` holds the raw scores.
 */
export function addWeightedPodTopologySpread(state: SpreadScoreState, rows: Int32Array, length: number, weight: number, scratch: Float64Array, totals: Float64Array): void {
  addConstraintTerms(state, rows, length, scratch);
  const { requireAllTopologies, domains } = state;
  let min = Number.MAX_SAFE_INTEGER;
  let max = 0;
  for (let i = 0; i < length; i++) {
    if (requireAllTopologies && !hasAllKeys(domains, rows[i])) {
      scratch[i] = -1;
      continue;
    }
    const s = Math.round(scratch[i]);
    scratch[i] = s;
    if (s < min) min = s;
    if (s > max) max = s;
  }
  for (let i = 0; i < length; i++) {
    const s = scratch[i];
    const normalized = s < 0 ? 0 : max === 0 ? MAX_SCORE : Math.trunc((MAX_SCORE * (max + min - s)) / max);
    totals[i] += weight * normalized;
  }
}

/** `NormalizeScore`: fewer is better, scaled by the highest; ignored nodes (-1) score 0. */
export function normalizePodTopologySpread(scores: Float64Array, length: number): void {
  let min = Number.MAX_SAFE_INTEGER;
  let max = 0;
  for (let i = 0; i < length; i++) {
    const s = scores[i];
    if (s < 0) continue;
    if (s < min) min = s;
    if (s > max) max = s;
  }
  for (let i = 0; i < length; i++) {
    const s = scores[i];
    if (s < 0) scores[i] = 0;
    else if (max === 0) scores[i] = MAX_SCORE;
    else scores[i] = Math.trunc((MAX_SCORE * (max + min - s)) / max);
  }
}
