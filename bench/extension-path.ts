/**
 * The extension's Apply and Trace without VS Code, standing in for the extension host:
 * `node --expose-gc dist/bench-extension-path.js <manifest> <nodes> <pods> <timeout s>` starts the simulator
 * child as the extension does (dist/simulator-server.js, the settings' speed and pod budget),
 * connects through dist/cluster.js, applies the file's objects one by one with server-side apply
 * into the extension's TraceSession, and waits until its journeys count every pod ready. Changed
 * journeys are rebuilt at most every 500 ms, as the Journeys tree and the Apply command do.
 * Prints one JSON line; bench/user-paths.ts bundles this file next to dist/cluster.js.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join, resolve } from 'node:path';
import { TRACEABLE_KINDS, type TraceableKind } from '../src/common/traceable-kinds';
import { planApply, planObjects } from '../src/extension/headless/apply-plan';
import { Batcher } from '../src/extension/headless/batcher';
import { clusterSource } from '../src/extension/headless/cluster-source';
import { SETTING_DEFAULTS } from '../src/extension/headless/settings';
import { SimulatorChild } from '../src/extension/headless/simulator-child';
import { TraceSession } from '../src/extension/headless/trace-session';
import { SIMULATOR_CONTEXT } from '../src/protocol/simulator-server';

export interface ExtensionPathResult {
  outcome: 'all ready' | 'timed out' | 'failed';
  error?: string;
  simulatorPid?: number;
  applied: number;
  applyFailures: number;
  journeys: number;
  ready: number;
  desired: number;
  /** From the first apply to every pod counted ready. */
  applyToReadyMs?: number;
  /** The host's heap when every pod counted ready, as it was, and after a full collection. */
  heapUsedMiB: number;
  heapLiveMiB?: number;
}

async function main(): Promise<void> {
  const [manifestPath, nodesArg, podsArg, timeoutArg] = process.argv.slice(2);
  const expectedPods = Number(podsArg);
  const scratch = mkdtempSync(join(tmpdir(), 'kube-journey-bench-host-'));
  const session = new TraceSession();
  const result: ExtensionPathResult = { outcome: 'failed', applied: 0, applyFailures: 0, journeys: 0, ready: 0, desired: 0, heapUsedMiB: 0 };
  let simulator: SimulatorChild | undefined;
  try {
    simulator = await SimulatorChild.start(
      { command: process.execPath, args: [resolve(__dirname, 'simulator-server.js')] },
      { nodes: Number(nodesArg), speed: SETTING_DEFAULTS['simulator.speed'], maxPods: Math.max(SETTING_DEFAULTS['simulator.maxPods'], expectedPods), zones: SETTING_DEFAULTS['simulator.zones'], kubeconfigPath: join(scratch, 'kubeconfig') },
    );
    result.simulatorPid = simulator.pid;
    const connection = await clusterSource.connect({ kubeconfig: simulator.options.kubeconfigPath, context: SIMULATOR_CONTEXT, sink: session });
    await connection.probe();

    const counts = new Map<string, { ready: number; desired: number }>();
    let allReady: () => void = () => undefined;
    const readyPromise = new Promise<void>((done) => (allReady = done));
    const check = (): void => {
      let ready = 0;
      let desired = 0;
      for (const c of counts.values()) {
        ready += c.ready;
        desired += c.desired;
      }
      result.ready = ready;
      result.desired = desired;
      if (ready >= expectedPods && session.journeyIds().every((id) => session.tracer.progress(id)?.done)) allReady();
    };
    const refresh = new Batcher<string>(500, (ids) => {
      for (const id of ids) {
        const journey = session.journey(id);
        if (journey) counts.set(id, { ready: journey.counts.ready, desired: journey.counts.desired });
      }
      check();
    });
    session.onDidChangeJourney((id) => refresh.add(id));

    const file = basename(manifestPath);
    const objects = planObjects(planApply(readFileSync(manifestPath, 'utf8')));
    for (const object of objects) connection.watchNamespace(object.metadata?.namespace ?? connection.namespace);
    const applyStart = performance.now();
    const release = connection.hold();
    try {
      for (const object of objects) {
        const [outcome] = await connection.apply([object], SETTING_DEFAULTS.fieldManager, () => undefined, file);
        result.applied++;
        if (outcome.failure) result.applyFailures++;
        else if (TRACEABLE_KINDS.has(outcome.kind)) session.begin({ kind: outcome.kind as TraceableKind, namespace: outcome.namespace, name: outcome.name }, outcome.requestedAt);
      }
    } finally {
      release();
    }
    let timer: NodeJS.Timeout | undefined;
    const timedOut = new Promise<'timed out'>((done) => (timer = setTimeout(() => done('timed out'), Number(timeoutArg) * 1000)));
    const outcome = await Promise.race([readyPromise.then(() => 'all ready' as const), timedOut]);
    clearTimeout(timer);
    result.outcome = outcome;
    if (outcome === 'all ready') result.applyToReadyMs = Math.round(performance.now() - applyStart);
    result.journeys = session.journeyIds().length;
    result.heapUsedMiB = Math.round(process.memoryUsage().heapUsed / 2 ** 20);
    // What the journeys keep, garbage aside (run with --expose-gc).
    const collect = (globalThis as { gc?: () => void }).gc;
    if (collect) {
      collect();
      result.heapLiveMiB = Math.round(process.memoryUsage().heapUsed / 2 ** 20);
    }
    refresh.dispose();
    connection.dispose();
  } catch (error) {
    result.error = error instanceof Error ? error.message : String(error);
  } finally {
    // Closing its stdin stops the simulator, which then writes its own usage record; closing
    // 10,000 pods' worth of watch connections can take longer than the extension's 5 s grace.
    await simulator?.stop(60_000);
    rmSync(scratch, { recursive: true, force: true });
  }
  process.stdout.write(`${JSON.stringify(result)}\n`);
  process.exit(result.outcome === 'all ready' ? 0 : 1);
}

void main();
