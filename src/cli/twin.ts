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
import { readClusterForTwin, TwinReadError } from '../cluster/twin-read';
import { Simulator, type SimulatorOptions } from '../sim/simulator';
import { readManifest, runTrace } from './trace';
import { tracedPodBudget } from './trace-budget';
import { copyClusterForTwin, TWIN_SETTLE_MS, type TwinClusterModules } from './twin-copy';

export { copiedSummary, twinHeader, TWIN_SETTLE_MS } from './twin-copy';

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

/** The CLI bundles src/cluster: its modules are imported statically. */
const CLUSTER_MODULES: TwinClusterModules = { ClusterConnection, readClusterForTwin, KubeconfigError, TwinReadError, ClusterApiError, ClusterUnreachableError };

export async function runTwinTrace(options: TwinTraceOptions): Promise<number> {
  const manifest = readManifest(options.file, options.err);
  if (!manifest) return 1;
  const copied = await copyClusterForTwin(CLUSTER_MODULES, { context: options.context, kubeconfig: options.kubeconfig, env: options.env, connection: options.connection, manifestObjects: manifest.documents.map((document) => document.object!) });
  if ('failure' in copied) {
    options.err.write(`kube-journey: ${copied.failure}\n`);
    return 2;
  }
  const { context, copy, header } = copied;
  // With --json, stdout holds records only: the header goes to stderr (and the summary record's `twin` field).
  if (options.json) for (const text of header) options.err.write(`kube-journey: ${text}\n`);
  else options.out.write(`${header.join('\n')}\n`);
  const twin = { context, server: copied.server, copied: copy.counts, notCopied: copy.notCopied, readMs: copy.readMs, requests: copy.requests, seedMs: 0 };
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
