/**
 * `kube-journey trace -f <file> --twin CONTEXT [--kubeconfig FILE]`: copy a cluster's state into a
 * fresh in-process simulator (its twin) with GET requests only, then trace the manifest there as
 * `trace` does. The cluster is never written to. What is copied and what is not: docs/twin.md.
 */
import type { Writable } from 'node:stream';
import type { KubeObject } from '../core/k8s';
import { ClusterConnection } from '../cluster/connection';
import { ClusterApiError, ClusterUnreachableError } from '../cluster/errors';
import { KubeconfigError } from '../cluster/kubeconfig';
import { readClusterForTwin, TwinReadError, type ClusterCopy } from '../cluster/twin-read';
import { Simulator, type SimulatorOptions } from '../sim/simulator';
import { readManifest, runTrace } from './trace';
import { tracedPodBudget } from './trace-budget';

export interface TwinTraceOptions {
  file: string;
  /** The kubeconfig context to copy (default: the current context). */
  context?: string;
  kubeconfig?: string;
  /** Environment for KUBECONFIG and HOME (default process.env). */
  env?: Record<string, string | undefined>;
  seed?: number;
  /** Virtual seconds per wall second on the twin; undefined runs as fast as possible. */
  speed?: number;
  timeoutMs: number;
  json: boolean;
  evidence: boolean;
  width?: number;
  out: Writable;
  err: Writable;
  /** Use this connection instead of opening one from the kubeconfig. */
  connection?: ClusterConnection;
}

/**
 * Virtual time the twin runs before the apply. Its controllers see the copied objects as an
 * informer's first list and may act on them (a rollout the cluster was in the middle of goes on);
 * the tracer counts what happened more than 2 s before an apply as history (tracer.ts
 * PREEXISTING_MARGIN_MS), so that none of it shows as a stage of the journey.
 */
export const TWIN_SETTLE_MS = 3_000;

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
export function twinHeader(context: string, copy: ClusterCopy): string[] {
  const seconds = (copy.readMs / 1000).toFixed(1);
  return [
    `twin of ${context}: ${copiedSummary(copy.counts)} (read in ${seconds}s with ${plural(copy.requests, 'GET request')})`,
    ...copy.notCopied.map((entry) => `Not copied: ${entry.resource} (${entry.reason}): ${entry.consequence}`),
  ];
}

export async function runTwinTrace(options: TwinTraceOptions): Promise<number> {
  const manifest = readManifest(options.file, options.err);
  if (!manifest) return 1;
  let connection: ClusterConnection;
  try {
    connection = options.connection ?? ClusterConnection.open({ context: options.context, kubeconfig: options.kubeconfig, env: options.env });
  } catch (error) {
    if (!(error instanceof KubeconfigError)) throw error;
    options.err.write(`kube-journey: ${error.message}\n`);
    return 2;
  }
  let copy: ClusterCopy;
  try {
    copy = await readClusterForTwin(connection, { manifestObjects: manifest.documents.map((document) => document.object!) });
  } catch (error) {
    // A connection lost or a request refused part way through leaves no twin either.
    if (!(error instanceof TwinReadError || error instanceof ClusterApiError || error instanceof ClusterUnreachableError)) throw error;
    options.err.write(`kube-journey: cannot make a twin: ${error instanceof TwinReadError ? '' : `context "${connection.context.name}" (${connection.server}): `}${error.message}\n`);
    return 2;
  }

  const context = connection.context.name;
  const header = twinHeader(context, copy);
  // With --json, stdout holds records only: the header goes to stderr (and the summary record's `twin` field).
  if (options.json) for (const text of header) options.err.write(`kube-journey: ${text}\n`);
  else options.out.write(`${header.join('\n')}\n`);
  const twin = { context, server: connection.server, copied: copy.counts, notCopied: copy.notCopied, readMs: copy.readMs, requests: copy.requests, seedMs: 0 };
  const nodes = copy.counts.Node ?? 0;
  const pods = copy.counts.Pod ?? 0;
  return runTrace({
    file: options.file,
    manifest,
    nodes,
    seed: options.seed ?? 1,
    speed: options.speed,
    maxPods: pods + tracedPodBudget(nodes),
    timeoutMs: options.timeoutMs,
    json: options.json,
    evidence: options.evidence,
    width: options.width,
    out: options.out,
    err: options.err,
    extra: { twin },
    makeSimulator: (simulatorOptions) => {
      const started = Date.now();
      const simulator = twinSimulator(simulatorOptions, copy.objects);
      twin.seedMs = Date.now() - started;
      // Let go of the copy: the store holds the objects now.
      copy.objects = [];
      return simulator;
    },
  });
}

/** A simulator holding `objects` with their state, settled so the trace starts from a quiet cluster. */
export function twinSimulator(options: SimulatorOptions, objects: readonly KubeObject[]): Simulator {
  const simulator = new Simulator({ ...options, restore: objects, startTime: Date.now() });
  simulator.runUntil(() => false, TWIN_SETTLE_MS);
  return simulator;
}
