/**
 * `node --import tsx --expose-gc bench/extension-host.ts [--deployments 100] [--replicas 100] [--nodes 1000] [--no-internals]`:
 * the extension host's side of an Apply and Trace on the built-in simulator, in plain Node: the
 * simulator child process (dist/simulator-server.js, run `npm run build` first), the cluster
 * connection and the trace session as the extension wires them, the Journeys tree refreshed as its
 * provider refreshes it (rows of expanded nodes re-read after each batch of changes), and the
 * CodeLenses recomputed as their refresh asks. Prints this process's heap and resident memory
 * (peak while the journey runs, and after a GC once every pod is ready) and the event loop's delay
 * (p50, p99, max): how long the extension host could not answer VS Code. Then what each part held
 * (the heap freed by forgetting it). `--no-internals` drops the simulator's internals steps before
 * the tracer (they are still read and parsed), to show what they cost.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { stringify } from 'yaml';
import { documentLenses } from '../src/core/explain/lens';
import { parseManifest } from '../src/core/manifest';
import type { TraceableKind } from '../src/core/journey/types';
import { planApply, planObjects, outcomeEntries } from '../src/extension/headless/apply-plan';
import { Batcher } from '../src/extension/headless/batcher';
import { clusterSource } from '../src/extension/headless/cluster-source';
import { JourneyTreeModel, type JourneyTreeNode } from '../src/extension/headless/journey-tree-model';
import { SimulatorChild } from '../src/extension/headless/simulator-child';
import { TraceSession } from '../src/extension/headless/trace-session';
import { SIMULATOR_CONTEXT } from '../src/protocol/simulator-server';

const { values } = parseArgs({ options: { deployments: { type: 'string', default: '100' }, replicas: { type: 'string', default: '100' }, nodes: { type: 'string', default: '1000' }, 'timeout-s': { type: 'string', default: '600' }, 'no-internals': { type: 'boolean', default: false } } });
const deployments = Number(values.deployments);
const replicas = Number(values.replicas);
const nodes = Number(values.nodes);

function manifestText(): string {
  const documents = Array.from({ length: deployments }, (_, i) => ({
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: `app-${i}` },
    spec: {
      replicas,
      selector: { matchLabels: { app: `app-${i}` } },
      template: { metadata: { labels: { app: `app-${i}` } }, spec: { containers: [{ name: 'app', image: 'nginx:1.25', resources: { requests: { cpu: '10m', memory: '16Mi' } } }] } },
    },
  }));
  return documents.map((document) => stringify(document)).join('---\n');
}

const MiB = 2 ** 20;
const TREE_REFRESH_MS = 250;
const LENS_REFRESH_MS = 500;

/** What VS Code holds of the tree: the signature of each row it rendered, rows of expanded nodes only. */
class RenderedTree {
  readonly rendered = new Map<string, string>();
  rows = 0;

  constructor(private readonly model: JourneyTreeModel) {}

  render(node: JourneyTreeNode): void {
    this.rendered.set(node.id, this.model.signature(node));
    this.rows++;
    if (this.model.item(node)?.collapsible !== 'expanded') return;
    for (const child of this.model.children(node)) this.render(child);
  }

  /** The provider's flush: compare the signature of every rendered node of the changed journeys, re-render the changed ones. */
  flush(journeyIds: ReadonlySet<string>): void {
    for (const journeyId of journeyIds) {
      for (const node of this.model.nodesOfJourney(journeyId)) {
        const before = this.rendered.get(node.id);
        if (before !== undefined && this.model.signature(node) !== before) this.render(node);
      }
    }
  }
}

async function main(): Promise<void> {
  const folder = mkdtempSync(join(tmpdir(), 'kj-host-'));
  const text = manifestText();
  const simulator = await SimulatorChild.start({ command: process.execPath, args: ['dist/simulator-server.js'] }, { nodes, speed: 1, maxPods: Math.max(deployments * replicas * 2, 10_000), kubeconfigPath: join(folder, 'kubeconfig') });
  const session = new TraceSession();
  const model = new JourneyTreeModel(session);
  const tree = new RenderedTree(model);
  const treeBatcher = new Batcher<string>(TREE_REFRESH_MS, (ids) => tree.flush(ids));
  const parsed = parseManifest(text);
  let lensRuns = 0;
  const lensBatcher = new Batcher<string>(LENS_REFRESH_MS, () => {
    documentLenses(parsed, session.lookup);
    lensRuns++;
  });
  session.onDidChangeJourney((id) => {
    treeBatcher.add(id);
    lensBatcher.add(id);
  });

  global.gc?.();
  const heapBefore = process.memoryUsage().heapUsed;
  const delay = monitorEventLoopDelay({ resolution: 10 });
  let peakHeap = 0;
  let peakRss = 0;
  const sample = (): void => {
    const usage = process.memoryUsage();
    peakHeap = Math.max(peakHeap, usage.heapUsed);
    peakRss = Math.max(peakRss, usage.rss);
  };
  const sampler = setInterval(sample, 200);
  delay.enable();
  const started = performance.now();

  const sink = values['no-internals'] ? { ingest: (event: Parameters<TraceSession['ingest']>[0], at: number) => session.ingest(event, at), ingestInternal: () => undefined } : session;
  const connection = await clusterSource.connect({ kubeconfig: join(folder, 'kubeconfig'), context: SIMULATOR_CONTEXT, sink });
  const plan = planApply(text);
  const objects = planObjects(plan);
  const journeyIds: (string | undefined)[] = [];
  const outcomes = [];
  const release = connection.hold();
  try {
    for (const [index, object] of objects.entries()) {
      const [outcome] = await connection.apply([object], 'kube-journey', () => undefined, 'scale.yaml');
      outcomes.push(outcome);
      if (!outcome.failure) journeyIds[index] = session.begin({ kind: outcome.kind as TraceableKind, namespace: outcome.namespace, name: outcome.name }, outcome.requestedAt);
    }
  } finally {
    release();
  }
  const entries = outcomeEntries(plan, outcomes).map((entry, i) => ({ ...entry, journeyId: journeyIds[i] }));
  session.recordManifest({ key: 'file:///bench/scale.yaml', label: 'scale.yaml', target: 'Simulator', appliedAt: outcomes[0]?.requestedAt ?? Date.now(), entries });
  const [manifestNode] = model.children();
  tree.render(manifestNode);
  const appliedMs = performance.now() - started;

  const ids = journeyIds.filter((id): id is string => id !== undefined);
  const deadline = started + Number(values['timeout-s']) * 1000;
  await new Promise<void>((resolve, reject) => {
    const check = setInterval(() => {
      if (ids.every((id) => session.tracer.progress(id)?.done)) {
        clearInterval(check);
        resolve();
      } else if (performance.now() > deadline) {
        clearInterval(check);
        reject(new Error(`not every journey finished within ${values['timeout-s']} s`));
      }
    }, 100);
  });
  const doneMs = performance.now() - started;
  treeBatcher.flushNow();
  sample();
  delay.disable();
  clearInterval(sampler);
  global.gc?.();
  const settledHeap = process.memoryUsage().heapUsed;

  const ms = (ns: number): number => Math.round(ns / 1e6);
  const report = {
    pods: deployments * replicas,
    nodes,
    appliedMs: Math.round(appliedMs),
    allReadyMs: Math.round(doneMs),
    treeRowsRendered: tree.rows,
    rowsUnderManifest: model.children(manifestNode).length,
    lensRuns,
    heapBeforeMiB: Math.round(heapBefore / MiB),
    peakHeapMiB: Math.round(peakHeap / MiB),
    settledHeapMiB: Math.round(settledHeap / MiB),
    peakRssMiB: Math.round(peakRss / MiB),
    eventLoopDelayMs: { p50: ms(delay.percentile(50)), p99: ms(delay.percentile(99)), max: ms(delay.max) },
    gcExposed: typeof global.gc === 'function',
    heldByMiB: {} as Record<string, number>,
  };
  // What each part held: the heap freed by forgetting it.
  const freed = (part: string, forget: () => void): void => {
    const before = process.memoryUsage().heapUsed;
    forget();
    global.gc?.();
    report.heldByMiB[part] = Math.round((before - process.memoryUsage().heapUsed) / MiB);
  };
  freed('objectHistory', () => session.history.clear());
  freed('tree', () => {
    model.reset();
    tree.rendered.clear();
  });
  freed('tracer', () => session.clear());
  freed('connection', () => connection.dispose());
  await new Promise((resolve) => setTimeout(resolve, 500));
  freed('connectionAfterStop', () => undefined);
  report.heldByMiB.remaining = Math.round(process.memoryUsage().heapUsed / MiB);
  console.log(JSON.stringify(report));
  await simulator.stop();
  rmSync(folder, { recursive: true, force: true });
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : String(error));
  process.exit(1);
});
