/**
 * Copying a cluster for its twin, shared by `trace --twin` (src/cli/twin.ts, in process) and the
 * extension's "Twin of <context>" target (src/cli/simulator-server.ts, the simulator child): open
 * the kubeconfig context, read it with GET requests only (src/cluster/twin-read.ts), and say what
 * was copied. The cluster code comes in as `modules` so that the simulator child loads it from
 * dist/cluster.js at run time instead of bundling @kubernetes/client-node a second time.
 */
import type { KubeObject } from '../core/k8s';
import type { ClusterConnection } from '../cluster/connection';
import type { ClusterCopy, TwinReadOptions } from '../cluster/twin-read';

/**
 * Virtual time the twin runs before the apply. Its controllers see the copied objects as an
 * informer's first list and may act on them (a rollout the cluster was in the middle of goes on);
 * the tracer counts what happened more than 2 s before an apply as history (tracer.ts
 * PREEXISTING_MARGIN_MS), so that none of it shows as a stage of the journey.
 */
export const TWIN_SETTLE_MS = 3_000;

/** What a twin needs from src/cluster (src/cluster/for-extension.ts exports all of it). */
export interface TwinClusterModules {
  ClusterConnection: { open(source: { context?: string; kubeconfig?: string; env?: Record<string, string | undefined> }): ClusterConnection };
  readClusterForTwin(connection: ClusterConnection, options?: TwinReadOptions): Promise<ClusterCopy>;
  KubeconfigError: abstract new (...args: never[]) => Error;
  TwinReadError: abstract new (...args: never[]) => Error;
  ClusterApiError: abstract new (...args: never[]) => Error;
  ClusterUnreachableError: abstract new (...args: never[]) => Error;
}

export interface TwinCopyRequest {
  /** The kubeconfig context to copy (default: the current context). */
  context?: string;
  kubeconfig?: string;
  /** Environment for KUBECONFIG and HOME (default process.env). */
  env?: Record<string, string | undefined>;
  /** Use this connection instead of opening one from the kubeconfig. */
  connection?: ClusterConnection;
  /** The manifest's objects: those that exist already are copied, so that applying them updates them. */
  manifestObjects?: readonly KubeObject[];
}

/** A cluster copied for its twin: the copy, where it came from, and the header lines saying what it holds. */
export interface TwinCopy {
  context: string;
  server: string;
  copy: ClusterCopy;
  header: string[];
}

/** The twin cannot be made: `message` is one line for the user (without the program's name). */
export interface TwinCopyFailure {
  failure: string;
}

const WORKLOAD_KINDS = ['Deployment', 'ReplicaSet', 'StatefulSet', 'DaemonSet', 'Job', 'CronJob', 'ReplicationController'];

function plural(count: number, one: string, many = `${one}s`): string {
  return `${count.toLocaleString('en')} ${count === 1 ? one : many}`;
}

/** `5 nodes, 37 pods, 6 workloads, 3 namespaces, …`: what the twin holds of the cluster. */
export function copiedSummary(counts: Record<string, number>): string {
  const n = (kind: string): number => counts[kind] ?? 0;
  const workloads = WORKLOAD_KINDS.reduce((sum, kind) => sum + n(kind), 0);
  const parts = [plural(n('Node'), 'node'), plural(n('Pod'), 'pod'), plural(workloads, 'workload'), plural(n('Namespace'), 'namespace')];
  const optional: [string, string, string?][] = [
    ['PersistentVolume', 'persistent volume'],
    ['PersistentVolumeClaim', 'claim'],
    ['StorageClass', 'storage class', 'storage classes'],
    ['PriorityClass', 'priority class', 'priority classes'],
    ['ResourceQuota', 'resource quota'],
    ['LimitRange', 'limit range'],
    ['ConfigMap', 'config map'],
    ['Secret', 'secret'],
  ];
  for (const [kind, one, many] of optional) if (n(kind) > 0) parts.push(plural(n(kind), one, many));
  return parts.join(', ');
}

/** The header lines: what was copied, then one line per collection that was not. */
export function twinHeader(context: string, copy: Pick<ClusterCopy, 'counts' | 'notCopied' | 'readMs' | 'requests'>): string[] {
  const seconds = (copy.readMs / 1000).toFixed(1);
  return [
    `twin of ${context}: ${copiedSummary(copy.counts)} (read in ${seconds}s with ${plural(copy.requests, 'GET request')})`,
    ...copy.notCopied.map((entry) => `Not copied: ${entry.resource} (${entry.reason}): ${entry.consequence}`),
  ];
}

/**
 * Opens the context and reads it for a twin. A broken kubeconfig, a refused credential, an
 * unreachable server or unreadable nodes leave no twin: a failure line instead of an exception.
 */
export async function copyClusterForTwin(modules: TwinClusterModules, request: TwinCopyRequest): Promise<TwinCopy | TwinCopyFailure> {
  let connection: ClusterConnection;
  try {
    connection = request.connection ?? modules.ClusterConnection.open({ context: request.context, kubeconfig: request.kubeconfig, env: request.env });
  } catch (error) {
    if (!(error instanceof modules.KubeconfigError)) throw error;
    return { failure: error.message };
  }
  try {
    const copy = await modules.readClusterForTwin(connection, { manifestObjects: request.manifestObjects });
    const context = connection.context.name;
    return { context, server: connection.server, copy, header: twinHeader(context, copy) };
  } catch (error) {
    // A connection lost or a request refused part way through leaves no twin either.
    const known = error instanceof modules.TwinReadError || error instanceof modules.ClusterApiError || error instanceof modules.ClusterUnreachableError;
    if (!known) throw error;
    const where = error instanceof modules.TwinReadError ? '' : `context "${connection.context.name}" (${connection.server}): `;
    return { failure: `cannot make a twin: ${where}${error.message}` };
  }
}
