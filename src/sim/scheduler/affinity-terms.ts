/**
 * A pod's pod-affinity and pod-anti-affinity terms as the scheduler reads them (framework
 * `AffinityTerm` / `WeightedAffinityTerm`): the selector with `matchLabelKeys` and
 * `mismatchLabelKeys` merged in from the pod's own labels (the API server does the same on create
 * since 1.31), the namespaces (the pod's own when the term names none and has no
 * namespaceSelector) and the namespace selector.
 */
import type { Pod } from '../../core/k8s';
import type { PodAffinityTerm, WeightedPodAffinityTerm } from 'kubernetes-types/core/v1';
import { compileSelector, mergeSelectors, NOTHING, selectorMatches, type CompiledSelector } from './label-selector';
import { inNamespaces, namespaces as namespaceSet, type MatchablePod, type NamespaceSet } from './pod-matcher';

export type TermKind = 'requiredAffinity' | 'requiredAntiAffinity' | 'preferredAffinity' | 'preferredAntiAffinity';

export interface AffinityTerm {
  readonly kind: TermKind;
  /** 1 for required terms (the hard-affinity weight upstream scores them with). */
  readonly weight: number;
  readonly topologyKey: string;
  readonly namespaces: NamespaceSet;
  /** `labels.Nothing()` when the term has none; empty (every namespace) for `{}`. */
  readonly namespaceSelector: CompiledSelector;
  readonly selector: CompiledSelector;
  /** Equal for terms of the same kind and weight that select the same pods in the same topology. */
  readonly key: string;
}

function compileTerm(kind: TermKind, weight: number, term: PodAffinityTerm, namespace: string, labels: Readonly<Record<string, string>>): AffinityTerm {
  let selector = compileSelector(term.labelSelector);
  const match: Record<string, string> = {};
  for (const key of term.matchLabelKeys ?? []) if (labels[key] !== undefined) match[key] = labels[key];
  if (term.labelSelector && Object.keys(match).length > 0) selector = mergeSelectors(selector, compileSelector({ matchLabels: match }));
  const mismatch = (term.mismatchLabelKeys ?? []).filter((key) => labels[key] !== undefined);
  if (term.labelSelector && mismatch.length > 0) {
    selector = mergeSelectors(selector, compileSelector({ matchExpressions: mismatch.map((key) => ({ key, operator: 'NotIn', values: [labels[key]] })) }));
  }
  const names = term.namespaces ?? [];
  const namespaces = names.length === 0 && !term.namespaceSelector ? namespaceSet(namespace) : namespaceSet(...names);
  const namespaceSelector = term.namespaceSelector ? compileSelector(term.namespaceSelector) : NOTHING;
  const key = `${kind}|${weight}|${term.topologyKey}|${[...namespaces.names].sort().join(',')}|${namespaceSelector.key}|${selector.key}`;
  return { kind, weight, topologyKey: term.topologyKey, namespaces, namespaceSelector, selector, key };
}

function weighted(kind: TermKind, terms: WeightedPodAffinityTerm[] | undefined, namespace: string, labels: Readonly<Record<string, string>>): AffinityTerm[] {
  return (terms ?? []).map((term) => compileTerm(kind, term.weight, term.podAffinityTerm, namespace, labels));
}

function required(kind: TermKind, terms: PodAffinityTerm[] | undefined, namespace: string, labels: Readonly<Record<string, string>>): AffinityTerm[] {
  return (terms ?? []).map((term) => compileTerm(kind, 1, term, namespace, labels));
}

/** Every pod-affinity and anti-affinity term of `pod`; undefined when it has none (most pods). */
export function podAffinityTerms(pod: Pod): AffinityTerm[] | undefined {
  const affinity = pod.spec?.affinity;
  if (!affinity || (!affinity.podAffinity && !affinity.podAntiAffinity)) return undefined;
  const namespace = pod.metadata?.namespace ?? 'default';
  const labels = pod.metadata?.labels ?? {};
  const terms = [
    ...required('requiredAffinity', affinity.podAffinity?.requiredDuringSchedulingIgnoredDuringExecution, namespace, labels),
    ...required('requiredAntiAffinity', affinity.podAntiAffinity?.requiredDuringSchedulingIgnoredDuringExecution, namespace, labels),
    ...weighted('preferredAffinity', affinity.podAffinity?.preferredDuringSchedulingIgnoredDuringExecution, namespace, labels),
    ...weighted('preferredAntiAffinity', affinity.podAntiAffinity?.preferredDuringSchedulingIgnoredDuringExecution, namespace, labels),
  ];
  return terms.length > 0 ? terms : undefined;
}

/** `AffinityTerm.Matches`: the pod's namespace is named or selected (by its labels `namespaceLabels`), and its labels match. */
export function termMatchesPod(term: AffinityTerm, pod: MatchablePod, namespaceLabels: Readonly<Record<string, string>>): boolean {
  if (!inNamespaces(term.namespaces, pod.namespace) && !selectorMatches(term.namespaceSelector, namespaceLabels)) return false;
  return selectorMatches(term.selector, pod.labels);
}
