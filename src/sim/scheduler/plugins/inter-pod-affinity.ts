/**
 * InterPodAffinity (pkg/scheduler/framework/plugins/interpodaffinity). Filter: the node's domain
 * must hold a pod matching all of the pod's required affinity terms (unless no such pod exists
 * anywhere and the pod matches its own terms: the first pod of a group), must hold no pod matching
 * a required anti-affinity term, and must not be in a domain where an existing pod's required
 * anti-affinity term matches the incoming pod. Score: preferred terms both ways (and existing pods'
 * required affinity, with hardPodAffinityWeight 1) add or take the term's weight per matching pod
 * in each domain, normalised between the lowest and highest node.
 */
import type { NodeCache } from '../node-cache';
import type { NodeInfo } from '../node-info';
import type { PodSchedulingInfo } from '../pod-info';
import { termMatchesPod, type AffinityTerm } from '../affinity-terms';
import { isEmptySelector, mergeSelectors, NOTHING, selectorMatches } from '../label-selector';
import { ALL_NAMESPACES, podMatcher, type MatchablePod, type NamespaceSet } from '../pod-matcher';
import type { TopologyDomains } from '../topology-domains';
import { ScratchArrays } from '../scratch';
import { failure, MAX_NODE_SCORE, type FilterFailure } from './types';

// Module-local copy: see the note in types.ts on imported bindings.
const MAX_SCORE = MAX_NODE_SCORE;

export const ERR_REASON_AFFINITY_RULES_NOT_MATCH = "node(s) didn't match pod affinity rules";
export const ERR_REASON_ANTI_AFFINITY_RULES_NOT_MATCH = "node(s) didn't match pod anti-affinity rules";
export const ERR_REASON_EXISTING_ANTI_AFFINITY_RULES_NOT_MATCH = "node(s) didn't satisfy existing pods anti-affinity rules";
const AFFINITY_NOT_MATCH = failure('InterPodAffinity', 'UnschedulableAndUnresolvable', ERR_REASON_AFFINITY_RULES_NOT_MATCH);
const ANTI_AFFINITY_NOT_MATCH = failure('InterPodAffinity', 'Unschedulable', ERR_REASON_ANTI_AFFINITY_RULES_NOT_MATCH);
const EXISTING_ANTI_AFFINITY_NOT_MATCH = failure('InterPodAffinity', 'Unschedulable', ERR_REASON_EXISTING_ANTI_AFFINITY_RULES_NOT_MATCH);

/** `HardPodAffinityWeight`'s default. */
const HARD_POD_AFFINITY_WEIGHT = 1;

/** The namespaces the plugin lists to resolve namespace selectors. */
export interface NamespaceLabels {
  labelsOf(namespace: string): Readonly<Record<string, string>>;
  all(): readonly { name: string; labels: Readonly<Record<string, string>> }[];
}

/** `mergeAffinityTermNamespacesIfNotEmpty`: the incoming pod's term with its namespace selector resolved to names. */
function resolvedNamespaces(term: AffinityTerm, lister: NamespaceLabels): NamespaceSet {
  if (isEmptySelector(term.namespaceSelector)) return ALL_NAMESPACES;
  if (term.namespaceSelector.nothing) return term.namespaces;
  const names = new Set(term.namespaces.names);
  for (const ns of lister.all()) if (selectorMatches(term.namespaceSelector, ns.labels)) names.add(ns.name);
  return { all: false, names };
}

function intersect(a: NamespaceSet, b: NamespaceSet): NamespaceSet {
  if (a.all) return b;
  if (b.all) return a;
  return { all: false, names: new Set([...a.names].filter((name) => b.names.has(name))) };
}

const preFilterScratch = new ScratchArrays();
const preScoreScratch = new ScratchArrays();

/** Per domain of `domains`: the sum of `perRow` over the rows in it. */
function sumsByDomain(domains: TopologyDomains, perRow: Int32Array, rows: number): Float64Array {
  const sums = preFilterScratch.float64(domains.values.length);
  const { domainOf } = domains;
  for (let row = 0; row < rows; row++) {
    const count = perRow[row];
    if (count === 0) continue;
    const domain = domainOf[row];
    if (domain >= 0) sums[domain] += count;
  }
  return sums;
}

interface TermCounts {
  readonly domains: TopologyDomains;
  readonly sums: Float64Array;
}

export interface AffinityFilterState {
  /** Per required affinity term: the pods matching every term, per domain of the term's key. */
  readonly affinity: readonly TermCounts[];
  /** No pod anywhere matches all the affinity terms, and the pod matches them itself. */
  readonly firstOfItsGroup: boolean;
  readonly antiAffinity: readonly TermCounts[];
  /** Domains where an existing pod's required anti-affinity term matches the incoming pod. */
  readonly existingAntiAffinity: readonly { domains: TopologyDomains; blocked: Uint8Array }[];
}

function ofKind(pod: PodSchedulingInfo, kind: AffinityTerm['kind']): AffinityTerm[] {
  return pod.affinityTerms ? pod.affinityTerms.filter((t) => t.kind === kind) : [];
}

function asMatchable(pod: PodSchedulingInfo): MatchablePod {
  return { namespace: pod.namespace, labels: pod.labels, terminating: false };
}

/**
 * `PreFilter`; undefined when the pod has no required terms and no existing pod's anti-affinity
 * can refuse it (Skip). The state is valid until the next call.
 */
export function preFilterInterPodAffinity(pod: PodSchedulingInfo, cache: NodeCache, lister: NamespaceLabels): AffinityFilterState | undefined {
  preFilterScratch.reset();
  const affinityTerms = ofKind(pod, 'requiredAffinity');
  const antiTerms = ofKind(pod, 'requiredAntiAffinity');
  const rows = cache.nodeCount;
  const existingAntiAffinity: { domains: TopologyDomains; blocked: Uint8Array }[] = [];
  if (cache.termGroups.size > 0) {
    const self = asMatchable(pod);
    const namespaceLabels = lister.labelsOf(pod.namespace);
    const byKey = new Map<string, { domains: TopologyDomains; blocked: Uint8Array }>();
    for (const group of cache.termGroups.values()) {
      if (group.term.kind !== 'requiredAntiAffinity' || !termMatchesPod(group.term, self, namespaceLabels)) continue;
      let entry = byKey.get(group.term.topologyKey);
      if (!entry) {
        const domains = cache.domains(group.term.topologyKey);
        byKey.set(group.term.topologyKey, (entry = { domains, blocked: preFilterScratch.uint8(domains.values.length) }));
      }
      for (let row = 0; row < rows; row++) {
        const domain = entry.domains.domainOf[row];
        if (domain >= 0 && group.counts[row] > 0) entry.blocked[domain] = 1;
      }
    }
    existingAntiAffinity.push(...byKey.values());
  }
  if (affinityTerms.length === 0 && antiTerms.length === 0 && existingAntiAffinity.length === 0) return undefined;

  const affinity: TermCounts[] = [];
  let anyMatch = false;
  if (affinityTerms.length > 0) {
    // A pod matches all the terms when its namespace is in every term's set and its labels match every selector.
    let namespaces: NamespaceSet = ALL_NAMESPACES;
    let selector = affinityTerms[0].selector;
    affinityTerms.forEach((term, i) => {
      namespaces = intersect(namespaces, resolvedNamespaces(term, lister));
      if (i > 0) selector = mergeSelectors(selector, term.selector);
    });
    const perRow = cache.podCounts.counts(podMatcher(namespaces, selector, false));
    for (const term of affinityTerms) {
      const domains = cache.domains(term.topologyKey);
      const sums = sumsByDomain(domains, perRow, rows);
      if (sums.some((n) => n > 0)) anyMatch = true;
      affinity.push({ domains, sums });
    }
  }
  const self = asMatchable(pod);
  const firstOfItsGroup = affinityTerms.length > 0 && !anyMatch && affinityTerms.every((term) => termMatchesPod({ ...term, namespaces: resolvedNamespaces(term, lister), namespaceSelector: NOTHING }, self, {}));
  const antiAffinity = antiTerms.map((term) => {
    const domains = cache.domains(term.topologyKey);
    return { domains, sums: sumsByDomain(domains, cache.podCounts.counts(podMatcher(resolvedNamespaces(term, lister), term.selector, false)), rows) };
  });
  return { affinity, firstOfItsGroup, antiAffinity, existingAntiAffinity };
}

export function filterInterPodAffinity(state: AffinityFilterState, node: NodeInfo): FilterFailure | null {
  const row = node.index;
  let podsExist = true;
  for (const { domains, sums } of state.affinity) {
    const domain = domains.domainOf[row];
    if (domain < 0) return AFFINITY_NOT_MATCH;
    if (sums[domain] <= 0) podsExist = false;
  }
  if (!podsExist && !state.firstOfItsGroup) return AFFINITY_NOT_MATCH;
  for (const { domains, sums } of state.antiAffinity) {
    const domain = domains.domainOf[row];
    if (domain >= 0 && sums[domain] > 0) return ANTI_AFFINITY_NOT_MATCH;
  }
  for (const { domains, blocked } of state.existingAntiAffinity) {
    const domain = domains.domainOf[row];
    if (domain >= 0 && blocked[domain]) return EXISTING_ANTI_AFFINITY_NOT_MATCH;
  }
  return null;
}

/** PreScore's `topologyScore`: per topology key, a score per domain. */
export type AffinityScoreState = readonly { domains: TopologyDomains; scores: Float64Array }[];

/** `PreScore`; undefined when no term on either side matched anything (Skip). Valid until the next call. */
export function preScoreInterPodAffinity(pod: PodSchedulingInfo, cache: NodeCache, lister: NamespaceLabels): AffinityScoreState | undefined {
  const hasPreferred = pod.affinityTerms?.some((t) => t.kind === 'preferredAffinity' || t.kind === 'preferredAntiAffinity') ?? false;
  if (!hasPreferred && cache.termGroups.size === 0) return undefined;
  preScoreScratch.reset();
  const rows = cache.nodeCount;
  const byKey = new Map<string, { domains: TopologyDomains; scores: Float64Array }>();
  let touched = false;
  const add = (topologyKey: string, perRow: Int32Array, amount: number): void => {
    let entry = byKey.get(topologyKey);
    if (!entry) {
      const domains = cache.domains(topologyKey);
      byKey.set(topologyKey, (entry = { domains, scores: preScoreScratch.float64(domains.values.length) }));
    }
    const { domainOf } = entry.domains;
    const scores = entry.scores;
    for (let row = 0; row < rows; row++) {
      const count = perRow[row];
      if (count === 0) continue;
      const domain = domainOf[row];
      if (domain < 0) continue;
      scores[domain] += amount * count;
      touched = true;
    }
  };
  for (const term of pod.affinityTerms ?? []) {
    if (term.kind !== 'preferredAffinity' && term.kind !== 'preferredAntiAffinity') continue;
    const perRow = cache.podCounts.counts(podMatcher(resolvedNamespaces(term, lister), term.selector, false));
    add(term.topologyKey, perRow, term.kind === 'preferredAffinity' ? term.weight : -term.weight);
  }
  if (cache.termGroups.size > 0) {
    const self = asMatchable(pod);
    const namespaceLabels = lister.labelsOf(pod.namespace);
    for (const group of cache.termGroups.values()) {
      const { term } = group;
      if (term.kind === 'requiredAntiAffinity' || !termMatchesPod(term, self, namespaceLabels)) continue;
      const amount = term.kind === 'requiredAffinity' ? HARD_POD_AFFINITY_WEIGHT : term.kind === 'preferredAffinity' ? term.weight : -term.weight;
      add(term.topologyKey, group.counts, amount);
    }
  }
  return touched ? [...byKey.values()] : undefined;
}

export function scoreInterPodAffinity(state: AffinityScoreState, row: number): number {
  let score = 0;
  for (const { domains, scores } of state) {
    const domain = domains.domainOf[row];
    if (domain >= 0) score += scores[domain];
  }
  return score;
}

/** `NormalizeScore`: scaled between the lowest (0) and the highest (100) node; all equal gives 0. */
export function normalizeInterPodAffinity(scores: Float64Array, length: number): void {
  let min = Infinity;
  let max = -Infinity;
  for (let i = 0; i < length; i++) {
    if (scores[i] > max) max = scores[i];
    if (scores[i] < min) min = scores[i];
  }
  const diff = max - min;
  for (let i = 0; i < length; i++) scores[i] = diff > 0 ? Math.trunc(MAX_SCORE * ((scores[i] - min) / diff)) : 0;
}
