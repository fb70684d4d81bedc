/**
 * What the extension needs from a cluster connection, and nothing more: list the kubeconfig's
 * contexts, connect to one, apply objects with a result per object, and feed the trace session
 * from list/watch. src/cluster implements it (adapted in cluster-source.ts, loaded only when a
 * target is first used); tests hand in a fake.
 */
import type { KubeObject } from '../../core/k8s';
import type { JourneySink } from '../../core/journey/types';
import type { ContextInfo } from '../../cluster/kubeconfig';
import type { IDisposable } from './disposable';
import type { FitSuggestionsResponse } from '../../protocol/simulator-server';

/** A kubeconfig context as the target picker shows it: the cluster's description without the credential kind. */
export type ContextSummary = Omit<ContextInfo, 'credential'>;

export interface ApplyCause {
  /** The field as the server named it. */
  field?: string;
  /** The field in `spec.containers[0].image` form, for placing a diagnostic. */
  path?: string;
  message?: string;
}

export interface ApplyFailureInfo {
  message: string;
  /** The API server refused the object (false: never sent, or no answer). */
  fromServer: boolean;
  code?: number;
  reason?: string;
  causes: ApplyCause[];
}

/** One object's outcome, in the order the objects were given. */
export interface ApplyOutcome {
  /** `deployment.apps/web` */
  display: string;
  kind: string;
  name: string;
  namespace?: string;
  /** When the request was sent (ms): the journey's `appliedAt`. */
  requestedAt: number;
  action?: 'created' | 'configured' | 'unchanged';
  failure?: ApplyFailureInfo;
}

/** What the watch feeds (TraceSession has this shape). */
export interface ConnectOptions {
  /** Kubeconfig file; undefined reads KUBECONFIG, else ~/.kube/config, as kubectl does. */
  kubeconfig?: string;
  /** Context name; undefined uses the kubeconfig's current context. */
  context?: string;
  sink: JourneySink;
}

export interface TargetConnection extends IDisposable {
  readonly context: string;
  readonly server: string;
  /** The namespace of objects that name none. */
  readonly namespace: string;
  /** Checks that the server answers (GET /version); throws with the reason when it does not. */
  probe(): Promise<void>;
  /** Server-side apply of each object in order; a failure does not stop the ones after it. */
  /** `source` is the manifest's file name, as kubectl names it in a "resource mapping not found" error. */
  apply(objects: readonly KubeObject[], fieldManager: string, onResult: (outcome: ApplyOutcome, index: number) => void, source?: string): Promise<ApplyOutcome[]>;
  /** Also watch this namespace. */
  watchNamespace(namespace: string): void;
  /**
   * Until the returned function is called, what each apply brings on the watch waits until the
   * journey can begin (call `begin` as soon as the apply resolves): journeys begin before their first
   * event. What arrived before an apply is delivered meanwhile.
   */
  hold(): () => void;
  /** Why some collections cannot be watched, as sentences. */
  problems(): string[];
  onProblemsChanged(listener: (problems: string[]) => void): IDisposable;
  /**
   * The simulator's fit suggestions for a pod (`fitSuggestionsPath`), undefined where the server
   * has no such route (a real cluster) or does not know the pod.
   */
  fitSuggestions?(namespace: string, name: string): Promise<FitSuggestionsResponse | undefined>;
}

export interface JourneySource {
  listContexts(kubeconfig?: string): Promise<ContextSummary[]>;
  connect(options: ConnectOptions): Promise<TargetConnection>;
}
