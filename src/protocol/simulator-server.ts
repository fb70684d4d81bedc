/**
 * What the simulator's server process (src/server/main.ts, dist/simulator-server.js) tells the
 * extension host that started it: one JSON line on stdout once its API answers, and the name of
 * the context in the kubeconfig it writes.
 */
import type { FitSuggestions } from '../core/journey/fit-suggestions';

export interface ServerReadyLine {
  url: string;
  token: string;
  caPem: string;
  kubeconfigPath?: string;
}

export const SIMULATOR_CONTEXT = 'kube-journey-simulator';

/** The simulator's internals API group, beside the Kubernetes API it serves (not part of Kubernetes). */
export const INTERNALS_API = '/apis/internals.kube-journey.dev/v1alpha1';

/** `GET` path of a pod's fit suggestions. */
export function fitSuggestionsPath(namespace: string, name: string): string {
  return `${INTERNALS_API}/namespaces/${encodeURIComponent(namespace)}/pods/${encodeURIComponent(name)}/fits`;
}

/**
 * What the simulator answers on `fitSuggestionsPath`: the smallest changes that would make the pod
 * fit (docs/fit-suggestions.md), each with the manifest field path and the edits a Quick Fix makes.
 * A pod already bound to a node names it and has nothing to suggest.
 */
export interface FitSuggestionsResponse {
  kind: 'FitSuggestions';
  apiVersion: 'internals.kube-journey.dev/v1alpha1';
  pod: { namespace: string; name: string; uid: string };
  /** The node the pod is bound to; then `fits.suggestions` is empty. */
  node?: string;
  fits: FitSuggestions;
}
