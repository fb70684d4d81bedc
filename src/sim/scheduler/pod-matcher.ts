/**
 * Which pods a spread constraint or an affinity term counts: a namespace set (a term's
 * `namespaces` and `namespaceSelector` resolved, `schedutil.GetNamespacesFromPodAffinityTerm`) and
 * a label selector. PodTopologySpread skips terminating pods (`countPodsMatchSelector`, #87621);
 * InterPodAffinity counts them.
 */
import { selectorMatches, type CompiledSelector } from './label-selector';

export interface NamespaceSet {
  /** An empty namespaceSelector (`{}`): every namespace. */
  readonly all: boolean;
  readonly names: ReadonlySet<string>;
}

export interface PodMatcher {
  readonly namespaces: NamespaceSet;
  readonly selector: CompiledSelector;
  readonly skipTerminating: boolean;
  /** Equal for matchers that count the same pods. */
  readonly key: string;
}

/** What a matcher reads from a placed pod. */
export interface MatchablePod {
  readonly namespace: string;
  readonly labels: Readonly<Record<string, string>>;
  readonly terminating: boolean;
}

export const ALL_NAMESPACES: NamespaceSet = Object.freeze({ all: true, names: new Set<string>() });

export function namespaces(...names: string[]): NamespaceSet {
  return { all: false, names: new Set(names) };
}

export function podMatcher(namespaceSet: NamespaceSet, selector: CompiledSelector, skipTerminating: boolean): PodMatcher {
  const nsKey = namespaceSet.all ? '*' : [...namespaceSet.names].sort().join(',');
  return { namespaces: namespaceSet, selector, skipTerminating, key: `${nsKey}|${selector.key}|${skipTerminating ? 't' : ''}` };
}

export function inNamespaces(set: NamespaceSet, namespace: string): boolean {
  return set.all || set.names.has(namespace);
}

export function matcherMatches(matcher: PodMatcher, pod: MatchablePod): boolean {
  if (matcher.skipTerminating && pod.terminating) return false;
  return inNamespaces(matcher.namespaces, pod.namespace) && selectorMatches(matcher.selector, pod.labels);
}
