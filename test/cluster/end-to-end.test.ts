/**
 * The cluster connection against the simulator served over HTTPS (`runSimulator`, the same server
 * kubectl talks to): a journey traced through kubeconfig, server-side apply and list + watch has
 * the shape of the same journey traced in process.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { runSimulator, type RunningSimulator } from '../../src/server/simulator-process';
import { Simulator } from '../../src/sim/simulator';
import { JourneyTracer } from '../../src/core/journey/tracer';
import type { Journey } from '../../src/core/journey/types';
import { parseManifest } from '../../src/core/manifest';
import { connectTracer, runTrace } from '../../src/cli/trace';
import { runTraceCluster } from '../../src/cli/trace-cluster';
import { ClusterConnection } from '../../src/cluster/connection';
import { ClusterTraceSession } from '../../src/cluster/session';
import { assertStageOrder, objectsOf, podsOf, stageSet, treeShape } from './journey-shape';

const EXAMPLE = join(__dirname, '..', '..', 'examples', 'nginx-deployment.yaml');
/**
 * Stages less than this apart may swap over the API: within one second of their time stamps, the
 * tracer places a change by its arrival on the watch, and the simulator and the client share this
 * process's event loop (under CI load an arrival can lag by 150 ms). The lifecycle's long steps
 * (creation → image pulled → Ready: ~480 ms at speed 20) are still checked.
 */
const ORDER_TOLERANCE_MS = 300;

function inProcessJourney(manifestText: string): Journey {
  const simulator = new Simulator({ nodes: 3, seed: 1 });
  const tracer = new JourneyTracer();
  connectTracer(simulator, tracer);
  const object = parseManifest(manifestText).documents[0].object!;
  const applied = simulator.apply(object);
  const id = tracer.begin({ kind: 'Deployment', name: applied.object.metadata!.name! }, simulator.clock.now());
  assert.equal(simulator.runUntil(() => tracer.journey(id)!.done, 300_000), 'done');
  return tracer.journey(id)!;
}

async function capture(run: (out: PassThrough, err: PassThrough) => Promise<number>): Promise<{ code: number; out: string; err: string }> {
  const out = new PassThrough();
  const err = new PassThrough();
  let outText = '';
  let errText = '';
  out.on('data', (chunk: Buffer) => (outText += chunk.toString()));
  err.on('data', (chunk: Buffer) => (errText += chunk.toString()));
  const code = await run(out, err);
  return { code, out: outText, err: errText };
}

describe('cluster connection: end to end against the served simulator', function () {
  this.timeout(60_000);
  let dir: string;
  let served: RunningSimulator;
  let kubeconfigPath: string;

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'kj-cluster-'));
    kubeconfigPath = join(dir, 'kubeconfig');
    served = await runSimulator({ nodes: 3, seed: 1, speed: 20, kubeconfigPath });
  });

  after(async () => {
    await served?.stop();
  });

  it('traces nginx-deployment with the stages, order and components of the in-process run', async () => {
    const text = readFileSync(EXAMPLE, 'utf8');
    const reference = inProcessJourney(text);

    const connection = ClusterConnection.open({ kubeconfig: kubeconfigPath });
    const tracer = new JourneyTracer();
    const session = new ClusterTraceSession(connection, tracer);
    const object = parseManifest(text).documents[0].object!;
    try {
      assert.equal(await session.start([object]), true, 'every collection listed');
      assert.equal(session.watcher.internals, 'streaming', 'the simulator serves its internals stream');
      const [applied] = await session.apply([object]);
      assert.equal(applied.result.action, 'created');
      assert.ok(applied.journeyId);
      // Each collection has its own watch stream, so the Deployment's last change can arrive
      // before the last pod's: wait until every object reached its end state, as the fault tests do.
      const allComplete = (): boolean => {
        const current = tracer.journey(applied.journeyId!)!;
        return current.done && treeShape(current).every((line) => line.includes('[complete]'));
      };
      assert.equal(await session.waitFor(allComplete, 30_000), true, `the journey finished: ${treeShape(tracer.journey(applied.journeyId!)!).join('\n')}`);
      const journey = tracer.journey(applied.journeyId!)!;

      assert.equal(journey.status, 'complete');
      assert.deepEqual(treeShape(journey), treeShape(reference));
      const pods = podsOf(journey);
      assert.equal(pods.length, 3);
      for (const pod of pods) {
        assert.equal(pod.pod?.phase, 'Running');
        assert.equal(pod.pod?.readyContainers, 1);
        assert.equal(pod.status, 'complete');
      }
      const referenceObjects = objectsOf(reference);
      for (const object of objectsOf(journey)) {
        const twin = referenceObjects.find((r) => r.ref.kind === object.ref.kind && JSON.stringify(stageSet(r)) === JSON.stringify(stageSet(object)));
        assert.ok(twin, `${object.ref.kind} ${object.ref.name} has an in-process twin`);
        assertStageOrder(object.stages, twin.stages, ORDER_TOLERANCE_MS, `${object.ref.kind} ${object.ref.name}`);
      }
      // The simulator's internals reached the journey: etcd writes and the scheduler's verdicts.
      const scheduled = pods[0].stages.find((s) => s.kind === 'scheduled');
      assert.equal(scheduled?.evidence.internals?.scheduling?.result, 'Scheduled');
      assert.deepEqual(session.problems(), []);
      assert.ok(Math.abs(journey.tree!.stages.find((s) => s.kind === 'stored')!.time - journey.appliedAt) < 1000, 'apply and store agree on the clock');
    } finally {
      await session.stop();
    }
  });

  it('prints the timeline and exit code of `trace` through --kubeconfig', async () => {
    const manifest = join(dir, 'web.yaml');
    writeFileSync(manifest, readFileSync(EXAMPLE, 'utf8').replace(/nginx-deployment/g, 'web').replace('nginx:1.14.2', 'nginx:1.25.3'));
    const viaCluster = await capture((out, err) => runTraceCluster({ file: manifest, kubeconfig: kubeconfigPath, timeoutMs: 30_000, settleMs: 200, json: false, evidence: false, out, err }));
    const inProcess = await capture((out, err) => runTrace({ file: manifest, nodes: 3, seed: 1, timeoutMs: 300_000, json: false, evidence: false, out, err }));

    assert.equal(viaCluster.err, '');
    assert.equal(viaCluster.code, inProcess.code);
    assert.equal(viaCluster.code, 0);
    const headings = (text: string): string[] => text.split('\n').filter((line) => /^\S|^\s+(ReplicaSet|Pod) /.test(line)).map((line) => line.replace(/\d{4}-\d\d-\d\dT[\d:.]+Z/, '<time>').replace(/-[a-z0-9]{5}(?= )/, '-<pod>').replace(/on node-\d+/, 'on <node>'));
    const expected = headings(inProcess.out).filter((line) => !line.startsWith('  total') && !line.startsWith('  pods'));
    const actual = headings(viaCluster.out).filter((line) => !line.startsWith('  total') && !line.startsWith('  pods'));
    assert.ok(expected.length >= 8, expected.join('\n'));
    assert.deepEqual(actual.sort(), expected.sort());
    const stageColumns = (text: string): string[] => [...text.matchAll(/^\s+[+-]\d+\.\d{3}s\s+(\S+)\s+(\S+)/gm)].map((m) => `${m[1]} ${m[2]}`).sort();
    assert.ok(stageColumns(inProcess.out).length > 30);
    assert.deepEqual(stageColumns(viaCluster.out), stageColumns(inProcess.out));
    assert.match(viaCluster.out, /^deployment\.apps\/web created\n/);
    assert.match(viaCluster.out, /status {4}complete \(done\)/);
  });

  it('says which context it cannot use, and exits 1', async () => {
    const result = await capture((out, err) => runTraceCluster({ file: EXAMPLE, kubeconfig: kubeconfigPath, context: 'production', timeoutMs: 1000, json: false, evidence: false, out, err }));
    assert.equal(result.code, 1);
    assert.equal(result.err, 'kube-journey: context was not found for specified context: production\n');
  });
});
