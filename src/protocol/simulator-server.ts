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
  /** Set when the simulator is a twin of a cluster (the extension's "Twin of <context>" target). */
  twin?: TwinSummary;
}

/** What a twin holds of the cluster it copied (docs/twin.md). */
export interface TwinSummary {
  /** The kubeconfig context copied, and its API server. */
  context: string;
  server: string;
  /** `twin of ctx: 5 nodes, 37 pods, …`, then one `Not copied: …` line per collection left out. */
  header: string[];
  /** Objects copied per kind. */
  copied: Record<string, number>;
  readMs: number;
}

/**
 * Printed instead of the ready line when the simulator cannot start for a reason the user can act
 * on (a twin's context unreachable, its credentials refused): one line, then exit code 3.
 */
export interface ServerFailureLine {
  failure: string;
}

/** The exit code that goes with a ServerFailureLine. */
export const SERVER_FAILURE_EXIT_CODE = 3;

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
